"""Observations and actions for learning agents, read off a strategy's view.

An agent sees exactly what a strategy sees (:mod:`ohhell_sim.view`), laid out as
a fixed-length ``float32`` vector (:class:`ObservationLayout`).  Seats are
relative to the observer: block ``k`` of a per-seat field is the seat ``k``
places to the observer's left (``k = 0`` is the observer).  Cards are ids
``0..52`` (:mod:`ohhell_sim.cards`; 52 is the joker).

One action space serves bids and cards: action ``c < 53`` plays (or, under the
swap rule, passes) card ``c``; action ``53 + b`` bids ``b``.  The legal actions
are the ``action_mask``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.bits import lowest_card
from ohhell_sim.rules import Rules
from ohhell_sim.run.counts import total_bounds

#: Card ids, the joker included.
N_CARDS = 53
#: Action of a bid of 0; a bid of ``b`` is ``BID_ACTION + b``.
BID_ACTION = N_CARDS


def action_count(rules: Rules) -> int:
    """Size of the action space: the cards, then every bid up to the largest hand."""
    return BID_ACTION + largest_hand(rules) + 1


def largest_hand(rules: Rules) -> int:
    """The most cards a seat holds in a deal, the tie-break deal included."""
    return int(rules.hand_sizes().max())


def move_of_action(action: int, phase: int) -> int:
    """The bid or card id that ``action`` stands for in ``phase`` (-1: wrong kind)."""
    if phase == V.PHASE_BID:
        return action - BID_ACTION if action >= BID_ACTION else -1
    return action if action < BID_ACTION else -1


def action_of_move(move: int, phase: int) -> int:
    """The action of a bid (bidding phase) or a card id (play and swap phases)."""
    return BID_ACTION + move if phase == V.PHASE_BID else move


def action_mask(view: np.ndarray, rules: Rules) -> np.ndarray:
    """``int8`` mask of the legal actions of the seat whose ``view`` this is."""
    mask = np.zeros(action_count(rules), dtype=np.int8)
    write_action_mask(view, mask)
    return mask


@dataclass(frozen=True)
class Field:
    """One field of the observation: ``length`` entries from ``start``."""

    name: str
    start: int
    length: int
    description: str


class ObservationLayout:
    """The observation vector of a table of ``rules.players`` seats.

    Attributes
    ----------
    fields : list of Field
        In vector order; :meth:`table` lists them.
    size : int
        Length of the vector.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = rules.players
        spec = [
            ("hand", N_CARDS, "copies held of each card (0 while bidding blind, forehead)"),
            ("trump_suit", 5, "one-hot: clubs, diamonds, hearts, spades, no trump"),
            ("turned_card", N_CARDS, "one-hot: the turned-up card (none: all 0)"),
            ("phase", 3, "one-hot: bidding, playing, passing (swap rule)"),
            ("played", N_CARDS, "copies of each card played so far this deal"),
            ("trick_cards", n * N_CARDS, "per seat: one-hot of its card in the current trick"),
            ("bids", n, "per seat: its bid, -1 until made (or while bids are closed)"),
            ("tricks_won", n, "per seat: tricks won this deal"),
            ("voids", n * 4, "per seat: suits it has shown it lacks (clubs..spades)"),
            ("scores", n, "per seat: total points before this deal"),
            ("faults", n, "per seat: fault count (catastrophe rule)"),
            ("active", n, "per seat: 1 if it plays this deal"),
            ("dealer", n, "one-hot seat of the dealer"),
            ("leader", n, "one-hot seat that led the current trick (none: all 0)"),
            ("winning", n, "one-hot seat winning the current trick (none: all 0)"),
            ("visible", n * N_CARDS, "per seat: its card seen on its forehead (forehead rule)"),
            ("passed", N_CARDS, "cards this seat passed left (swap rule)"),
            ("received", N_CARDS, "cards this seat received from the right (swap rule)"),
            ("forbidden_bid", 1, "the bid the hook forbids this seat, -1 for none"),
            ("max_bid", 1, "largest legal bid"),
            ("bid_total", 1, "sum of the bids seen"),
            ("hand_size", 1, "cards dealt to each seat this deal"),
            ("trick", 1, "index of the current trick, -1 before play"),
            ("deal", 1, "index of this deal in the schedule"),
            ("deals_left", 1, "deals after this one in the schedule"),
            ("tiebreak", 1, "1 in the tie-break deal"),
        ]
        fields, start = [], 0
        for name, length, description in spec:
            fields.append(Field(name, start, length, description))
            start += length
        self.fields = fields
        self.size = start
        self._by_name = {f.name: f for f in fields}
        #: The fields' first entries, in order, for :func:`encode_view`.
        self.starts = np.array([f.start for f in fields], dtype=np.int64)

    def bounds(self) -> tuple[float, float]:
        """Lowest and highest value any entry can take under these rules."""
        rules = self.rules
        low, high = total_bounds(rules)
        most_bids = rules.players * largest_hand(rules)
        most_faults = rules.fault_limit + largest_hand(rules)
        return float(min(low, -1)), float(max(high, most_bids, most_faults, rules.n_deals, 2))

    def __getitem__(self, name: str) -> slice:
        """The slice of field ``name`` in the vector."""
        item = self._by_name[name]
        return slice(item.start, item.start + item.length)

    def table(self) -> str:
        """The layout as a Markdown table (the README's)."""
        rows = ["| field | entries | what |", "|---|---|---|"]
        for f in self.fields:
            rows.append(f"| `{f.name}` | {f.start}-{f.start + f.length - 1} | {f.description} |")
        return "\n".join(rows)

    def encode(self, view: np.ndarray) -> np.ndarray:
        """The observation of the seat whose ``view`` this is."""
        out = np.zeros(self.size, dtype=np.float32)
        encode_view(view, self.rules.players, self.starts, out)
        return out


# The fields of ObservationLayout, in order, for the compiled encoder.
(
    F_HAND,
    F_TRUMP_SUIT,
    F_TURNED_CARD,
    F_PHASE,
    F_PLAYED,
    F_TRICK_CARDS,
    F_BIDS,
    F_TRICKS_WON,
    F_VOIDS,
    F_SCORES,
    F_FAULTS,
    F_ACTIVE,
    F_DEALER,
    F_LEADER,
    F_WINNING,
    F_VISIBLE,
    F_PASSED,
    F_RECEIVED,
    F_FORBIDDEN_BID,
    F_MAX_BID,
    F_BID_TOTAL,
    F_HAND_SIZE,
    F_TRICK,
    F_DEAL,
    F_DEALS_LEFT,
    F_TIEBREAK,
) = range(26)


@njit
def _add_cards(out, start, mask):
    while mask != 0:
        out[start + lowest_card(mask)] += 1
        mask &= mask - 1


@njit
def _set_seat(out, start, seat, me, n):
    if seat != V.UNKNOWN:
        out[start + (seat - me + n) % n] = 1


@njit
def encode_view(view, n, starts, out):
    """Write the observation of ``view``'s seat into ``out`` (zeroed, ``float32``).

    ``starts`` holds the fields' first entries (:attr:`ObservationLayout.starts`).
    """
    me = view[V.SEAT]
    _add_cards(out, starts[F_HAND], view[V.HAND])
    _add_cards(out, starts[F_HAND], view[V.HAND2])
    trump = view[V.TRUMP]
    out[starts[F_TRUMP_SUIT] + (4 if trump == V.UNKNOWN else trump)] = 1
    if view[V.TRUMP_CARD] != V.UNKNOWN:
        out[starts[F_TURNED_CARD] + view[V.TRUMP_CARD]] = 1
    phase = view[V.PHASE]
    out[starts[F_PHASE] + (0 if phase == V.PHASE_BID else 1 if phase == V.PHASE_PLAY else 2)] = 1
    _add_cards(out, starts[F_PLAYED], view[V.PLAYED])
    _add_cards(out, starts[F_PLAYED], view[V.PLAYED2])
    for k in range(n):
        seat = (me + k) % n
        card = view[V.TRICK_CARDS_BASE + seat]
        if card != V.UNKNOWN:
            out[starts[F_TRICK_CARDS] + k * N_CARDS + card] = 1
        card = view[V.VISIBLE_BASE + seat]
        if card != V.UNKNOWN:
            out[starts[F_VISIBLE] + k * N_CARDS + card] = 1
        out[starts[F_BIDS] + k] = view[V.BIDS_BASE + seat]
        out[starts[F_TRICKS_WON] + k] = view[V.TRICKS_WON_BASE + seat]
        for suit in range(4):
            out[starts[F_VOIDS] + 4 * k + suit] = (view[V.VOIDS_BASE + seat] >> suit) & 1
        out[starts[F_SCORES] + k] = view[V.SCORES_BASE + seat]
        out[starts[F_FAULTS] + k] = view[V.FAULTS_BASE + seat]
        out[starts[F_ACTIVE] + k] = (view[V.ACTIVE] >> seat) & 1
    _set_seat(out, starts[F_DEALER], view[V.DEALER], me, n)
    _set_seat(out, starts[F_LEADER], view[V.LEADER], me, n)
    _set_seat(out, starts[F_WINNING], view[V.WINNING_SEAT], me, n)
    _add_cards(out, starts[F_PASSED], view[V.PASSED])
    _add_cards(out, starts[F_RECEIVED], view[V.RECEIVED])
    out[starts[F_FORBIDDEN_BID]] = view[V.FORBIDDEN_BID]
    out[starts[F_MAX_BID]] = view[V.MAX_BID]
    out[starts[F_BID_TOTAL]] = view[V.BID_TOTAL]
    out[starts[F_HAND_SIZE]] = view[V.HAND_SIZE]
    out[starts[F_TRICK]] = view[V.TRICK]
    out[starts[F_DEAL]] = view[V.DEAL]
    out[starts[F_DEALS_LEFT]] = max(0, view[V.N_DEALS] - 1 - view[V.DEAL])
    out[starts[F_TIEBREAK]] = view[V.TIEBREAK]


@njit
def write_action_mask(view, out):
    """Write the legal actions of ``view``'s seat into ``out`` (zeroed, ``int8``)."""
    if view[V.PHASE] == V.PHASE_BID:
        for b in range(view[V.MAX_BID] + 1):
            out[BID_ACTION + b] = 1
        if view[V.FORBIDDEN_BID] != V.UNKNOWN:
            out[BID_ACTION + view[V.FORBIDDEN_BID]] = 0
    else:
        _add_cards(out, 0, view[V.LEGAL])
