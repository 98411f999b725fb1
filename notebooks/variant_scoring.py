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
# # Scoring variants: bids and decisiveness, field by field
#
# Every scoring table of the sources played on the same cards, in several strategy
# fields: how the bids of players that re-optimise for the table (`mc_bidder`, and
# `learned`, whose trick model does not depend on the table) shift, which built-ins
# ignore the scoring, and how often the stronger strategy's seat finishes ahead in mixed
# fields under each table, a measure that works for the negative totals of the penalty
# table.  Every comparison belongs to the report's one family, adjusted with Holm, is
# confirmed at a second seed and recomputed on the even and the odd games.
#
# The study is `ohhell_sim/studies/variant_scoring.py`; this notebook runs it at the size below (or
# loads the Parquet output of `ohhell experiment variant_scoring --out DIR` when `data_dir` is
# set), then shows the verdicts across fields, the per-field tables and the figures, all read
# from the study's saved analysis.

# %% tags=["parameters"]
games = 100  # games per condition; the committed report used more (see reports/variant_scoring/)
seed = 0
players = (4,)
fields = None  # None: every field of the study (variant_scoring.DEFAULT_FIELDS)
data_dir = None  # a folder of `ohhell experiment variant_scoring` output; None runs the study here
out_dir = None  # None: runs/notebook_variant_scoring in the repository, wherever this runs from

# %%
from IPython.display import Markdown, display

from ohhell_sim.studies import notebook as nb

data_dir, report = nb.open_study(
    "variant_scoring", data_dir, out_dir, games, seed, players=players, fields=fields
)
nb.show_setup(report)

# %% [markdown]
# ## In short

# %%
nb.show_in_short(report)

# %% [markdown]
# ## Findings (95% confidence intervals)
#
# The headline findings come first: effects that hold in every field, survive Holm over
# the report's one family and are confirmed at the second seed.

# %%
nb.show_findings(report)

# %% [markdown]
# ## The per-field view
#
# One row per effect (a variant against the canonical table): does it hold in every
# field (for bids: every score-maximising player), and over which range?

# %%
verdicts = next(t.frame for t in report.tables if t.title.startswith("Does each effect hold"))
display(verdicts)
counts = verdicts.groupby(["effect", "verdict"]).size().rename("effects").reset_index()
display(counts)
headline = verdicts[verdicts["headline"] == "True"]
display(
    Markdown(
        f"{len(headline)} of {len(verdicts)} effects hold in every field, survive Holm "
        "and are confirmed at the second seed."
    )
)

# %% [markdown]
# Decisiveness in the mixed fields: the scoring tables ranked by how often the stronger
# strategy's seat finishes ahead of another's, with the games it needs to be ahead 95% of
# the time (none without a mixed field).

# %%
ranked = [t.frame for t in report.tables if t.title.startswith("Which scoring table")]
display(*ranked)

# %% [markdown]
# ## All tables

# %%
nb.show_tables(report)

# %% [markdown]
# ## Figures

# %%
nb.show_figures(report)
