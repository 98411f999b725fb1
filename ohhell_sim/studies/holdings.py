"""The cards behind a run's rows: trump holdings, from hands the kernel records.

The result frames record bids, tricks and scores but not the cards.  On a
canonical table a deal's cards depend only on the seed, the game and the deal
(the dealer follows from the game's cut), never on the strategies, so playing
the frame's games again with any strategies and ``record_hands=True`` gives
each seat's hand as dealt.  The replay's dealer and trump suit are checked
against the frame's, so a mismatch stops the analysis instead of mislabelling
rows.  The kernel plays millions of deals a second.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ohhell_sim import Rules, simulate

#: Any strategies deal the same cards; the two cheapest play the replay, on the
#: kernel that ``ohhell bench`` and the tests compile anyway.
_REPLAY_SEATS = ("random", "simple")
#: Cards in each 13-bit suit pattern (a suit's cards are bits 13 * suit .. 13 * suit + 12).
_SUIT_COUNTS = np.array([bin(pattern).count("1") for pattern in range(1 << 13)], dtype=np.int64)


def trump_holdings(hands: pd.DataFrame, seed: int, players: int) -> pd.DataFrame:
    """Trumps held per (game, deal, seat) in the deals of ``hands``: rows of one canonical
    table of ``players`` played at ``seed``, with ``game``, ``deal``, ``dealer`` and ``trump``.

    Returns ``game``, ``deal``, ``seat`` and ``trumps`` (the canonical profile always turns
    up a trump); raises AssertionError if a recreated deal's dealer or trump suit differs
    from the frame's.
    """
    deals = hands.drop_duplicates(["game", "deal"])
    game = deals["game"].to_numpy(dtype=np.int64)
    deal = deals["deal"].to_numpy(dtype=np.int64)
    first = int(game.min())
    replay = simulate(
        Rules(players=players),
        [_REPLAY_SEATS[seat % 2] for seat in range(players)],
        games=int(game.max()) - first + 1,
        seed=seed,
        first_game=first,
        record_hands=True,
    ).arrays
    row = game - first
    for name, column in (("dealer", replay.dealers), ("trump", replay.trumps)):
        found = column[row, deal].astype(np.int64)
        expected = deals[name].to_numpy(dtype=np.int64)
        wrong = np.flatnonzero(found != expected)
        if len(wrong):
            i = wrong[0]
            raise AssertionError(
                f"recreated deal {deal[i]} of game {game[i]} has {name} {found[i]}, "
                f"the run {expected[i]}"
            )
    shift = 13 * deals["trump"].to_numpy(dtype=np.uint64)
    held = replay.held[row, deal]  # (deals, seats) card masks
    trumps = _SUIT_COUNTS[(held >> shift[:, None]) & np.uint64(0x1FFF)]
    return pd.DataFrame(
        {
            "game": np.repeat(game, players),
            "deal": np.repeat(deal, players),
            "seat": np.tile(np.arange(players, dtype=np.int64), len(deals)),
            "trumps": trumps.reshape(-1),
        }
    )


def with_trumps(hands: pd.DataFrame, seed: int) -> pd.DataFrame:
    """``hands`` (canonical tables of any sizes, ``players`` as integers, played at
    ``seed``) with each row's ``trumps`` (:func:`trump_holdings`)."""
    # Canonical cards depend on the seed, game and deal only: every field shares them.
    holdings = [
        trump_holdings(table, seed, int(n)).assign(players=int(n))
        for n, table in hands.groupby("players", observed=True)
    ]
    return hands.merge(pd.concat(holdings), on=["players", "game", "deal", "seat"], how="left")
