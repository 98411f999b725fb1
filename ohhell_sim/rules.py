"""The rules of a game: one frozen, validated object.

:class:`Rules` holds every rule switch.  Its defaults are the canonical profile of
``RULES.md`` §1: 3-7 players, the 10→1→10 schedule (8→1→8 with six players,
7→1→7 with seven), a turned-up trump, sequential bids with the dealer hook and
exact-bid scoring of 10 + bid.

The kernel receives the rules as a small ``int64`` array (:meth:`Rules.to_array`,
indexed by the ``R_*`` constants) and the schedule as another, so that changing a
rule never recompiles anything.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from ohhell_sim.cards import DECK_SIZE
from ohhell_sim.errors import InvalidArgumentError

MIN_PLAYERS = 3
MAX_PLAYERS = 7

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
RULES_SIZE = 24

#: Points for a made bid other than zero (``k`` is ``trick_points``, 1 by default).
MADE_TABLES = ("10+bid", "10*bid", "10+bid^2", "10+2*bid", "5+bid")
#: Points for a made zero bid; ``cards`` is the hand size.
ZERO_TABLES = ("10", "5", "5+cards", "10+cards")
#: Points for a missed bid, chosen separately for over (too many tricks) and under.
MISS_TABLES = ("zero", "taken", "-diff", "-diff^2", "-10*diff")


def canonical_start(players: int) -> int:
    """Cards per player in the first deal of the canonical schedule."""
    if players <= 5:
        return 10
    return 8 if players == 6 else 7


def down_up_schedule(start: int) -> tuple[int, ...]:
    """``start, start-1, ..., 1, ..., start`` with the one-card deal played once."""
    down = list(range(start, 0, -1))
    return tuple(down + down[-2::-1])


@dataclass(frozen=True)
class Rules:
    """The rules of one game of Oh Hell.

    Parameters
    ----------
    players : int
        Number of players, 3 to 7.
    schedule : sequence of int, optional
        Hand size of every deal, in order.  Defaults to the canonical down-and-up
        schedule for ``players``.  A single size, e.g. ``(10,)``, makes each game
        one deal of that size.
    hook : bool
        When true (the default) the dealer may not bid so that the bids total the
        number of tricks in the deal.
    made : str
        Points for a made bid above zero, one of ``MADE_TABLES``: ``"10+bid"``
        (default), ``"10*bid"``, ``"10+bid^2"``, ``"10+2*bid"``, ``"5+bid"``.
    zero : str
        Points for a made zero bid, one of ``ZERO_TABLES``: ``"10"`` (default),
        ``"5"``, ``"5+cards"``, ``"10+cards"`` (cards = hand size).
    over, under : str
        Points for a bid missed by taking too many (``over``) or too few
        (``under``) tricks, one of ``MISS_TABLES``: ``"zero"`` (default),
        ``"taken"`` (the tricks taken), ``"-diff"``, ``"-diff^2"`` (minus the
        difference, or its square) and ``"-10*diff"`` (the harsh penalty rule).
    all_bonus : int
        Extra points for bidding the whole hand and making it (10 in the
        "tout réussi" variant; default 0).
    double_all : bool
        Double the points of a made bid equal to the hand size (before
        ``all_bonus`` is added).
    trick_points : int
        OpenSpiel's points per trick: multiplies the bid in ``"10+bid"`` and the
        tricks or difference in ``"taken"`` and ``"-diff"`` (default 1).

    Raises
    ------
    ValueError
        If a parameter is outside what the rules allow; the message names the
        parameter, the value and what is allowed.

    Examples
    --------
    >>> Rules(players=4).schedule[:3]
    (10, 9, 8)
    >>> Rules(players=4, schedule=[5]).n_deals
    1
    """

    players: int = 4
    schedule: tuple[int, ...] | None = field(default=None)
    hook: bool = True
    made: str = "10+bid"
    zero: str = "10"
    over: str = "zero"
    under: str = "zero"
    all_bonus: int = 0
    double_all: bool = False
    trick_points: int = 1

    def __post_init__(self) -> None:
        players = _check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        object.__setattr__(self, "players", players)
        for name in ("hook", "double_all"):
            object.__setattr__(self, name, _check_bool(name, getattr(self, name)))
        _check_choice("made", self.made, MADE_TABLES)
        _check_choice("zero", self.zero, ZERO_TABLES)
        _check_choice("over", self.over, MISS_TABLES)
        _check_choice("under", self.under, MISS_TABLES)
        object.__setattr__(self, "all_bonus", _check_int("all_bonus", self.all_bonus, 0, 1000))
        object.__setattr__(
            self, "trick_points", _check_int("trick_points", self.trick_points, 1, 100)
        )
        schedule = (
            down_up_schedule(canonical_start(players))
            if self.schedule is None
            else _check_schedule(self.schedule, players)
        )
        object.__setattr__(self, "schedule", schedule)

    @property
    def n_deals(self) -> int:
        """Number of deals in a game."""
        return len(self.schedule)

    @property
    def max_hand_size(self) -> int:
        """Largest hand size in the schedule."""
        return max(self.schedule)

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
        return arr

    def schedule_array(self) -> np.ndarray:
        """The schedule as an ``int64`` array."""
        return np.asarray(self.schedule, dtype=np.int64)

    def to_dict(self) -> dict:
        """A JSON-serialisable dict that :meth:`from_dict` turns back into these rules."""
        out = asdict(self)
        out["schedule"] = list(self.schedule)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """Build rules from :meth:`to_dict` output."""
        return cls(**data)


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


def _check_choice(name: str, value: object, choices: Sequence[str]) -> None:
    if value not in choices:
        raise InvalidArgumentError(
            f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}"
        )


def _check_schedule(schedule: Sequence[int], players: int) -> tuple[int, ...]:
    if isinstance(schedule, str | bytes) or not isinstance(schedule, Sequence | np.ndarray):
        raise InvalidArgumentError(f"schedule must be a sequence of hand sizes, got {schedule!r}")
    if len(schedule) == 0:
        raise InvalidArgumentError(
            "schedule must hold at least one hand size, got an empty sequence"
        )
    # One card more than the hands: the turned-up trump.
    most = (DECK_SIZE - 1) // players
    sizes = []
    for i, size in enumerate(schedule):
        if isinstance(size, bool) or not isinstance(size, numbers.Integral):
            raise InvalidArgumentError(f"schedule[{i}] must be an integer hand size, got {size!r}")
        if not 1 <= int(size) <= most:
            raise InvalidArgumentError(
                f"schedule[{i}] = {size} is not playable with {players} players: a deal "
                f"needs {players} x hand size + 1 (trump) cards of {DECK_SIZE}, so hand "
                f"sizes must be in 1..{most}"
            )
        sizes.append(int(size))
    return tuple(sizes)
