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

from ohhell_sim import view as V
from ohhell_sim.rules import Rules
from ohhell_sim.run.counts import total_bounds

#: Card ids, the joker included.
N_CARDS = 53
#: Action of a bid of 0; a bid of ``b`` is ``BID_ACTION + b``.
BID_ACTION = N_CARDS

_PHASES = (V.PHASE_BID, V.PHASE_PLAY, V.PHASE_SWAP)
#: One-hot seat fields of the observation, and where the view holds them.
_SEAT_FIELDS = (("dealer", V.DEALER), ("leader", V.LEADER), ("winning", V.WINNING_SEAT))


def action_count(rules: Rules) -> int:
    """Size of the action space: the cards, then every bid up to the largest hand."""
    return BID_ACTION + rules.max_hand_size + 1


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
    if view[V.PHASE] == V.PHASE_BID:
        mask[BID_ACTION : BID_ACTION + int(view[V.MAX_BID]) + 1] = 1
        if view[V.FORBIDDEN_BID] != V.UNKNOWN:
            mask[BID_ACTION + int(view[V.FORBIDDEN_BID])] = 0
    else:
        mask[:N_CARDS] = _bits(int(view[V.LEGAL]))
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

    def bounds(self) -> tuple[float, float]:
        """Lowest and highest value any entry can take under these rules."""
        rules = self.rules
        low, high = total_bounds(rules)
        most_bids = rules.players * rules.max_hand_size
        most_faults = rules.fault_limit + rules.max_hand_size
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
        n = self.rules.players
        me = int(view[V.SEAT])
        order = [(me + k) % n for k in range(n)]  # relative seat k -> absolute seat
        out = np.zeros(self.size, dtype=np.float32)
        out[self["hand"]] = _copies(view[V.HAND], view[V.HAND2])
        trump = int(view[V.TRUMP])
        out[self["trump_suit"].start + (4 if trump == V.UNKNOWN else trump)] = 1
        _one_hot(out, self["turned_card"], int(view[V.TRUMP_CARD]))
        out[self["phase"].start + _PHASES.index(int(view[V.PHASE]))] = 1
        out[self["played"]] = _copies(view[V.PLAYED], view[V.PLAYED2])
        for k, seat in enumerate(order):
            block = slice(self["trick_cards"].start + k * N_CARDS, None)
            _one_hot(out, block, int(view[V.TRICK_CARDS_BASE + seat]))
            block = slice(self["visible"].start + k * N_CARDS, None)
            _one_hot(out, block, int(view[V.VISIBLE_BASE + seat]))
            out[self["bids"].start + k] = view[V.BIDS_BASE + seat]
            out[self["tricks_won"].start + k] = view[V.TRICKS_WON_BASE + seat]
            voids = self["voids"].start + 4 * k
            out[voids : voids + 4] = _bits(int(view[V.VOIDS_BASE + seat]))[:4]
            out[self["scores"].start + k] = view[V.SCORES_BASE + seat]
            out[self["faults"].start + k] = view[V.FAULTS_BASE + seat]
            out[self["active"].start + k] = (int(view[V.ACTIVE]) >> seat) & 1
        for name, index in (
            ("dealer", V.DEALER),
            ("leader", V.LEADER),
            ("winning", V.WINNING_SEAT),
        ):
            seat = int(view[index])
            if seat != V.UNKNOWN:
                out[self[name].start + (seat - me) % n] = 1
        out[self["passed"]] = _bits(int(view[V.PASSED]))
        out[self["received"]] = _bits(int(view[V.RECEIVED]))
        out[self["forbidden_bid"].start] = view[V.FORBIDDEN_BID]
        out[self["max_bid"].start] = view[V.MAX_BID]
        out[self["bid_total"].start] = view[V.BID_TOTAL]
        out[self["hand_size"].start] = view[V.HAND_SIZE]
        out[self["trick"].start] = view[V.TRICK]
        out[self["deal"].start] = view[V.DEAL]
        out[self["deals_left"].start] = max(0, int(view[V.N_DEALS]) - 1 - int(view[V.DEAL]))
        out[self["tiebreak"].start] = view[V.TIEBREAK]
        return out


def _bits(mask: int) -> np.ndarray:
    """The 53 bits of a card mask, as 0/1 floats."""
    return ((mask >> np.arange(N_CARDS, dtype=np.int64)) & 1).astype(np.float32)


def _copies(once: int, twice: int) -> np.ndarray:
    """Copies of each card from the masks of cards held once and twice."""
    return _bits(int(once)) + _bits(int(twice))


def _one_hot(out: np.ndarray, where: slice, card: int) -> None:
    if card != V.UNKNOWN:
        out[where.start + card] = 1
