"""Generate ``one_card.npz``: the exact bids of the one-card deal, for ``one_card_bid``.

For every scoring ratio of :data:`SCORINGS` (the canonical tables, and each
scoring table changed alone), every table size of 3-7 players and bids open or
closed, :func:`ohhell_sim.exact.solve_one_card` solves the one-card deal without
the hook, with a turned-up card, a fixed trump suit and no trump, and the
solved policy is stored in the layout of :mod:`ohhell_sim.strategies._one_card`:
trump as suit 0, a side suit as suit 1 (the script checks that the other side
suits bid alike), -1 where no deal of the solved profile reaches an entry.

Run from the repository root (a few minutes)::

    python -m ohhell_sim.training.one_card_tables [--output PATH]

It writes ``one_card.npz``: ``policy`` (the flat policy, packed four entries
to a byte), ``offsets`` (``int64 (ratios, 2, 5)``: the entry where each
``(ratio, closed, players - 3)`` block starts), ``ratios`` (``int64 (ratios,
2)``: ``(d0, d1)``) and ``meta`` (JSON: the scorings of each ratio and how the
file was made).  The solver is exact
and deterministic, so the file is the same bit for bit on every run.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ohhell_sim.rules import Rules
from ohhell_sim.rules.params import MADE_TABLES, MISS_TABLES, ZERO_TABLES
from ohhell_sim.strategies._one_card import (
    CLASSES,
    CONTEXT_FIXED,
    CONTEXT_NO_TRUMP,
    CONTEXTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANKS,
    TABLE_FILE,
    pack_policy,
    scoring_ratio,
)
from ohhell_sim.strategies.tables import TABLES_DIR, save_arrays

_DEFAULTS = Rules()
#: Named scorings, as rule overrides: the canonical tables, then each table
#: changed alone (``miss``: ``over`` and ``under`` both).
SCORINGS: tuple[tuple[str, dict[str, str]], ...] = (
    ("canonical", {}),
    *((f"made={v}", {"made": v}) for v in MADE_TABLES if v != _DEFAULTS.made),
    *((f"zero={v}", {"zero": v}) for v in ZERO_TABLES if v != _DEFAULTS.zero),
    *((f"over={v}", {"over": v}) for v in MISS_TABLES if v != _DEFAULTS.over),
    *((f"under={v}", {"under": v}) for v in MISS_TABLES if v != _DEFAULTS.under),
    *((f"miss={v}", {"over": v, "under": v}) for v in MISS_TABLES if v != _DEFAULTS.over),
)


def ratio_of(rules: Rules) -> tuple[int, int]:
    """The scoring ratio ``(d0, d1)`` of ``rules`` (see :func:`scoring_ratio`)."""
    d0, d1 = scoring_ratio(rules.to_array())
    return int(d0), int(d1)


def scoring_ratios(
    scorings: Sequence[tuple[str, dict[str, str]]] = SCORINGS,
) -> list[tuple[tuple[int, int], list[str], dict[str, str]]]:
    """The distinct ratios of ``scorings``, in order: ``(ratio, labels, overrides)``.

    ``overrides`` are those of the first scoring of the ratio, which is solved.
    """
    found: dict[tuple[int, int], tuple[list[str], dict[str, str]]] = {}
    for label, overrides in scorings:
        ratio = ratio_of(Rules(players=MIN_PLAYERS, **overrides))
        found.setdefault(ratio, ([], overrides))[0].append(label)
    return [(ratio, labels, overrides) for ratio, (labels, overrides) in found.items()]


def _reached(rules: Rules) -> np.ndarray:
    """The solved policy of ``rules``, -1 where no deal reaches an entry."""
    from ohhell_sim.exact import solve_one_card  # the solver sits above the strategies

    solution = solve_one_card(rules)
    return np.where(solution.deals > 0, solution.policy, -1).astype(np.int8)


def _side_suits_alike(policy: np.ndarray, suits: Sequence[int], what: str) -> None:
    # The relabelling stores one side suit: the others must bid as it does.
    first = policy[:, :, suits[0] * RANKS : (suits[0] + 1) * RANKS]
    for suit in suits[1:]:
        if not np.array_equal(policy[:, :, suit * RANKS : (suit + 1) * RANKS], first):
            raise RuntimeError(f"{what}: suit {suit} bids unlike suit {suits[0]}")


def solve_block(players: int, closed: bool, overrides: dict[str, str]) -> np.ndarray:
    """The ``int8 (players, CONTEXTS, CLASSES, width)`` block of one ratio and table size."""
    width = 1 if closed else 1 << (players - 1)
    base = dict(players=players, schedule=[1], hook=False, closed_bids=closed, **overrides)
    block = np.full((players, CONTEXTS, CLASSES, width), -1, dtype=np.int8)
    # A turned-up card of suit 0 (clubs), rank r: context r of the solution.
    turned = _reached(Rules(**base))[:, :RANKS, :, :width]
    _side_suits_alike(turned, (1, 2, 3), "turned card")
    block[:, :RANKS] = turned[:, :, :CLASSES]
    # A fixed pattern whose one-card deal has clubs (suit 0) for trump.
    fixed = _reached(Rules(**base, trump="CDHS"))[:, :1, :, :width]
    _side_suits_alike(fixed, (1, 2, 3), "fixed trump")
    block[:, CONTEXT_FIXED] = fixed[:, 0, :CLASSES]
    none = _reached(Rules(**base, no_trump_every=1))[:, :1, :, :width]
    _side_suits_alike(none, (1, 0, 2, 3), "no trump")
    block[:, CONTEXT_NO_TRUMP, RANKS:] = none[:, 0, RANKS:CLASSES]
    return block


def make_tables(
    players: Sequence[int] = range(MIN_PLAYERS, MAX_PLAYERS + 1),
    scorings: Sequence[tuple[str, dict[str, str]]] = SCORINGS,
) -> dict[str, np.ndarray]:
    """The arrays of ``one_card.npz`` for ``players`` and ``scorings``.

    Blocks are laid out by ratio, then open before closed bids, then table
    size; ``offsets`` holds -1 for a table size not in ``players``.
    """
    ratios = scoring_ratios(scorings)
    offsets = np.full((len(ratios), 2, MAX_PLAYERS - MIN_PLAYERS + 1), -1, dtype=np.int64)
    blocks = []
    start = 0
    for t, (_, _, overrides) in enumerate(ratios):
        for closed in (False, True):
            for n in players:
                block = solve_block(n, closed, overrides).ravel()
                offsets[t, int(closed), n - MIN_PLAYERS] = start
                start += block.size
                blocks.append(block)
    meta = {
        "what": "exact one-card bids by scoring ratio, bids open/closed, players, "
        "position, context, card class, bid history (ohhell_sim.strategies._one_card)",
        "solver": "ohhell_sim.exact.solve_one_card, hook off",
        "players": list(players),
        "ratios": [
            {"d0": r[0], "d1": r[1], "scorings": labels, "solved_with": overrides}
            for r, labels, overrides in ratios
        ],
        "made_by": "python -m ohhell_sim.training.one_card_tables",
    }
    return {
        "policy": pack_policy(np.concatenate(blocks)),
        "offsets": offsets,
        "ratios": np.array([r for r, _, _ in ratios], dtype=np.int64).reshape(-1, 2),
        "meta": np.array(json.dumps(meta)),
    }


def main(argv: list[str] | None = None) -> None:
    """Command line: write the tables beside this file (or to ``--output``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=TABLES_DIR / TABLE_FILE)
    args = parser.parse_args(argv)
    arrays = make_tables()
    path = save_arrays(arrays, args.output, "--output")
    print(f"wrote {path}: {arrays['policy'].nbytes} bytes, {len(arrays['ratios'])} ratios")


if __name__ == "__main__":
    main()
