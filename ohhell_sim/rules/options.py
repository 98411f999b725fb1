"""Rules from text: ``--rule NAME=VALUE``, ``--schedule 10,9,8``, ``--preset NAME``.

The command line (and anything else that reads rules as text) parses here, with
the parameter table's parsers, so that each parameter takes from text exactly the
values it takes from Python, and a bad one gets the same message.
"""

from __future__ import annotations

from collections.abc import Iterable

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules.model import Rules
from ohhell_sim.rules.params import PARAMS_BY_NAME, get_param


def parse_rule_assignment(text: str) -> tuple[str, object]:
    """Parse ``NAME=VALUE`` into a :class:`Rules` keyword and its checked value.

    ``NAME`` may use dashes for underscores; ``VALUE`` is read by the parameter's
    type: ``true``/``false`` (or yes/no, on/off, 1/0), an integer, a name, or
    comma-separated hand sizes for ``schedule``.

    Parameters
    ----------
    text : str
        The assignment, e.g. ``"max_cards=7"``.

    Returns
    -------
    tuple
        ``(name, value)``, e.g. ``("max_cards", 7)``.

    Raises
    ------
    InvalidArgumentError
        Without ``=``, for an unknown name (listing the parameters), or for a
        value the parameter does not allow (naming it, the value and what is
        allowed).

    Examples
    --------
    >>> parse_rule_assignment("max_cards=7")
    ('max_cards', 7)
    >>> parse_rule_assignment("hook=false")
    ('hook', False)
    """
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep:
        raise InvalidArgumentError(
            f"a rule must be NAME=VALUE with NAME one of: {', '.join(PARAMS_BY_NAME)}; got {text!r}"
        )
    return name, get_param(name).parse(raw)


def rules_from_options(
    preset: str = "canonical",
    players: int | None = None,
    schedule: str | None = None,
    assignments: Iterable[str] = (),
) -> Rules:
    """Rules of ``preset`` with the options of ``ohhell simulate`` applied, in order.

    Parameters
    ----------
    preset : str
        Name of a profile of ``Rules.preset``.
    players : int, optional
        Number of players (``--players``).
    schedule : str, optional
        Comma-separated hand sizes (``--schedule``); an empty string is an error,
        not the default schedule.
    assignments : iterable of str
        ``NAME=VALUE`` texts (``--rule``); one overrides ``players`` and
        ``schedule``, and two that give one rule different values are refused.

    Raises
    ------
    InvalidArgumentError
        For the first bad option, naming it, its value and what is allowed.
    """
    overrides: dict[str, object] = {}
    if players is not None:
        overrides["players"] = players
    if schedule is not None:
        overrides["schedule"] = get_param("schedule").parse(schedule)
    assigned: dict[str, object] = {}
    for text in assignments:
        name, value = parse_rule_assignment(text)
        if name in assigned and assigned[name] != value:
            raise InvalidArgumentError(
                f"--rule {name} is given twice, {assigned[name]!r} and {value!r}; give it once"
            )
        assigned[name] = value
    return Rules.preset(preset, **(overrides | assigned))
