"""The exception of a bad argument: the bottom of the package, importing nothing.

It sits below :mod:`ohhell_sim.cards` (which raises it for a bad card) and
:mod:`ohhell_sim.errors` (which re-exports it beside the engine's errors and
prints cards in their messages), so that the two point one way.
"""


class InvalidArgumentError(ValueError, TypeError):
    """A bad argument or option; the message names it, its value and what is allowed.

    It is both a ``ValueError`` and a ``TypeError`` so that callers may catch
    either, whichever way the argument was wrong.
    """
