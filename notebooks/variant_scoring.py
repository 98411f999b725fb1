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
# # Scoring variants: bids, rankings, spread and decisiveness
#
# Every scoring table of the sources played on the same cards: how the score-maximising
# bids of `learned` shift, whether the strategies' ranking changes, how spread out the
# final totals are, and how often the leader at half-time wins.
#
# The study lives in `studies/variant_scoring.py`; this notebook runs it at the size below (or
# loads the Parquet output of `ohhell experiment variant_scoring --out DIR` when `data_dir` is
# set), then shows its findings, tables and figures.  Every number in the text is read
# from the data.

# %% tags=["parameters"]
games = 100  # games per condition; the committed report used more (see reports/variant_scoring/)
seed = 0
players = (4,)
data_dir = None  # a folder of `ohhell experiment variant_scoring` output; None runs the study here
out_dir = None  # None: runs/notebook_variant_scoring in the repository, wherever this runs from

# %%
from IPython.display import Markdown, display

import studies
from studies import variant_scoring
from studies.notebook import runs_folder, show_figures, show_findings, show_setup, show_tables
from studies.runs import read_study

if data_dir is None:
    out_dir = out_dir or runs_folder("notebook_variant_scoring")
    studies.run_experiment("variant_scoring", out_dir, games, seed, players=players)
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
# ## A closer look: decisiveness game by game

# %%
decisive = variant_scoring.halftime_decisiveness(data.hands, data.games)
table = decisive.groupby("variant", observed=True)["decisive"].agg(["mean", "size"])
best = table["mean"].idxmax()
display(
    Markdown(
        f"The half-time leader keeps the most of the win under **{best}** "
        f"({table.loc[best, 'mean']:.3f} over {table.loc[best, 'size']} games)."
    )
)
display(table.sort_values("mean", ascending=False))
