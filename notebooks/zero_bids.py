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
# with the alternative bid, under each zero-bid table.  Everything is played in several
# strategy fields (one strategy in every seat, or the mixed table): a finding about the
# game should hold in every field, and the report says which do.
#
# The study is `ohhell_sim/studies/zero_bids.py`; this notebook runs it at the size below (or
# loads the Parquet output of `ohhell experiment zero_bids --out DIR` when `data_dir` is
# set), then shows its findings, the verdicts across fields and a per-field view.  Every
# number in the text is read from the data by the study's own analysis.

# %% tags=["parameters"]
games = 100  # games per condition; the committed report used more (see reports/zero_bids/)
seed = 0
players = (3, 4)
fields = None  # strategy fields, e.g. ("simple", "mix"); None: every field of the study
data_dir = None  # a folder of `ohhell experiment zero_bids` output; None runs the study here
out_dir = None  # None: runs/notebook_zero_bids in the repository, wherever this runs from

# %%
from IPython.display import Markdown, display

from ohhell_sim.analysis.format import interval_table
from ohhell_sim.studies import notebook as nb
from ohhell_sim.studies import zero_bids
from ohhell_sim.studies.runs import read_study

data_dir, report = nb.open_study(
    "zero_bids", data_dir, out_dir, games, seed, players=players, fields=fields
)
data = read_study(data_dir)
nb.show_setup(report)

# %% [markdown]
# ## In short

# %%
nb.show_in_short(report)

# %% [markdown]
# ## Findings (95% confidence intervals)
#
# Headline findings first: those that hold in every field, survive the Holm correction
# over the report's one family of comparisons and are confirmed at the second seed.

# %%
nb.show_findings(report)

# %% [markdown]
# ## Verdicts across fields
#
# Per comparison: whether it holds in every field, depends on the field (with the
# range of its estimates and where), or holds in none.

# %%
for table in report.tables:
    if "verdicts" in table.title:
        display(Markdown(f"### {table.title}\n\n{table.note}"))
        display(table.frame)

# %% [markdown]
# ## The per-field view
#
# Zero-bid success by hand size, one column per field (each field's row: its one
# strategy, or the mixed table standardised over its strategies), from the study's
# pooling path; `n/a` where the field bids 0 too seldom to tell.

# %%
hands = zero_bids.observed_rows(data)
by_size = zero_bids.EVENT.rates(hands, ["hand_size"])
field_rows = by_size[by_size["field_row"]].assign(
    estimate=lambda t: t["zero_made_rate"],
    low=lambda t: t["zero_made_rate_low"],
    high=lambda t: t["zero_made_rate_high"],
)
display(interval_table(field_rows, "hand_size", "field"))

# %% [markdown]
# ## All tables

# %%
nb.show_tables(report)

# %% [markdown]
# ## Figures

# %%
nb.show_figures(report)

# %% [markdown]
# ## A closer look: the fitted rule, in sample and held out
#
# The rule is fitted on the even games of each field and zero table and judged on the
# odd ones; judged on its own games it looks better than it is.

# %%
pairs = zero_bids.probe_pairs(data)
optimism = zero_bids.RULE.held_out(pairs).rename(
    columns={"in_sample_gain": "in sample", "estimate": "held out"}
)
display(optimism[["field", "zero_table", "in sample", "held out"]])
decisions = pairs[pairs["decision"]]
display(
    Markdown(
        f"Of {len(decisions)} probe hands that could choose, bidding 0 scored more in "
        f"{(decisions['diff'] > 0).mean():.1%} and less in {(decisions['diff'] < 0).mean():.1%}."
    )
)
