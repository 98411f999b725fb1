"""Gauntlets: each challenger in one seat against a field, on the same cards, merged when alike.

A study that ranks strategies plays one duplicate tournament (:func:`ohhell_sim.tournament`)
per challenger and field, the challenger in one seat and the field's strategy in the others,
all at one seed, so that every challenger meets the same deal sets (:func:`play_gauntlets`);
each seat's bids and tricks deal by deal are kept (:func:`deal_records`).  Challengers that
make the same decisions on every deal they both played are one entry
(:func:`identical_groups`, :func:`merge_identical`); a challenger may also play one-card
deals in every seat (:func:`ohhell_sim.exact.play_one_card`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise

import numpy as np
import pandas as pd

from ohhell_sim._version import __version__
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.exact import play_one_card
from ohhell_sim.strategy import builtin_strategies, get_strategy
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.tournament import tournament

#: Joins the names of identical challengers into the name of their entry.
SAME = " = "
#: What identical challengers must agree on, row by row (one row per game x rotation x seat).
DECISIONS = ("bids", "tricks", "total")


def whole_rotations(games: int, divisor: int, players: int) -> int:
    """``games // divisor`` in whole rotations of ``players`` seats, at least two rotations (a
    slow challenger's share, a confirmation run)."""
    return max(2 * players, games // divisor // players * players)


def check_rotations(study: str, games: int, players: tuple[int, ...]) -> None:
    """Raise unless one table size is given and ``games`` fits duplicate seating; the messages
    name the ``study``."""
    if len(players) != 1:
        raise InvalidArgumentError(f"{study} plays one table size; got players={list(players)}")
    n = players[0]
    if games % n or games < 2 * n:
        raise InvalidArgumentError(
            f"{study} plays each deal set once per rotation of {n} seats: games "
            f"must be a multiple of {n} and at least {2 * n}, got {games}"
        )


def challengers(strategies: Sequence[str] | None) -> tuple[str, ...]:
    """The ``strategies`` checked (registered, at least one, none twice); every built-in
    when None."""
    names = builtin_strategies() if strategies is None else tuple(strategies)
    if not names:
        raise InvalidArgumentError("strategies must name at least one strategy, got none")
    for name in names:
        get_strategy(name)
        if names.count(name) > 1:
            raise InvalidArgumentError(f"strategies names {name!r} twice, in {list(names)}")
    return names


def deal_records(hands: pd.DataFrame) -> pd.DataFrame:
    """Per (rotation, game, seat) of tournament hands: ``bids``, ``tricks`` in deal order, "1,0"."""
    key = ["rotation", "game", "seat"]
    ordered = hands.sort_values([*key, "deal"])
    # A string join per seat and game over the sorted rows: a pandas aggregation would
    # build a Series for each of hundreds of thousands of groups.
    first = ordered[key].ne(ordered[key].shift()).any(axis=1).to_numpy()
    bounds = [*np.flatnonzero(first), len(ordered)]
    records = ordered.loc[first, key].reset_index(drop=True)
    for column, name in (("bid", "bids"), ("tricks", "tricks")):
        text = ordered[column].astype(str).tolist()
        joined = [",".join(text[a:b]) for a, b in pairwise(bounds)]
        records[name] = pd.Series(joined, dtype=str)
    return records


def play_gauntlets(
    study: str,
    plan: Sequence[Condition],
    one_plan: Sequence[Condition],
    seed: int,
    progress: bool = True,
) -> StudyData:
    """Play each gauntlet of ``plan`` (labels ``field`` and ``challenger``, the challenger
    in the first seat) as a duplicate tournament and each one-card condition of
    ``one_plan`` (one or more, all on the same rules and games; its first seat's strategy
    in every seat), all at ``seed``, under one progress bar.

    Returns ``games``: the gauntlets with their labels, ``challenger_seat`` and
    :func:`deal_records`, fields and challengers as categories in the order played;
    ``hands``: the one-card deals; the manifest lists the conditions and the one-card
    record (its rules and games).
    """
    from tqdm.auto import tqdm

    frames, one_card = [], []
    total = sum(c.games for c in [*plan, *one_plan])
    with tqdm(total=total, unit="game", desc=study, disable=not progress) as bar:
        for c in plan:
            result = tournament(c.rules, list(c.seats), c.games, seed, keep_hands=True)
            frame = result.games.assign(
                **c.label, challenger_seat=result.games["strategy"] == result.labels[0]
            )
            frame["strategy"] = frame["strategy"].astype(str)
            frames.append(frame.merge(deal_records(result.hands), on=["rotation", "game", "seat"]))
            bar.update(c.games)
        for c in one_plan:
            one_card.append(play_one_card(c.rules, c.seats[:1], c.games, seed))
            bar.update(c.games)
    long = pd.concat(frames, ignore_index=True)
    # Categories in the order played, so that tables list the fields as given.
    for column in ("field", "challenger"):
        order = list(dict.fromkeys(c.label[column] for c in plan))
        long[column] = pd.Categorical(long[column], categories=order)
    manifest = {
        "version": __version__,
        "seed": seed,
        "conditions": [c.describe() for c in [*plan, *one_plan]],
        "one_card": {"rules": one_plan[0].rules.to_dict(), "games": one_plan[0].games},
    }
    return StudyData(_stacked_one_card(one_card), long, manifest)


def _stacked_one_card(frames: list[pd.DataFrame]) -> pd.DataFrame:
    # The one-card deals are a run's longest frame (millions of rows): each strategy's
    # label is kept as a category code, its positions as a byte.
    names = [frame["strategy"].iloc[0] for frame in frames]
    stacked = pd.concat([frame.drop(columns="strategy") for frame in frames], ignore_index=True)
    codes = np.repeat(np.arange(len(frames)), [len(frame) for frame in frames])
    stacked.insert(0, "strategy", pd.Categorical.from_codes(codes, categories=names))
    return stacked.astype({"position": "int8"})


def gauntlet_games(data: StudyData) -> pd.DataFrame:
    """The games frame of a run, its fields as categories in the order played."""
    long = data.games
    if "field" not in long.columns:
        # Output written before the ladder had fields: its one field is in the manifest.
        long = long.assign(field=data.manifest.get("field", "simple"))
    # Fields in the order played (a category's own order may be alphabetical).
    fields = [str(f) for f in pd.unique(long["field"])]
    return long.assign(field=pd.Categorical(long["field"].astype(str), categories=fields))


def identical_groups(long: pd.DataFrame) -> list[tuple[str, ...]]:
    """Challengers of ``long`` with the same bids and tricks deal by deal and total, seat by seat,
    on every (field, deal set, rotation) both played, in the same fields: one tuple per entry."""
    names = [str(c) for c in pd.unique(long["challenger"])]
    if not set(DECISIONS) <= set(long.columns):
        # Output written before the per-deal records existed: nothing to compare.
        return [(name,) for name in names]
    key = ["field", "unit", "rotation", "seat"]
    records = {
        name: part.set_index(key)[list(DECISIONS)].sort_index()
        for name, part in long.groupby("challenger", observed=True, sort=False)
    }
    fields = {name: set(part.index.get_level_values("field")) for name, part in records.items()}

    def same(first: str, name: str) -> bool:
        shared = records[first].index.intersection(records[name].index)
        return fields[first] == fields[name] == set(shared.get_level_values("field")) and (
            records[first].loc[shared].equals(records[name].loc[shared])
        )

    return alike(names, same)


def alike(names: Iterable[str], same: Callable[[str, str], bool]) -> list[tuple[str, ...]]:
    """``names`` in groups, in order: each joins the first group whose first is ``same``."""
    groups: list[list[str]] = []
    for name in names:
        for group in groups:
            if same(group[0], name):
                group.append(name)
                break
        else:
            groups.append([name])
    return [tuple(group) for group in groups]


def merge_identical(
    long: pd.DataFrame, groups: list[tuple[str, ...]], column: str = "challenger"
) -> pd.DataFrame:
    """``long`` with one ``column`` value per group of :func:`identical_groups`, named by the
    group: its member with the most rows (the first on a tie) carries it, the others dropped."""
    # On the codes of the column's values: the one-card deals run to millions of rows,
    # where a string per row, or a copy of the frame, would cost gigabytes.
    values = long[column]
    if isinstance(values.dtype, pd.CategoricalDtype):
        codes, names = values.cat.codes.to_numpy(), values.cat.categories
    else:
        codes, names = pd.factorize(values)
    names = [str(name) for name in names]
    counts = dict(
        zip(names, np.bincount(codes[codes >= 0], minlength=len(names)).tolist(), strict=True)
    )
    # Each value's entry, numbered among the entries that have rows (a group without
    # rows is left out); one slot more, never set, for a missing value's code -1.
    entry = np.full(len(names) + 1, -1, dtype=np.int32)
    entries = []
    for group in groups:
        carrier = max(group, key=lambda name: (counts.get(name, 0), -group.index(name)))
        if counts.get(carrier, 0):
            entry[names.index(carrier)] = len(entries)
            entries.append(SAME.join(group))
    merged = entry[codes]
    kept = merged >= 0
    out = long.copy(deep=False) if kept.all() else long[kept]
    out[column] = pd.Categorical.from_codes(merged[kept], categories=pd.Index(entries, dtype=str))
    return out
