"""A designer's own rule sets and strategy pairs, read from text and checked before play.

A rule set is what ``--variant`` and ``--base`` take: ``NAME=VALUE`` assignments of
:class:`~ohhell_sim.rules.Rules` joined by commas (``"made=10*bid,zero=5"``), each
read by the package's one rule parser,
:func:`~ohhell_sim.rules.parse_rule_assignment`; a schedule's own commas stay with
it (``"schedule=1,2,3,hook=false"``).  A strategy pair is ``STRONGER/WEAKER``: two
registered strategies (``--import`` registers a user's), the first expected to be
the stronger.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules, parse_rule_assignment
from ohhell_sim.strategy import get_strategy

#: The rules that only score: a rule set that changes nothing else is a scoring rule,
#: judged only by players whose bids read the scoring tables.
SCORING_PARAMS = ("made", "zero", "over", "under", "all_bonus", "double_all", "trick_points")
#: What separates the two strategies of a pair.
PAIR_SEPARATOR = "/"


def parse_rule_set(text: object, option: str = "variant") -> dict[str, object]:
    """The :class:`Rules` keywords of the rule set ``text``, checked one by one.

    Raises
    ------
    InvalidArgumentError
        Naming ``option`` and ``text``: an assignment the rule parser refuses,
        ``players`` (a study's table sizes are its ``players``), or one rule given
        two values.

    Examples
    --------
    >>> parse_rule_set("made=10*bid, zero=5")
    {'made': '10*bid', 'zero': '5'}
    >>> parse_rule_set("schedule=3,2,1,hook=false")
    {'schedule': (3, 2, 1), 'hook': False}
    """
    if not isinstance(text, str):
        raise InvalidArgumentError(
            f"{option} must be a text of NAME=VALUE rules, e.g. 'hook=false', got {text!r}"
        )
    pieces: list[str] = []
    for piece in text.split(","):
        if "=" in piece or not pieces:
            pieces.append(piece)
        else:
            # A schedule's hand sizes: the comma belongs to the value.
            pieces[-1] += "," + piece
    out: dict[str, object] = {}
    for piece in pieces:
        try:
            name, value = parse_rule_assignment(piece)
        except InvalidArgumentError as error:
            raise InvalidArgumentError(f"{option} {text!r}: {error}") from None
        if name == "players":
            raise InvalidArgumentError(
                f"{option} {text!r}: players is the study's table sizes (--players), not a rule"
            )
        if name in out and out[name] != value:
            raise InvalidArgumentError(
                f"{option} {text!r} gives {name} twice, {out[name]!r} and {value!r}; give it once"
            )
        out[name] = value
    return out


def rule_set_name(text: str) -> str:
    """The name a rule set goes by in a report: its assignments as given, spaced after commas
    between rules (``"made=10*bid, zero=5"``)."""
    pieces: list[str] = []
    for piece in text.split(","):
        if "=" in piece or not pieces:
            pieces.append(piece.strip())
        else:
            pieces[-1] += "," + piece.strip()
    return ", ".join(pieces)


def rule_sets(
    variants: Iterable[str], base: str | None, players: Iterable[int], base_name: str
) -> dict[str, dict[str, object]]:
    """The base, then each variant on top of it: name -> :class:`Rules` keywords.

    Every rule set is built at every table size of ``players`` here, so that a rule
    the deck cannot deal, or two variants that are the same game, raise before
    anything is played.

    Raises
    ------
    InvalidArgumentError
        For no variant, a bad rule set, rules that cannot be played at a table size,
        or a variant that plays the same game as the base or as another variant.
    """
    variants = [variants] if isinstance(variants, str) else list(variants)
    if not variants:
        raise InvalidArgumentError(
            "variants must name at least one rule set, e.g. 'hook=false' (a base alone "
            "has nothing to be compared with)"
        )
    own = {} if base is None else parse_rule_set(base, "base")
    sets = {base_name: own}
    for text in variants:
        name = rule_set_name(text) if isinstance(text, str) else text
        if name in sets:
            raise InvalidArgumentError(f"variant {name!r} is given twice")
        sets[name] = own | parse_rule_set(text)
    seen: dict[tuple, str] = {}
    for name, overrides in sets.items():
        games = []
        for n in players:
            try:
                games.append(repr(sorted(Rules(players=n, **overrides).to_dict().items())))
            except InvalidArgumentError as error:
                option = "base" if name == base_name else "variant"
                raise InvalidArgumentError(
                    f"{option} {name!r} cannot be played at {n} players: {error}"
                ) from None
        key = tuple(games)
        if key in seen:
            raise InvalidArgumentError(
                f"variant {name!r} plays the same game as {seen[key]!r} at every table size; "
                "give rules that change something"
            )
        seen[key] = name
    return sets


def parse_pair(text: str) -> tuple[str, str]:
    """``"STRONGER/WEAKER"`` as two registered strategies' names, or raise naming the field.

    Raises
    ------
    InvalidArgumentError
        For a text without one ``/``, an unknown strategy (import its module with
        ``--import``), or the same strategy twice.
    """
    names = tuple(part.strip() for part in text.split(PAIR_SEPARATOR))
    if len(names) != 2 or not all(names):
        raise InvalidArgumentError(
            f"field {text!r} must be two strategies, the stronger first: STRONGER/WEAKER, "
            "e.g. card_counter/simple"
        )
    for name in names:
        try:
            get_strategy(name)
        except InvalidArgumentError as error:
            raise InvalidArgumentError(
                f"field {text!r}: {error} (a strategy of your own: --import its module)"
            ) from None
    if names[0] == names[1]:
        raise InvalidArgumentError(
            f"field {text!r} seats one strategy twice; skill is measured between two"
        )
    return names[0], names[1]


def scoring_only(overrides: Mapping[str, object], base: Mapping[str, object]) -> bool:
    """Whether ``overrides`` differs from ``base`` (two :meth:`Rules.to_dict`) in scoring
    rules alone (:data:`SCORING_PARAMS`)."""
    changed = {key for key in overrides if overrides[key] != base.get(key)}
    return bool(changed) and changed <= set(SCORING_PARAMS)
