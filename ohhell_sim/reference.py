"""The reference engine: plain, slow, readable Python.

It plays one game by the rules of :class:`ohhell_sim.rules.Rules`, step by step,
and records everything in a :class:`GameLog`.  It shares no rule code with the
Numba kernel (:mod:`ohhell_sim.engine`): the random streams, the deal, legality,
trick-taking and scoring are written again here, and the tests check that both
engines play every game identically.  Only the strategies are shared: the
reference calls the same compiled ``bid``/``play`` functions with a view it builds
afresh, field by field, before every decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ohhell_sim import view as V
from ohhell_sim.cards import card_code, card_pretty, suit_pretty
from ohhell_sim.errors import (
    ERR_BID_HOOK,
    ERR_BID_RANGE,
    ERR_CARD_NOT_IN_HAND,
    ERR_MUST_FOLLOW,
    IllegalMoveError,
    InvalidArgumentError,
)
from ohhell_sim.rules import RULES_SIZE, Rules
from ohhell_sim.strategy import Seating, SeatSpec, resolve_seating
from ohhell_sim.validation import check_seed

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_CUT, _DEAL, _SEAT = 0, 1, 2


# --- random streams: a pure-Python twin of ohhell_sim.engine.rng ----------------


def _mix64(z: int) -> int:
    z = (z + _GOLDEN) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _M64


class Stream:
    """A xoshiro256** stream keyed by ``(seed, game, purpose, index)``."""

    def __init__(self, seed: int, game: int, purpose: int, index: int) -> None:
        key = _mix64(_mix64(_mix64(seed) ^ game) ^ ((purpose << 32) | index))
        self.state = []
        for _ in range(4):
            key = (key + _GOLDEN) & _M64
            self.state.append(_mix64(key))

    def next_u64(self) -> int:
        s0, s1, s2, s3 = self.state
        result = (_rotl((s1 * 5) & _M64, 7) * 9) & _M64
        t = (s1 << 17) & _M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        self.state = [s0, s1, s2, s3]
        return result

    def below(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32

    def as_array(self) -> np.ndarray:
        return np.array(self.state, dtype=np.uint64)


# --- the rules ------------------------------------------------------------------


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def cut_for_dealer(stream: Stream, players: int) -> int:
    """Highest cut deals; tied highest cuts cut again, from a fresh deck each round."""
    contenders = list(range(players))
    while len(contenders) > 1:
        deck = list(range(52))
        cuts = {}
        for i, seat in enumerate(contenders):
            j = i + stream.below(52 - i)
            deck[i], deck[j] = deck[j], deck[i]
            cuts[seat] = rank_of(deck[i])
        best = max(cuts.values())
        contenders = [seat for seat in contenders if cuts[seat] == best]
    return contenders[0]


def deal(stream: Stream, players: int, hand_size: int, dealer: int) -> tuple[list[list[int]], int]:
    """Shuffle, deal one at a time clockwise from the dealer's left, turn up the next card."""
    deck = list(range(52))
    n_cards = players * hand_size + 1
    for i in range(n_cards):
        j = i + stream.below(52 - i)
        deck[i], deck[j] = deck[j], deck[i]
    hands: list[list[int]] = [[] for _ in range(players)]
    for i in range(players * hand_size):
        hands[(dealer + 1 + i) % players].append(deck[i])
    return [sorted(h) for h in hands], deck[players * hand_size]


def legal_cards(hand: list[int], led_suit: int | None) -> list[int]:
    """Follow the led suit when possible; otherwise anything."""
    if led_suit is None:
        return list(hand)
    following = [c for c in hand if suit_of(c) == led_suit]
    return following or list(hand)


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index (in play order) of the card that takes the trick."""
    led = suit_of(cards[0])
    trumps = [i for i, c in enumerate(cards) if suit_of(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: rank_of(cards[i]))
    followers = [i for i, c in enumerate(cards) if suit_of(c) == led]
    return max(followers, key=lambda i: rank_of(cards[i]))


def forbidden_dealer_bid(rules: Rules, hand_size: int, others_total: int) -> int | None:
    """The bid the hook forbids the dealer, or None."""
    if not rules.hook:
        return None
    missing = hand_size - others_total
    return missing if 0 <= missing <= hand_size else None


_MADE_POINTS = {
    "10+bid": lambda bid, k: 10 + k * bid,
    "10*bid": lambda bid, k: 10 * bid,
    "10+bid^2": lambda bid, k: 10 + bid**2,
    "10+2*bid": lambda bid, k: 10 + 2 * bid,
    "5+bid": lambda bid, k: 5 + bid,
}
_ZERO_POINTS = {
    "10": lambda cards: 10,
    "5": lambda cards: 5,
    "5+cards": lambda cards: 5 + cards,
    "10+cards": lambda cards: 10 + cards,
}
_MISS_POINTS = {
    "zero": lambda taken, diff, k: 0,
    "taken": lambda taken, diff, k: k * taken,
    "-diff": lambda taken, diff, k: -k * diff,
    "-diff^2": lambda taken, diff, k: -(diff**2),
    "-10*diff": lambda taken, diff, k: -10 * diff,
}


def score(rules: Rules, bid: int, tricks: int, hand_size: int) -> int:
    """Points for one player in one deal (canonical: 10 + bid if exact, else 0)."""
    k = rules.trick_points
    if bid != tricks:
        table = rules.over if tricks > bid else rules.under
        return _MISS_POINTS[table](tricks, abs(bid - tricks), k)
    if bid == 0:
        return _ZERO_POINTS[rules.zero](hand_size)
    points = _MADE_POINTS[rules.made](bid, k)
    if bid == hand_size:
        points = points * (2 if rules.double_all else 1) + rules.all_bonus
    return points


# --- the log --------------------------------------------------------------------


@dataclass
class TrickLog:
    leader: int
    cards: list[int] = field(default_factory=list)
    winner: int = -1


@dataclass
class DealLog:
    dealer: int
    hand_size: int
    hands: list[list[int]]
    trump_card: int
    bids: list[int]
    forbidden_bid: int | None
    tricks: list[TrickLog]
    tricks_won: list[int]
    scores: list[int]

    @property
    def trump(self) -> int:
        return suit_of(self.trump_card)


@dataclass
class GameLog:
    """Everything that happened in one game, from :func:`replay`."""

    rules: Rules
    strategies: list[str]
    seed: int
    game: int
    first_dealer: int
    deals: list[DealLog]

    @property
    def totals(self) -> list[int]:
        """Final total per seat."""
        return [sum(d.scores[s] for d in self.deals) for s in range(self.rules.players)]

    def to_dict(self) -> dict:
        """The log as JSON-serialisable data; cards as codes like ``"TH"``."""
        return {
            "seed": self.seed,
            "game": self.game,
            "players": self.rules.players,
            "strategies": list(self.strategies),
            "deals": [
                {
                    "dealer": d.dealer,
                    "hand_size": d.hand_size,
                    "hands": [[card_code(c) for c in h] for h in d.hands],
                    "trump_card": card_code(d.trump_card),
                    "bids": list(d.bids),
                    "forbidden_bid": d.forbidden_bid,
                    "tricks": [
                        {
                            "leader": t.leader,
                            "cards": [card_code(c) for c in t.cards],
                            "winner": t.winner,
                        }
                        for t in d.tricks
                    ],
                    "tricks_won": list(d.tricks_won),
                    "scores": list(d.scores),
                }
                for d in self.deals
            ],
            "totals": self.totals,
        }

    def __str__(self) -> str:
        n = self.rules.players
        lines = [
            f"Game {self.game} (seed {self.seed}), {n} players: "
            + ", ".join(f"seat {s} {name}" for s, name in enumerate(self.strategies)),
        ]
        running = [0] * n
        for i, d in enumerate(self.deals):
            lines.append("")
            lines.append(
                f"Deal {i + 1}/{len(self.deals)}: {d.hand_size} card(s), dealer seat {d.dealer}, "
                f"trump {card_pretty(d.trump_card)} ({suit_pretty(d.trump)})"
            )
            for s in range(n):
                hand = " ".join(card_pretty(c) for c in d.hands[s])
                lines.append(f"  seat {s}: {hand}")
            hook = "" if d.forbidden_bid is None else f" (dealer could not bid {d.forbidden_bid})"
            lines.append("  bids: " + ", ".join(str(b) for b in d.bids) + hook)
            for t_index, trick in enumerate(d.tricks):
                plays = " ".join(
                    f"{(trick.leader + j) % n}:{card_pretty(c)}" for j, c in enumerate(trick.cards)
                )
                lines.append(f"  trick {t_index + 1}: {plays} -> seat {trick.winner}")
            for s in range(n):
                running[s] += d.scores[s]
            lines.append(
                "  tricks: "
                + ", ".join(str(t) for t in d.tricks_won)
                + " | points: "
                + ", ".join(str(p) for p in d.scores)
                + " | totals: "
                + ", ".join(str(r) for r in running)
            )
        lines.append("")
        finals = ", ".join(f"seat {s} {t}" for s, t in enumerate(self.totals))
        lines.append(f"Final totals: {finals}")
        return "\n".join(lines)


# --- playing --------------------------------------------------------------------


@dataclass
class _DealState:
    """What is public during a deal, plus the hands (which only the engine sees)."""

    deal_index: int
    dealer: int
    hand_size: int
    trump_card: int
    hands: list[list[int]]
    bids: list[int | None]
    tricks_won: list[int]
    played: list[int] = field(default_factory=list)
    voids: list[set[int]] = field(default_factory=list)
    trick_index: int | None = None
    trick: TrickLog | None = None


def _view(
    rules: Rules,
    state: _DealState,
    totals: list[int],
    seat: int,
    legal: list[int] | None,
    forbidden: int | None,
) -> np.ndarray:
    """The view of ``seat``, built from scratch (see :mod:`ohhell_sim.view`)."""
    n = rules.players
    view = np.full(V.VIEW_SIZE, V.UNKNOWN, dtype=np.int64)
    view[V.SEAT] = seat
    view[V.HAND] = sum(1 << c for c in state.hands[seat])
    view[V.LEGAL] = 0 if legal is None else sum(1 << c for c in legal)
    view[V.FORBIDDEN_BID] = V.UNKNOWN if forbidden is None else forbidden
    view[V.PHASE] = V.PHASE_BID if legal is None else V.PHASE_PLAY
    view[V.N_PLAYERS] = n
    view[V.DEALER] = state.dealer
    view[V.HAND_SIZE] = state.hand_size
    view[V.TRUMP] = suit_of(state.trump_card)
    view[V.TRUMP_CARD] = state.trump_card
    view[V.DEAL] = state.deal_index
    view[V.N_DEALS] = rules.n_deals
    view[V.HOOK] = int(rules.hook)
    view[V.RULES_BASE : V.RULES_BASE + RULES_SIZE] = rules.to_array()
    view[V.PLAYED] = sum(1 << c for c in state.played)
    view[V.BID_TOTAL] = sum(b for b in state.bids if b is not None)
    view[V.N_IN_TRICK] = 0
    trick = state.trick
    if trick is not None:
        view[V.TRICK] = state.trick_index
        view[V.LEADER] = trick.leader
        view[V.N_IN_TRICK] = len(trick.cards)
        if trick.cards:
            view[V.LED_SUIT] = suit_of(trick.cards[0])
            winner = trick_winner(trick.cards, suit_of(state.trump_card))
            view[V.WINNING_SEAT] = (trick.leader + winner) % n
            view[V.WINNING_CARD] = trick.cards[winner]
    for s in range(n):
        bid = state.bids[s]
        view[V.BIDS_BASE + s] = V.UNKNOWN if bid is None else bid
        view[V.TRICKS_WON_BASE + s] = state.tricks_won[s]
        view[V.VOIDS_BASE + s] = sum(1 << suit for suit in state.voids[s])
        view[V.SCORES_BASE + s] = totals[s]
    if trick is not None:
        for j, card in enumerate(trick.cards):
            view[V.TRICK_CARDS_BASE + (trick.leader + j) % n] = card
    return view


def play_reference_game(rules: Rules, seating: Seating, seed: int, game: int) -> GameLog:
    """Play game ``game`` of the run seeded ``seed`` and return its log.

    Raises
    ------
    IllegalMoveError
        When a strategy returns an illegal bid or card.
    """
    n = rules.players
    strategies = seating.strategies
    seat_streams = [Stream(seed, game, _SEAT, s).as_array() for s in range(n)]
    first_dealer = cut_for_dealer(Stream(seed, game, _CUT, 0), n)
    dealer = first_dealer
    totals = [0] * n
    deals: list[DealLog] = []

    def illegal(code: int, d: int, seat: int, move: int, trick: int, hand_size: int):
        return IllegalMoveError(strategies[seat].name, game, d, seat, move, code, trick, hand_size)

    for d, hand_size in enumerate(rules.schedule):
        hands, trump_card = deal(Stream(seed, game, _DEAL, d), n, hand_size, dealer)
        trump = suit_of(trump_card)
        state = _DealState(
            d,
            dealer,
            hand_size,
            trump_card,
            [list(h) for h in hands],
            [None] * n,
            [0] * n,
            voids=[set() for _ in range(n)],
        )
        forbidden = None
        for i in range(1, n + 1):
            seat = (dealer + i) % n
            seat_forbidden = None
            if seat == dealer:
                others = sum(b for b in state.bids if b is not None)
                seat_forbidden = forbidden = forbidden_dealer_bid(rules, hand_size, others)
            view = _view(rules, state, totals, seat, None, seat_forbidden)
            bid = int(strategies[seat].bid(view, seating.params[seat], seat_streams[seat]))
            if not 0 <= bid <= hand_size:
                raise illegal(ERR_BID_RANGE, d, seat, bid, -1, hand_size)
            if bid == seat_forbidden:
                raise illegal(ERR_BID_HOOK, d, seat, bid, -1, hand_size)
            state.bids[seat] = bid

        tricks: list[TrickLog] = []
        leader = (dealer + 1) % n
        for t in range(hand_size):
            trick = TrickLog(leader=leader)
            state.trick, state.trick_index = trick, t
            for j in range(n):
                seat = (leader + j) % n
                led = suit_of(trick.cards[0]) if trick.cards else None
                legal = legal_cards(state.hands[seat], led)
                view = _view(rules, state, totals, seat, legal, None)
                card = int(strategies[seat].play(view, seating.params[seat], seat_streams[seat]))
                if card not in state.hands[seat]:
                    raise illegal(ERR_CARD_NOT_IN_HAND, d, seat, card, t, hand_size)
                if card not in legal:
                    raise illegal(ERR_MUST_FOLLOW, d, seat, card, t, hand_size)
                if led is not None and suit_of(card) != led:
                    state.voids[seat].add(led)
                state.hands[seat].remove(card)
                state.played.append(card)
                trick.cards.append(card)
            trick.winner = (leader + trick_winner(trick.cards, trump)) % n
            state.tricks_won[trick.winner] += 1
            tricks.append(trick)
            leader = trick.winner

        bids = [int(b) for b in state.bids]
        points = [score(rules, bids[s], state.tricks_won[s], hand_size) for s in range(n)]
        for s in range(n):
            totals[s] += points[s]
        deals.append(
            DealLog(
                dealer,
                hand_size,
                hands,
                trump_card,
                bids,
                forbidden,
                tricks,
                list(state.tricks_won),
                points,
            )
        )
        dealer = (dealer + 1) % n
    return GameLog(rules, [s.name for s in strategies], seed, game, first_dealer, deals)


def replay(rules: Rules, strategies: Sequence[SeatSpec], seed: int = 0, game: int = 0) -> GameLog:
    """Replay one game of a run exactly as :func:`ohhell_sim.simulate` played it.

    Parameters
    ----------
    rules : Rules
        The rules of the run.
    strategies : sequence
        One strategy per seat, as for :func:`ohhell_sim.simulate`.
    seed : int
        The run's seed.
    game : int
        Index of the game in the run.

    Returns
    -------
    GameLog
        ``str(log)`` is a readable account; ``log.to_dict()`` is JSON-serialisable.
    """
    check_seed(seed)
    if isinstance(game, bool) or not isinstance(game, int | np.integer) or game < 0:
        raise InvalidArgumentError(f"game must be a non-negative integer, got {game!r}")
    return play_reference_game(rules, resolve_seating(strategies, rules.players), seed, int(game))
