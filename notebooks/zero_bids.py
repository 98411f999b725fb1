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
# # Zero bids: when they are bid, when they work, when they should be
#
# Zero-bid rates and success by hand size, table size, position, trump holding and
# strategy, and a measured counterfactual: the same hands played with a zero bid and
# with the alternative bid, under each zero-bid table.
#
# The study lives in `studies/zero_bids.py`; this notebook runs it at the size below (or
# loads the Parquet output of `ohhell experiment zero_bids --out DIR` when `data_dir` is
# set), then shows its findings, tables and figures.  Every number in the text is read
# from the data.

# %% tags=["parameters"]
games = 100  # games per condition; the committed report used more (see reports/zero_bids/)
seed = 0
players = (3, 4)
data_dir = None  # a folder of `ohhell experiment zero_bids` output; None runs the study here
out_dir = None  # None: runs/notebook_zero_bids in the repository, wherever this runs from

# %%
from IPython.display import Markdown, display

import studies
from studies import zero_bids
from studies.notebook import runs_folder, show_figures, show_findings, show_setup, show_tables
from studies.runs import read_study

if data_dir is None:
    out_dir = out_dir or runs_folder("notebook_zero_bids")
    studies.run_experiment("zero_bids", out_dir, games, seed, players=players)
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
# ## A closer look: the probe's paired hands
#
# Each row is one hand of the probe seat, played once bidding 0 and once bidding the
# alternative, on the same cards.

# %%
pairs = zero_bids.probe_pairs(data)
decisions = pairs[pairs["decision"]]
better = (decisions["diff"] > 0).mean()
display(
    Markdown(
        f"Of {len(decisions)} hands that could choose, bidding 0 scored more in {better:.1%} "
        f"and less in {(decisions['diff'] < 0).mean():.1%}."
    )
)
display(decisions.groupby(["zero_table", "alt_bid_label"])["diff"].describe())
