# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
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
out_dir = "runs/notebook_hook_rule"

# %%
from IPython.display import Image, Markdown, display

import studies
from studies import hook_rule
from studies.runs import read_study

if data_dir is None:
    studies.run_experiment("hook_rule", out_dir, games, seed, players=players)
    data_dir = out_dir
data = read_study(data_dir)
report = studies.build_report(data)
display(Markdown("\n".join(f"* {item}" for item in report.setup)))

# %% [markdown]
# ## Findings (95% confidence intervals)

# %%
display(Markdown("\n".join(f"* {finding}" for finding in report.findings)))

# %% [markdown]
# ## Tables

# %%
for table in report.tables:
    display(Markdown(f"### {table.title}\n\n{table.note}"))
    display(table.frame)

# %% [markdown]
# ## Figures

# %%
for figure in report.figures:
    display(Markdown(f"**{figure.caption}**"))
    display(Image(figure.png))

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
