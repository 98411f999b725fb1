"""Trainers of the learned players, above the environments whose games they learn from.

:mod:`~ohhell_sim.training.distilled` fits the ``distilled`` player's networks
(``ohhell train distilled``); :mod:`~ohhell_sim.training.bid_policy` learns a bid
policy by REINFORCE on the batched environment.
"""
