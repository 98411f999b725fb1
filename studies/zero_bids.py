"""Study ``zero_bids``: who bids zero, when it works, and when it should be bid.

Two parts, played with one seed:

``observed``
    Every strategy mix of :func:`studies.design.mixes` at each table size:
    zero-bid rates and zero-bid success rates by hand size, table size, bidding
    position, trump holding and strategy.
``probe``
    A counterfactual measured, not guessed.  Seat 0 holds the ``zero`` strategy
    in two arms played on the same cards: ``zero`` (threshold 1e9: bids 0
    whenever 0 is legal) and ``alternative`` (threshold -1: always bids
    ``expected_tricks``'s rounded count).  Both arms play the same card-counting
    policy, so on every deal the difference of seat 0's scores is the effect of
    bidding 0 instead of the alternative bid on that very hand, the other seats
    reacting as they would.  It is run under each zero-bid table of the online
    game's page (``Rules.zero``).  Scoring the tricks a hand took under a bid it
    did not make would not do: a player aiming at 0 plays differently.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import bootstrap_by_game, grouped_mean
from ohhell_sim.rules import ZERO_TABLES, Rules
from studies.design import MIX_STRATEGIES, POSITION_ORDER, bidding_position, mixes, position_label
from studies.holdings import trump_holdings
from studies.report import study_report
from studies.runs import Condition, StudyData, play_conditions

NAME = "zero_bids"
QUESTION = "When do players bid zero, when does it work, and which hands should bid it?"
DEFAULT_GAMES = 1000
DEFAULT_PLAYERS = (3, 4, 5)
ALL = "all"
#: Thresholds of the ``zero`` strategy's two probe arms (expected tricks at most this: bid 0).
PROBE_ARMS = {"zero": 1e9, "alternative": -1.0}
#: Trump holdings are recreated (the games replayed, hands recorded) for this many games
#: per table size at most.
HOLDING_GAMES = 400


def conditions(games: int, players: tuple[int, ...]) -> list[Condition]:
    """The observed mixes, then the probe arms under each zero table (see the module doc)."""
    out = []
    for n in players:
        for mix, seats in mixes(n).items():
            label = {"part": "observed", "players": n, "mix": mix, "zero_table": "10", "arm": "-"}
            out.append(Condition(label, Rules(players=n), seats, games))
    for n in players:
        others = (MIX_STRATEGIES * n)[: n - 1]
        for table in ZERO_TABLES:
            for arm, threshold in PROBE_ARMS.items():
                label = {
                    "part": "probe",
                    "players": n,
                    "mix": "probe",
                    "zero_table": table,
                    "arm": arm,
                }
                seats = (("zero", {"threshold": threshold}), *others)
                out.append(Condition(label, Rules(players=n, zero=table), seats, games))
    return out


def play(
    games: int, seed: int, players: tuple[int, ...] = DEFAULT_PLAYERS, progress: bool = True
) -> StudyData:
    """Play the study's conditions (see :func:`conditions`) with ``seed``."""
    return play_conditions(conditions(games, players), seed, progress=progress, description=NAME)


def holding_label(trumps: np.ndarray) -> np.ndarray:
    """Trump holdings as ``"0"``, ``"1"``, ``"2"``, ``"3+"``."""
    return np.where(trumps >= 3, "3+", trumps.astype(str))


def observed_rows(data: StudyData) -> pd.DataFrame:
    """The observed part with ``position``, ``zero``, ``made``; ``trumps`` where recreated."""
    hands = data.hands[data.hands["part"] == "observed"].copy()
    hands["position"] = position_label(bidding_position(hands), hands["players"].to_numpy())
    hands["zero"] = hands["bid"] == 0
    hands["made"] = hands["bid"] == hands["tricks"]
    holdings = []
    for n, table in hands.groupby("players", observed=True):
        sample = table[table["game"] < HOLDING_GAMES]
        holdings.append(trump_holdings(sample, data.manifest["seed"], int(n)).assign(players=n))
    keys = ["players", "game", "deal", "seat"]
    hands = hands.merge(pd.concat(holdings), on=keys, how="left")
    return hands


def probe_pairs(data: StudyData) -> pd.DataFrame:
    """Seat 0's deals in both probe arms, side by side: one row per (players, table, game, deal).

    Columns: ``alt_bid`` and ``zero_arm_bid``, the scores ``alt_score`` and
    ``zero_score``, ``diff`` = zero minus alternative, ``decision`` (the
    alternative bid is not 0 and the zero arm could bid 0), ``hand_size``.
    """
    probe = data.hands[(data.hands["part"] == "probe") & (data.hands["seat"] == 0)]
    keys = ["players", "zero_table", "game", "deal"]
    arms = {
        arm: probe[probe["arm"] == arm][[*keys, "hand_size", "bid", "score"]].set_index(keys)
        for arm in PROBE_ARMS
    }
    pairs = arms["alternative"].merge(
        arms["zero"][["bid", "score"]],
        left_index=True,
        right_index=True,
        how="left",
        suffixes=("", "_zero"),
    )
    pairs = pairs.rename(
        columns={
            "bid": "alt_bid",
            "score": "alt_score",
            "bid_zero": "zero_arm_bid",
            "score_zero": "zero_score",
        }
    )
    pairs = pairs.reset_index()
    pairs["zero_table"] = pairs["zero_table"].astype(str)
    pairs["diff"] = pairs["zero_score"] - pairs["alt_score"]
    pairs["decision"] = (pairs["alt_bid"] > 0) & (pairs["zero_arm_bid"] == 0)
    pairs["alt_bid_label"] = np.where(pairs["alt_bid"] >= 3, "3+", pairs["alt_bid"].astype(str))
    return pairs


def zero_rule_rate(pairs: pd.DataFrame) -> float:
    """Share of hands that bid 0 under the rule fitted on ``pairs``.

    The rule: bid 0 when the alternative bid is 0, or when it is not and the mean
    score difference (zero minus alternative) over the hands of the same table
    size, hand size and alternative bid is positive.
    """
    cells = ["players", "hand_size", "alt_bid"]
    gain = pairs[pairs["decision"]].groupby(cells, observed=True)["diff"].mean()
    wins = pairs.join(gain.rename("cell_gain"), on=cells)["cell_gain"] > 0
    return float(((pairs["alt_bid"] == 0) | (pairs["decision"] & wins)).mean())


def _rates(hands: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Zero-bid rate and zero-bid success per group, with a pooled-over-strategies row set."""
    # A constant key keeps the merge below working when ``by`` is empty.
    hands = hands.assign(_key=0)
    keys = [*by, "_key"]
    out = []
    for strategy_rows, strategy in (
        (hands, ALL),
        *((g, s) for s, g in hands.groupby("strategy", observed=True)),
    ):
        rate = grouped_mean(strategy_rows, strategy_rows["zero"], keys)
        zero_rows = strategy_rows[strategy_rows["zero"]]
        success = grouped_mean(zero_rows, zero_rows["made"], keys)
        merged = rate.merge(success, on=keys, how="left", suffixes=("", "_made"))
        out.append(
            pd.DataFrame(
                {
                    "strategy": strategy,
                    **{c: merged[c] for c in by},
                    "deals": merged["n"],
                    "zero_bid_rate": merged["estimate"],
                    "zero_bid_rate_low": merged["low"],
                    "zero_bid_rate_high": merged["high"],
                    "zero_bids": merged["n_made"].fillna(0).astype(int),
                    "zero_made_rate": merged["estimate_made"],
                    "zero_made_rate_low": merged["low_made"],
                    "zero_made_rate_high": merged["high_made"],
                }
            )
        )
    return pd.concat(out, ignore_index=True)


def analyse(data: StudyData) -> Report:
    """The report of a ``zero_bids`` run, every number computed from ``data``."""
    hands = observed_rows(data)
    by_strategy = _rates(hands, [])
    by_players = _rates(hands, ["players"])
    by_size = _rates(hands, ["hand_size"])
    by_position = _rates(hands, ["position"])
    by_position = by_position.sort_values(
        ["strategy", "position"],
        key=lambda c: c.map(POSITION_ORDER.index) if c.name == "position" else c,
        kind="stable",
    )
    held = hands[hands["trumps"].notna()].copy()
    held["trump_holding"] = holding_label(held["trumps"].to_numpy(dtype=np.int64))
    by_trumps = _rates(held, ["trump_holding"])

    pairs = probe_pairs(data)
    decisions = pairs[pairs["decision"]]
    gain = grouped_mean(decisions, decisions["diff"], ["zero_table", "alt_bid_label"])
    gain_by_size = grouped_mean(decisions, decisions["diff"], ["zero_table", "hand_size"])
    optimal = []
    for table, rows in pairs.groupby("zero_table", sort=False):
        estimate, low, high, _, _ = bootstrap_by_game(
            rows, zero_rule_rate, description=f"bootstrap, zero={table}"
        )
        alt_rate = grouped_mean(rows, rows["alt_bid"] == 0, [])
        optimal.append(
            {
                "zero_table": table,
                "hands": len(rows),
                "rule_zero_rate": estimate,
                "rule_zero_rate_low": low,
                "rule_zero_rate_high": high,
                "alternative_zero_rate": alt_rate["estimate"][0],
                "alternative_zero_rate_low": alt_rate["low"][0],
                "alternative_zero_rate_high": alt_rate["high"][0],
            }
        )
    optimal = pd.DataFrame(optimal)
    order = {t: i for i, t in enumerate(ZERO_TABLES)}
    optimal = optimal.sort_values("zero_table", key=lambda c: c.map(order))

    findings = _findings(by_strategy, by_size, by_position, by_trumps, gain, optimal)
    tables = [
        Table(
            "Zero bids by strategy",
            display_table(by_strategy),
            "deals: deals played; zero_bids: deals bid 0; zero_made_rate: share of zero "
            "bids that took no trick.",
        ),
        Table("Zero bids by table size", display_table(by_players)),
        Table("Zero bids by hand size", display_table(by_size)),
        Table("Zero bids by bidding position", display_table(by_position)),
        Table(
            f"Zero bids by trump holding (first {HOLDING_GAMES} games per table size)",
            display_table(by_trumps),
        ),
        Table(
            "Bidding 0 instead of the alternative bid: score difference per deal",
            display_table(gain, digits=2),
            "Probe seat, hands whose alternative bid is not 0 and that may bid 0; "
            "paired on the same cards, intervals clustered by game.",
        ),
        Table(
            "Share of hands that should bid 0, by zero-bid table",
            display_table(optimal),
            "rule_zero_rate: hands whose alternative bid is 0, plus hands in (table size, "
            "hand size, alternative bid) cells where bidding 0 scored more on average; "
            "bootstrap interval over games (200 resamples).  alternative_zero_rate: how "
            "often expected_tricks's count is 0.",
        ),
    ]
    strategies_only = by_size[by_size["strategy"] != ALL]
    figures = [
        Figure(
            "zero_rate_by_hand_size.png",
            "Zero-bid rate by hand size and strategy",
            interval_plot(
                strategies_only.rename(
                    columns={
                        "zero_bid_rate": "estimate",
                        "zero_bid_rate_low": "low",
                        "zero_bid_rate_high": "high",
                    }
                ),
                "hand_size",
                series="strategy",
                title="Zero-bid rate",
                xlabel="hand size",
                ylabel="share of deals",
            ),
        ),
        Figure(
            "zero_success_by_hand_size.png",
            "Zero-bid success by hand size and strategy",
            interval_plot(
                strategies_only.dropna(subset=["zero_made_rate"]).rename(
                    columns={
                        "zero_made_rate": "estimate",
                        "zero_made_rate_low": "low",
                        "zero_made_rate_high": "high",
                    }
                ),
                "hand_size",
                series="strategy",
                title="Zero bids made",
                xlabel="hand size",
                ylabel="share of zero bids",
            ),
        ),
        Figure(
            "zero_gain_by_hand_size.png",
            "Score of bidding 0 minus the alternative bid, by hand size and zero table",
            interval_plot(
                gain_by_size,
                "hand_size",
                series="zero_table",
                title="Bid 0 instead (probe, same cards)",
                xlabel="hand size",
                ylabel="points per deal",
                zero_line=True,
            ),
        ),
    ]
    method = [
        "Observed part: every mix of " + ", ".join(MIX_STRATEGIES) + " at each table size, "
        "canonical rules; rates per deal with intervals clustered by game.",
        "Trump holdings are not in the results: the games are replayed with the hands "
        "recorded (a canonical deal's cards do not depend on the strategies; checked "
        f"against the recorded dealer and trump suit) for the first {HOLDING_GAMES} games "
        "of each table size.",
        "Probe part: seat 0 plays the zero strategy in two arms on the same cards, bidding 0 "
        "whenever legal or always bidding expected_tricks's count (the alternative); both "
        "play alike, so the score difference per deal is the measured effect of bidding 0 "
        "on that hand, with the other seats reacting as they would. Scoring the tricks "
        "a hand took under a bid it did not make would not be valid: aiming at 0 changes "
        "the play.",
        "Which hands should bid 0: the hands of each (table size, hand size, alternative "
        "bid) cell bid 0 when bidding 0 scored more on average in that cell; the share of "
        "hands this rule sends to 0 is fitted and measured on the same data (a plug-in "
        "estimate) with a bootstrap interval over games, under each zero-bid table.",
    ]
    return study_report(NAME, QUESTION, data.manifest, method, findings, tables, figures)


def _row(table: pd.DataFrame, **where) -> pd.Series:
    mask = np.ones(len(table), dtype=bool)
    for column, value in where.items():
        mask &= (table[column].astype(str) == str(value)).to_numpy()
    return table[mask].iloc[0]


def _ci(row: pd.Series, base: str, digits: int = 3) -> str:
    return fmt_ci(row[base], row[f"{base}_low"], row[f"{base}_high"], digits)


def _findings(by_strategy, by_size, by_position, by_trumps, gain, optimal) -> list[str]:
    out = []
    for _, row in by_strategy[by_strategy["strategy"] != ALL].iterrows():
        out.append(
            f"{row['strategy']} bids 0 in {_ci(row, 'zero_bid_rate')} of deals and takes no "
            f"trick in {_ci(row, 'zero_made_rate')} of those zero bids."
        )
    pooled = by_size[by_size["strategy"] == ALL]
    small, large = pooled.iloc[0], pooled.iloc[-1]
    out.append(
        f"Over all strategies, zero bids succeed in {_ci(small, 'zero_made_rate')} of "
        f"{small['hand_size']}-card deals and {_ci(large, 'zero_made_rate')} of "
        f"{large['hand_size']}-card deals."
    )
    first = _row(by_position, strategy=ALL, position="1st (leads)")
    dealer = _row(by_position, strategy=ALL, position="dealer")
    out.append(
        f"The first bidder, who leads, makes {_ci(first, 'zero_made_rate')} of its zero bids; "
        f"the dealer {_ci(dealer, 'zero_made_rate')}."
    )
    trumps = by_trumps[by_trumps["strategy"] == ALL].dropna(subset=["zero_made_rate"])
    none, most = trumps.iloc[0], trumps.iloc[-1]
    out.append(
        f"Holding {none['trump_holding']} trumps, a zero bid succeeds "
        f"{_ci(none, 'zero_made_rate')} of the time; holding {most['trump_holding']}, "
        f"{_ci(most, 'zero_made_rate')}."
    )
    canonical = gain[gain["zero_table"] == "10"]
    for _, row in canonical.iterrows():
        verdict = (
            "bidding 0 scores more"
            if row["low"] > 0
            else "bidding 0 scores less"
            if row["high"] < 0
            else "the difference is not resolved"
        )
        out.append(
            f"Canonical table, hands whose alternative bid is {row['alt_bid_label']}: bidding 0 "
            f"instead changes the score by {fmt_row(row, 2)} points per deal ({verdict})."
        )
    for _, row in optimal.iterrows():
        out.append(
            f"Zero table {row['zero_table']}: the fitted rule bids 0 on "
            f"{_ci(row, 'rule_zero_rate')} of hands, against "
            f"{_ci(row, 'alternative_zero_rate')} for expected_tricks's count."
        )
    return out
