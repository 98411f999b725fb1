"""The rules of a game: one frozen, validated object.

:class:`Rules` holds every rule switch; :data:`ohhell_sim.rules.params.PARAMS`
declares each one (default, allowed values, variant ids, doc), and this module
adds what ties them together: the schedule derived from them, the combinations
the rules forbid, the kernel's array and the named presets.  Its defaults are the
canonical profile of ``RULES.md`` §1: 3-7 players, the 10→1→10 schedule (8→1→8
with six players, 7→1→7 with seven), a turned-up trump, sequential bids with the
dealer hook and exact-bid scoring of 10 + bid.

The kernel receives the rules as a small ``int64`` array (:meth:`Rules.to_array`,
indexed by the ``R_*`` constants) and the schedule as another, so that changing a
rule never recompiles anything.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ohhell_sim.cards import DECK_SIZE
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules.layout import (
    HOOK_NOT_ONE_CARD,
    R_HOOK,
    R_N_DEALS,
    RULES_SIZE,
    TIEBREAK_HAND_SIZE,
)
from ohhell_sim.rules.listing import numpydoc_parameters
from ohhell_sim.rules.params import (
    MAX_PLAYERS,
    MAX_PLAYERS_ONE_DECK,
    MIN_PLAYERS,
    PARAMS,
    DerivedSchedule,
    default,
    get_param,
)

PRESETS: dict[str, dict[str, object]] = {
    "canonical": {},
    # The online game's page (source 004): its base scoring gives a missed bid the
    # number of tricks taken; its other defaults are the canonical ones.
    "online": {"over": "taken", "under": "taken"},
    # OpenSpiel's oh_hell: tricks x points_per_trick, plus 10 when exact, the hook
    # in every deal, one trick too.  Its off_bid_penalty option is over = under = "-diff".
    "openspiel": {"over": "taken", "under": "taken", "hook": True, "hook_one_card": True},
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

    Every parameter defaults to the canonical profile; the variant ids of
    ``RULES.md`` are noted in brackets.  ``ohhell rules`` lists the same.

    {parameters}

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

    players: int = default("players")
    schedule: tuple[int, ...] | None = default("schedule")
    deal_order: str = default("deal_order")
    max_cards: int | str = default("max_cards")
    decks: int = default("decks")
    hook: bool = default("hook")
    hook_one_card: bool = default("hook_one_card")
    closed_bids: bool = default("closed_bids")
    nullo: bool = default("nullo")
    trump: str = default("trump")
    no_trump_every: int = default("no_trump_every")
    joker: bool = default("joker")
    swap: int = default("swap")
    forehead: bool = default("forehead")
    fault_limit: int = default("fault_limit")
    tiebreak: bool = default("tiebreak")
    made: str = default("made")
    zero: str = default("zero")
    over: str = default("over")
    under: str = default("under")
    all_bonus: int = default("all_bonus")
    double_all: bool = default("double_all")
    trick_points: int = default("trick_points")

    def __post_init__(self) -> None:
        for param in PARAMS:
            object.__setattr__(self, param.name, param.check(getattr(self, param.name)))
        self._check_combinations()
        object.__setattr__(self, "schedule", self._resolve_schedule())
        if self.forehead and 1 not in self.schedule:
            raise InvalidArgumentError(
                "forehead=True applies to the one-card deal, but the schedule "
                f"{list(self.schedule)} has none: the forehead rule needs hand size 1"
            )

    def _check_combinations(self) -> None:
        if self.decks == 1 and self.players > MAX_PLAYERS_ONE_DECK:
            raise InvalidArgumentError(
                f"players must be an integer in {MIN_PLAYERS}..{MAX_PLAYERS_ONE_DECK} with one "
                f"deck, got {self.players}; 8 to {MAX_PLAYERS} players need decks=2"
            )
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

    def hook_applies(self, hand_size: int) -> bool:
        """Whether the hook binds the dealer in a deal of ``hand_size`` cards."""
        return self.hook and (self.hook_one_card or hand_size != 1)

    def most_cards(self) -> int:
        """Largest hand size the deck allows at this table (with a turned-up card)."""
        turned = 1 if self.trump == "turn" else 0
        return (self.deck_size - turned) // self.players

    def _resolve_schedule(self) -> tuple[int, ...]:
        # A derived schedule is derived again: ``dataclasses.replace`` passes it
        # back, and must not keep, say, a four-player schedule for six players.
        if self.schedule is None or isinstance(self.schedule, DerivedSchedule):
            return DerivedSchedule(self._ordered_schedule())
        schedule = self._check_fit(self.schedule)
        if (self.deal_order, self.max_cards) != (default("deal_order"), default("max_cards")):
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
            most = self.max_cards
        return self._check_fit(make_schedule(self.deal_order, most), "max_cards")

    def _check_fit(self, schedule: Sequence[int], name: str = "schedule") -> tuple[int, ...]:
        """``schedule`` if the deck holds every deal of it, counting the turned-up card."""
        for i, size in enumerate(schedule):
            need = self.players * size + int(self.turns_card(size))
            if need > self.deck_size:
                what = f"{name}={self.max_cards!r}" if name == "max_cards" else f"schedule[{i}]"
                raise InvalidArgumentError(
                    f"{what}: a deal of {size} cards is not playable with {self.players} "
                    f"players: it needs {self.players} x {size}"
                    + (" + 1 turned-up" if self.turns_card(size) else "")
                    + f" = {need} cards, and the deck holds {self.deck_size} "
                    f"(decks={self.decks}, joker={self.joker}); the most is {self.most_cards()}"
                )
        return tuple(schedule)

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
        arr[R_N_DEALS] = self.n_deals
        for param in PARAMS:
            if param.slot is not None:
                arr[param.slot] = param.encode(getattr(self, param.name))
        if self.hook and not self.hook_one_card:
            arr[R_HOOK] = HOOK_NOT_ONE_CARD
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
        for parameter in overrides:
            get_param(parameter)
        return cls(**{**PRESETS[name], **overrides})


# One source for the parameters' docs: the table (``python -OO`` drops docstrings).
if Rules.__doc__:
    Rules.__doc__ = Rules.__doc__.replace("{parameters}", numpydoc_parameters(indent=4))


def check_rules(rules: object) -> Rules:
    """Return ``rules`` if it is a :class:`Rules`, else raise."""
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be an ohhell_sim.Rules, got {type(rules).__name__}")
    return rules
