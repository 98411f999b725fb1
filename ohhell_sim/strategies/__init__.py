"""Built-in strategies, one module per family.

Each module defines ``bid`` and ``play`` (``@njit``) and a ``STRATEGY`` record
(:class:`ohhell_sim.strategy.Strategy`, with its metadata: parameters,
stochastic, cost class, the rule variants it cannot play); ``BUILTINS`` lists them
in dispatch-id order (the id is the position, and never changes: new strategies
are appended).  Shared code lives in the private modules ``_common`` (view
helpers), ``_counting`` (card-counting play), ``_playout`` (playouts and
sampling for the Monte Carlo strategies) and ``_sequential`` (their stopping
rule); generated tables live in ``tables/``.

Importing this package registers the built-ins; ``ohhell_sim``'s ``__init__`` does
so, so they are registered whenever the package is in use.
"""

from __future__ import annotations

from ohhell_sim.strategies import (
    adaptive_pimc,
    bayes_pimc,
    card_counter,
    distilled,
    distilled_search,
    expected_tricks,
    guided_pimc,
    learned,
    mc_bidder,
    pimc,
    random_play,
    simple,
    sure_tricks,
    zero,
)

BUILTINS = (
    random_play.STRATEGY,
    simple.STRATEGY,
    sure_tricks.STRATEGY,
    expected_tricks.STRATEGY,
    card_counter.STRATEGY,
    zero.STRATEGY,
    mc_bidder.STRATEGY,
    pimc.STRATEGY,
    learned.STRATEGY,
    bayes_pimc.STRATEGY,
    adaptive_pimc.STRATEGY,
    distilled.STRATEGY,
    guided_pimc.STRATEGY,
    distilled_search.STRATEGY,
)
