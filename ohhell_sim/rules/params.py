"""Every rule parameter, declared once.

``PARAMS`` lists the parameters of :class:`ohhell_sim.rules.Rules` in field order:
name, type and allowed values, default, the variant ids of ``RULES.md`` it
implements, a one-line doc, and the slot of the kernel's rules array it fills.
From it come the defaults and value checks of :class:`~ohhell_sim.rules.Rules`,
:meth:`~ohhell_sim.rules.Rules.to_array`, the parsing of ``--rule NAME=VALUE``,
the ``ohhell rules`` listing and the README's variant table.  Checks that tie
several parameters together (the deck must hold the deals, the hook excludes
closed bids, ...) live in :class:`~ohhell_sim.rules.Rules`.
"""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ohhell_sim.cards import DECK_SIZE
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import layout

MIN_PLAYERS = 3
MAX_PLAYERS_ONE_DECK = 7
MAX_PLAYERS = 10

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

_TRUE_WORDS = ("true", "yes", "on", "1")
_FALSE_WORDS = ("false", "no", "off", "0")


@dataclass(frozen=True)
class Variant:
    """A variant of ``RULES.md`` that a parameter implements.

    ``source`` names the files of ``shared/seeds/`` (or the project) it comes
    from; ``value`` is the value that selects it, or None when the parameter as a
    whole is the variant.
    """

    id: str
    source: str
    value: object = None


@dataclass(frozen=True, kw_only=True)
class RuleParam(ABC):
    """One parameter of :class:`~ohhell_sim.rules.Rules` (see the module docstring)."""

    name: str
    default: object
    doc: str
    variants: tuple[Variant, ...] = ()
    #: Index in the kernel's rules array (``R_*``), or None when the kernel does
    #: not read the parameter itself: the schedule carries it, or
    #: :meth:`~ohhell_sim.rules.Rules.to_array` folds it into another slot.
    slot: int | None = None

    @property
    @abstractmethod
    def type_name(self) -> str:
        """Short name of the parameter's type, for listings."""

    @property
    @abstractmethod
    def allowed(self) -> str:
        """The allowed values, in words (the error messages and listings say this)."""

    @abstractmethod
    def check(self, value: object) -> object:
        """Return ``value`` in its canonical type, or raise if it is not allowed.

        Raises
        ------
        InvalidArgumentError
            Naming the parameter, the value and what is allowed.
        """

    @abstractmethod
    def parse(self, text: str) -> object:
        """The checked value that ``text`` (as given to ``--rule NAME=TEXT``) stands for.

        Raises
        ------
        InvalidArgumentError
            Naming the parameter, the text and what is allowed.
        """

    def show(self, value: object) -> str:
        """``value`` as one types it after ``--rule NAME=``."""
        return str(value)

    def encode(self, value: object) -> int:
        """``value`` as the kernel reads it in slot ``slot`` of the rules array."""
        return int(value)

    @abstractmethod
    def samples(self) -> tuple[object, ...]:
        """Allowed values that exercise the parameter: the default, the extremes, the variants."""

    def _refuse(self, value: object) -> InvalidArgumentError:
        return InvalidArgumentError(f"{self.name} must be {self.allowed}, got {value!r}")


@dataclass(frozen=True, kw_only=True)
class IntParam(RuleParam):
    """An integer in ``low..high``."""

    low: int
    high: int

    @property
    def type_name(self) -> str:
        return "int"

    @property
    def allowed(self) -> str:
        return f"an integer in {self.low}..{self.high}"

    def check(self, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise self._refuse(value)
        if not self.low <= int(value) <= self.high:
            raise self._refuse(int(value))
        return int(value)

    def parse(self, text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise self._refuse(text) from None
        return self.check(value)

    def samples(self) -> tuple[object, ...]:
        picks = [self.default, self.low, self.high, *(v.value for v in self.variants)]
        return tuple(dict.fromkeys(p for p in picks if p is not None))


@dataclass(frozen=True, kw_only=True)
class BoolParam(RuleParam):
    """A switch: True or False (``true``/``false``, ``yes``/``no``, ``on``/``off``, 1/0)."""

    @property
    def type_name(self) -> str:
        return "bool"

    @property
    def allowed(self) -> str:
        return "True or False"

    def check(self, value: object) -> bool:
        if not isinstance(value, bool | np.bool_):
            raise self._refuse(value)
        return bool(value)

    def parse(self, text: str) -> bool:
        word = text.strip().lower()
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
        raise InvalidArgumentError(
            f"{self.name} must be true or false (or yes/no, on/off, 1/0), got {text!r}"
        )

    def show(self, value: object) -> str:
        return str(value).lower()

    def samples(self) -> tuple[object, ...]:
        return (self.default, not self.default)


@dataclass(frozen=True, kw_only=True)
class ChoiceParam(RuleParam):
    """One of a fixed tuple of names; the kernel reads the name's index."""

    choices: tuple[str, ...]

    @property
    def type_name(self) -> str:
        return "str"

    @property
    def allowed(self) -> str:
        return "one of " + ", ".join(map(repr, self.choices))

    def check(self, value: object) -> str:
        if not isinstance(value, str) or value not in self.choices:
            raise self._refuse(value)
        return value

    def parse(self, text: str) -> str:
        return self.check(text.strip())

    def encode(self, value: object) -> int:
        return self.choices.index(value)

    def samples(self) -> tuple[object, ...]:
        return self.choices


@dataclass(frozen=True, kw_only=True)
class SizeParam(RuleParam):
    """A hand size in ``1..high``, or one of a few named sizes."""

    names: tuple[str, ...]
    high: int

    @property
    def type_name(self) -> str:
        return "int or str"

    @property
    def allowed(self) -> str:
        return f"{', '.join(map(repr, self.names))} or an integer in 1..{self.high}"

    def check(self, value: object) -> int | str:
        if isinstance(value, str) and value in self.names:
            return value
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise self._refuse(value)
        if not 1 <= int(value) <= self.high:
            raise self._refuse(int(value))
        return int(value)

    def parse(self, text: str) -> int | str:
        text = text.strip()
        if text in self.names:
            return text
        try:
            value = int(text)
        except ValueError:
            raise self._refuse(text) from None
        return self.check(value)

    def samples(self) -> tuple[object, ...]:
        return (*self.names, 1, 7, self.high)


class DerivedSchedule(tuple):
    """A schedule that :class:`~ohhell_sim.rules.Rules` derived from its other parameters.

    It equals the plain tuple of the same sizes; the type only tells
    ``dataclasses.replace`` to derive the schedule again from the new values.
    """

    __slots__ = ()


@dataclass(frozen=True, kw_only=True)
class ScheduleParam(RuleParam):
    """Hand sizes, in order; None derives them from the other parameters.

    Only the form is checked here: whether the deck holds each deal depends on
    the other parameters, and :class:`~ohhell_sim.rules.Rules` checks it.
    """

    @property
    def type_name(self) -> str:
        return "list of int"

    @property
    def allowed(self) -> str:
        return "a non-empty sequence of positive hand sizes, e.g. 10,9,8"

    def check(self, value: object) -> tuple[int, ...] | None:
        if value is None or isinstance(value, DerivedSchedule):
            return value
        if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray):
            raise InvalidArgumentError(f"schedule must be a sequence of hand sizes, got {value!r}")
        if len(value) == 0:
            raise InvalidArgumentError("schedule must hold at least one hand size, got none")
        for i, size in enumerate(value):
            if isinstance(size, bool) or not isinstance(size, numbers.Integral) or size < 1:
                raise InvalidArgumentError(
                    f"schedule[{i}] must be a positive integer hand size, got {size!r}"
                )
        return tuple(int(size) for size in value)

    def parse(self, text: str) -> tuple[int, ...]:
        try:
            sizes = [int(part) for part in text.split(",") if part.strip()]
        except ValueError:
            raise self._refuse(text) from None
        if not sizes or min(sizes) < 1:
            raise self._refuse(text)
        return tuple(sizes)

    def show(self, value: object) -> str:
        return "derived" if value is None else ",".join(map(str, value))

    def samples(self) -> tuple[object, ...]:
        return (None, (1,), (10,), (3, 1, 4, 1, 5))


_MISS_VARIANTS = (
    Variant("V-OVER-UNDER", "004"),
    Variant("V-PENALTY", "001", "-10*diff"),
    Variant("V-MISS-TAKEN", "004", "taken"),
)

#: The parameters of :class:`~ohhell_sim.rules.Rules`, in field order.
PARAMS: tuple[RuleParam, ...] = (
    IntParam(
        name="players",
        default=4,
        low=MIN_PLAYERS,
        high=MAX_PLAYERS,
        slot=layout.R_PLAYERS,
        variants=(Variant("canonical", "000, 002, 003"),),
        doc=f"Number of players: {MIN_PLAYERS}-{MAX_PLAYERS_ONE_DECK} with one deck; "
        f"{MAX_PLAYERS_ONE_DECK + 1}-{MAX_PLAYERS} need decks=2.",
    ),
    ScheduleParam(
        name="schedule",
        default=None,
        variants=(Variant("custom", "this project"),),
        doc="Hand size of every deal, in order ([10]: every game is one deal); "
        "overrides deal_order and max_cards.  Not given, it is derived from players, "
        "deal_order and max_cards (and derived again by dataclasses.replace).",
    ),
    ChoiceParam(
        name="deal_order",
        default="max-1-max",
        choices=DEAL_ORDERS,
        variants=(
            Variant("V-DEAL-ORDER", "004"),
            Variant("V-SCHED-UPDOWN", "001", "1-max-1"),
            Variant("V-SCHED-DOWN", "001", "max-1"),
        ),
        doc="Order of the hand sizes between max_cards and 1; the one-card deal comes once.",
    ),
    SizeParam(
        name="max_cards",
        default="default",
        names=("default", "deck"),
        high=DECK_SIZE * 2,
        variants=(Variant("V-MAX-CARDS", "004"), Variant("V-CAP", "001", "default")),
        doc="Largest hand: 'default' is 10, 8 with six players and 7 with seven; 'deck' "
        "is the most the deck allows (17 for 3 players); or a number of cards.",
    ),
    IntParam(
        name="decks",
        default=1,
        low=1,
        high=2,
        slot=layout.R_DECKS,
        variants=(Variant("V-TWO-DECKS", "001", 2),),
        doc="52-card decks shuffled together; of two identical cards in one trick the "
        "first played ranks higher.",
    ),
    BoolParam(
        name="hook",
        default=True,
        slot=layout.R_HOOK,
        variants=(Variant("V-NO-HOOK", "001", False),),
        doc="The dealer may not bid so that the bids total the number of tricks.",
    ),
    BoolParam(
        name="hook_one_card",
        default=True,
        variants=(Variant("house rule", "this project", False),),
        doc="With hook=True, whether the hook binds the dealer of a one-card deal too; "
        "False (a house rule) lets that dealer bid anything.  Without the hook it "
        "changes nothing.",
    ),
    BoolParam(
        name="closed_bids",
        default=False,
        slot=layout.R_CLOSED_BIDS,
        variants=(Variant("V-CLOSED-BIDS", "004", True),),
        doc="Bids are simultaneous and hidden until all are made; needs hook=False, "
        "since the hook restricts the dealer by the bids this hides.",
    ),
    BoolParam(
        name="nullo",
        default=False,
        slot=layout.R_NULLO,
        variants=(Variant("V-NULLO", "001", True),),
        doc="Every bid must be 0.",
    ),
    ChoiceParam(
        name="trump",
        default="turn",
        choices=TRUMP_MODES,
        slot=layout.R_TRUMP_MODE,
        variants=(Variant("V-FIXED-TRUMP", "004"), Variant("V-PROGRESSIVE", "001", "CDHSN")),
        doc="'turn' turns up the card after the deal; the others fix the trump suit of "
        "each deal in turn (N: no trump), and no card is turned.",
    ),
    IntParam(
        name="no_trump_every",
        default=0,
        low=0,
        high=DECK_SIZE,
        slot=layout.R_NO_TRUMP_EVERY,
        variants=(Variant("V-NO-TRUMP-K", "001", 5),),
        doc="Deals whose hand size is a multiple of this have no trump and no turned "
        "card (0: off).",
    ),
    BoolParam(
        name="joker",
        default=False,
        slot=layout.R_JOKER,
        variants=(Variant("V-JOKER", "001", True),),
        doc="Add one joker, the highest trump of every deal: it follows trump, led at no "
        "trump it calls for no suit, and turned up it makes the deal no-trump (the "
        "source is silent on that).",
    ),
    IntParam(
        name="swap",
        default=0,
        low=0,
        high=2,
        slot=layout.R_SWAP,
        variants=(Variant("V-SWAP", "001", 1),),
        doc="Before bidding every player passes this many cards (at most the hand size) "
        "to the left; the strategy's play chooses them (view[PHASE] == PHASE_SWAP).",
    ),
    BoolParam(
        name="forehead",
        default=False,
        slot=layout.R_FOREHEAD,
        variants=(Variant("V-FOREHEAD", "001", True),),
        doc="In one-card deals a player bids seeing the others' cards (VISIBLE_BASE) but "
        "not their own; needs a one-card deal and swap=0.",
    ),
    IntParam(
        name="fault_limit",
        default=0,
        low=0,
        high=10_000,
        slot=layout.R_FAULT_LIMIT,
        variants=(Variant("V-CATASTROPHE", "001", 20),),
        doc="When positive, a miss scores nothing and adds |bid - tricks| faults; at the "
        "limit the player is eliminated (later deals skip them, the deal passes to the "
        "next player still in, they cannot win, the game ends when fewer than two "
        "remain); needs over = under = 'zero'.",
    ),
    BoolParam(
        name="tiebreak",
        default=False,
        slot=layout.R_TIEBREAK,
        variants=(Variant("V-TIEBREAK", "001", True),),
        doc="Players tied on the top total play an extra 3-card deal among themselves "
        "(dealt by the next of them in rotation); its points decide, a new tie shares "
        "the win.",
    ),
    ChoiceParam(
        name="made",
        default="10+bid",
        choices=MADE_TABLES,
        slot=layout.R_MADE,
        variants=(Variant("V-MADE-POINTS", "004"),),
        doc="Points for a made bid other than zero (bid 3: 13, 30, 19, 16, 8); "
        "trick_points multiplies the bid in '10+bid'.",
    ),
    ChoiceParam(
        name="zero",
        default="10",
        choices=ZERO_TABLES,
        slot=layout.R_ZERO,
        variants=(Variant("V-ZERO-POINTS", "004"),),
        doc="Points for a made zero bid; cards is the hand size.",
    ),
    ChoiceParam(
        name="over",
        default="zero",
        choices=MISS_TABLES,
        slot=layout.R_OVER,
        variants=_MISS_VARIANTS,
        doc="Points for a bid missed by taking too many tricks: none, the tricks taken, "
        "minus the difference, minus its square, or -10 per trick of difference.",
    ),
    ChoiceParam(
        name="under",
        default="zero",
        choices=MISS_TABLES,
        slot=layout.R_UNDER,
        variants=_MISS_VARIANTS,
        doc="Points for a bid missed by taking too few tricks (the tables of over).",
    ),
    IntParam(
        name="all_bonus",
        default=0,
        low=0,
        high=1000,
        slot=layout.R_ALL_BONUS,
        variants=(Variant("V-ALL-BONUS", "001", 10),),
        doc="Extra points for bidding the whole hand and making it (added after double_all).",
    ),
    BoolParam(
        name="double_all",
        default=False,
        slot=layout.R_DOUBLE_ALL,
        variants=(Variant("V-DOUBLE-ALL", "004", True),),
        doc="Double the points of a made bid equal to the hand size (before all_bonus).",
    ),
    IntParam(
        name="trick_points",
        default=1,
        low=1,
        high=100,
        slot=layout.R_TRICK_POINTS,
        variants=(Variant("OpenSpiel", "OpenSpiel's oh_hell"),),
        doc="OpenSpiel's points per trick: multiplies the bid in '10+bid' and the tricks "
        "or the difference in 'taken' and '-diff'.",
    ),
)

#: The parameters by name.
PARAMS_BY_NAME: dict[str, RuleParam] = {param.name: param for param in PARAMS}


def default(name: str) -> object:
    """Default value of parameter ``name`` (the dataclass fields of ``Rules`` take it)."""
    return PARAMS_BY_NAME[name].default


def get_param(name: str) -> RuleParam:
    """The parameter called ``name``.

    Raises
    ------
    InvalidArgumentError
        For an unknown name, listing the parameters.
    """
    try:
        return PARAMS_BY_NAME[name]
    except KeyError:
        raise InvalidArgumentError(
            f"unknown rule parameter {name!r}; parameters: {', '.join(PARAMS_BY_NAME)}"
        ) from None
