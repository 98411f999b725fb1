"""Exceptions raised by the engines."""

from __future__ import annotations

from ohhell_sim.cards import card_code
from ohhell_sim.engine.core import (
    ERR_BID_HOOK,
    ERR_BID_RANGE,
    ERR_CARD_NOT_IN_HAND,
    ERR_MUST_FOLLOW,
)

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
    """

    def __init__(
        self, strategy: str, game: int, deal: int, seat: int, move: int, code: int, trick: int,
        hand_size: int,
    ) -> None:
        self.strategy = strategy
        self.game = game
        self.deal = deal
        self.seat = seat
        self.move = move
        self.code = code
        self.trick = trick
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
