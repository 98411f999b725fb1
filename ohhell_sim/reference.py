"""The reference engine: plain, slow, readable Python.

It plays one game by the rules of :class:`ohhell_sim.rules.Rules`, step by step,
and records everything in a :class:`GameLog`.  It shares no rule code with the
Numba kernel (:mod:`ohhell_sim.engine`): the random streams, the deal, legality,
trick-taking and scoring are written again here, and the tests check that both
engines play every game identically.  Only the strategies are shared: the
reference calls the same compiled ``bid``/``play`` functions (their code as it is
now, :meth:`~ohhell_sim.strategy.Strategy.current_functions`) with a view it
builds afresh, field by field, before every decision, and passes the view and the
parameters read-only, as the kernel does.

The game is a coroutine (:func:`game_steps`): it yields a :class:`Decision`
whenever a seat must move and receives the move, and yields a
:class:`DealPlayed` after each deal.  :func:`play_reference_game` answers the
decisions with the seats' strategies; the game-AI environments
(:mod:`ohhell_sim.env`) answer some or all of them with an agent's actions.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ohhell_sim import view as V
from ohhell_sim.arguments import check_game, check_seed
from ohhell_sim.cards import JOKER, SUIT_CODES, card_code, card_pretty, suit_pretty
from ohhell_sim.errors import (
    ERR_BID_HOOK,
    ERR_BID_NOT_INTEGER,
    ERR_BID_RANGE,
    ERR_CARD_NOT_IN_HAND,
    ERR_CARD_NOT_INTEGER,
    ERR_MUST_FOLLOW,
    IllegalMoveError,
    StrategyError,
)
from ohhell_sim.rules import RULES_SIZE, TIEBREAK_HAND_SIZE, Rules, check_rules
from ohhell_sim.strategy import Seating, SeatSpec, resolve_seating
from ohhell_sim.strategy.code import strategy_functions
from ohhell_sim.strategy.compilation import check_compiles
from ohhell_sim.strategy.disk_cache import kept_on_disk

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

_FIXED_TRUMPS = {"SDCH": [3, 1, 0, 2], "CDHS": [0, 1, 2, 3], "CDHSN": [0, 1, 2, 3, None]}


def suit_of(card: int) -> int | None:
    """The suit of ``card``; None for the joker."""
    return None if card == JOKER else card // 13


def rank_of(card: int) -> int:
    return card % 13


def clockwise(seat: int, seats: Sequence[int], players: int) -> int:
    """The next seat after ``seat`` clockwise among ``seats``."""
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if candidate in seats:
            return candidate
    raise ValueError("no seat to move to")


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


def deal(
    stream: Stream, rules: Rules, seats: list[int], hand_size: int, dealer: int, turn: bool
) -> tuple[list[list[int]], int | None]:
    """Shuffle, deal one at a time clockwise from the dealer's left, maybe turn a card up.

    The deck is 52 cards per deck in id order, then the joker; each deal draws
    its cards with a partial Fisher-Yates shuffle of that fresh deck.
    """
    deck = [card for _ in range(rules.decks) for card in range(52)]
    if rules.joker:
        deck.append(JOKER)
    n_dealt = len(seats) * hand_size
    for i in range(n_dealt + int(turn)):
        j = i + stream.below(len(deck) - i)
        deck[i], deck[j] = deck[j], deck[i]
    hands: list[list[int]] = [[] for _ in range(rules.players)]
    seat = dealer
    for i in range(n_dealt):
        seat = clockwise(seat, seats, rules.players)
        hands[seat].append(deck[i])
    return [sorted(h) for h in hands], (deck[n_dealt] if turn else None)


def trump_of_deal(rules: Rules, deal_index: int, hand_size: int, turned: int | None):
    """Trump suit of a deal, or None for no trump."""
    if rules.is_no_trump_size(hand_size):
        return None
    if rules.trump == "turn":
        return suit_of(turned)
    pattern = _FIXED_TRUMPS[rules.trump]
    return pattern[deal_index % len(pattern)]


def follows(card: int, led: int | None, trump: int | None) -> bool:
    """Whether ``card`` follows the led suit (the joker counts as a trump)."""
    if card == JOKER:
        return led is not None and led == trump
    return suit_of(card) == led


def legal_cards(hand: list[int], led: int | None, trump: int | None) -> list[int]:
    """Follow the led suit when possible; otherwise anything."""
    following = [c for c in hand if follows(c, led, trump)]
    return sorted(set(following or hand))


def trick_winner(cards: Sequence[int], trump: int | None) -> int:
    """Index (in play order) of the card that takes the trick.

    The joker wins; then the highest trump; then the highest card of the led suit;
    of two identical cards the first played ranks higher.
    """
    if JOKER in cards:
        return cards.index(JOKER)
    trumps = [i for i, c in enumerate(cards) if suit_of(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: rank_of(cards[i]))  # max keeps the first of equals
    led = suit_of(cards[0])
    followers = [i for i, c in enumerate(cards) if suit_of(c) == led]
    return max(followers, key=lambda i: rank_of(cards[i]))


def forbidden_dealer_bid(rules: Rules, hand_size: int, others_total: int) -> int | None:
    """The bid the hook forbids the dealer, or None."""
    if not rules.hook_applies(hand_size):
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
    seats: list[int] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)
    winner: int = -1


@dataclass
class DealLog:
    """One deal: ``bids`` is None for seats that sat it out."""

    index: int
    dealer: int
    hand_size: int
    hands: list[list[int]]
    trump_card: int | None
    trump: int | None
    bids: list[int | None]
    forbidden_bid: int | None
    tricks: list[TrickLog]
    tricks_won: list[int]
    scores: list[int]
    passed: list[list[int]] | None = None
    faults: list[int] | None = None
    tiebreak: bool = False


@dataclass
class GameLog:
    """Everything that happened in one game, from :func:`replay`."""

    rules: Rules
    strategies: list[str]
    seed: int
    game: int
    first_dealer: int
    deals: list[DealLog]
    winners: list[int]

    @property
    def totals(self) -> list[int]:
        """Final total per seat (tie-break points included)."""
        return [sum(d.scores[s] for d in self.deals) for s in range(self.rules.players)]

    def to_dict(self) -> dict:
        """The log as JSON-serialisable data; cards as codes like ``"TH"``."""
        return {
            "seed": self.seed,
            "game": self.game,
            "players": self.rules.players,
            "strategies": list(self.strategies),
            "rules": self.rules.to_dict(),
            "deals": [_deal_dict(d) for d in self.deals],
            "totals": self.totals,
            "winners": list(self.winners),
        }

    def __str__(self) -> str:
        n = self.rules.players
        lines = [
            f"Game {self.game} (seed {self.seed}), {n} players: "
            + ", ".join(f"seat {s} {name}" for s, name in enumerate(self.strategies)),
        ]
        running = [0] * n
        for d in self.deals:
            lines.append("")
            turned = "" if d.trump_card is None else f" (turned {card_pretty(d.trump_card)})"
            # Deals and tricks count from 0, as in the frames and in IllegalMoveError.
            last = self.rules.n_deals - 1
            title = f"Deal {d.index} (of 0..{last})"
            if d.tiebreak:
                title = f"Tie-break deal (deal {d.index})"
            lines.append(
                f"{title}: {d.hand_size} card(s), dealer seat {d.dealer}, "
                f"trump {suit_pretty(-1 if d.trump is None else d.trump)}{turned}"
            )
            for s in range(n):
                if d.bids[s] is None:
                    continue
                hand = " ".join(card_pretty(c) for c in d.hands[s])
                passed = ""
                if d.passed is not None:
                    passed = " | passed " + " ".join(card_pretty(c) for c in d.passed[s])
                lines.append(f"  seat {s}: {hand}{passed}")
            hook = "" if d.forbidden_bid is None else f" (dealer could not bid {d.forbidden_bid})"
            bids = ", ".join("-" if b is None else str(b) for b in d.bids)
            lines.append(f"  bids: {bids}{hook}")
            for t_index, trick in enumerate(d.tricks):
                plays = " ".join(
                    f"{seat}:{card_pretty(c)}"
                    for seat, c in zip(trick.seats, trick.cards, strict=True)
                )
                lines.append(f"  trick {t_index}: {plays} -> seat {trick.winner}")
            for s in range(n):
                running[s] += d.scores[s]
            faults = "" if d.faults is None else " | faults: " + ", ".join(map(str, d.faults))
            lines.append(
                f"  tricks: {', '.join(map(str, d.tricks_won))}"
                f" | points: {', '.join(map(str, d.scores))}"
                f" | totals: {', '.join(map(str, running))}{faults}"
            )
        lines.append("")
        finals = ", ".join(f"seat {s} {t}" for s, t in enumerate(self.totals))
        lines.append(f"Final totals: {finals}; winner(s): seat {', '.join(map(str, self.winners))}")
        return "\n".join(lines)


def _deal_dict(d: DealLog) -> dict:
    out = {
        "dealer": d.dealer,
        "hand_size": d.hand_size,
        "hands": [[card_code(c) for c in h] for h in d.hands],
        "trump_card": None if d.trump_card is None else card_code(d.trump_card),
        "trump": None if d.trump is None else SUIT_CODES[d.trump],
        "bids": list(d.bids),
        "forbidden_bid": d.forbidden_bid,
        "tricks": [
            {"leader": t.leader, "cards": [card_code(c) for c in t.cards], "winner": t.winner}
            for t in d.tricks
        ],
        "tricks_won": list(d.tricks_won),
        "scores": list(d.scores),
    }
    if d.passed is not None:
        out["passed"] = [[card_code(c) for c in p] for p in d.passed]
    if d.faults is not None:
        out["faults"] = list(d.faults)
    if d.tiebreak:
        out["tiebreak"] = True
    return out


# --- playing --------------------------------------------------------------------


def _mask(cards: Sequence[int]) -> int:
    return sum(1 << c for c in set(cards))


def _doubles_mask(cards: Sequence[int]) -> int:
    return sum(1 << c for c in set(cards) if list(cards).count(c) > 1)


@dataclass
class DealTable:
    """Everything the engine knows during a deal; views are cut from it."""

    rules: Rules
    deal_index: int
    dealer: int
    hand_size: int
    trump_card: int | None
    trump: int | None
    seats: list[int]
    tiebreak: bool
    totals: list[int]
    faults: list[int]
    hands: list[list[int]]
    forehead: bool
    bids: list[int | None] = field(default_factory=list)
    bids_public: bool = True
    tricks_won: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    voids: list[set[int]] = field(default_factory=list)
    passed: list[list[int]] = field(default_factory=list)
    trick: TrickLog | None = None
    trick_index: int | None = None
    visible: list[int | None] = field(default_factory=list)


def new_table(
    rules: Rules,
    index: int,
    dealer: int,
    hands: Sequence[Sequence[int]],
    turned: int | None,
    seats: list[int],
    totals: list[int],
    faults: list[int],
    tiebreak: bool = False,
) -> DealTable:
    """The table of deal row ``index`` as dealt: ``hands`` in seat order, ``turned``
    the turned-up card (None: none), ``seats`` the seats in the deal."""
    hand_size = len(hands[seats[0]])
    return DealTable(
        rules,
        index,
        dealer,
        hand_size,
        turned,
        trump_of_deal(rules, index, hand_size, turned),
        seats,
        tiebreak,
        totals,
        faults,
        [list(h) for h in hands],
        rules.forehead and hand_size == 1,
        bids=[None] * rules.players,
        bids_public=not rules.closed_bids,
        tricks_won=[0] * rules.players,
        voids=[set() for _ in range(rules.players)],
        passed=[[] for _ in range(rules.players)],
        visible=[h[0] if h else None for h in hands],
    )


def table_steps(
    table: DealTable, names: Sequence[str] | None = None
) -> Generator[Step, object, DealLog]:
    """The play of a dealt ``table`` (:func:`new_table`) as a coroutine, as in :func:`game_steps`.

    It yields a :class:`Decision` per move and mutates ``table`` as the moves
    come; ``names`` name the seats in an :class:`IllegalMoveError`.
    """
    rules = table.rules
    names = list(names) if names is not None else [f"seat {s}" for s in range(rules.players)]
    return _Game(rules, names, 0, 0).play_table(table)


def view_of(
    table: DealTable, seat: int, phase: int, legal: list[int] | None, forbidden: int | None
) -> np.ndarray:
    """The view of ``seat``, built from scratch (see :mod:`ohhell_sim.view`)."""
    rules = table.rules
    n = rules.players
    view = np.full(V.VIEW_SIZE, V.UNKNOWN, dtype=np.int64)
    hand = table.hands[seat]
    hidden = table.forehead and phase == V.PHASE_BID
    view[V.SEAT] = seat
    view[V.HAND] = 0 if hidden else _mask(hand)
    view[V.HAND2] = _doubles_mask(hand)
    view[V.LEGAL] = 0 if legal is None else _mask(legal)
    view[V.FORBIDDEN_BID] = V.UNKNOWN if forbidden is None else forbidden
    view[V.PHASE] = phase
    swapping = bool(table.passed) and rules.swap > 0
    if phase == V.PHASE_SWAP:
        view[V.PASSED] = _mask(table.passed[seat])
        view[V.RECEIVED] = 0
    elif swapping:
        right = next(s for s in table.seats if clockwise(s, table.seats, n) == seat)
        view[V.PASSED] = _mask(table.passed[seat])
        view[V.RECEIVED] = _mask(table.passed[right])
    else:
        view[V.PASSED] = 0
        view[V.RECEIVED] = 0
    view[V.N_PLAYERS] = n
    view[V.DEALER] = table.dealer
    view[V.HAND_SIZE] = table.hand_size
    view[V.TRUMP] = V.UNKNOWN if table.trump is None else table.trump
    view[V.TRUMP_CARD] = V.UNKNOWN if table.trump_card is None else table.trump_card
    view[V.DEAL] = table.deal_index
    view[V.N_DEALS] = rules.n_deals
    view[V.HOOK] = int(rules.hook_applies(table.hand_size))
    view[V.PLAYED] = _mask(table.played)
    view[V.PLAYED2] = _doubles_mask(table.played)
    view[V.MAX_BID] = 0 if rules.nullo else table.hand_size
    view[V.ACTIVE] = _mask(table.seats)
    view[V.N_ACTIVE] = len(table.seats)
    view[V.TIEBREAK] = int(table.tiebreak)
    public_bids = [b for b in table.bids if b is not None] if table.bids_public else []
    view[V.BID_TOTAL] = sum(public_bids)
    view[V.N_IN_TRICK] = 0
    trick = table.trick
    if trick is not None:
        view[V.TRICK] = table.trick_index
        view[V.LEADER] = trick.leader
        view[V.N_IN_TRICK] = len(trick.cards)
        if trick.cards:
            led = _led_suit(trick.cards[0], table.trump)
            view[V.LED_SUIT] = V.UNKNOWN if led is None else led
            winner = trick_winner(trick.cards, table.trump)
            view[V.WINNING_SEAT] = trick.seats[winner]
            view[V.WINNING_CARD] = trick.cards[winner]
        for s, card in zip(trick.seats, trick.cards, strict=True):
            view[V.TRICK_CARDS_BASE + s] = card
    for s in range(n):
        bid = table.bids[s] if table.bids_public else None
        view[V.BIDS_BASE + s] = V.UNKNOWN if bid is None else bid
        view[V.TRICKS_WON_BASE + s] = table.tricks_won[s]
        view[V.VOIDS_BASE + s] = sum(1 << suit for suit in table.voids[s])
        view[V.SCORES_BASE + s] = table.totals[s]
        view[V.FAULTS_BASE + s] = table.faults[s]
        card = table.visible[s] if table.forehead else None
        if not (hidden and s == seat) and card is not None:
            view[V.VISIBLE_BASE + s] = card
    view[V.RULES_BASE : V.RULES_BASE + RULES_SIZE] = rules.to_array()
    return view


def _led_suit(card: int, trump: int | None) -> int | None:
    return trump if card == JOKER else suit_of(card)


@dataclass(frozen=True)
class Decision:
    """A move the game waits for: ``seat`` bids (``role`` "bid") or chooses a card
    ("play", which covers the swap phase), seeing ``view`` (:mod:`ohhell_sim.view`)."""

    role: str
    seat: int
    view: np.ndarray
    deal: int  # the deal row


@dataclass(frozen=True)
class DealPlayed:
    """A deal was played and scored; the game goes on (or ends)."""

    log: DealLog


#: What :func:`game_steps` yields.
Step = Decision | DealPlayed


class _Game:
    """Plays one game as a coroutine; raises IllegalMoveError at the first illegal move."""

    def __init__(self, rules: Rules, names: Sequence[str], seed: int, game: int) -> None:
        self.rules = rules
        self.names = list(names)
        self.seed = seed
        self.game = game

    def illegal(self, code: int, deal: int, seat: int, move: int, trick: int, hand_size: int):
        name = self.names[seat]
        return IllegalMoveError(name, self.game, deal, seat, move, code, trick, hand_size)

    def decide(
        self,
        role: str,
        table: DealTable,
        seat: int,
        phase: int,
        legal: list[int] | None = None,
        forbidden: int | None = None,
    ) -> Generator[Step, object, int]:
        view = view_of(table, seat, phase, legal, forbidden)
        move = yield Decision(role, seat, view, table.deal_index)
        if isinstance(move, bool | np.bool_) or not isinstance(move, int | np.integer):
            code = ERR_BID_NOT_INTEGER if phase == V.PHASE_BID else ERR_CARD_NOT_INTEGER
            trick = table.trick_index if phase == V.PHASE_PLAY else -1
            raise self.illegal(code, table.deal_index, seat, move, trick, table.hand_size)
        return int(move)

    def play_deal(
        self,
        index: int,
        hand_size: int,
        dealer: int,
        seats: list[int],
        totals: list[int],
        faults: list[int],
        tiebreak: bool,
    ) -> Generator[Step, object, DealLog]:
        rules = self.rules
        turn = rules.turns_card(hand_size)
        hands, turned = deal(
            Stream(self.seed, self.game, _DEAL, index), rules, seats, hand_size, dealer, turn
        )
        table = new_table(rules, index, dealer, hands, turned, seats, totals, faults, tiebreak)
        return (yield from self.play_table(table))

    def play_table(self, table: DealTable) -> Generator[Step, object, DealLog]:
        """Play the dealt ``table`` (:func:`new_table`) to the end: swap, bids, tricks, score."""
        rules, n = self.rules, self.rules.players
        index, hand_size, dealer = table.deal_index, table.hand_size, table.dealer
        seats, trump, tiebreak = table.seats, table.trump, table.tiebreak
        hands = [list(h) for h in table.hands]
        turned = table.trump_card
        order = []
        seat = dealer
        for _ in seats:
            seat = clockwise(seat, seats, n)
            order.append(seat)

        passed_log = None
        k = min(rules.swap, hand_size)
        if k:
            for seat in order:
                for _ in range(k):
                    hand = table.hands[seat]
                    card = yield from self.decide(
                        "play", table, seat, V.PHASE_SWAP, legal=sorted(set(hand))
                    )
                    if card not in hand:
                        raise self.illegal(ERR_CARD_NOT_IN_HAND, index, seat, card, -1, hand_size)
                    hand.remove(card)
                    table.passed[seat].append(card)
            for seat in order:
                table.hands[clockwise(seat, seats, n)].extend(table.passed[seat])
            passed_log = [list(p) for p in table.passed]

        forbidden = None
        most = 0 if rules.nullo else hand_size
        for seat in order:
            seat_forbidden = None
            if seat == dealer:
                others = sum(b for b in table.bids if b is not None)
                seat_forbidden = forbidden = forbidden_dealer_bid(rules, hand_size, others)
            bid = yield from self.decide("bid", table, seat, V.PHASE_BID, forbidden=seat_forbidden)
            if not 0 <= bid <= most:
                raise self.illegal(ERR_BID_RANGE, index, seat, bid, -1, hand_size)
            if bid == seat_forbidden:
                raise self.illegal(ERR_BID_HOOK, index, seat, bid, -1, hand_size)
            table.bids[seat] = bid
        table.bids_public = True

        tricks: list[TrickLog] = []
        leader = clockwise(dealer, seats, n)
        for t in range(hand_size):
            trick = TrickLog(leader=leader)
            table.trick, table.trick_index = trick, t
            seat = leader
            for _ in seats:
                led = _led_suit(trick.cards[0], trump) if trick.cards else None
                hand = table.hands[seat]
                legal = legal_cards(hand, led, trump)
                card = yield from self.decide("play", table, seat, V.PHASE_PLAY, legal=legal)
                if card not in hand:
                    raise self.illegal(ERR_CARD_NOT_IN_HAND, index, seat, card, t, hand_size)
                if card not in legal:
                    raise self.illegal(ERR_MUST_FOLLOW, index, seat, card, t, hand_size)
                if (
                    trick.cards
                    and led is not None
                    and not any(follows(c, led, trump) for c in hand)
                ):
                    table.voids[seat].add(led)
                hand.remove(card)
                table.played.append(card)
                trick.seats.append(seat)
                trick.cards.append(card)
                seat = clockwise(seat, seats, n)
            trick.winner = trick.seats[trick_winner(trick.cards, trump)]
            table.tricks_won[trick.winner] += 1
            tricks.append(trick)
            leader = trick.winner

        points = [
            score(rules, table.bids[s], table.tricks_won[s], hand_size) if s in seats else 0
            for s in range(n)
        ]
        log = DealLog(
            index,
            dealer,
            hand_size,
            hands,
            turned,
            trump,
            list(table.bids),
            forbidden,
            tricks,
            list(table.tricks_won),
            points,
            passed=passed_log,
            tiebreak=tiebreak,
        )
        yield DealPlayed(log)
        return log

    def steps(self) -> Generator[Step, object, GameLog]:
        rules, n = self.rules, self.rules.players
        first_dealer = dealer = cut_for_dealer(Stream(self.seed, self.game, _CUT, 0), n)
        totals, faults = [0] * n, [0] * n
        active = list(range(n))
        last_active = active
        deals: list[DealLog] = []
        for index, hand_size in enumerate(rules.schedule):
            if len(active) < 2:
                break  # the catastrophe variant left too few players
            if dealer not in active:
                dealer = clockwise(dealer, active, n)
            log = yield from self.play_deal(index, hand_size, dealer, active, totals, faults, False)
            deals.append(log)
            totals = [t + p for t, p in zip(totals, log.scores, strict=True)]
            if rules.fault_limit:
                last_active = active
                for s in active:
                    faults[s] += abs(log.bids[s] - log.tricks_won[s])
                faults = list(faults)
                log.faults = list(faults)
                active = [s for s in active if faults[s] < rules.fault_limit]
            dealer = (dealer + 1) % n
        candidates = active or last_active
        top = max(totals[s] for s in candidates)
        winners = [s for s in candidates if totals[s] == top]
        if rules.tiebreak and len(winners) > 1:
            if dealer not in winners:
                dealer = clockwise(dealer, winners, n)
            log = yield from self.play_deal(
                rules.n_deals, TIEBREAK_HAND_SIZE, dealer, winners, totals, faults, True
            )
            deals.append(log)
            best = max(log.scores[s] for s in winners)
            winners = [s for s in winners if log.scores[s] == best]
        return GameLog(rules, self.names, self.seed, self.game, first_dealer, deals, winners)


def game_steps(
    rules: Rules, names: Sequence[str], seed: int, game: int
) -> Generator[Step, object, GameLog]:
    """Game ``game`` of the run seeded ``seed``, as a coroutine.

    It yields a :class:`Decision` when a seat must move, and takes the move
    (a bid, or a card id) through ``send``; it yields a :class:`DealPlayed` after
    each deal (send ``None``).  It returns the :class:`GameLog`, with ``names``
    as the seats' names.  An illegal move raises :class:`IllegalMoveError`.
    """
    return _Game(rules, names, seed, game).steps()


def drive(steps: Generator[Step, object, GameLog], answer: Callable[[Decision], object]) -> GameLog:
    """Run ``steps`` to the end, answering each decision with ``answer(decision)``."""
    move = None
    while True:
        try:
            step = steps.send(move)
        except StopIteration as finished:
            return finished.value
        move = answer(step) if isinstance(step, Decision) else None


def seat_streams(seed: int, game: int, players: int) -> list[np.ndarray]:
    """Each seat's random stream in game ``game``, as the kernel gives it to a strategy."""
    return [Stream(seed, game, _SEAT, s).as_array() for s in range(players)]


#: A seat's decisions: ``(bid, play)``, each called as ``f(view, params, rng)``.
SeatFunctions = tuple[Callable, Callable]


def strategy_answer(
    seating: Seating,
    seed: int,
    game: int,
    functions: Sequence[SeatFunctions] | None = None,
    streams: Sequence[np.ndarray] | None = None,
) -> Callable[[Decision], int]:
    """Answer decisions with the seating's strategies.

    Each strategy gets its seat's parameters and random stream, as in the
    kernel, the view and the parameters read-only, built or copied afresh for
    each decision and cut to its own parameters.  An exception raised by
    strategy code becomes a :class:`~ohhell_sim.errors.StrategyError` located at
    its game, deal and seat.  ``functions`` gives each seat's ``(bid, play)`` in
    place of its strategy's current compiled code; ``streams`` the seats'
    random streams, advanced in place (default :func:`seat_streams`, as the
    kernel's).
    """
    if streams is None:
        streams = seat_streams(seed, game, len(seating.strategies))
    if functions is None:
        # A user strategy's mistakes are named, as before a kernel compiles.
        for strategy in seating.user_strategies:
            check_compiles(strategy, checked=seating.checked)
        # A built-in's compile for the reference's arguments is kept on disk, as the
        # kernel's is: else every process that replays or checks a game compiles it.
        functions = [
            kept_on_disk(s, strategy_functions(s, checked=seating.checked))
            for s in seating.strategies
        ]

    def answer(decision: Decision) -> int:
        seat = decision.seat
        func = functions[seat][0 if decision.role == "bid" else 1]
        # Copies of its own for each decision, as the kernel gives a user strategy.
        params = read_only(seating.own_params(seat))
        try:
            return func(read_only(decision.view), params, streams[seat])
        except StrategyError as error:
            raise error.located(game, decision.deal, seat) from error.__cause__
        except Exception as error:  # any exception is the strategy's to report
            found = StrategyError.raised_by(seating.names[seat], decision.role, error)
            raise found.located(game, decision.deal, seat) from error

    return answer


def read_only(array: np.ndarray) -> np.ndarray:
    """A read-only view of ``array`` (``array`` itself stays writable)."""
    view = array.view()
    view.flags.writeable = False
    return view


def play_reference_game(
    rules: Rules,
    seating: Seating,
    seed: int,
    game: int,
    functions: Sequence[SeatFunctions] | None = None,
) -> GameLog:
    """Play game ``game`` of the run seeded ``seed`` and return its log.

    ``functions``: as for :func:`strategy_answer`.

    Raises
    ------
    IllegalMoveError
        When a strategy returns an illegal bid or card.
    """
    steps = game_steps(rules, seating.names, seed, game)
    log = drive(steps, strategy_answer(seating, seed, game, functions))
    # Errors name the strategy, as the kernel's do; the log labels its seats as the frames do.
    return replace(log, strategies=seating.labels)


def replay(rules: Rules, strategies: Sequence[SeatSpec], seed: int = 0, game: int = 0) -> GameLog:
    """Replay one game of a run exactly as :func:`ohhell_sim.simulate` played it.

    Parameters
    ----------
    rules : Rules
        The rules of the run.
    strategies : sequence
        One strategy per seat, as for :func:`ohhell_sim.simulate`.
    seed : int
        The run's seed, ``0 .. 2**63 - 1``.
    game : int
        Index of the game in the run, ``0 .. 2**31 - 1`` (the games a run can hold).

    Returns
    -------
    GameLog
        ``str(log)`` is a readable account; ``log.to_dict()`` is JSON-serialisable.

    Raises
    ------
    InvalidArgumentError
        For a bad argument.
    StrategyError
        When a strategy's code raises, naming the strategy, its line, the seat,
        the game and the deal.
    IllegalMoveError
        When a strategy returns an illegal bid or card.
    """
    rules = check_rules(rules)
    seed = check_seed(seed)
    game = check_game(game)
    return play_reference_game(rules, resolve_seating(strategies, rules.players), seed, game)
