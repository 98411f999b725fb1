"""What the studies share: the strategy fields, bidding positions and argument checks.

Every distinct *set* of strategies in a seating compiles its own kernel (tens of
seconds), so the mixed field seats one set, :data:`MIX_STRATEGIES`, at every table
size: one kernel serves every player count and rule variant.  ``learned`` bids the
legal bid of highest expected points under the active scoring tables (so it
reacts to scoring variants), ``simple`` counts high cards and trumps, and
``zero`` bids nothing whenever it expects under one trick.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import MAX_PLAYERS_ONE_DECK, MIN_PLAYERS
from ohhell_sim.rules import bidding_position as rules_bidding_position

#: The strategy set of every mixed table (one kernel for all of them).
MIX_STRATEGIES = ("learned", "simple", "zero")

#: The strategy fields a study plays each condition in: one strategy in every
#: seat, and the mixed table :data:`MIX_FIELD`.  A finding about the game should
#: hold in every field; one that holds in some only depends on who is playing.
UNIFORM_FIELDS = ("simple", "card_counter", "learned", "mc_bidder", "distilled")
#: The mixed field: the seats take :data:`MIX_STRATEGIES` in turn.
MIX_FIELD = "mix"
FIELDS = (*UNIFORM_FIELDS, MIX_FIELD)
#: Samples per bid of ``mc_bidder`` in the study fields: a quarter of its default,
#: which keeps its field affordable at study sizes.
MC_BIDDER_SAMPLES = 16.0
#: The label of a row pooled over strata (table sizes, players or strategies),
#: each weighing the same; each study says what its strata are.
STANDARDISED = "all (standardised)"


def field_seats(field: str, players: int) -> tuple:
    """The seats of strategy field ``field`` (one of :data:`FIELDS`) at a table of ``players``
    (``mc_bidder`` with :data:`MC_BIDDER_SAMPLES` samples per bid); an unknown field raises,
    listing the fields."""
    if field == MIX_FIELD:
        return tuple(MIX_STRATEGIES[i % len(MIX_STRATEGIES)] for i in range(players))
    if field not in UNIFORM_FIELDS:
        raise InvalidArgumentError(f"unknown field {field!r}; fields: {', '.join(FIELDS)}")
    if field == "mc_bidder":
        return (("mc_bidder", {"samples": MC_BIDDER_SAMPLES}),) * players
    return (field,) * players


def fields_text(fields: Iterable[str]) -> str:
    """What the strategy fields ``fields`` seat, naming only those (a report's method).

    ``"simple, card_counter: one strategy in every seat; mix: learned, simple, zero
    in turn"``; ``mc_bidder``'s samples per bid are named when it is among them.
    """
    fields = tuple(fields)
    uniform = [f for f in fields if f in UNIFORM_FIELDS]
    parts = []
    if uniform:
        samples = ""
        if "mc_bidder" in uniform:
            samples = f" (mc_bidder with {MC_BIDDER_SAMPLES:g} samples per bid)"
        parts.append(f"{', '.join(uniform)}: one strategy in every seat{samples}")
    if MIX_FIELD in fields:
        parts.append(f"{MIX_FIELD}: {', '.join(MIX_STRATEGIES)} in turn")
    return "; ".join(parts)


def check_fields(fields: object, known: Iterable[str] | None = None) -> tuple[str, ...]:
    """``fields`` as a tuple of the ``known`` names (default :data:`FIELDS`), or raise naming
    the bad one."""
    known = FIELDS if known is None else tuple(known)
    if isinstance(fields, str):
        fields = (fields,)
    values = tuple(fields) if isinstance(fields, Iterable) else (fields,)
    if not values:
        raise InvalidArgumentError(f"fields must name at least one of {', '.join(known)}")
    for value in values:
        if value not in known:
            raise InvalidArgumentError(
                f"unknown field {value!r} in fields; fields: {', '.join(known)}"
            )
        if values.count(value) > 1:
            # Each field's conditions would be played twice and counted twice.
            raise InvalidArgumentError(f"fields names {value!r} twice, in {list(values)}")
    return values


def bidding_position(hands: pd.DataFrame) -> np.ndarray:
    """Bidding position of each row of ``hands`` (``seat``, ``dealer``, ``players``): 0 bids
    first (and leads), ``players - 1`` is the dealer."""
    return rules_bidding_position(
        hands["seat"].to_numpy(), hands["dealer"].to_numpy(), hands["players"].to_numpy()
    )


#: Order of the position labels in tables and figures.
POSITION_ORDER = ("1st (leads)", "2nd", "3rd", "4th", "5th", "6th", "dealer")


def position_categories(hands: pd.DataFrame) -> pd.Categorical:
    """Each row's bidding position named (:data:`POSITION_ORDER`: ``"1st (leads)"``, ``"2nd"``,
    ..., ``"dealer"``) as a category, made from the positions' numbers: a study labels
    millions of rows, and text would be a string each."""
    position, players = bidding_position(hands), hands["players"].to_numpy()
    if players.size and players.max() > len(POSITION_ORDER):
        raise InvalidArgumentError(
            f"players must be at most {len(POSITION_ORDER)} to label bidding positions, "
            f"got {players.max()}"
        )
    dealer = POSITION_ORDER.index("dealer")
    codes = np.where(position == players - 1, dealer, position).astype(np.int8)
    return pd.Categorical.from_codes(codes, POSITION_ORDER)


def position_labels(hands: pd.DataFrame) -> np.ndarray:
    """:func:`position_categories` as text, one object per row."""
    return np.asarray(position_categories(hands), dtype=object)


def count_label(counts: pd.Series | np.ndarray, top: int = 3) -> np.ndarray:
    """Counts as labels, ``top`` or more as one: ``[0, 1, 4]`` -> ``["0", "1", "3+"]``."""
    counts = np.asarray(counts)
    return np.where(counts >= top, f"{top}+", counts.astype(str))


def hand_bands(sizes: pd.Series, bands: Mapping[str, Sequence[int]]) -> tuple[pd.Series, pd.Series]:
    """Each hand size's band (name -> its sizes; ``""`` in none) and its place in the band
    (-1 in none), so that two bands are compared size by size."""
    names = {size: band for band, members in bands.items() for size in members}
    ranks = {size: rank for members in bands.values() for rank, size in enumerate(members)}
    return sizes.map(names).fillna(""), sizes.map(ranks).fillna(-1).astype(np.int64)


def check_players(players: object) -> tuple[int, ...]:
    """``players`` as a sorted tuple of distinct table sizes in 3..7 (one deck, which every
    study plays), or :class:`InvalidArgumentError` naming the value."""
    allowed = f"{MIN_PLAYERS}..{MAX_PLAYERS_ONE_DECK}"
    if isinstance(players, numbers.Integral) and not isinstance(players, bool):
        players = (players,)
    if not isinstance(players, Iterable) or isinstance(players, str | bytes):
        raise InvalidArgumentError(
            f"players must be a list of table sizes in {allowed}, got {players!r}"
        )
    values = list(players)
    if not values:
        raise InvalidArgumentError(f"players must name at least one table size in {allowed}")
    for value in values:
        if (
            isinstance(value, bool)
            or not isinstance(value, numbers.Integral)
            or not MIN_PLAYERS <= int(value) <= MAX_PLAYERS_ONE_DECK
        ):
            raise InvalidArgumentError(
                f"players must be table sizes in {allowed}, got {value!r} in {values!r}"
            )
    return tuple(sorted({int(v) for v in values}))


#: The z of a one-sided 95% level: after k games the stronger of two players is ahead
#: with probability Phi(sqrt(k) * mean / sd), in a normal approximation.
Z_AHEAD = float(scipy_stats.norm.ppf(0.95))


def games_to_be_ahead(mean: object, sd: object) -> np.ndarray:
    """The games a player needs to be ahead of another 95% of the time, ``(z * sd / mean)**2``
    rounded up, for a per-game lead of ``mean`` with spread ``sd`` (arrays broadcast);
    infinite where the player is not ahead on average.

    Examples
    --------
    >>> games_to_be_ahead([10.0, 0.0], [30.0, 30.0]).tolist()
    [25.0, inf]
    """
    mean, sd = np.asarray(mean, dtype=float), np.asarray(sd, dtype=float)
    ratio = np.divide(
        Z_AHEAD * sd, mean, out=np.full(np.broadcast(mean, sd).shape, np.inf), where=mean > 0
    )
    return np.ceil(ratio**2)
