"""The rules of a game: one frozen, validated object.

:class:`Rules` holds every rule switch.  Its defaults are the canonical profile of
``RULES.md`` §1: 3-7 players, the 10→1→10 schedule (8→1→8 with six players,
7→1→7 with seven), a turned-up trump, sequential bids with the dealer hook and
exact-bid scoring of 10 + bid.  Every variant of ``RULES.md`` §2 is a parameter;
:meth:`Rules.preset` builds the named profiles (``canonical``, ``online``,
``openspiel``) with overrides.

The kernel receives the rules as a small ``int64`` array (:meth:`Rules.to_array`,
indexed by the ``R_*`` constants) and the schedule as another, so that changing a
rule never recompiles anything.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ohhell_sim.cards import DECK_SIZE
from ohhell_sim.errors import InvalidArgumentError

MIN_PLAYERS = 3
MAX_PLAYERS_ONE_DECK = 7
MAX_PLAYERS = 10
#: Hand size of the sudden-death tie-break deal.
TIEBREAK_HAND_SIZE = 3

# Index of each rule in the kernel's rules array.
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

#: Points for a made bid other than zero (``k`` is ``trick_points``, 1 by default).
MADE_TABLES = ("10+bid", "10*bid", "10+bid^2", "10+2*bid", "5+bid")
#: Points for a made zero bid; ``cards`` is the hand size.
ZERO_TABLES = ("10", "5", "5+cards", "10+cards")
#: Points for a missed bid, chosen separately for over (too many tricks) and under.
MISS_TABLES = ("zero", "taken", "-diff", "-diff^2", "-10*diff")
#: How trump is chosen: turn up a card, or a fixed pattern of suits (N = no trump).
TRUMP_MODES = ("turn", "SDCH", "CDHS", "CDHSN")
#: Order of hand sizes between 1 and the maximum.
DEAL_ORDERS = ("max-1-max", "1-max-1", "1-max", "max-1")

PRESETS: dict[str, dict[str, object]] = {
    "canonical": {},
    # The online game's page (source 004): its base scoring gives a missed bid the
    # number of tricks taken; its other defaults are the canonical ones.
    "online": {"over": "taken", "under": "taken"},
    # OpenSpiel's oh_hell: tricks x points_per_trick, plus 10 when exact, the hook
    # always on.  Its off_bid_penalty option is over = under = "-diff".
    "openspiel": {"over": "taken", "under": "taken", "hook": True},
}


def canonical_start(players: int) -> int:
    """Cards per player in the first deal by default: 10 (3-5, 8-10 players), 8 (6), 7 (7)."""
    return {6: 8, 7: 7}.get(players, 10)


def make_schedule(order: str, most: int) -> tuple[int, ...]:
    """Hand sizes for a deal ``order`` between 1 and ``most`` (the one-card deal once)."""
    up = list(range(1, most + 1))
    down = up[::-1]
    return tuple(
        {
            "max-1-max": down + up[1:],
            "1-max-1": up + down[1:],
            "1-max": up,
            "max-1": down,
        }[order]
    )


@dataclass(frozen=True)
class Rules:
    """The rules of one game of Oh Hell.

    Every parameter defaults to the canonical profile.  The variant ids of
    ``RULES.md`` are noted in brackets.

    Parameters
    ----------
    players : int
        Number of players: 3 to 7 with one deck, up to 10 with two.
    schedule : sequence of int, optional
        Hand size of every deal, in order.  Overrides ``deal_order`` and
        ``max_cards``.  A single size, e.g. ``(10,)``, makes each game one deal.
        When not given it is derived from ``players``, ``deal_order`` and
        ``max_cards``, and ``dataclasses.replace`` derives it again from the new
        values.
    deal_order : str
        ``"max-1-max"`` (default), ``"1-max-1"`` [V-SCHED-UPDOWN], ``"1-max"`` or
        ``"max-1"`` [V-SCHED-DOWN] [V-DEAL-ORDER].
    max_cards : int or str
        Largest hand: ``"default"`` (10 cards, 8 with six players, 7 with seven)
        [V-CAP], ``"deck"`` (the most the deck allows) or a number [V-MAX-CARDS].
    decks : int
        1, or 2 decks shuffled together [V-TWO-DECKS]; needed for 8-10 players.
        Of two identical cards in one trick, the first played ranks higher.
    hook : bool
        The dealer may not bid so that the bids total the tricks (default true;
        false is [V-NO-HOOK]).
    closed_bids : bool
        Bids are simultaneous and hidden until all are made [V-CLOSED-BIDS].  The
        hook restricts the dealer by the others' bids, which closed bids hide, so
        the two cannot be combined.
    nullo : bool
        Every bid must be zero [V-NULLO].
    trump : str
        ``"turn"`` (turn up the card after the deal, default), or a fixed pattern
        of trump suits by deal: ``"SDCH"``, ``"CDHS"`` or ``"CDHSN"`` (N: no trump;
        also [V-PROGRESSIVE]) [V-FIXED-TRUMP].
    no_trump_every : int
        Deals whose hand size is a multiple of this have no trump and no turned
        card (0: off) [V-NO-TRUMP-K].
    joker : bool
        Add one joker, the highest trump of every deal [V-JOKER].  It counts as a
        trump for following suit; led in a no-trump deal it calls for no suit.  A
        turned-up joker makes the deal a no-trump deal.
    swap : int
        Before bidding, every player passes this many cards (0, 1 or 2; at most
        the hand size) to the next player on the left [V-SWAP].
    forehead : bool
        In one-card deals each player sees every other player's card but not
        their own while bidding [V-FOREHEAD].
    fault_limit : int
        When positive, a missed bid adds ``|bid - tricks|`` to the player's fault
        counter (and scores nothing); at this many faults the player is
        eliminated [V-CATASTROPHE] (the source says 20).
    tiebreak : bool
        Players tied on the top total play one extra 3-card deal; its points
        decide [V-TIEBREAK].
    made, zero, over, under : str
        Scoring tables [V-MADE-POINTS] [V-ZERO-POINTS] [V-OVER-UNDER]; see
        ``MADE_TABLES``, ``ZERO_TABLES`` and ``MISS_TABLES``.  ``"-10*diff"`` for
        both misses is [V-PENALTY]; ``"taken"`` is [V-MISS-TAKEN].
    all_bonus : int
        Extra points for bidding the whole hand and making it (10: [V-ALL-BONUS]).
    double_all : bool
        Double a made bid equal to the hand size, before ``all_bonus`` [V-DOUBLE-ALL].
    trick_points : int
        OpenSpiel's points per trick: multiplies the bid in ``"10+bid"`` and the
        tricks or difference in ``"taken"`` and ``"-diff"`` (default 1).

    Raises
    ------
    InvalidArgumentError
        If a parameter, or a combination, is outside what the rules allow; the
        message names the parameters, the values and what is allowed.

    Examples
    --------
    >>> Rules(players=4).schedule[:3]
    (10, 9, 8)
    >>> Rules(players=4, schedule=[5]).n_deals
    1
    >>> Rules.preset("online", players=5).over
    'taken'
    """

    players: int = 4
    schedule: tuple[int, ...] | None = field(default=None)
    deal_order: str = "max-1-max"
    max_cards: int | str = "default"
    decks: int = 1
    hook: bool = True
    closed_bids: bool = False
    nullo: bool = False
    trump: str = "turn"
    no_trump_every: int = 0
    joker: bool = False
    swap: int = 0
    forehead: bool = False
    fault_limit: int = 0
    tiebreak: bool = False
    made: str = "10+bid"
    zero: str = "10"
    over: str = "zero"
    under: str = "zero"
    all_bonus: int = 0
    double_all: bool = False
    trick_points: int = 1

    def __post_init__(self) -> None:
        setter = object.__setattr__
        setter(self, "decks", _check_int("decks", self.decks, 1, 2))
        most_players = MAX_PLAYERS_ONE_DECK if self.decks == 1 else MAX_PLAYERS
        players = _check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        if players > most_players:
            raise InvalidArgumentError(
                f"players must be an integer in {MIN_PLAYERS}..{MAX_PLAYERS_ONE_DECK} with one "
                f"deck, got {players}; 8 to {MAX_PLAYERS} players need decks=2"
            )
        setter(self, "players", players)
        for name in ("hook", "closed_bids", "nullo", "joker", "forehead", "tiebreak", "double_all"):
            setter(self, name, _check_bool(name, getattr(self, name)))
        for name, choices in (
            ("made", MADE_TABLES),
            ("zero", ZERO_TABLES),
            ("over", MISS_TABLES),
            ("under", MISS_TABLES),
            ("trump", TRUMP_MODES),
            ("deal_order", DEAL_ORDERS),
        ):
            _check_choice(name, getattr(self, name), choices)
        for name, low, high in (
            ("no_trump_every", 0, 52),
            ("swap", 0, 2),
            ("fault_limit", 0, 10_000),
            ("all_bonus", 0, 1000),
            ("trick_points", 1, 100),
        ):
            setter(self, name, _check_int(name, getattr(self, name), low, high))
        self._check_combinations()
        setter(self, "schedule", self._resolve_schedule())
        if self.forehead and 1 not in self.schedule:
            raise InvalidArgumentError(
                "forehead=True applies to the one-card deal, but the schedule "
                f"{list(self.schedule)} has none: the forehead rule needs hand size 1"
            )

    def _check_combinations(self) -> None:
        if self.closed_bids and self.hook:
            raise InvalidArgumentError(
                "closed_bids=True cannot be combined with hook=True: the hook restricts the "
                "dealer's bid by the others' bids, which closed bids hide; pass hook=False"
            )
        if self.fault_limit and (self.over != "zero" or self.under != "zero"):
            raise InvalidArgumentError(
                f"fault_limit={self.fault_limit} counts a missed bid as faults instead of "
                f"points, so over and under must be 'zero'; got over={self.over!r}, "
                f"under={self.under!r}"
            )
        if self.forehead and self.swap:
            raise InvalidArgumentError(
                f"forehead=True cannot be combined with swap={self.swap}: a player cannot "
                "choose which card to pass when they cannot see their own card"
            )

    @property
    def deck_size(self) -> int:
        """Cards in the deck: 52 per deck, plus the joker."""
        return DECK_SIZE * self.decks + int(self.joker)

    def turns_card(self, hand_size: int) -> bool:
        """Whether a card is turned up for trump in a deal of ``hand_size`` cards."""
        return self.trump == "turn" and not self.is_no_trump_size(hand_size)

    def is_no_trump_size(self, hand_size: int) -> bool:
        """Whether the no-trump-every-k rule makes a deal of ``hand_size`` no-trump."""
        return self.no_trump_every > 0 and hand_size % self.no_trump_every == 0

    def most_cards(self) -> int:
        """Largest hand size the deck allows at this table (with a turned-up card)."""
        turned = 1 if self.trump == "turn" else 0
        return (self.deck_size - turned) // self.players

    def _resolve_schedule(self) -> tuple[int, ...]:
        # A derived schedule is derived again: ``dataclasses.replace`` passes it
        # back, and must not keep, say, a four-player schedule for six players.
        if self.schedule is None or isinstance(self.schedule, _DerivedSchedule):
            return _DerivedSchedule(self._ordered_schedule())
        schedule = _check_schedule(self.schedule, self)
        if (self.deal_order, self.max_cards) != ("max-1-max", "default"):
            ordered = self._ordered_schedule()
            if schedule != ordered:
                raise InvalidArgumentError(
                    f"schedule {list(schedule)} contradicts deal_order={self.deal_order!r} "
                    f"and max_cards={self.max_cards!r} (which give {list(ordered)}); "
                    "pass either the schedule or those two"
                )
        return schedule

    def _ordered_schedule(self) -> tuple[int, ...]:
        if self.max_cards == "default":
            most = canonical_start(self.players)
        elif self.max_cards == "deck":
            most = self.most_cards()
        else:
            most = _check_int("max_cards", self.max_cards, 1, DECK_SIZE * 2)
        return _check_schedule(make_schedule(self.deal_order, most), self, "max_cards")

    @property
    def n_deals(self) -> int:
        """Number of scheduled deals in a game (a tie-break deal comes on top)."""
        return len(self.schedule)

    @property
    def max_hand_size(self) -> int:
        """Largest hand size in the schedule."""
        return max(self.schedule)

    @property
    def deal_rows(self) -> int:
        """Deals the result arrays hold per game: the schedule, plus the tie-break deal."""
        return self.n_deals + int(self.tiebreak)

    def hand_sizes(self) -> np.ndarray:
        """Hand size of every deal row (``deal_rows`` of them), as ``int64``."""
        sizes = list(self.schedule) + ([TIEBREAK_HAND_SIZE] if self.tiebreak else [])
        return np.asarray(sizes, dtype=np.int64)

    def to_array(self) -> np.ndarray:
        """The rules as the kernel reads them (``int64``, indexed by ``R_*``)."""
        arr = np.zeros(RULES_SIZE, dtype=np.int64)
        arr[R_PLAYERS] = self.players
        arr[R_N_DEALS] = self.n_deals
        arr[R_HOOK] = int(self.hook)
        arr[R_MADE] = MADE_TABLES.index(self.made)
        arr[R_ZERO] = ZERO_TABLES.index(self.zero)
        arr[R_OVER] = MISS_TABLES.index(self.over)
        arr[R_UNDER] = MISS_TABLES.index(self.under)
        arr[R_ALL_BONUS] = self.all_bonus
        arr[R_DOUBLE_ALL] = int(self.double_all)
        arr[R_TRICK_POINTS] = self.trick_points
        arr[R_DECKS] = self.decks
        arr[R_JOKER] = int(self.joker)
        arr[R_TRUMP_MODE] = TRUMP_MODES.index(self.trump)
        arr[R_NO_TRUMP_EVERY] = self.no_trump_every
        arr[R_CLOSED_BIDS] = int(self.closed_bids)
        arr[R_NULLO] = int(self.nullo)
        arr[R_SWAP] = self.swap
        arr[R_FOREHEAD] = int(self.forehead)
        arr[R_FAULT_LIMIT] = self.fault_limit
        arr[R_TIEBREAK] = int(self.tiebreak)
        return arr

    def schedule_array(self) -> np.ndarray:
        """The schedule as an ``int64`` array."""
        return np.asarray(self.schedule, dtype=np.int64)

    def to_dict(self) -> dict:
        """A JSON-serialisable dict that :meth:`from_dict` turns back into these rules."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["schedule"] = list(self.schedule)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """Build rules from :meth:`to_dict` output."""
        return cls(**data)

    @classmethod
    def preset(cls, name: str, **overrides: object) -> Rules:
        """Rules of a named profile (``PRESETS``), with any parameter overridden.

        Raises
        ------
        InvalidArgumentError
            For an unknown preset name or parameter.
        """
        if name not in PRESETS:
            raise InvalidArgumentError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(overrides) - names)
        if unknown:
            raise InvalidArgumentError(
                f"unknown rule parameter(s) {unknown}; parameters: {', '.join(sorted(names))}"
            )
        return cls(**{**PRESETS[name], **overrides})


def _check_int(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentError(f"{name} must be an integer in {low}..{high}, got {value!r}")
    if not low <= int(value) <= high:
        raise InvalidArgumentError(f"{name} must be an integer in {low}..{high}, got {value}")
    return int(value)


def _check_bool(name: str, value: object) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise InvalidArgumentError(f"{name} must be True or False, got {value!r}")
    return bool(value)


class _DerivedSchedule(tuple):
    """A schedule that :class:`Rules` derived from its other parameters (equal to a tuple)."""

    __slots__ = ()


def _check_choice(name: str, value: object, choices: Sequence[str]) -> None:
    if value not in choices:
        allowed = ", ".join(map(repr, choices))
        raise InvalidArgumentError(f"{name} must be one of {allowed}; got {value!r}")


def _check_schedule(schedule: Sequence[int], rules: Rules, name: str = "schedule"):
    if isinstance(schedule, str | bytes) or not isinstance(schedule, Sequence | np.ndarray):
        raise InvalidArgumentError(f"schedule must be a sequence of hand sizes, got {schedule!r}")
    if len(schedule) == 0:
        raise InvalidArgumentError("schedule must hold at least one hand size, got none")
    sizes = []
    for i, size in enumerate(schedule):
        if isinstance(size, bool) or not isinstance(size, numbers.Integral) or size < 1:
            raise InvalidArgumentError(
                f"schedule[{i}] must be a positive integer hand size, got {size!r}"
            )
        size = int(size)
        need = rules.players * size + int(rules.turns_card(size))
        if need > rules.deck_size:
            what = f"{name}={rules.max_cards!r}" if name == "max_cards" else f"schedule[{i}]"
            raise InvalidArgumentError(
                f"{what}: a deal of {size} cards is not playable with {rules.players} players: "
                f"it needs {rules.players} x {size}"
                + (" + 1 turned-up" if rules.turns_card(size) else "")
                + f" = {need} cards, and the deck holds {rules.deck_size} "
                f"(decks={rules.decks}, joker={rules.joker}); the most is {rules.most_cards()}"
            )
        sizes.append(size)
    return tuple(sizes)
