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
# # The dealer's hook: who pays for it?
#
# Hook on and off on the same cards, at several table sizes and strategy mixes: how
# often the hook binds, what it costs the dealer and the other seats, how it moves the
# bids against the tricks, and whether it changes who wins.
#
# The study lives in `studies/hook_rule.py`; this notebook runs it at the size below (or
# loads the Parquet output of `ohhell experiment hook_rule --out DIR` when `data_dir` is
# set), then shows its findings, tables and figures.  Every number in the text is read
# from the data.

# %% tags=["parameters"]
games = 100  # games per condition; the committed report used more (see reports/hook_rule/)
seed = 0
players = (3, 4)
data_dir = None  # a folder of `ohhell experiment hook_rule` output; None runs the study here
out_dir = None  # None: runs/notebook_hook_rule in the repository, wherever this runs from

# %%
from IPython.display import Markdown, display

import studies
from studies import hook_rule
from studies.notebook import runs_folder, show_figures, show_findings, show_setup, show_tables
from studies.runs import read_study

if data_dir is None:
    out_dir = out_dir or runs_folder("notebook_hook_rule")
    studies.run_experiment("hook_rule", out_dir, games, seed, players=players)
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
# ## A closer look: the deal as a whole
#
# `deal_frame` sums the bids of every deal; under the hook they never total the hand size.

# %%
deals = hook_rule.deal_frame(data.hands)
exact = deals.assign(exact=deals["excess"] == 0).groupby("hook")["exact"].mean()
display(
    Markdown(
        f"Bids total the hand size in {exact[False]:.1%} of deals without the hook and "
        f"{exact[True]:.1%} with it ({len(deals)} deals in all)."
    )
)
