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
# # The learning curve of `distilled`
#
# How strong does `distilled` get with more training games, and with larger networks?
# `experiments/distilled_learning_curve.py` trains it from one seed (the recipe of
# `ohhell train distilled`, `ohhell_sim.training.distilled`) at several numbers of
# training games with the default networks (24 bid and 20 card hidden units), and at
# several network sizes at one number of games (the card network's units, the bid
# network's scaled in proportion), and plays each trained player in one duplicate
# tournament against a fixed opponent: 4 players, two seats each, the canonical schedule,
# the same deal sets for every player.  Its strength is its points per game minus the
# opponent's, paired by deal set, with the 95% interval of `ohhell_sim.tournament`.
#
# This notebook only reads the experiment's output (`curve.csv`, `meta.json`); the
# committed one is in `reports/distilled_learning_curve/`, and the cell below shows the
# command and the machine that made it.  To make it again, or at other sizes:
#
# ```
# python experiments/distilled_learning_curve.py --games 375,750,1500,3000 --shipped \
#     --hidden 4,8,12,20 --hidden-games 750 --match-games 3200
# ```

# %% tags=["parameters"]
data_dir = None  # a folder of the experiment's output; None: reports/distilled_learning_curve

# %%
import json
from pathlib import Path

import pandas as pd
from IPython.display import Image, Markdown, display

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.format import fmt_ci
from ohhell_sim.studies.notebook import repository_root

folder = Path(data_dir or repository_root() / "reports" / "distilled_learning_curve")
curve = pd.read_csv(folder / "curve.csv")
meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
first = curve.iloc[0]
display(
    Markdown(
        f"Made by `{meta['command']}` on {meta['machine']}, started {meta['started']}, "
        f"{meta['wall_seconds'] / 60:.0f} min of wall time.  Training seed {first.seed}, "
        f"{first.epochs} epochs, {first.worlds} sampled deals a card; each tournament "
        f"against `{first.opponent}`: {first.deal_sets:,} deal sets, {first.match_games:,} "
        f"games, seed {first.match_seed}."
    )
)
display(curve)

# %% [markdown]
# ## Strength against training games (default networks)

# %%
games = curve[curve["sweep"] == "games"].sort_values("games")
plot = games.rename(columns={"advantage": "estimate"})
display(
    Image(
        interval_plot(
            plot,
            "games",
            title=f"distilled minus {first.opponent}, by training games",
            xlabel="training games",
            ylabel="points per game",
            zero_line=True,
        )
    )
)
display(
    Markdown(
        "Points per game over the opponent: "
        + "; ".join(
            f"{row.games:,} games ({row.weights}, {row.train_seconds / 60:.1f} min of "
            f"training): {fmt_ci(row.advantage, row.low, row.high, 2)}"
            for row in games.itertuples()
        )
        + "."
    )
)

# %% [markdown]
# ## Strength against network size

# %%
sizes = curve[curve["sweep"] == "hidden"].sort_values("card_hidden")
plot = sizes.rename(columns={"advantage": "estimate"})
trained_on = int(sizes["games"].iloc[0]) if len(sizes) else 0
display(
    Image(
        interval_plot(
            plot,
            "card_hidden",
            title=f"distilled minus {first.opponent}, by network size, "
            f"{trained_on:,} training games",
            xlabel="card network hidden units",
            ylabel="points per game",
            zero_line=True,
        )
    )
)
display(
    Markdown(
        f"Points per game over the opponent, trained on {trained_on:,} games: "
        + "; ".join(
            f"{row.bid_hidden} bid and {row.card_hidden} card units: "
            f"{fmt_ci(row.advantage, row.low, row.high, 2)}"
            for row in sizes.itertuples()
        )
        + "."
    )
)

# %% [markdown]
# ## What the curve says
#
# Every player meets the opponent on the same deal sets, so the points differ by its
# training, not by the cards; each interval is the player's own (the tournaments are not
# paired with each other), so two that overlap may still differ.
#
# The committed run (`reports/distilled_learning_curve/`, its command above; a 2-core AMD
# EPYC machine shared with other jobs, so its training times are long and uneven, and
# the first trained point's includes compiling the labelling; 800
# deal sets a tournament against `mc_bidder`, seed 7301) says:
#
# * **Training games.** With the default networks, 375 games already give +16.2
#   [+15.1, +17.3] points per game over `mc_bidder`; 750 give +19.2 [+18.1, +20.3],
#   1,500 give +19.9 [+18.9, +21.0] and 3,000, the default, +21.5 [+20.4, +22.6].  The
#   first doubling adds three points, the next two under a point and a half each: the
#   curve flattens but still rises at the default size.
# * **Network size** (at 750 games). 4 card units (5 bid) give +6.5 [+5.4, +7.6], 8
#   give +14.7 [+13.6, +15.8], 12 give +16.3 [+15.2, +17.4] and the default 20 (24 bid)
#   +19.2 [+18.1, +20.3].  From 12 units to 20 gains as much as doubling the games
#   from 375 to 750.  Sizes above the default were not measured.
# * **The 3,000-game point** is the shipped weights file, measured as it is (the
#   experiment's `--shipped`): it is the output of the default command, `ohhell train
#   distilled`; its training time is the one recorded in the file.  Trained again by the
#   experiment on the same machine (`--games 3000 --hidden 20 --hidden-games 3000
#   --match-games 3200`, without `--shipped`: 28 min of training under load), it gave the
#   shipped arrays bit for bit, and so the same +21.5 [+20.4, +22.6].
