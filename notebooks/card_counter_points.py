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
# # Where does card_counter lose its points?
#
# A tournament says how far `card_counter` finishes behind stronger players, not where.
# This notebook replays games of `card_counter` in every seat, samples their decisions
# with a choice, and values every legal bid or card of each from the deciding seat's own
# view with the reference evaluator (`adaptive_pimc`'s search; the exact solver for the
# bids of one-card deals): the cost of a choice is the best move's expected points in
# the deal less the chosen one's.  Summed by situation, the costs say where the points go.
#
# The analysis is `ohhell_sim.decisions` (the docs page "Decision analysis"); the same
# report comes from `ohhell analyse --strategies card_counter ... --report DIR`.

# %% tags=["parameters"]
games = 40  # games replayed
decisions = 1000  # decisions analysed, drawn among those with a choice
players = 4
schedule = (10,)  # hand size of each deal
seed = 0
precision = 0.2  # widest interval on a cost, either side of its estimate (points)
max_samples = 16384  # most samples the search draws for one decision
out_dir = None  # None: runs/notebook_card_counter_points in the repository

# %%
import pandas as pd
from IPython.display import Markdown, display

import ohhell_sim as oh
from ohhell_sim.analysis.report import write_report
from ohhell_sim.decisions import Reference, analyse_decisions, cost_by, decision_report
from ohhell_sim.studies import notebook as nb

frame = analyse_decisions(
    rules=oh.Rules(players=players, schedule=list(schedule)),
    strategies=["card_counter"] * players,
    seed=seed,
    games=games,
    decisions=decisions,
    reference=Reference(precision=precision, max_samples=max_samples),
)
report = decision_report(frame, title="Where does card_counter lose its points?")
out = out_dir or nb.repository_root() / "runs" / "notebook_card_counter_points"
written = write_report(report, out)
nb.show_setup(report)

# %% [markdown]
# ## Findings (95% confidence intervals)

# %%
nb.show_findings(report)

# %% [markdown]
# ## The costliest situations
#
# Each with the costliest decision of the situation as an example, named by
# (game, deal, seat, step): `analyse_decisions(..., decisions=[(game, deal, seat, step)])`
# values it again, alone, to the same numbers.

# %%
display(report.tables[1].frame)

# %% [markdown]
# ## One decision in full
#
# Every legal move of the costliest decision, with its expected points and interval.

# %%
worst = frame.loc[frame["cost"].idxmax()]
display(
    Markdown(
        f"Hand {worst['hand']}, trump {worst['trump']}, bids {worst['bids_seen'] or 'none'}"
        + (f", trick so far {worst['trick_cards']}" if worst["trick_cards"] else "")
        + f": chose {worst['chosen']}, best {worst['best']}."
    )
)
display(
    pd.DataFrame(
        {
            "move": worst["moves"],
            "expected points": worst["values"],
            "low": worst["values_low"],
            "high": worst["values_high"],
        }
    )
)
display(Markdown("The cost by phase, in points per seat per game:"))
display(cost_by(frame, "phase")[["phase", "decisions", "mean_cost", "estimate", "low", "high"]])

# %% [markdown]
# ## Figures

# %%
nb.show_figures(report)
