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

MIN_PLAYERS = 3
MAX_PLAYERS = 7

# Index of each rule in the kernel's rules array.
R_PLAYERS = 0
R_N_DEALS = 1
R_HOOK = 2
RULES_SIZE = 8


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

    def __post_init__(self) -> None:
        players = _check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        object.__setattr__(self, "players", players)
        if not isinstance(self.hook, bool | np.bool_):
            raise TypeError(f"hook must be True or False, got {self.hook!r}")
        object.__setattr__(self, "hook", bool(self.hook))
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
        raise TypeError(f"{name} must be an integer in {low}..{high}, got {value!r}")
    if not low <= int(value) <= high:
        raise ValueError(f"{name} must be an integer in {low}..{high}, got {value}")
    return int(value)


def _check_schedule(schedule: Sequence[int], players: int) -> tuple[int, ...]:
    if isinstance(schedule, str | bytes) or not isinstance(schedule, Sequence | np.ndarray):
        raise TypeError(f"schedule must be a sequence of hand sizes, got {schedule!r}")
    if len(schedule) == 0:
        raise ValueError("schedule must hold at least one hand size, got an empty sequence")
    # One card more than the hands: the turned-up trump.
    most = (DECK_SIZE - 1) // players
    sizes = []
    for i, size in enumerate(schedule):
        if isinstance(size, bool) or not isinstance(size, numbers.Integral):
            raise TypeError(f"schedule[{i}] must be an integer hand size, got {size!r}")
        if not 1 <= int(size) <= most:
            raise ValueError(
                f"schedule[{i}] = {size} is not playable with {players} players: a deal "
                f"needs {players} x hand size + 1 (trump) cards of {DECK_SIZE}, so hand "
                f"sizes must be in 1..{most}"
            )
        sizes.append(int(size))
    return tuple(sizes)
