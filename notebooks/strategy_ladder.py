# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The strategy ladder: every built-in on the same cards
#
# A duplicate gauntlet: each built-in strategy in one seat against a field (one strategy in
# the other seats: `simple`, then `card_counter`), every deal set played from every seat,
# all strategies on the same cards.  Strategies that make the same bids and plays on the
# same cards are merged into one entry; the pairwise family, with a test per pair of
# whether the fields differ, is Holm-corrected and confirmed at a second seed.
#
# The study is `ohhell_sim/studies/strategy_ladder.py`; this notebook runs it at the size below (or
# loads the Parquet output of `ohhell experiment strategy_ladder --out DIR` when `data_dir` is
# set), then shows its findings, tables and figures.  Every number in the text is read
# from the data.

# %% tags=["parameters"]
games = 40  # games per strategy; the committed report used more (see reports/strategy_ladder/)
seed = 0
players = (4,)
data_dir = None  # a folder of `ohhell experiment strategy_ladder` output; None runs the study here
out_dir = None  # None: runs/notebook_strategy_ladder in the repository, wherever this runs from
strategies = ("simple", "random", "card_counter")  # None: every built-in (slow)
fields = ("simple", "card_counter")  # the strategy in the other seats, one ladder per field

# %%
import pandas as pd
from IPython.display import Markdown, display

from ohhell_sim.studies import notebook as nb
from ohhell_sim.studies import strategy_ladder
from ohhell_sim.studies.runs import read_study

data_dir, report = nb.open_study(
    "strategy_ladder",
    data_dir,
    out_dir,
    games,
    seed,
    players=players,
    strategies=strategies,
    fields=fields,
)
data = read_study(data_dir)
nb.show_setup(report)

# %% [markdown]
# ## In short

# %%
nb.show_in_short(report)

# %% [markdown]
# ## Findings (95% confidence intervals)

# %%
nb.show_findings(report)

# %% [markdown]
# ## Tables

# %%
nb.show_tables(report)

# %% [markdown]
# ## Figures

# %%
nb.show_figures(report)

# %% [markdown]
# ## Per field: the ranking, and where the order changes
#
# The same analysis as the report, from the library: identical challengers merged, one
# ranking per field, and the pairs whose order differs between the fields.

# %%
found = strategy_ladder.LADDER.rank(data)
values, rankings, order, family = found.values, found.rankings, found.order, found.family
per_field = pd.DataFrame(
    {field: ranking.set_index("strategy")["rank"] for field, ranking in rankings.items()}
).loc[order]
display(Markdown("Rank of each ladder entry against each field (1 = best):"))
display(per_field)
changes = strategy_ladder.order_changes(family)
pairs = family[family["field"] != strategy_ladder.BETWEEN_FIELDS]
display(
    Markdown(
        f"{len(changes)} of {pairs.groupby(['a', 'b']).ngroups} pairs change order between "
        f"the fields; {int(family['established'].sum())} of {len(family)} comparisons "
        f"survive {family['correction'].iloc[0]} and confirm at the second seed."
    )
)
display(family[["field", "a", "b", "estimate", "low", "high", "survives", "confirmation"]])

# %% [markdown]
# ## A closer look: the value of each deal set

# %%
spread = values.groupby(["field", "challenger"], observed=True)["mean_total"].agg(
    ["mean", "std", "size"]
)
top = spread["mean"].idxmax()
display(
    Markdown(
        f"{top[1]} averages {spread.loc[top, 'mean']:.1f} points per game against {top[0]} over "
        f"{spread.loc[top, 'size']} deal sets (standard deviation {spread.loc[top, 'std']:.1f})."
    )
)
display(spread.sort_values("mean", ascending=False))

# %% [markdown]
# ## Exact one-card play
#
# Each challenger also played one-card deals with itself in every seat.  In a one-card deal
# play has no choice, so `ohhell_sim.exact.solve_one_card` solves the bids exactly; below,
# the solved values per bidding position (the dealer last), then each challenger's mean
# score per position beside them with the regret (exact minus measured, 95% intervals).

# %%
from ohhell_sim.exact import regret_table, solve_one_card
from ohhell_sim.rules import Rules

if len(data.hands):  # output written before the one-card runs has none
    solution = solve_one_card(Rules.from_dict(data.manifest["one_card"]["rules"]))
    display(solution.table())
    regret = regret_table(solution, data.hands)
    display(regret[["strategy", "role", "exact", "estimate", "low", "high", "regret"]].round(3))
