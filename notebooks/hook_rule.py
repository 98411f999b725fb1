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
# Hook on and off on the same cards, at several table sizes and in several strategy
# fields (one strategy in every seat, or the mixed table): how often the hook binds,
# what it costs the dealer and the other seats, how it moves the bids against the
# tricks, and whether it changes who wins.  Each effect is measured per field: a
# finding about the hook holds in every field, or it depends on who plays.
#
# The study is `ohhell_sim/studies/hook_rule.py`; this notebook runs it at the size below (or
# loads the Parquet output of `ohhell experiment hook_rule --out DIR` when `data_dir` is
# set), then shows its findings, tables and figures.  Every number in the text is read
# from the data.

# %% tags=["parameters"]
games = 100  # games per condition; the committed report used more (see reports/hook_rule/)
seed = 0
players = (3, 4)
fields = None  # strategy fields, e.g. ("simple", "mix"); None: all of studies.design.FIELDS
data_dir = None  # a folder of `ohhell experiment hook_rule` output; None runs the study here
out_dir = None  # None: runs/notebook_hook_rule in the repository, wherever this runs from

# %%
from IPython.display import Image, Markdown, display

from ohhell_sim.studies import hook_rule
from ohhell_sim.studies import notebook as nb
from ohhell_sim.studies.runs import read_study

data_dir, report = nb.open_study(
    "hook_rule", data_dir, out_dir, games, seed, players=players, fields=fields
)
data = read_study(data_dir)
nb.show_setup(report)

# %% [markdown]
# ## In short: should we play with the hook?
#
# The answer in words, every number read off the analysis: what the hook costs each
# player per game against the winning margin, whether it changes who wins, what it does
# to the seats that deal more often, and a recommendation.

# %%
nb.show_in_short(report)

# %% [markdown]
# ## Findings (95% confidence intervals)

# %%
nb.show_findings(report)

# %% [markdown]
# ## The per-field view
#
# The verdict table says, for each effect, whether it is established (surviving the
# report's one correction and confirmed at the second seed) in every field, and whether
# the test between fields says its size depends on who plays; the figure shows the
# dealer's cost of the hook in each field and at each table size.  Both come from the
# study's analysis (`hook_rule.verdicts`, `hook_rule.confirmed_family`).

# %%
verdict_table = next(t for t in report.tables if t.title.startswith("Does each effect hold"))
display(Markdown(f"### {verdict_table.title}\n\n{verdict_table.note}"))
display(verdict_table.frame)
cost_figure = next(f for f in report.figures if f.name == "hook_cost_by_field.png")
display(Image(cost_figure.png))

# %% [markdown]
# ## All tables

# %%
nb.show_tables(report)

# %% [markdown]
# ## Figures

# %%
nb.show_figures(report)

# %% [markdown]
# ## A closer look: the deal as a whole
#
# `deals_of` gives a row per deal; under the hook its bids never total the hand size.
# Per field, standardised over table sizes (`hook_rule.with_standardised`):

# %%
deals = hook_rule.deals_of(data)
exact = hook_rule.with_standardised(deals, deals["excess"] == 0, ["hook"], bounded=True)
standardised = exact[exact["players"] == hook_rule.STANDARDISED]
display(standardised.pivot(index="field", columns="hook", values="estimate"))
hooked = standardised.loc[standardised["hook"], "estimate"].max()
display(Markdown(f"{len(deals)} deals in all; the largest share with the hook: {hooked:.3f}."))
