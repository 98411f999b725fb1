"""Exceptions raised by the engines, and the error codes the kernel records.

:class:`InvalidArgumentError` is defined in :mod:`ohhell_sim.argument_error`, below
the card printing this module uses, and re-exported here.
"""

from __future__ import annotations

from ohhell_sim.argument_error import InvalidArgumentError
from ohhell_sim.cards import card_code

__all__ = [
    "ERR_BID_HOOK",
    "ERR_BID_RANGE",
    "ERR_CARD_NOT_IN_HAND",
    "ERR_MUST_FOLLOW",
    "ERR_NONE",
    "IllegalMoveError",
    "InvalidArgumentError",
]

#: Error codes a game can stop with, recorded by the kernel.
ERR_NONE = 0
ERR_BID_RANGE = 1
ERR_BID_HOOK = 2
ERR_CARD_NOT_IN_HAND = 3
ERR_MUST_FOLLOW = 4

_REASONS = {
    ERR_BID_RANGE: "bid outside 0..hand size",
    ERR_BID_HOOK: "bid forbidden by the hook (the bids would total the tricks in the deal)",
    ERR_CARD_NOT_IN_HAND: "card not in the player's hand",
    ERR_MUST_FOLLOW: "card does not follow the led suit although the player holds it",
}


class IllegalMoveError(RuntimeError):
    """A strategy returned an illegal bid or card; the run stopped.

    Attributes
    ----------
    strategy : str
        Name of the offending strategy.
    game, deal, seat : int
        Where it happened (deal is the index in the schedule).
    move : int
        The bid, or the card id, the strategy returned.
    code : int
        One of the ``ERR_*`` codes of :mod:`ohhell_sim.engine.core`.
    trick : int
        Trick index for a card, -1 for a bid.
    hand_size : int
        Cards each player held at the start of the deal.
    """

    def __init__(
        self,
        strategy: str,
        game: int,
        deal: int,
        seat: int,
        move: int,
        code: int,
        trick: int,
        hand_size: int,
    ) -> None:
        self.strategy = strategy
        self.game = game
        self.deal = deal
        self.seat = seat
        self.move = move
        self.code = code
        self.trick = trick
        self.hand_size = hand_size
        if code in (ERR_BID_RANGE, ERR_BID_HOOK):
            what = f"bid {move}"
            where = "in the bidding"
        else:
            what = f"card {card_code(move)} (id {move})" if 0 <= move < 52 else f"card id {move}"
            where = f"in trick {trick}"
        super().__init__(
            f"strategy {strategy!r} in seat {seat} made an illegal move in game {game}, "
            f"deal {deal} (hand size {hand_size}) {where}: {what}: {_REASONS[code]}"
        )

    def __reduce__(self):
        # Rebuilt from its fields, so that it travels between processes (Dask).
        fields = (self.game, self.deal, self.seat, self.move, self.code, self.trick)
        return type(self), (self.strategy, *fields, self.hand_size)
