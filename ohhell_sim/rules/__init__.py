"""The rules layer: one declarative parameter table and what is built from it.

* :mod:`~ohhell_sim.rules.params`: every parameter (type, allowed values,
  default, variant ids, doc, slot in the kernel's array): the single source.
* :mod:`~ohhell_sim.rules.layout`: the kernel's rules array (``R_*`` indices).
* :mod:`~ohhell_sim.rules.model`: :class:`Rules`, the frozen, validated rules,
  the derived schedule and the presets.
* :mod:`~ohhell_sim.rules.options`: rules from text (``--rule NAME=VALUE``).
* :mod:`~ohhell_sim.rules.listing`: the table in words (``ohhell rules``, README).
* :mod:`~ohhell_sim.rules.positions`: the bidding position of a seat.
"""

from ohhell_sim.rules.layout import (
    R_ALL_BONUS,
    R_CLOSED_BIDS,
    R_DECKS,
    R_DOUBLE_ALL,
    R_FAULT_LIMIT,
    R_FOREHEAD,
    R_HOOK,
    R_JOKER,
    R_MADE,
    R_N_DEALS,
    R_NO_TRUMP_EVERY,
    R_NULLO,
    R_OVER,
    R_PLAYERS,
    R_SWAP,
    R_TIEBREAK,
    R_TRICK_POINTS,
    R_TRUMP_MODE,
    R_UNDER,
    R_ZERO,
    RULES_SIZE,
    TIEBREAK_HAND_SIZE,
)
from ohhell_sim.rules.model import (
    PRESETS,
    Rules,
    canonical_start,
    check_rules,
    make_schedule,
)
from ohhell_sim.rules.options import parse_rule_assignment, rules_from_options
from ohhell_sim.rules.params import (
    DEAL_ORDERS,
    MADE_TABLES,
    MAX_PLAYERS,
    MAX_PLAYERS_ONE_DECK,
    MIN_PLAYERS,
    MISS_TABLES,
    PARAMS,
    TRUMP_MODES,
    ZERO_TABLES,
    RuleParam,
    Variant,
)
from ohhell_sim.rules.positions import bidding_position

__all__ = [
    "DEAL_ORDERS",
    "MADE_TABLES",
    "MAX_PLAYERS",
    "MAX_PLAYERS_ONE_DECK",
    "MIN_PLAYERS",
    "MISS_TABLES",
    "PARAMS",
    "PRESETS",
    "RULES_SIZE",
    "R_ALL_BONUS",
    "R_CLOSED_BIDS",
    "R_DECKS",
    "R_DOUBLE_ALL",
    "R_FAULT_LIMIT",
    "R_FOREHEAD",
    "R_HOOK",
    "R_JOKER",
    "R_MADE",
    "R_NO_TRUMP_EVERY",
    "R_NULLO",
    "R_N_DEALS",
    "R_OVER",
    "R_PLAYERS",
    "R_SWAP",
    "R_TIEBREAK",
    "R_TRICK_POINTS",
    "R_TRUMP_MODE",
    "R_UNDER",
    "R_ZERO",
    "TIEBREAK_HAND_SIZE",
    "TRUMP_MODES",
    "ZERO_TABLES",
    "RuleParam",
    "Rules",
    "Variant",
    "bidding_position",
    "canonical_start",
    "check_rules",
    "make_schedule",
    "parse_rule_assignment",
    "rules_from_options",
]
