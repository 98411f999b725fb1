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
# A duplicate gauntlet: each built-in strategy in one seat against a field of `simple`,
# every deal set played from every seat, all strategies on the same cards.
#
# The study lives in `studies/strategy_ladder.py`; this notebook runs it at the size below (or
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

# %%
from IPython.display import Markdown, display

import studies
from studies import strategy_ladder
from studies.notebook import runs_folder, show_figures, show_findings, show_setup, show_tables
from studies.runs import read_study

if data_dir is None:
    out_dir = out_dir or runs_folder("notebook_strategy_ladder")
    studies.run_experiment(
        "strategy_ladder", out_dir, games, seed, players=players, strategies=strategies
    )
    data_dir = out_dir
data = read_study(data_dir)
report, _ = studies.load_report(data_dir)  # the saved analysis: no recomputation
show_setup(report)

# %% [markdown]
# ## Findings (95% confidence intervals)

# %%
show_findings(report)

# %% [markdown]
# ## Tables

# %%
show_tables(report)

# %% [markdown]
# ## Figures

# %%
show_figures(report)

# %% [markdown]
# ## A closer look: the value of each deal set

# %%
values = strategy_ladder.unit_values(data.games)
spread = values.groupby("challenger", observed=True)["mean_total"].agg(["mean", "std", "size"])
top = spread["mean"].idxmax()
display(
    Markdown(
        f"{top} averages {spread.loc[top, 'mean']:.1f} points per game over "
        f"{spread.loc[top, 'size']} deal sets (standard deviation {spread.loc[top, 'std']:.1f})."
    )
)
display(spread.sort_values("mean", ascending=False))
