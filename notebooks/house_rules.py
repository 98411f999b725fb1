# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.7
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %%

# %% [markdown]
# # House rules: one verdict per rule
#
# Which house rules make Oh Hell a game of skill, fair and tense, and what do they cost?
# Every rule (the hook's forms, schedules, each scoring table of the sources) is played
# against the canonical game on the same cards, at every table size, in a weak and a
# strong field; each effect belongs to the report's one family, adjusted with Holm and
# confirmed at a second seed.
#
# The study is `ohhell_sim/studies/house_rules.py`; this notebook runs it at the size below
# (or loads the output of `ohhell experiment house_rules --out DIR` when `data_dir` is set),
# then reads the study's saved analysis and its per-game measures.

# %% tags=["parameters"]
games = 100  # games per condition; the committed report used more (see reports/house_rules/)
seed = 0
players = (3, 4, 5, 6, 7)
fields = (
    None  # None: both fields of the study (house_rules.FIELDS), or e.g. ("strong", "pimc/simple")
)
variants = (
    None  # None: the package's house rules; or your own, e.g. ["hook=false", "made=10*bid,zero=5"]
)
base = None  # None: judged against the canonical game; or your own game, e.g. "hook=false"
data_dir = None  # a folder of `ohhell experiment house_rules` output; None runs the study here
out_dir = None  # None: runs/notebook_house_rules in the repository, wherever this runs from

# %%
from IPython.display import display

from ohhell_sim.studies import house_rules
from ohhell_sim.studies import notebook as nb
from ohhell_sim.studies.runs import read_study

data_dir, report = nb.open_study(
    "house_rules",
    data_dir,
    out_dir,
    games,
    seed,
    players=players,
    fields=fields,
    variants=variants,
    base=base,
)
data = read_study(data_dir)
nb.show_setup(report)

# %% [markdown]
# ## In short

# %%
nb.show_in_short(report)

# %% [markdown]
# ## Findings

# %%
nb.show_findings(report)

# %% [markdown]
# ## One verdict per rule, and what it costs

# %%
nb.show_table(report.tables[0])

# %% [markdown]
# ## Per table size
#
# The measures of every game, averaged over the two seat orders, from the study's own
# function: here the one-card dealer's gap per table size under the first three rules
# played (the canonical game and the hook's two forms, unless you named your own).

# %%
measures = house_rules.game_measures(data.hands, data.games)
hooks = measures[measures["rule"].isin(house_rules.played(data.manifest).rules[:3])]
display(
    hooks.pivot_table(
        index=["field", "players"], columns="rule", values=house_rules.ONE_CARD, aggfunc="mean"
    ).round(2)
)

# %% [markdown]
# ## All tables

# %%
nb.show_tables(report)

# %% [markdown]
# ## Figures

# %%
nb.show_figures(report)
