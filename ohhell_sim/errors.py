"""Exceptions raised by the engines, and the error codes the kernel records.

:class:`InvalidArgumentError` is defined in :mod:`ohhell_sim.argument_error`, below
the card printing this module uses, and re-exported here.
"""

from __future__ import annotations

import traceback

from ohhell_sim.argument_error import InvalidArgumentError
from ohhell_sim.cards import card_code

__all__ = [
    "ERR_BID_HOOK",
    "ERR_BID_NOT_INTEGER",
    "ERR_BID_RANGE",
    "ERR_CARD_NOT_INTEGER",
    "ERR_CARD_NOT_IN_HAND",
    "ERR_MUST_FOLLOW",
    "ERR_NONE",
    "IllegalMoveError",
    "InvalidArgumentError",
    "RunInterrupted",
    "StrategyError",
]

#: Error codes a game can stop with, recorded by the kernel.
ERR_NONE = 0
ERR_BID_RANGE = 1
ERR_BID_HOOK = 2
ERR_CARD_NOT_IN_HAND = 3
ERR_MUST_FOLLOW = 4
ERR_BID_NOT_INTEGER = 5
ERR_CARD_NOT_INTEGER = 6

_REASONS = {
    ERR_BID_RANGE: "bid outside 0..hand size",
    ERR_BID_HOOK: "bid forbidden by the hook (the bids would total the tricks in the deal)",
    ERR_CARD_NOT_IN_HAND: "card not in the player's hand",
    ERR_MUST_FOLLOW: "card does not follow the led suit although the player holds it",
    ERR_BID_NOT_INTEGER: "a bid must be an integer",
    ERR_CARD_NOT_INTEGER: "a card must be an integer card id",
}
_BID_CODES = (ERR_BID_RANGE, ERR_BID_HOOK, ERR_BID_NOT_INTEGER)


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (a ``KeyboardInterrupt``); the message says what was kept.

    Attributes
    ----------
    stuck : int
        Threads left running a strategy's decision that did not return (a loop
        that never ends); they stop when the Python process does.
    """

    def __init__(self, message: str, *, stuck: int = 0) -> None:
        super().__init__(message)
        self.stuck = stuck


class IllegalMoveError(RuntimeError):
    """A strategy returned an illegal bid or card; the run stopped.

    Attributes
    ----------
    strategy : str
        Name of the offending strategy.
    game, deal, seat : int
        Where it happened (deal is the index in the schedule).
    move : int or object
        The bid, or the card id, the strategy returned (whatever it returned, for
        the ``ERR_*_NOT_INTEGER`` codes).
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
        if code in _BID_CODES:
            what = f"bid {move!r}"
            where = "in the bidding"
        else:
            where = f"in trick {trick}" if trick >= 0 else "choosing a card to pass"
            if code == ERR_CARD_NOT_INTEGER:
                what = f"card {move!r}"
            elif 0 <= move < 52:
                what = f"card {card_code(move)} (id {move})"
            else:
                what = f"card id {move}"
        super().__init__(
            f"strategy {strategy!r} in seat {seat} made an illegal move in game {game}, "
            f"deal {deal} (hand size {hand_size}) {where}: {what}: {_REASONS[code]}"
        )

    def __reduce__(self):
        # Rebuilt from its fields, so that it travels between processes (Dask).
        fields = (self.game, self.deal, self.seat, self.move, self.code, self.trick)
        return type(self), (self.strategy, *fields, self.hand_size)


class StrategyError(RuntimeError):
    """A strategy's code cannot run: it does not compile, returns a non-integer, or raised.

    Attributes
    ----------
    strategy : str or None
        Name of the strategy (None when the failure could not be traced to one).
    role : {"bid", "play"} or None
        Which of its functions.
    location : str or None
        ``file:line`` of the function, or of the line that raised.
    game, deal, seat : int or None
        Where it happened, when it happened in a game (deal is 0-based).
    """

    def __init__(
        self,
        message: str,
        *,
        strategy: str | None,
        role: str | None,
        location: str | None,
        game: int | None = None,
        deal: int | None = None,
        seat: int | None = None,
    ) -> None:
        super().__init__(message)
        self.strategy = strategy
        self.role = role
        self.location = location
        self.game = game
        self.deal = deal
        self.seat = seat

    @classmethod
    def raised_by(cls, strategy: str, role: str, error: BaseException) -> StrategyError:
        """The error for ``error``, raised by ``strategy``'s ``role`` function, at its line.

        The line is the last frame of ``error``'s traceback: the strategy's own
        line when its Python code raised, and when its compiled code did too
        (Numba records where a ``raise`` stands).
        """
        frames = traceback.extract_tb(error.__traceback__)
        last = frames[-1] if frames else None
        where = "<unknown line>" if last is None else f"{last.filename}:{last.lineno} ({last.line})"
        return cls(
            f"strategy {strategy!r}: its {role} function raised {type(error).__name__}: "
            f"{error} at {where}",
            strategy=strategy,
            role=role,
            location=where,
        )

    def located(self, game: int, deal: int, seat: int) -> StrategyError:
        """The same error, its message ending with where in a game it happened."""
        return StrategyError(
            f"{self} (seat {seat}, game {game}, deal {deal})",
            strategy=self.strategy,
            role=self.role,
            location=self.location,
            game=game,
            deal=deal,
            seat=seat,
        )

    def __reduce__(self):
        # Rebuilt from its fields, so that it travels between processes (Dask).
        fields = ("strategy", "role", "location", "game", "deal", "seat")
        return _rebuild_strategy_error, (str(self), {f: getattr(self, f) for f in fields})


def _rebuild_strategy_error(message: str, fields: dict) -> StrategyError:
    return StrategyError(message, **fields)
