"""Built-in strategies, one module per family.

Each module defines ``bid`` and ``play`` (``@njit``) and a ``STRATEGY`` record;
``BUILTINS`` lists them in dispatch-id order (the id is the position, and never
changes: new strategies are appended).  Shared code lives in the private modules
``_common`` (view helpers), ``_counting`` (card-counting play) and ``_playout``
(playouts and sampling for the Monte Carlo strategies); generated tables live in
``tables/``.

A strategy that cannot play some rules well says so in a module-level
``check_rules(rules)``; :func:`check_seating_rules` runs those checks for a
seating, before anything is compiled or played.
"""

from __future__ import annotations

from collections.abc import Iterable

from ohhell_sim.rules import Rules
from ohhell_sim.strategy import Strategy, _register_builtin
from strategies import (
    card_counter,
    expected_tricks,
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
)

#: Rule checks of the built-ins that refuse some variants, by strategy name.
RULE_CHECKS = {
    mc_bidder.STRATEGY.name: mc_bidder.check_rules,
    pimc.STRATEGY.name: pimc.check_rules,
}


def check_seating_rules(rules: Rules, strategies: Iterable[Strategy | str]) -> None:
    """Raise if a strategy of the seating refuses ``rules``.

    Parameters
    ----------
    rules : Rules
        The rules to be played.
    strategies : iterable of Strategy or str
        The seating's strategies (or their names).

    Raises
    ------
    InvalidArgumentError
        From the first strategy whose ``check_rules`` refuses the rules; the
        message names the strategy and the variant.
    """
    for strategy in strategies:
        name = strategy.name if isinstance(strategy, Strategy) else strategy
        check = RULE_CHECKS.get(name)
        if check is not None:
            check(rules)


for _strategy in BUILTINS:
    _register_builtin(_strategy)
