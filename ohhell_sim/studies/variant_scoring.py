"""Study ``variant_scoring``: what each scoring table does to bids, rankings and games.

Every scoring variant is played with the same seed, seats and schedule, so each
is compared with the canonical table game by game, on the same cards; variants
whose rules are identical at a table size are merged and named once.  Each is
played in several strategy fields (:data:`DEFAULT_FIELDS`), among them
:data:`MAXIMISER_MIX`, whose players all re-optimise their bids for the table.
Decisiveness is measured in ways that do not depend on where zero lies (the
penalty tables' totals are negative): the half-game leader's win share and, in
the mixed fields, the skill share of final totals and how often the stronger
strategy's seat finishes ahead.  Every comparison belongs to the report's one
family, adjusted with Holm, checked in the confirmation run and on the even and
the odd games.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

import numpy as np
import pandas as pd

from ohhell_sim import strategies
from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import (
    DEPENDS_ON_FIELD,
    FIELD_VERDICT_NOTE,
    HOLDS_EVERYWHERE,
    SOME_FIELDS,
    adjust_parts,
    between_fields,
    equal_replicates_test,
    field_verdicts,
    replicate,
    verdicts_across_fields,
)
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_number, fmt_p, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import (
    bootstrap_matrix,
    estimate_frame,
    grouped_mean,
    mean_ci,
    paired_by_game,
    standardised_mean,
)
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.studies.design import (
    FIELDS,
    MIX_FIELD,
    STANDARDISED,
    check_fields,
    field_seats,
    games_to_be_ahead,
)
from ohhell_sim.studies.family import CORRECTION, confirm_family
from ohhell_sim.studies.report import study_report
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method

NAME = "variant_scoring"
QUESTION = (
    "How do the scoring tables change bids, rankings and decisiveness, "
    "in fields of players that do and do not re-optimise for the table?"
)
DEFAULT_GAMES = 2000
DEFAULT_PLAYERS = (4,)
BASELINE = "canonical"

#: Scoring variant name -> (preset, overrides).
VARIANTS: dict[str, tuple[str, dict[str, object]]] = {
    BASELINE: ("canonical", {}),
    "made=10*bid": ("canonical", {"made": "10*bid"}),
    "made=10+bid^2": ("canonical", {"made": "10+bid^2"}),
    "made=10+2*bid": ("canonical", {"made": "10+2*bid"}),
    "made=5+bid": ("canonical", {"made": "5+bid"}),
    "zero=5": ("canonical", {"zero": "5"}),
    "zero=5+cards": ("canonical", {"zero": "5+cards"}),
    "zero=10+cards": ("canonical", {"zero": "10+cards"}),
    "miss=-10*diff (penalty)": ("canonical", {"over": "-10*diff", "under": "-10*diff"}),
    "miss=-diff": ("canonical", {"over": "-diff", "under": "-diff"}),
    "miss=-diff^2": ("canonical", {"over": "-diff^2", "under": "-diff^2"}),
    "all_bonus=10": ("canonical", {"all_bonus": 10}),
    "double_all": ("canonical", {"double_all": True}),
    "online preset": ("online", {}),
    "openspiel preset": ("openspiel", {}),
}

#: The study's own mixed field: players that all bid for the active scoring table, in turn.
MAXIMISER_MIX = "maximiser_mix"
MAXIMISER_MIX_STRATEGIES = ("distilled", "mc_bidder", "learned")
#: Every field this study can play (``--fields`` accepts these).
KNOWN_FIELDS = (*FIELDS, MAXIMISER_MIX)
DEFAULT_FIELDS = KNOWN_FIELDS
#: Bootstrap resamples of a skill share: enough to resolve the p-values that Holm over
#: the report's family asks for (p < 0.05 / m needs more than m / 0.05 resamples).
SKILL_RESAMPLES = 2000
#: Share of ``games`` played in the expensive field (four Monte Carlo bidders).
FIELD_SHARES = {"mc_bidder": 0.6}

#: Built-ins whose bid reads the scoring tables (``Strategy.reads_scoring``), and the others.
SCORE_AWARE_BIDDERS = tuple(s.name for s in strategies.BUILTINS if s.reads_scoring)
SCORE_BLIND_BIDDERS = tuple(s.name for s in strategies.BUILTINS if not s.reads_scoring)
#: Caveat attached to every statement about ``learned``'s bids.
LEARNED_CAVEAT = (
    "learned picks the bid of highest expected points under the table, but from a trick "
    "model fitted under simple's play that does not depend on the table"
)

#: The per-game bid columns compared, and their measures.
BID_COLUMNS = {"bid": "mean bid", "zero": "zero-bid rate"}
BID_MEASURES = tuple(BID_COLUMNS.values())
#: The effect of the bid shifts in the verdicts.
BID_EFFECT = "bid shift of score-maximising players"
#: The decisiveness measures, and how their rise ("more") and fall ("less") read.
LEADER, STRONGER, SKILL = "leader's win share", "stronger seat ahead", "skill share of totals"
DECISIVE_WORDS = {
    LEADER: "the half-game leader wins {}",
    STRONGER: "the stronger strategy's seat finishes ahead {} often",
    SKILL: "the strategy explains {} of the variance of final totals",
}
#: The columns that name a condition.
CONDITION_KEYS = ["players", "field", "variant"]
#: The columns of an estimate and its interval.
INTERVAL = ["estimate", "low", "high"]


def check_study_fields(fields: object) -> tuple[str, ...]:
    """``fields`` as a tuple of :data:`KNOWN_FIELDS`, or raise naming the bad one."""
    return check_fields(fields, KNOWN_FIELDS)


def study_field_seats(field: str, players: int) -> tuple:
    """The seats of ``field`` (one of :data:`KNOWN_FIELDS`) at a table of ``players``:
    :data:`MAXIMISER_MIX` seats :data:`MAXIMISER_MIX_STRATEGIES` in turn, each (and every
    other field) as :func:`ohhell_sim.studies.design.field_seats` seats it."""
    if field != MAXIMISER_MIX:
        return field_seats(field, players)
    names = (MAXIMISER_MIX_STRATEGIES[i % len(MAXIMISER_MIX_STRATEGIES)] for i in range(players))
    return tuple(field_seats(name, 1)[0] for name in names)


def variant_rules(players: int) -> dict[str, Rules]:
    """Every scoring variant's rules at ``players``; variants whose :meth:`Rules.to_dict` are
    equal are one, named by their names joined with ``" = "`` in :data:`VARIANTS` order."""
    merged: dict[str, tuple[list[str], Rules]] = {}
    for name, (preset, overrides) in VARIANTS.items():
        rules = Rules.preset(preset, players=players, **overrides)
        key = repr(sorted(rules.to_dict().items()))
        merged.setdefault(key, ([], rules))[0].append(name)
    return {" = ".join(names): rules for names, rules in merged.values()}


def conditions(
    games: int, players: tuple[int, ...], fields: Sequence[str] = DEFAULT_FIELDS
) -> list[Condition]:
    """Every distinct scoring variant in every field at every table size."""
    fields = check_study_fields(fields)
    return [
        Condition(
            {"players": n, "field": field, "variant": name},
            rules,
            study_field_seats(field, n),
            SPEC.field_games(field, games),
        )
        for n in players
        for field in fields
        for name, rules in variant_rules(n).items()
    ]


# --- per-game frames ---------------------------------------------------------------


def _strings(frame: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """``frame`` with the labels in ``columns`` as plain strings (not categories)."""
    return frame.assign(**{column: frame[column].astype(str) for column in columns})


def bid_reactions(hands: pd.DataFrame) -> pd.DataFrame:
    """Per (players, field, strategy): how often a bid differs from the canonical table's on
    the same game, deal and seat (0: the same bid on every deal under every table)."""
    reactions = {}
    for (n, field), part in hands.groupby(["players", "field"], observed=True, sort=False):
        base = part[part["variant"] == BASELINE].set_index(["game", "deal", "seat"])["bid"]
        others = part[part["variant"] != BASELINE]
        if base.empty or others.empty:
            continue
        keys = pd.MultiIndex.from_frame(others[["game", "deal", "seat"]])
        differs = pd.Series(others["bid"].to_numpy() != base.reindex(keys).to_numpy())
        reactions[(n, field)] = differs.groupby(others["strategy"].to_numpy()).agg(
            deals="size", differs="sum", share_differs="mean"
        )
    if not reactions:
        return pd.DataFrame()
    return pd.concat(reactions, names=["players", "field", "strategy"]).reset_index()


def per_game_bids(hands: pd.DataFrame) -> pd.DataFrame:
    """Per (players, field, variant, strategy, game): mean bid and zero-bid rate."""
    keys = [*CONDITION_KEYS, "strategy", "game"]
    bids = hands["bid"].to_numpy()
    frame = hands[keys].assign(bid=bids.astype(np.float64), zero=(bids == 0).astype(np.float64))
    means = frame.groupby(keys, observed=True, sort=True)[["bid", "zero"]].mean().reset_index()
    return _strings(means, "field", "variant", "strategy")


def halftime_decisiveness(hands: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per (players, field, variant, game): the mean final win share of the seats with the
    highest total after the first ``n_deals // 2`` deals.  Only ranks count, so it works
    whatever the sign of the totals."""
    keys = [*CONDITION_KEYS, "game"]
    n_deals = hands.groupby("condition", observed=True)["deal"].transform("max") + 1
    half = hands["deal"] < n_deals // 2
    totals = hands[half].groupby([*keys, "seat"], observed=True)["score"].sum()
    leading = totals == totals.groupby(level=keys, observed=True).transform("max")
    share = games.set_index([*keys, "seat"])["win_share"]
    leaders = share[leading[leading].index]
    decisive = leaders.groupby(level=keys, observed=True).mean().rename("decisive").reset_index()
    return _strings(decisive, "field", "variant")


def _mixed_blocks(games: pd.DataFrame) -> dict[tuple, pd.DataFrame]:
    """The games of each condition of a mixed field, by (players, field, variant)."""
    return {
        tuple(block.iloc[0][k] for k in CONDITION_KEYS): block
        for _, block in games.groupby("condition", observed=True, sort=True)
        if block["strategy"].nunique() > 1
    }


def _seat_totals(block: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """One condition's final totals as games x seats, and the strategy of each seat."""
    block = block.sort_values(["game", "seat"])
    seats = int(block["seat"].max()) + 1
    totals = block["total"].to_numpy(np.float64).reshape(-1, seats)
    return totals, block["strategy"].astype(str).to_numpy()[:seats]


def _better_pairs(block: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """One mixed condition's totals as games x pairs of seats of different strategies: the
    seat of the strategy with the higher mean final total, and the other."""
    totals, strategies = _seat_totals(block)
    mean = {s: totals[:, strategies == s].mean() for s in set(strategies)}
    pairs = [
        (i, j) if mean[strategies[i]] >= mean[strategies[j]] else (j, i)
        for i, j in itertools.combinations(range(len(strategies)), 2)
        if strategies[i] != strategies[j]
    ]
    return totals[:, [p[0] for p in pairs]], totals[:, [p[1] for p in pairs]]


def better_seat_wins(games: pd.DataFrame) -> pd.DataFrame:
    """Per (players, field, variant, game) of a mixed field: over the pairs of seats of
    different strategies, how often the seat of the strategy with the higher mean final total
    finishes ahead (ties half).  Only the order of totals counts."""
    parts = []
    for key, block in _mixed_blocks(games).items():
        strong, weak = _better_pairs(block)
        parts.append(
            pd.DataFrame(
                {
                    **dict(zip(CONDITION_KEYS, key, strict=True)),
                    "game": np.sort(block["game"].unique()),
                    "better_wins": ((strong > weak) + 0.5 * (strong == weak)).mean(axis=1),
                }
            )
        )
    columns = [*CONDITION_KEYS, "game", "better_wins"]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)


def games_ahead(games: pd.DataFrame) -> pd.DataFrame:
    """Per condition of a mixed field: the games the stronger strategy's seat needs to be
    ahead of a weaker one's 95% of the time (:func:`~ohhell_sim.studies.design.games_to_be_ahead`
    of the pairs' per-game differences of final totals)."""
    rows = []
    for key, block in _mixed_blocks(games).items():
        strong, weak = _better_pairs(block)
        lead = (strong - weak).ravel()
        ahead = games_to_be_ahead(lead.mean(), lead.std(ddof=1)) if lead.size > 1 else np.nan
        rows.append({**dict(zip(CONDITION_KEYS, key, strict=True)), "games_ahead": float(ahead)})
    return pd.DataFrame(rows, columns=[*CONDITION_KEYS, "games_ahead"])


def _share_of_matrix(groups: np.ndarray) -> Callable[[np.ndarray], float]:
    """:func:`~ohhell_sim.analysis.findings.variance_share_of` for a games x seats matrix
    whose seat ``i`` is in group ``groups[i]`` in every game, from column sums (no sort:
    it runs once per resample)."""
    codes = np.unique(groups, return_inverse=True)[1]
    per_group = np.bincount(codes)

    def share(matrix: np.ndarray) -> float:
        mean = matrix.mean()
        total = float(((matrix - mean) ** 2).sum())
        if total == 0:
            return float("nan")
        counts = per_group * matrix.shape[0]
        means = np.bincount(codes, weights=matrix.sum(axis=0)) / counts
        return float((counts * (means - mean) ** 2).sum()) / total

    return share


def skill_shares(games: pd.DataFrame, resamples: int = SKILL_RESAMPLES) -> pd.DataFrame:
    """Per condition of a mixed field: the share of the variance of final totals explained
    by the strategy, with a bootstrap interval over games."""
    rows = []
    for key, block in _mixed_blocks(games).items():
        totals, strategies = _seat_totals(block)
        # A bootstrap needs two games at least (a half of a tiny run may hold one).
        if totals.shape[0] > 1:
            est = bootstrap_matrix(totals, _share_of_matrix(strategies), resamples=resamples)
            rows.append({**dict(zip(CONDITION_KEYS, key, strict=True)), **est.row()})
    return estimate_frame(rows, CONDITION_KEYS)


def _share_difference(blocks: dict, first: tuple, second: tuple, resamples: int) -> dict | None:
    """The skill share of condition ``first`` minus that of ``second`` on the same games, by a
    paired bootstrap, as an estimate row; None when either is missing or has under two games."""
    if first not in blocks or second not in blocks:
        return None
    totals, strategies = _seat_totals(blocks[first])
    other, _ = _seat_totals(blocks[second])
    if totals.shape[0] < 2 or totals.shape != other.shape:
        return None
    seats = totals.shape[1]
    share = _share_of_matrix(strategies)
    return bootstrap_matrix(
        np.hstack([totals, other]),
        lambda m: share(m[:, :seats]) - share(m[:, seats:]),
        resamples=resamples,
    ).row()


def skill_share_shifts(games: pd.DataFrame, resamples: int = SKILL_RESAMPLES) -> pd.DataFrame:
    """Per variant of a mixed field: its skill share minus the canonical table's, by a paired
    bootstrap over games."""
    blocks = _mixed_blocks(games)
    rows = []
    for key in blocks:
        base = (*key[:2], BASELINE)
        est = None if key == base else _share_difference(blocks, key, base, resamples)
        if est is not None:
            rows.append({**dict(zip(CONDITION_KEYS, key, strict=True)), **est})
    return estimate_frame(rows, CONDITION_KEYS)


def skill_leaders(games: pd.DataFrame) -> dict[tuple, tuple[str, str]]:
    """Per table size and mixed field: the scoring tables of the highest and the second
    highest skill share (point estimates), the pair :func:`skill_lead` tests."""
    shares: dict[tuple, list[tuple[float, str]]] = {}
    for (n, field, variant), block in _mixed_blocks(games).items():
        totals, strategies = _seat_totals(block)
        share = _share_of_matrix(strategies)(totals)
        if not np.isnan(share):
            shares.setdefault((n, field), []).append((share, variant))
    return {
        key: (ranked[0][1], ranked[1][1])
        for key, found in shares.items()
        if len(ranked := sorted(found, key=lambda s: -s[0])) > 1
    }


def skill_lead(
    games: pd.DataFrame, leaders: dict[tuple, tuple[str, str]], resamples: int = SKILL_RESAMPLES
) -> pd.DataFrame:
    """Per table size and mixed field: the skill share of the first scoring table minus the
    second's (``leaders``, from :func:`skill_leaders` of the run), paired bootstrap over games;
    the confirmation run tests the run's pairs."""
    blocks = _mixed_blocks(games)
    rows = []
    for (n, field), (first, second) in leaders.items():
        est = _share_difference(blocks, (n, field, first), (n, field, second), resamples)
        if est is not None:
            rows.append(
                {"players": n, "field": field, "variant": first, "runner_up": second, **est}
            )
    return estimate_frame(rows, [*CONDITION_KEYS, "runner_up"])


# --- comparisons against the canonical table ------------------------------------------


def _shifts(
    frame: pd.DataFrame, column: str, by: Sequence[str], variants: Sequence[str]
) -> pd.DataFrame:
    """Paired-by-game difference of ``column`` between each variant and the canonical table."""
    keys = ["players", "field", *by]
    present = set(frame["variant"])
    parts = [
        paired_by_game(frame, frame[column], "variant", name, BASELINE, by=keys).assign(
            variant=name
        )
        for name in variants
        if name != BASELINE and name in present
    ]
    if not parts:
        return estimate_frame([], [*CONDITION_KEYS, *by])
    out = pd.concat(parts, ignore_index=True)
    return out[[*CONDITION_KEYS, *by, *INTERVAL, "n", "method"]]


def per_game_shifts(
    frame: pd.DataFrame, column: str, by: Sequence[str], variants: Sequence[str]
) -> pd.DataFrame:
    """Per game: ``column`` under each variant minus under the canonical table (the same
    cards), as ``value`` with ``players``, ``field``, the ``by`` columns, ``variant`` and
    ``game``: the values whose means :func:`_shifts` estimates."""
    keys = ["players", "field", *by, "game"]
    table = frame.pivot_table(
        index=keys, columns="variant", values=column, aggfunc="mean", observed=True
    )
    parts = [
        (table[name] - table[BASELINE]).dropna().rename("value").reset_index().assign(variant=name)
        for name in variants
        if name != BASELINE and name in table.columns and BASELINE in table.columns
    ]
    columns = [*keys, "value", "variant"]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)


def skill_share_tests(
    mixed_games: pd.DataFrame, resamples: int = SKILL_RESAMPLES, seed: int = 0
) -> pd.DataFrame:
    """Per table size and variant: the test that the skill share's shift is the same in every
    mixed field, its covariance from one bootstrap of the games all fields played, as rows
    like :func:`~ohhell_sim.analysis.findings.between_fields`'."""
    blocks = _mixed_blocks(mixed_games)
    rows = []
    for n, variant in dict.fromkeys((k[0], k[2]) for k in blocks if k[2] != BASELINE):
        fields = [k[1] for k in blocks if k[::2] == (n, variant) and (n, k[1], BASELINE) in blocks]
        pairs = []
        for field in fields:
            totals, strategies = _seat_totals(blocks[(n, field, variant)])
            base, _ = _seat_totals(blocks[(n, field, BASELINE)])
            pairs.append((totals, base, _share_of_matrix(strategies)))
        games = min((t.shape[0] for t, _, _ in pairs), default=0)
        if len(pairs) < 2 or games < 2:
            continue

        def shifts(rows_of: np.ndarray, pairs=pairs) -> list[float]:
            return [share(t[rows_of]) - share(b[rows_of]) for t, b, share in pairs]

        draws = np.random.default_rng(seed).integers(0, games, size=(resamples, games))
        test = equal_replicates_test(shifts(np.arange(games)), np.array([shifts(d) for d in draws]))
        rows.append(
            {
                "players": n,
                "variant": variant,
                "n": test["fields"],
                "estimate": test["spread"],
                "low": np.nan,
                "high": np.nan,
                **{k: test[k] for k in ("p", "q", "i_squared")},
                "measure": SKILL,
            }
        )
    return pd.DataFrame(rows)


def between_field_tests(
    per_game: pd.DataFrame,
    decisive: pd.DataFrame,
    better: pd.DataFrame,
    mixed_games: pd.DataFrame,
    variants: Sequence[str],
) -> pd.DataFrame:
    """Per table size, measure and variant: the test that its shift is the same for every
    score-maximising player (bids) or in every field, on the per-game shifts
    (:func:`~ohhell_sim.analysis.findings.between_fields`), or for the skill share by
    :func:`skill_share_tests`."""
    jobs = [(per_game, column, ["strategy"], measure) for column, measure in BID_COLUMNS.items()]
    jobs += [(decisive, "decisive", [], LEADER), (better, "better_wins", [], STRONGER)]
    tests = []
    for frame, column, by, measure in jobs:
        if not len(frame):
            continue
        values = per_game_shifts(frame, column, by, variants)
        if by:
            # The bids' "fields" are the score-maximising players, strategy in field.
            values["field"] = values["strategy"].astype(str) + " in " + values["field"].astype(str)
        tests.append(between_fields(values, ["players", "variant"]).assign(measure=measure))
    if len(mixed_games):
        tests.append(skill_share_tests(mixed_games))
    tests = [t for t in tests if len(t)]
    if not tests:
        return pd.DataFrame()
    return pd.concat(tests, ignore_index=True).drop(columns="field", errors="ignore")


def bid_shifts(per_game: pd.DataFrame, variants: Sequence[str]) -> pd.DataFrame:
    """Mean-bid and zero-bid-rate shifts from the canonical table, paired by game: of each
    strategy in each field, and pooled over them with equal weight (:func:`standardised_shift`,
    field :data:`~ohhell_sim.studies.design.STANDARDISED`)."""
    players = per_game.assign(player=per_game["strategy"] + " in " + per_game["field"])
    tables = [
        _shifts(per_game, column, ["strategy"], variants).assign(measure=measure)
        for column, measure in BID_COLUMNS.items()
    ]
    tables += [
        standardised_shift(
            players, column, "variant", name, BASELINE, "player", by=["players"]
        ).assign(variant=name, measure=measure, field=STANDARDISED)
        for column, measure in BID_COLUMNS.items()
        for name in variants
        if name != BASELINE
    ]
    table = pd.concat(tables, ignore_index=True)
    return table.assign(strategy=table["strategy"].fillna("score-maximising players"))


def standardised_shift(
    frame: pd.DataFrame,
    value: str,
    arm: str,
    first: object,
    second: object,
    stratum: str,
    by: Sequence[str] = (),
    game: str = "game",
) -> pd.DataFrame:
    """The ``first - second`` difference of ``value``, pooled over ``stratum`` with equal weights.

    Within each stratum and game the arms' rows are averaged and differenced, and
    :func:`~ohhell_sim.analysis.stats.standardised_mean` weighs every stratum the same
    whatever its rows in either arm, so the pooled difference cannot contradict the strata.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows of both arms.
    value, arm, stratum, game : str
        The columns of the value, of the arms, of the strata, and of the game (the pairing
        unit and the cluster of the interval).
    first, second : object
        The arms compared.
    by : sequence of str
        Groups estimated separately.

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, then ``estimate``, ``low``, ``high``, ``n``, ``method``.
    """
    for name in (value, arm, stratum, game, *by):
        if name not in frame.columns:
            raise InvalidArgumentError(
                f"standardised_shift: column {name!r} is missing; columns: {list(frame.columns)}"
            )
    keys = [*by, stratum, game]
    data = frame[frame[arm].isin([first, second])]
    means = data.groupby([*keys, arm], observed=True, sort=True)[value].mean().unstack(arm)
    if first not in means.columns or second not in means.columns:
        return estimate_frame([], list(by))
    diffs = (means[first] - means[second]).dropna().rename("_diff").reset_index()
    return standardised_mean(diffs, diffs["_diff"], list(by), stratum, cluster=game)


def ranking_gaps(games: pd.DataFrame) -> pd.DataFrame:
    """Per mixed field, variant (the canonical one included) and pair ``a - b`` of strategies
    adjacent in the canonical table's win-share order: the per-game difference of their win
    shares, t interval over games.  A negative gap is a reversal of the canonical ranking."""
    rows = []
    for (n, field), part in games.groupby(["players", "field"], observed=True, sort=False):
        base = part[part["variant"] == BASELINE]
        if part["strategy"].nunique() < 2 or base.empty:
            continue
        wins = base.groupby("strategy", observed=True)["win_share"].mean()
        order = wins.sort_values(ascending=False, kind="stable").index.astype(str).tolist()
        for variant, block in part.groupby("variant", observed=True, sort=False):
            per_game = block.pivot_table(
                index="game", columns="strategy", values="win_share", observed=True
            )
            for a, b in itertools.pairwise(order):
                est = mean_ci((per_game[a] - per_game[b]).to_numpy())
                key = {"players": n, "field": field, "variant": variant, "pair": f"{a} - {b}"}
                rows.append({**key, **est.row()})
    return estimate_frame(rows, [*CONDITION_KEYS, "pair"])


def _wide(table: pd.DataFrame, name: str, keys: Sequence[str] = CONDITION_KEYS) -> pd.DataFrame:
    """The ``keys`` of an estimate table, its estimate and interval named ``name``,
    ``name_low`` and ``name_high``."""
    columns = dict(zip(INTERVAL, _triple(name), strict=True))
    return table.rename(columns=columns)[[*keys, *_triple(name)]]


def _triple(name: str) -> list[str]:
    return [name, f"{name}_low", f"{name}_high"]


def rankings(mixed_games: pd.DataFrame) -> pd.DataFrame:
    """Per condition of a mixed field: win share and mean total per strategy."""
    keys = [*CONDITION_KEYS, "strategy"]
    wins = grouped_mean(mixed_games, mixed_games["win_share"], keys, bounded=True)
    totals = grouped_mean(mixed_games, mixed_games["total"], keys)
    return _wide(wins, "win_share", keys).join(_wide(totals, "mean_total", []))


# --- the analysis ---------------------------------------------------------------------


def _ordered(frame: pd.DataFrame, names: Sequence[str], fields: Sequence[str]) -> pd.DataFrame:
    """``frame`` sorted by table size, then by field and variant in the orders given."""
    orders = {
        "field": {name: i for i, name in enumerate(fields)},
        "variant": {name: i for i, name in enumerate(names)},
    }
    keys = [c for c in CONDITION_KEYS if c in frame.columns]

    def key(column: pd.Series) -> pd.Series:
        return column.map(orders[column.name]) if column.name in orders else column

    return frame.sort_values(keys, key=key, kind="stable").reset_index(drop=True)


def _verdicts(table: pd.DataFrame, field: str, between: pd.DataFrame) -> pd.DataFrame:
    """Per effect (players, measure, variant), whether it holds in every ``field``: tested
    against ``between`` where it holds the effect's test between fields, with the count of
    fields where it is established and whether it is a headline."""
    keys = ["players", "measure", "variant"]
    tested = table["measure"].isin(set(between["measure"]) if len(between) else set())
    parts = []
    if tested.any():
        parts.append(verdicts_across_fields(table[tested], between, keys, field=field))
    if (~tested).any():
        parts.append(field_verdicts(table[~tested], keys, field=field))
    counts = (
        table.assign(up=table["low"] > 0, down=table["high"] < 0)
        .groupby(keys, observed=True, sort=False)
        .agg(
            found=("established", "sum"),
            rows=("established", "size"),
            up=("up", "any"),
            down=("down", "any"),
        )
    )
    verdicts = pd.concat(parts, ignore_index=True).merge(counts, on=keys, how="left")
    # An effect resolved on both sides of zero in different fields.
    verdicts["opposite"] = verdicts["up"] & verdicts["down"]
    verdicts["established_in"] = [
        f"{int(s)} of {int(z)}" for s, z in zip(verdicts["found"], verdicts["rows"], strict=True)
    ]
    verdicts["headline"] = (verdicts["verdict"] == HOLDS_EVERYWHERE) & (
        verdicts["found"] == verdicts["rows"]
    )
    verdicts = verdicts.drop(columns=["found", "rows", "up", "down"])
    return verdicts.rename(columns={"min_field": "min_where", "max_field": "max_where"})


#: The parts of the report's one family, and the columns naming a row of each.
FAMILY_PARTS = {
    "bid shifts": [*CONDITION_KEYS, "strategy", "measure"],
    "leader": CONDITION_KEYS,
    "stronger seat": CONDITION_KEYS,
    "skill share": CONDITION_KEYS,
    "skill lead": [*CONDITION_KEYS, "runner_up"],
    "ranking gaps": [*CONDITION_KEYS, "pair"],
    "between fields": ["players", "measure", "variant"],
}
#: The parts of the family that compare decisiveness, and their measures.
DECISIVE_PARTS = {"leader": LEADER, "stronger seat": STRONGER, "skill share": SKILL}


@dataclass
class Parts:
    """What the family is computed from, and its parts (unadjusted, halves marked)."""

    decisive: pd.DataFrame
    mixed_games: pd.DataFrame
    better: pd.DataFrame
    family: dict[str, pd.DataFrame]
    leaders: dict[tuple, tuple[str, str]]


def family_parts(
    hands: pd.DataFrame,
    games: pd.DataFrame,
    names: list[str],
    leaders: dict[tuple, tuple[str, str]] | None = None,
) -> Parts:
    """The family's parts of one run, each on all games and on both halves, not yet adjusted;
    ``leaders`` are the pairs :func:`skill_lead` tests (default: the run's own)."""
    # The hands frame keeps its categorical labels (tens of millions of rows);
    # the per-game frames derived from it are made plain strings.
    games = _strings(games, "variant", "field", "strategy")
    # Only the score-maximising players' bids are compared (the others' are in reactions).
    per_game = per_game_bids(hands[hands["strategy"].isin(SCORE_AWARE_BIDDERS)])

    def gaps_compute(frame: pd.DataFrame) -> pd.DataFrame:
        table = ranking_gaps(frame)
        return table[table["variant"] != BASELINE].reset_index(drop=True)

    decisive = halftime_decisiveness(hands, games)
    mixed_games = games[
        games.groupby(["players", "field"], observed=True)["strategy"].transform("nunique") > 1
    ]
    better = better_seat_wins(mixed_games)
    leaders = skill_leaders(mixed_games) if leaders is None else leaders
    jobs = {
        "bid shifts": (per_game, lambda f: bid_shifts(f, names)) if len(per_game) else None,
        "leader": (decisive, lambda f: _shifts(f, "decisive", [], names)),
        "stronger seat": (better, lambda f: _shifts(f, "better_wins", [], names)),
        "skill share": (mixed_games, skill_share_shifts),
        "skill lead": (mixed_games, lambda f: skill_lead(f, leaders)),
        "ranking gaps": (mixed_games, gaps_compute),
    }
    family = {
        name: pd.DataFrame() if job is None else replicate(*job, FAMILY_PARTS[name])
        for name, job in jobs.items()
    }
    # Tests, not estimates: not split into halves.
    family["between fields"] = between_field_tests(per_game, decisive, better, mixed_games, names)
    return Parts(decisive, mixed_games, better, family, leaders)


def confirmed_family(data: StudyData, names: list[str]) -> tuple[Parts, dict[str, pd.DataFrame]]:
    """The run's parts, adjusted as one family, their surviving rows checked in the
    confirmation run (:func:`~ohhell_sim.studies.family.confirm_family`), which tests the
    run's pairs of :func:`skill_lead`; a part with no rows is left as it is."""
    main = family_parts(data.hands, data.games, names)

    def adjusted(run: StudyData) -> dict[str, pd.DataFrame]:
        parts = main if run is data else family_parts(run.hands, run.games, names, main.leaders)
        return adjust_parts({k: t for k, t in parts.family.items() if not t.empty}, CORRECTION)

    confirmed = confirm_family(data, adjusted, FAMILY_PARTS)
    return main, {name: confirmed.get(name, table) for name, table in main.family.items()}


def analyse(data: StudyData) -> Report:
    """The report of a ``variant_scoring`` run, every number computed from ``data``."""
    labels = [c["label"] for c in data.manifest["conditions"]]
    fields = list(dict.fromkeys(label["field"] for label in labels))
    variants = dict.fromkeys(label["variant"] for label in labels)
    names = [BASELINE, *(v for v in variants if v != BASELINE)]
    main, family = confirmed_family(data, names)
    decisive, mixed_games, better = main.decisive, main.mixed_games, main.better
    bids, between = family["bid shifts"], family["between fields"]

    leader = grouped_mean(decisive, decisive["decisive"], CONDITION_KEYS, bounded=True)
    levels = _wide(leader, "leader_wins")
    if not better.empty:
        stronger = grouped_mean(better, better["better_wins"], CONDITION_KEYS, bounded=True)
        shares = skill_shares(mixed_games)
        levels = levels.merge(_wide(stronger, "stronger_ahead"), on=CONDITION_KEYS, how="left")
        levels = levels.merge(_wide(shares, "skill_share"), on=CONDITION_KEYS, how="left")
        levels = levels.merge(games_ahead(mixed_games), on=CONDITION_KEYS, how="left")
    decisiveness = pd.concat(
        [
            family[part].assign(measure=measure)
            for part, measure in DECISIVE_PARTS.items()
            if not family[part].empty
        ],
        ignore_index=True,
    )
    verdicts = []
    if not bids.empty:
        rows = bids[bids["field"] != STANDARDISED]
        rows = rows.assign(player=rows["strategy"] + " in " + rows["field"])
        verdicts.append(_verdicts(rows, "player", between).assign(effect=BID_EFFECT))
    if not decisiveness.empty:
        verdicts.append(_verdicts(decisiveness, "field", between).assign(effect="decisiveness"))
    levels = _ordered(levels, names, fields)
    decisiveness = _ordered(decisiveness, names, fields)
    results = {
        "names": names,
        "fields": fields,
        "reactions": bid_reactions(data.hands),
        "bids": _ordered(bids, names, [*fields, STANDARDISED]) if not bids.empty else bids,
        "decisiveness": decisiveness,
        "levels": levels,
        "ranking": _ordered(rankings(mixed_games), names, fields),
        "gaps": _ordered(family["ranking gaps"], names, fields),
        "canonical_gaps": ranking_gaps(mixed_games[mixed_games["variant"] == BASELINE]),
        "skill": skill_ranking(levels, decisiveness),
        "lead": family["skill lead"],
        "between": between,
        "verdicts": _ordered(pd.concat(verdicts, ignore_index=True), names, fields),
    }
    return study_report(
        NAME,
        QUESTION,
        data.manifest,
        _method(data.manifest, results),
        _findings(results),
        _tables(results),
        _figures(results),
        in_short=_in_short(results, data.manifest),
    )


def skill_ranking(levels: pd.DataFrame, decisiveness: pd.DataFrame) -> pd.DataFrame:
    """Per mixed field and table size, the scoring tables ranked by skill share (``rank``),
    with ``stronger_ahead`` and, from the family, ``skill_change`` and ``stronger_change``
    against the canonical table (with their intervals and ``*_established``)."""
    if "skill_share" not in levels:
        return pd.DataFrame()
    rows = levels.dropna(subset=["skill_share"])
    for measure, prefix in ((SKILL, "skill_change"), (STRONGER, "stronger_change")):
        part = decisiveness[decisiveness["measure"] == measure]
        change = _wide(part, prefix).assign(**{f"{prefix}_established": part["established"]})
        rows = rows.merge(change, on=CONDITION_KEYS, how="left")
    rows = rows.sort_values(["players", "field", "skill_share"], ascending=[True, True, False])
    rows["rank"] = rows.groupby(["players", "field"]).cumcount() + 1
    return rows.reset_index(drop=True)


# --- the report -----------------------------------------------------------------------

#: The columns of the verdicts table.
VERDICT_COLUMNS = [
    *("players", "effect", "measure", "variant", "fields", "verdict"),
    *("min_estimate", "min_where", "max_estimate", "max_where"),
    *("opposite", "established_in", "headline"),
]


def _family_display(table: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """A family's rows for a report: the interval, the adjusted p-value, the marks."""
    if table.empty:
        return pd.DataFrame()
    shown = table[[*columns, *INTERVAL]].copy()
    shown["p_holm"] = table["p_adjusted"].map(fmt_p)
    shown["holm"] = np.where(table["survives"], "survives", "-")
    shown["confirmation"] = [confirmation_cell(r) for _, r in table.iterrows()]
    shown["halves"] = table["replication"].to_numpy()
    return display_table(shown)


def _skill_display(skill: pd.DataFrame) -> pd.DataFrame:
    """The tables ranked by skill share, each change against the canonical table marked *
    when established."""

    def change(row: pd.Series, prefix: str) -> str:
        if pd.isna(row[prefix]):
            return "reference" if row["variant"] == BASELINE else "n/a"
        mark = " *" if row[f"{prefix}_established"] else ""
        return fmt_ci(row[prefix], row[f"{prefix}_low"], row[f"{prefix}_high"]) + mark

    shown = skill[["players", "field", "rank", "variant"]]
    return shown.rename(columns={"variant": "scoring table"}).assign(
        **{
            "skill share": [fmt_ci(*r) for r in skill[_triple("skill_share")].to_numpy()],
            "change": [change(r, "skill_change") for _, r in skill.iterrows()],
            "stronger seat ahead": [
                fmt_ci(*r) for r in skill[_triple("stronger_ahead")].to_numpy()
            ],
            "change ": [change(r, "stronger_change") for _, r in skill.iterrows()],
            "games to be ahead 95%": [fmt_number(g, 0) for g in skill["games_ahead"]],
        }
    )


def _between_table(between: pd.DataFrame) -> list[Table]:
    """The tests between fields (or players) as a table, none when there are none."""
    if not len(between):
        return []
    shown = between[["players", "measure", "variant"]].assign(
        compared=between["n"].astype(int),
        W=[fmt_number(q, 1) for q in between["q"]],
        spread=[fmt_number(e) for e in between["estimate"]],
        **{"p (adjusted)": [fmt_p(p) for p in between["p_adjusted"]]},
        confirmation=between["confirmation"],
    )
    return [
        Table(
            "Does a shift differ between fields? A paired test per measure and variant",
            shown,
            "Compared: the score-maximising players (bids) or the fields (decisiveness). "
            "W: the Wald statistic of their shifts, the covariance estimated from the "
            "per-game shifts, clustered by game (every field plays the same cards), "
            "chi-squared with compared - 1 degrees of freedom; spread: the highest shift "
            "minus the lowest. Part of the family. The skill share has no per-game value: "
            "its covariance comes from one bootstrap that resamples the same games in every "
            "field.",
        )
    ]


def _tables(results: dict) -> list[Table]:
    """The report's tables, the ranking of the tables by skill share first."""
    skill, lead, bids = results["skill"], results["lead"], results["bids"]
    tables = []
    if len(skill):
        tables.append(
            Table(
                "Which scoring table lets skill decide the game? Tables ranked by skill share",
                _skill_display(skill),
                f"In each mixed field, the share of the variance of final totals that the "
                f"strategy explains (skill share; {SKILL_RESAMPLES:,} bootstrap resamples over "
                "games) and how often the seat of the stronger strategy finishes ahead of a "
                "seat of another, under each table; change: against the canonical table, "
                "paired on the same cards, * when established (survives the report's Holm "
                f"correction and confirms at the second seed). {MAXIMISER_MIX} seats players "
                f"that all bid for the active table ({', '.join(MAXIMISER_MIX_STRATEGIES)}); "
                f"{MIX_FIELD}'s simple and zero ignore it. Games to be ahead 95%: how many games "
                "the stronger strategy's seat needs to be ahead of another's 95% of the time.",
            )
        )
    if len(lead):
        tables.append(
            Table(
                "Does the first table lead the second? Skill share of the first minus the second",
                _family_display(lead, ["players", "field", "variant", "runner_up"]),
                "The two tables of highest skill share in each mixed field (chosen on this "
                "run's cards), the difference of their skill shares on the same games (paired "
                "bootstrap, part of the report's one family); the confirmation run tests the "
                "same order on fresh cards. A table ranks first only where this is established.",
            )
        )
    tables += [
        Table(
            "Verdicts across fields",
            display_table(results["verdicts"][VERDICT_COLUMNS]),
            "Per effect (a variant against the canonical table), over the fields (or the "
            f"score-maximising players). '{DEPENDS_ON_FIELD}' is the established test between "
            f"the fields (the next table) and '{SOME_FIELDS}' says it is not established; "
            "where a variant has a single field, "
            + FIELD_VERDICT_NOTE
            + " opposite: some fields' 95% intervals lie above zero and others' below; "
            "established_in counts the rows that survive Holm over the report's family and "
            "are confirmed at the second seed; headline: holds everywhere.",
        ),
        *_between_table(results["between"]),
        Table(
            "Which strategies' bids react to the scoring table",
            display_table(results["reactions"]),
            "Bids under every non-canonical table compared with the canonical table's on the "
            "same game, deal and seat; share_differs = 0 means identical bids on every deal.",
        ),
    ]
    if not bids.empty:
        tables += [
            Table(
                f"Shift of the {measure} of score-maximising players (family: bid shifts)",
                _family_display(
                    bids[bids["measure"] == measure], ["players", "field", "strategy", "variant"]
                ),
                "Variant minus canonical on the same games (paired by game); "
                f"{STANDARDISED}: every score-maximising player (strategy in field) weighted "
                "equally; p_holm: Holm-adjusted p-value over the whole bid family; halves: "
                "the even and the odd games.",
            )
            for measure in BID_MEASURES
        ]
    return [
        *tables,
        Table(
            "Decisiveness per field and variant",
            display_table(results["levels"]),
            "leader_wins: final win share of the leader(s) after half the deals; "
            "stronger_ahead: share of seat pairs of different strategies in which the "
            "strategy with the higher mean total finishes ahead (ties half); skill_share: share "
            "of the variance of final totals explained by the strategy (bootstrap interval over "
            "games, 2,000 resamples); games_ahead: the games the stronger strategy's seat needs "
            "to be ahead of another's 95% of the time, (1.645 sd / mean)^2 of the pairs' "
            "per-game differences (a normal approximation). The last three exist in mixed "
            "fields only.",
        ),
        Table(
            "Decisiveness against the canonical table (part of the report's one family)",
            _family_display(results["decisiveness"], ["players", "measure", "field", "variant"]),
            "Variant minus canonical on the same games; skill share: paired bootstrap.",
        ),
        Table(
            "Win share and mean final total per strategy (mixed fields)",
            display_table(results["ranking"]),
        ),
        Table(
            "Ranking gaps against the canonical order (family: ranking)",
            _family_display(results["gaps"], ["players", "field", "variant", "pair"]),
            "Win share of the first strategy minus the second, per game, for strategies "
            "adjacent in the canonical table's order; a negative gap that survives is a "
            "reversal of the canonical ranking.",
        ),
    ]


def _figure(file: str, caption: str, rows: pd.DataFrame, panels: str | None = None, **options):
    """An interval plot of ``rows`` by scoring variant, in one panel per table size when
    there are several, unless ``panels`` names another column."""
    if panels is None and rows["players"].nunique() > 1:
        panels = "players"
    plot = interval_plot(rows, "variant", panels=panels, xlabel="scoring variant", **options)
    return Figure(file, caption, plot)


def _figures(results: dict) -> list[Figure]:
    """The shifts of the bids and of the leader's win share, the skill shares, the win shares."""
    names, bids, levels = results["names"], results["bids"], results["levels"]
    decisive, ranking = results["decisiveness"], results["ranking"]
    variants = [n for n in names if n != BASELINE]
    figures = []
    for measure, file in zip(BID_MEASURES, ("bid_shift.png", "zero_rate_shift.png"), strict=True):
        if bids.empty:
            break
        rows = bids[bids["measure"] == measure]
        player = rows["strategy"] + " in " + rows["field"]
        figures.append(
            _figure(
                file,
                f"Shift of the {measure} of score-maximising players against the canonical table",
                rows.assign(player=player.where(rows["field"] != STANDARDISED, STANDARDISED)),
                series="player",
                order=variants,
                title=f"{measure}: variant minus canonical",
                ylabel=f"shift of the {measure}",
                zero_line=True,
            )
        )
    if not decisive.empty:
        figures.append(
            _figure(
                "leader_wins_shift.png",
                "Half-game leader's win share against the canonical table, per field",
                decisive[decisive["measure"] == LEADER],
                series="field",
                order=variants,
                title="Decisiveness: leader's win share, variant minus canonical",
                ylabel="difference in win share",
                zero_line=True,
            )
        )
    if "skill_share" in levels.columns:
        figures.append(
            _figure(
                "skill_share_by_variant.png",
                "Share of the variance of final totals explained by the strategy (mixed fields)",
                _tidy(levels.dropna(subset=["skill_share"]), "skill_share"),
                series="field",
                order=names,
                title="Skill share of final totals",
                ylabel="variance share (eta squared)",
            )
        )
    if not ranking.empty:
        figures.append(
            _figure(
                "win_share_by_variant.png",
                "Win share per strategy by scoring variant (mixed fields)",
                _tidy(ranking, "win_share"),
                panels="field",
                series="strategy",
                order=names,
                title="Win share",
                ylabel="win share per seat",
            )
        )
    return figures


def _tidy(table: pd.DataFrame, name: str) -> pd.DataFrame:
    """``table`` with ``name``, ``name_low``, ``name_high`` as ``estimate``, ``low``, ``high``."""
    return table.rename(columns=dict(zip(_triple(name), INTERVAL, strict=True)))


def _method(manifest: dict, results: dict) -> list[str]:
    """The report's method: the design, the fields, the measures, the family and its checks."""
    fields = results["fields"]
    merged = ", ".join(n for n in results["names"] if " = " in n) or "none at these table sizes"
    # The seats at the largest table size.
    played = {c["label"]["field"]: c for c in manifest["conditions"]}
    seats = "; ".join(
        f"{f}: {', '.join(played[f]['seats'])} ({played[f]['games']} games)" for f in fields
    )
    shares = ", ".join(f"{f} {share:g}" for f, share in FIELD_SHARES.items() if f in fields)
    if shares:
        seats += (
            f". The all-Monte-Carlo field plays fewer games (a share of --games: {shares}), so "
            "its intervals are wider"
        )
    return [
        "Every variant is played with the same seed, seats and schedule: the same cards in "
        "every game, so differences from the canonical table are paired by game (per-game "
        "means, Student-t interval over games).",
        f"Identical rule sets are merged before playing (equal `Rules.to_dict()`): {merged}.",
        f"Fields (seats in turn around the table; games per condition): {seats}.",
        "Bids that read the scoring table (by their code in ohhell_sim/strategies/*.py: they call "
        f"best_bid, best_bid_by_row or points): {', '.join(SCORE_AWARE_BIDDERS)}; bids that "
        f"ignore it: {', '.join(SCORE_BLIND_BIDDERS)}. Caveat: {LEARNED_CAVEAT}, so its shifts "
        "are those of a fixed trick model re-scored, not of a player that re-optimises its "
        "play; mc_bidder re-estimates the trick distribution by playing samples out.",
        "Decisiveness, in measures that do not depend on where zero lies (the penalty table's "
        "totals are negative): the half-game leader's final win share (every field); in mixed "
        "fields, the probability that the seat of the strategy with the higher mean total "
        "finishes ahead of a seat of another strategy, and the share of the variance of final "
        "totals explained by the strategy (eta squared, bootstrap over games, 2,000 resamples).",
        "One family of comparisons for the whole report, adjusted with Holm's method "
        "(statsmodels multipletests, family-wise 5%: "
        f"{_correction_of(results)}): the bid shifts (mean bid and zero-bid rate of every "
        "score-maximising player in every field, and their standardised pool, against the "
        "canonical table), the leader's win share, the stronger seat ahead and the skill "
        "share (each variant against the canonical table in every field where the measure "
        "exists), the ranking (the win-share gaps of strategies adjacent in the "
        "canonical order under every variant), the skill share of the first table minus the "
        "second's, and per measure and variant the test that its shift is the same for "
        "every score-maximising player (bids) or in every field (the leader's win share, "
        "the stronger seat ahead): a Wald test on the per-game shifts, games paired across "
        "them (every field plays the same cards). p-values are read off the 95% intervals "
        "(normal approximation, or the bootstrap's for the skill share) and printed to three "
        "decimals, '< 0.001' below.",
        confirmation_method(
            manifest.get("confirmation") or {},
            "every variant is played again in every field",
            "games per condition (each field its share)",
        ),
        "A headline finding holds in every field and is established (survives Holm and is "
        "confirmed) in every field. The orders compared (the canonical ranking, the stronger "
        "strategy of a mixed field) are read off each run's own canonical table; the "
        "confirmation reads them again on its cards, so an order that holds only for the "
        "first run's cards does not confirm. The tables also mark each row's replication on "
        "the even and the odd games, which guards only against a few influential games.",
        "Pooled rows are standardised (equal weight per score-maximising player) and labelled "
        f"'{STANDARDISED}'; table sizes are never pooled.",
    ]


def _correction_of(results: dict) -> str:
    """The family's correction, read off any of its non-empty parts."""
    for table in (results["bids"], results["decisiveness"], results["gaps"]):
        if len(table) and "correction" in table:
            return str(table["correction"].iloc[0])
    return "holm over 0"


def _findings(results: dict) -> list[str]:
    """The findings in words: the merged tables, which bids react, then the effects."""
    out = [
        f"{name}: the same rules at these table sizes, played and reported once."
        for name in results["names"]
        if " = " in name
    ]
    reactions = results["reactions"]
    if not reactions.empty:
        same = reactions[reactions["share_differs"] == 0]
        same = ", ".join(f"{r.strategy} in {r.field}" for r in same.itertuples()) or "none"
        moved = reactions[reactions["share_differs"] > 0]
        blind = moved[~moved["strategy"].isin(SCORE_AWARE_BIDDERS)]
        hook = (
            "; in mixed fields the scoring-blind bidders move only through the others' bids "
            f"(the hook): share_differs at most {fmt_number(blind['share_differs'].max())} "
            "of their deals"
            if len(blind)
            else ""
        )
        out.append(
            f"Bids identical to the canonical table's on every deal under every table: {same}"
            f"{hook}. By their code, {', '.join(SCORE_BLIND_BIDDERS)} ignore the scoring when "
            "they bid, so a ranking of them cannot change through their bids."
        )
    verdicts, bids, gaps, levels = (results[k] for k in ("verdicts", "bids", "gaps", "levels"))
    if verdicts.empty:
        return out
    out += _headline_findings(results)
    if not bids.empty and (bids["strategy"] == "learned").any():
        out.append(f"Caveat on every learned shift: {LEARNED_CAVEAT}.")
    depends = verdicts[verdicts["verdict"] == DEPENDS_ON_FIELD]
    for (n, effect, measure), rows in depends.groupby(["players", "effect", "measure"], sort=False):
        each = "; ".join(
            f"{r.variant} {_range(r)}"
            + (" (significant in opposite directions)" if r.opposite else "")
            for r in rows.itertuples()
        )
        out.append(f"{n} players, depends on the field ({effect}, {measure}): {each}.")
    out += _ranking_findings(results)
    base = levels[levels["variant"] == BASELINE]
    if len(base):
        each = "; ".join(
            f"{r.field} {fmt_ci(r.leader_wins, r.leader_wins_low, r.leader_wins_high)}"
            for r in base.itertuples()
        )
        out.append(
            f"Under the canonical table the half-game leader takes this share of the win: {each}."
        )
    if "skill_share" in levels.columns and levels["skill_share"].notna().any():
        rows = levels.dropna(subset=["skill_share"])
        low = rows.loc[rows["skill_share"].idxmin()]
        high = rows.loc[rows["skill_share"].idxmax()]
        out.append(
            f"The strategy explains from {fmt_ci(*low[_triple('skill_share')])} "
            f"({low['field']}, {low['variant']}) to {fmt_ci(*high[_triple('skill_share')])} "
            f"({high['field']}, {high['variant']}) of the variance of final totals."
        )
    for measure, rows in results["decisiveness"].groupby("measure", sort=False):
        out.append(_family_line(f"Decisiveness family '{measure}'", rows))
    if not bids.empty:
        out.append(_family_line("Bid-shift family", bids))
    if len(gaps):
        out.append(_family_line("Ranking family", gaps))
    return out


def _headline_findings(results: dict) -> list[str]:
    """Per table size and measure, the effects that hold (and are established) everywhere."""
    verdicts, bids, decisive = results["verdicts"], results["bids"], results["decisiveness"]
    heads = verdicts[verdicts["headline"]]
    established = "Each survives Holm and is confirmed at the second seed."
    out = []
    for (n, measure), rows in heads[heads["effect"] == BID_EFFECT].groupby(
        ["players", "measure"], sort=False
    ):
        standardised = bids[
            (bids["field"] == STANDARDISED) & (bids["measure"] == measure) & (bids["players"] == n)
        ]
        pooled = {
            r["variant"]: f"; {STANDARDISED} {fmt_row(r)}" for _, r in standardised.iterrows()
        }
        described = [
            f"{r.variant} ({_range(r)}{pooled.get(r.variant, '')})" for r in rows.itertuples()
        ]
        out.append(
            f"{n} players: the {measure} of every score-maximising player in every field is "
            f"{_by_sign(rows, described, ('raised by', 'lowered by'))}. {established}"
        )
    for (n, measure), rows in heads[heads["effect"] == "decisiveness"].groupby(
        ["players", "measure"], sort=False
    ):
        cells = decisive[(decisive["players"] == n) & (decisive["measure"] == measure)]
        described = [
            f"{r.variant} ("
            + ", ".join(
                f"{c['field']} {fmt_row(c)}"
                for _, c in cells[cells["variant"] == r.variant].iterrows()
            )
            + ")"
            for r in rows.itertuples()
        ]
        words = [f"{DECISIVE_WORDS[measure].format(side)} under" for side in ("more", "less")]
        where = "field" if measure == LEADER else "mixed field"
        out.append(
            f"{n} players, decisiveness ({measure}), in every {where}: "
            f"{_by_sign(rows, described, words)}, against the canonical table. {established}"
        )
    return out


def _by_sign(rows: pd.DataFrame, described: list[str], phrases: Sequence[str]) -> str:
    """``described`` (a text per row of ``rows``) after ``phrases[0]`` for the effects that
    raise the measure, after ``phrases[1]`` for the others."""
    up = (rows["min_estimate"] > 0).tolist()
    sides = [[d for d, u in zip(described, up, strict=True) if u == side] for side in (True, False)]
    return "; ".join(
        f"{phrase} " + ", ".join(side) for phrase, side in zip(phrases, sides, strict=True) if side
    )


def _ranking_findings(results: dict) -> list[str]:
    """Per mixed field, the canonical ranking and the variants that reverse it."""
    gaps, canonical = results["gaps"], results["canonical_gaps"]
    out = []
    for (n, field), rows in results["ranking"].groupby(["players", "field"], sort=False):
        base = rows[rows["variant"] == BASELINE]
        if base.empty:
            continue
        order = " > ".join(
            base.sort_values("win_share", ascending=False, kind="stable")["strategy"]
        )
        mine = gaps[(gaps["players"] == n) & (gaps["field"] == field)] if len(gaps) else gaps
        reversed_ = mine[mine["survives"] & (mine["estimate"] < 0)] if len(mine) else mine
        base_gaps = canonical[(canonical["players"] == n) & (canonical["field"] == field)]
        unresolved = (
            ""
            if (base_gaps["low"] > 0).all()
            else " (not every adjacent gap resolved under the canonical table)"
        )
        reversals = (
            "; reversed (Holm) under "
            + ", ".join(
                f"{r.variant} ({r.pair} {fmt_ci(r.estimate, r.low, r.high)}, {r.replication})"
                for r in reversed_.itertuples()
            )
            if len(reversed_)
            else "; no variant reverses an adjacent pair after Holm"
        )
        out.append(
            f"{n} players, {field}: the canonical win-share ranking is {order}{unresolved}"
            f"{reversals}."
        )
    return out


def _family_line(name: str, table: pd.DataFrame) -> str:
    """How many of a part's comparisons survive and are confirmed."""
    return (
        f"{name}: {int(table['survives'].sum())} of {len(table)} comparisons survive "
        f"({table['correction'].iloc[0]}), {int(table['established'].sum())} of them "
        "confirmed at the second seed."
    )


def _signed(value: float) -> str:
    """:func:`~ohhell_sim.analysis.format.fmt_number`'s text, with a plus sign when positive."""
    text = fmt_number(value)
    return f"+{text}" if float(text) > 0 else text


def _range(row: object) -> str:
    """An effect's lowest and highest shift over the fields (a verdict row), with where."""
    low = f"{_signed(row.min_estimate)} ({row.min_where})"
    high = f"{_signed(row.max_estimate)} ({row.max_where})"
    return low if row.min_estimate == row.max_estimate else f"{low} to {high}"


def _games(row: pd.Series) -> str:
    """The games a skill-ranking row's stronger seat needs to be ahead 95% of the time."""
    return f"{fmt_number(row['games_ahead'], 0)} games to be ahead 95% of the time"


def _percent(share: float) -> str:
    """A share as a percentage of the tables' digits (0.637 as 63.7%)."""
    return f"{Decimal(fmt_number(share)).scaleb(2)}%"


def _first_place(top: pd.Series, lead: pd.DataFrame, players: int) -> str:
    """``top`` lets skill decide most, or ties for it, by the test of its lead over the
    runner-up."""
    if len(lead):
        lead = lead[(lead["players"] == players) & (lead["field"] == MAXIMISER_MIX)]
    if not len(lead):
        return f"{top['variant']} lets skill decide the game most (its lead is not tested)"
    row = lead.iloc[0]
    if row["established"] and row["estimate"] > 0:
        return f"{row['variant']} lets skill decide the game most, ahead of {row['runner_up']}"
    return (
        f"{row['variant']} and {row['runner_up']} tie for letting skill decide the game most "
        "(the first's lead is not established)"
    )


def _in_short(results: dict, manifest: dict) -> list[str]:
    """The answer first: which table lets skill decide most, and how bids move."""
    skill, lead, verdicts = results["skill"], results["lead"], results["verdicts"]
    text = []
    adapting = skill[skill["field"] == MAXIMISER_MIX] if len(skill) else skill
    for players, part in adapting.groupby("players", sort=True):
        canonical = part[part["variant"] == BASELINE]
        above = part[part["skill_change"].notna() & part["skill_change_established"]]
        more = ", ".join(above[above["skill_change"] > 0]["variant"]) or "none"
        less = ", ".join(above[above["skill_change"] < 0]["variant"]) or "none"
        top = part.iloc[0]
        base = (
            f", against {_percent(canonical['stronger_ahead'].iloc[0])} "
            f"({_games(canonical.iloc[0])}) under the canonical table"
            if len(canonical) and top["variant"] != BASELINE
            else ""
        )
        changes = (
            f" More than under the canonical table under: {more}; less under: {less}."
            if len(above)
            else " No table's change from the canonical one is established."
        )
        text.append(
            f"At {players} players, among players that all bid for the table, "
            f"{_first_place(top, lead, players)}: the stronger strategy's seat finishes ahead "
            f"of another's in {_percent(top['stronger_ahead'])} of games ({_games(top)}){base}."
            f"{changes}"
        )
    if not len(adapting):
        text.append(
            "This run cannot say which scoring table lets skill decide the game: it played no "
            f"field of players that all bid for the table ({MAXIMISER_MIX})."
        )
    blind = skill[skill["field"] == MIX_FIELD] if len(skill) else skill
    if len(blind) and len(adapting):
        order = blind.groupby("players")["variant"].apply(list)
        same = all(
            order.get(p) == part["variant"].tolist()
            for p, part in adapting.groupby("players", sort=True)
        )
        firsts = ", ".join(f"{v[0]} at {p} players" for p, v in order.items())
        text.append(
            f"In the {MIX_FIELD} field, whose simple and zero ignore the table, the tables rank "
            + (
                "in the same order."
                if same
                else f"in another order (first: {firsts}; untested): there a table's effect on "
                "skill mixes with what ignoring it costs."
            )
        )
    heads = verdicts[verdicts["headline"].astype(bool)] if len(verdicts) else verdicts
    bid_heads = heads[heads["effect"] == BID_EFFECT]
    if len(bid_heads):
        text.append(
            f"Bids follow the table: {len(bid_heads)} bid shifts (of the mean bid or the "
            "zero-bid rate) hold for every score-maximising player in every field (the "
            "findings list them)."
        )
    confirmed = (manifest.get("confirmation") or {}).get("games")
    text.append(
        f"Evidence: {len(heads)} of {len(verdicts)} effects hold in every field, each surviving "
        "one correction over all comparisons"
        + (" and confirmed at a second seed." if confirmed else " (no confirmation run).")
    )
    return text


SPEC = StudySpec(
    name=NAME,
    question=QUESTION,
    conditions=conditions,
    analyse=analyse,
    default_games=DEFAULT_GAMES,
    default_players=DEFAULT_PLAYERS,
    default_fields=DEFAULT_FIELDS,
    known_fields=KNOWN_FIELDS,
    field_shares=FIELD_SHARES,
)
