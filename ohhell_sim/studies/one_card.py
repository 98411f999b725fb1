"""Exact one-card play beside the strategies': each entry's one-card scores and the solved game.

In a one-card deal play has no choice, so :func:`ohhell_sim.exact.solve_one_card` solves
the bids exactly; a study whose entries played one-card deals in every seat
(:func:`ohhell_sim.exact.play_one_card`) sets each entry's score per bidding position beside
the exact values, with the regret, how often its bids restrict the dealer, and which entries
bid alike there (:func:`exact_one_card_section`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ohhell_sim.analysis.format import fmt_number, fmt_row
from ohhell_sim.analysis.report import Table, rules_text
from ohhell_sim.analysis.stats import mean_ci, proportion_ci
from ohhell_sim.engine.scoring import forbidden_bid_array
from ohhell_sim.exact import position_role, regret_table, solve_one_card
from ohhell_sim.rules import Rules
from ohhell_sim.studies.gauntlets import alike


def one_card_twins(hands: pd.DataFrame) -> list[tuple[str, ...]]:
    """Groups of two or more strategies with the same one-card bids and scores in every deal."""
    # Each strategy's columns as arrays in (game, seat) order, a strategy's rows at a
    # time: a study's one-card deals run to millions of rows.
    codes, names = pd.factorize(hands["strategy"])
    columns = [hands[column].to_numpy() for column in ("game", "seat", "bid", "score")]
    tables = {}
    for k, name in enumerate(names):
        rows = np.flatnonzero(codes == k)
        rows = rows[np.lexsort((columns[1][rows], columns[0][rows]))]
        tables[str(name)] = [column[rows] for column in columns]

    def same(first: str, name: str) -> bool:
        return all(map(np.array_equal, tables[first], tables[name]))

    groups = alike(tables, same)
    return [group for group in groups if len(group) > 1]


def exact_one_card_section(hands: pd.DataFrame, one_card: dict) -> tuple[str, list[str], Table]:
    """Section "Exact one-card play" (method line, findings, table): each entry's one-card score
    per bidding position beside the exact values; ``one_card``: the manifest's record."""
    rules = Rules.from_dict(one_card["rules"])
    solution = solve_one_card(rules)
    n = rules.players
    by_role = {position_role(p, n): fmt_number(v) for p, v in enumerate(solution.expected_score)}
    # Averages over seats: each game's seats averaged, a t interval over games.
    groups = {"before the dealer": np.arange(n - 1), "table mean": np.arange(n)}
    exact = {k: float(solution.expected_score[v].mean()) for k, v in groups.items()}
    rows = [{"strategy": "exact", **by_role} | {k: fmt_number(v) for k, v in exact.items()}]
    rows[0]["dealer restricted"] = fmt_number(solution.hook_rate)
    before, dealer_above = {}, []
    for name, group in regret_table(solution, hands).groupby("strategy", sort=False):
        row = {"strategy": name, **{r["role"]: fmt_row(r) for _, r in group.iterrows()}}
        if group["regret_high"].iloc[-1] < 0:
            dealer_above.append(name)
        played = hands[hands["strategy"] == name]
        for key, positions in groups.items():
            seats = played[played["position"].isin(positions)]
            row[key] = mean_ci(seats.groupby("game")["score"].mean().to_numpy())._asdict()
        before[name] = row["before the dealer"]
        row |= {key: fmt_row(row[key]) for key in groups}
        # The hook forbids the dealer a bid when the bids before it total 0 or 1.
        bids = played[played["position"] < n - 1].groupby("game")["bid"].sum().to_numpy()
        restricted = forbidden_bid_array(1, bids, rules) >= 0
        share = proportion_ci(int(restricted.sum()), len(restricted))
        row["dealer restricted"] = fmt_row(share._asdict())
        rows.append(row)
    table = Table(
        "Exact one-card play: points per deal by bidding position",
        pd.DataFrame(rows),
        "Row exact: the solved policy in every seat. Positions count from the dealer's left.",
    )
    method = (
        f"Exact one-card play: {one_card['games']} one-card deals ({n} players, the canonical "
        f"profile but {rules_text(one_card['rules'])}) per strategy, in every seat, on the same "
        "cards; Student-t intervals over the games. The exact values (ohhell_sim.exact."
        "solve_one_card): each position bids its best given its card, the turned-up card and "
        "the earlier bids read through the solved policy; the hook binds the dealer (bids last)."
    )
    ranked = sorted(before, key=lambda name: exact["before the dealer"] - before[name]["estimate"])
    best, worst = ranked[0], ranked[-1]
    findings = [
        "Exact one-card play: the solved policy scores "
        + ", ".join(f"{role} {text}" for role, text in by_role.items())
        + f" points per deal, {fmt_number(exact['table mean'])} per seat on average.",
        f"Before the dealer, {best} comes closest to the exact "
        f"{fmt_number(exact['before the dealer'])} points per deal per seat, with "
        + fmt_row(before[best])
        + (f"; {worst} is furthest, {fmt_row(before[worst])}." if worst != best else ".")
        + f" {len(dealer_above)} of {len(before)} strategies' dealers score more than the exact "
        "dealer (their earlier seats bid otherwise); the solved policy's bids forbid the dealer "
        f"a bid in {fmt_number(solution.hook_rate)} of deals.",
    ] + [
        f"{' and '.join(twins)} make the same bids in every one-card deal (no card to choose) "
        "but not in the gauntlets, so they stay separate entries."
        for twins in one_card_twins(hands)
    ]
    return method, findings, table
