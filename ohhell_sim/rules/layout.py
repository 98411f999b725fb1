"""Layout of the kernel's rules array: the index of each rule (``R_*``).

The kernel reads the rules from a small ``int64`` array at these fixed indices,
so that changing a rule never recompiles anything.  Which parameter fills which
index is declared in :mod:`ohhell_sim.rules.params` (each parameter's ``slot``);
``R_N_DEALS`` is derived from the schedule, and ``R_HOOK`` holds one of the
``HOOK_*`` codes, from ``hook`` and ``hook_one_card``.  Slots 20-23 are spare.
"""

from __future__ import annotations

R_PLAYERS = 0
R_N_DEALS = 1
R_HOOK = 2
R_MADE = 3
R_ZERO = 4
R_OVER = 5
R_UNDER = 6
R_ALL_BONUS = 7
R_DOUBLE_ALL = 8
R_TRICK_POINTS = 9
R_DECKS = 10
R_JOKER = 11
R_TRUMP_MODE = 12
R_NO_TRUMP_EVERY = 13
R_CLOSED_BIDS = 14
R_NULLO = 15
R_SWAP = 16
R_FOREHEAD = 17
R_FAULT_LIMIT = 18
R_TIEBREAK = 19
RULES_SIZE = 24

#: Codes of ``R_HOOK``: no hook; the hook in every deal; the hook in every deal
#: but the one-card deals (``hook=True, hook_one_card=False``).
HOOK_OFF = 0
HOOK_EVERY_DEAL = 1
HOOK_NOT_ONE_CARD = 2

#: Hand size of the sudden-death tie-break deal.
TIEBREAK_HAND_SIZE = 3
