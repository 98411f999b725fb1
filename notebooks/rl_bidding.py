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
# # Learning to bid: REINFORCE on the batched environment, then a duplicate tournament
#
# One seat learns when to bid what, with NumPy alone: a linear aim `mu = weights · features`
# over seven features of the hand (`ohhell_sim.training.bid_policy.FEATURE_NAMES`), and while it
# learns it bids `b` with probability proportional to `exp(-(b - mu)^2 / (2 sigma^2))` over
# the legal bids.  `simple` plays its cards.  Every iteration, every table of a
# `BatchedEnv` bids once for that seat; the deal's points are the return (REINFORCE with a
# running baseline per hand size).  Then the learned weights become a user strategy's
# parameters, and the strategy enters a duplicate tournament against built-ins.

# %% tags=["parameters"]
tables = 1024  # deals per iteration
iterations = 380  # 20 games of the canonical schedule at every table
games = 400  # tournament games (a multiple of the players)
seed = 0
field = ("simple", "card_counter", "learned")  # the other seats, in training and in the tournament

# %%
import matplotlib.pyplot as plt
from IPython.display import Markdown, display
from numba import njit

import ohhell_sim as oh
from ohhell_sim.training.bid_policy import FEATURE_NAMES, greedy_bid, train_bid_policy

rules = oh.Rules(players=4)
training = train_bid_policy(rules, list(field), tables=tables, iterations=iterations, seed=seed)
curve = training.curve
# All tables bid in the same deal of the schedule at once: average over a whole game.
per_game = (
    curve["mean_points"].rolling(rules.n_deals).mean().iloc[rules.n_deals - 1 :: rules.n_deals]
)
display(
    Markdown(
        f"Points per deal while exploring: {per_game.iloc[0]:.2f} over the first game at each "
        f"table, {per_game.iloc[-1]:.2f} over the last ({len(curve)} iterations of {tables} deals)."
    )
)

# %% [markdown]
# ## The learning curve

# %%
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(curve["iteration"], curve["mean_points"], lw=0.6, alpha=0.5, label="each iteration")
ax.plot(
    per_game.index,
    per_game.to_numpy(),
    marker="o",
    label=f"mean over a game ({rules.n_deals} deals)",
)
ax.set_xlabel("iteration")
ax.set_ylabel("points per deal, learning seat")
ax.legend()
plt.show()

# %% [markdown]
# ## What it learned (tricks aimed at per unit of each feature)

# %%
display(dict(zip(FEATURE_NAMES, training.weights.round(3), strict=True)))

# %% [markdown]
# ## In a duplicate tournament, as a user strategy
#
# The strategy bids the legal bid nearest its aim and plays like `simple`; the weights
# travel as its parameters.


# %%
@njit
def learned_bid(view, params, rng):
    return greedy_bid(view, params)


simple = oh.get_strategy("simple")
oh.register_strategy(
    "reinforce_bids",
    bid=learned_bid,
    play=simple.play,
    params={f"w{k}": float(w) for k, w in enumerate(training.weights)},
    description="Bids by weights learned with REINFORCE (notebooks/rl_bidding); plays like simple.",
    replace=True,
)
result = oh.tournament(rules, ["reinforce_bids", *field], games=games, seed=seed + 1)
ranking = result.ranking
totals = ranking[ranking["measure"] == "mean_total"].sort_values("estimate", ascending=False)
display(totals[["strategy", "n", "estimate", "low", "high", "method"]])
display(
    Markdown(
        f"Mean total per game over {games} games (seed {seed + 1}, 95% CI): "
        + ", ".join(
            f"`{row.strategy}` {row.estimate:.1f} [{row.low:.1f}, {row.high:.1f}]"
            for row in totals.itertuples()
        )
        + "."
    )
)
