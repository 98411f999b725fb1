"""The bid and card advisor: every legal move of a position typed by hand, valued.

:func:`advise` builds the position from what a player at the table knows (its
hand, the trump, the bids so far and the cards played so far), checks it with
the reference engine (:func:`ohhell_sim.reference.table_steps`: the bids and
cards must be legal in that order), and values each legal bid or card with the
reference evaluator (:func:`ohhell_sim.decisions.evaluate.evaluate_view`) under
the rules' scoring tables.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ohhell_sim.arguments import check_seed
from ohhell_sim.cards import NO_SUIT, card_pretty, parse_card, parse_cards, parse_suit
from ohhell_sim.decisions.evaluate import (
    Reference,
    check_rules_searchable,
    evaluate_view,
    is_forehead_bid,
)
from ohhell_sim.errors import IllegalMoveError, InvalidArgumentError
from ohhell_sim.reference import (
    DealTable,
    Decision,
    Stream,
    table_steps,
    trick_winner,
)
from ohhell_sim.rules import Rules, check_rules

__all__ = ["advise"]

#: The purpose of the advisor's random stream (the engine's are 0-2).
_ADVICE = 0xAD


def advise(
    hand: str | Sequence[str | int],
    *,
    position: int,
    trump: str | None = None,
    turned: str | int | None = None,
    bids: Sequence[int] = (),
    played: str | Sequence[str | int] = (),
    rules: Rules | None = None,
    reference: Reference | None = None,
    seed: int = 0,
) -> pd.DataFrame:
    """The expected points of each legal bid or card of a position, with intervals.

    Seats are numbered by position from the dealer's left: position 0 bids
    first and leads the first trick, position ``players - 1`` deals.

    Parameters
    ----------
    hand : str or sequence
        The cards held now, as players write them: ``"AS KH 10D"`` (or a list
        of codes or ids).
    position : int
        The seat asking, ``0 .. players - 1`` from the dealer's left.
    trump : str, optional
        The trump suit (``"S"``, ``"♠"``, ``"spades"``) or ``"N"`` for no
        trump; default the suit of ``turned``.
    turned : str or int, optional
        The turned-up card, when one was turned (then no seat holds it).
    bids : sequence of int
        The bids made so far, in bidding order from position 0 (all of them
        once play has begun).
    played : str or sequence
        The cards played so far in this deal, in the order played from the
        first lead (``"QH 2H 9H AH KC"``); the leader of each trick after the
        first is the winner of the one before.
    rules : Rules, optional
        The rules: players, scoring tables, hook (default ``Rules()``).
    reference : Reference, optional
        The evaluator's settings (default :class:`~ohhell_sim.decisions.Reference`).
    seed : int
        Seed of the search's random stream.

    Returns
    -------
    pandas.DataFrame
        One row per legal move, best first: ``move`` (a bid, or a card as
        ``"10♦"``), ``value`` (expected points in this deal) with
        ``value_low``/``value_high``, ``loss`` (points below the best move)
        with ``loss_low``/``loss_high``, and ``best``.  ``attrs`` hold the
        ``phase``, the ``reference`` (name and settings), ``samples`` and
        ``precise``.

    Raises
    ------
    InvalidArgumentError
        For a card that cannot be read, a card given twice, bids or cards that
        break the rules, or a position that is not the seat to move.

    Examples
    --------
    >>> advise("AS KH 10D", position=1, turned="7S", bids=[1])  # doctest: +SKIP
    """
    rules = check_rules(rules if rules is not None else Rules())
    check_rules_searchable(rules)
    if rules.swap:
        raise InvalidArgumentError(
            f"rules.swap={rules.swap} is not handled by the advisor; allowed: swap=0"
        )
    reference = reference or Reference()
    seed = check_seed(seed)
    n = rules.players
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < n:
        raise InvalidArgumentError(f"position must be an integer in 0..{n - 1}, got {position!r}")
    held = parse_cards(hand)
    cards = parse_cards(played)
    up = None if turned is None else parse_card(turned)
    suit = _trump(trump, up)
    _check_distinct(held, cards, up)
    view = _position_view(rules, position, held, cards, up, suit, list(bids))
    if is_forehead_bid(view):
        raise InvalidArgumentError(
            "a bid in a one-card deal under rules.forehead=True is not handled by the advisor "
            "(the seat sees every card but its own); allowed: forehead=False, or a larger deal"
        )
    rng = Stream(seed, 0, _ADVICE, 0).as_array()
    evaluation = evaluate_view(view, rules, rng, reference)
    moves = (
        [int(m) for m in evaluation.moves]
        if evaluation.phase == "bid"
        else [card_pretty(int(m)) for m in evaluation.moves]
    )
    frame = pd.DataFrame(
        {
            "move": moves,
            "value": evaluation.value,
            "value_low": evaluation.value_low,
            "value_high": evaluation.value_high,
            "loss": evaluation.loss,
            "loss_low": evaluation.loss_low,
            "loss_high": evaluation.loss_high,
        }
    )
    frame["best"] = np.arange(len(frame)) == int(np.argmax(evaluation.value))
    frame = frame.sort_values("value", ascending=False, kind="stable", ignore_index=True)
    frame.attrs.update(
        {
            "phase": evaluation.phase,
            "reference": evaluation.reference,
            "settings": reference.to_dict(),
            "samples": evaluation.samples,
            "precise": evaluation.precise,
            "rules": rules.to_dict(),
        }
    )
    return frame


def _trump(trump: str | None, turned: int | None) -> int:
    if trump is None:
        if turned is None:
            raise InvalidArgumentError("give trump= (a suit, or N for no trump) or turned=")
        return turned // 13
    suit = parse_suit(trump)
    if turned is not None and suit != turned // 13:
        raise InvalidArgumentError(
            f"trump={trump!r} differs from the suit of the turned card {card_pretty(turned)}; "
            "give the turned card's suit, or leave trump out"
        )
    return suit


def _check_distinct(held: list[int], played: list[int], turned: int | None) -> None:
    seen: dict[int, str] = {}
    every = [(c, "hand") for c in held] + [(c, "played") for c in played]
    if turned is not None:
        every.append((turned, "turned"))
    for card, where in every:
        if card in seen:
            raise InvalidArgumentError(
                f"card {card_pretty(card)} is given twice ({seen[card]} and {where}); one deck "
                "holds each card once"
            )
        seen[card] = where


def _owners(n: int, played: list[int], trump: int) -> list[int]:
    """The position that played each card: position 0 leads, each trick's winner the next."""
    owners = []
    leader = 0
    for start in range(0, len(played), n):
        trick = played[start : start + n]
        owners.extend((leader + i) % n for i in range(len(trick)))
        if len(trick) == n:
            leader = (leader + trick_winner(trick, None if trump < 0 else trump)) % n
    return owners


def _position_view(
    rules: Rules,
    position: int,
    held: list[int],
    played: list[int],
    turned: int | None,
    trump: int,
    bids: list[int],
) -> np.ndarray:
    """The view of ``position`` once ``bids`` and ``played`` are made, checked by the engine."""
    n = rules.players
    if len(bids) > n or (played and len(bids) != n):
        raise InvalidArgumentError(
            f"bids must be the bids made so far, at most {n}, and all {n} once cards are "
            f"played; got {len(bids)} bids and {len(played)} cards played"
        )
    owners = _owners(n, played, trump)
    hands: list[list[int]] = [[] for _ in range(n)]
    for card, owner in zip(played, owners, strict=True):
        hands[owner].append(card)
    hands[position].extend(held)
    hand_size = len(hands[position])
    if hand_size == 0 or any(len(h) > hand_size for h in hands):
        raise InvalidArgumentError(
            f"hand must hold the cards position {position} holds now ({len(held)} given); "
            "with the cards it played they make the hand size, and no seat plays more"
        )
    for bid in bids:
        if isinstance(bid, bool) or not isinstance(bid, int | np.integer):
            raise InvalidArgumentError(f"bids must be integers, got {bids!r}")
    dealer = n - 1
    table = DealTable(
        rules,
        0,
        dealer,
        hand_size,
        turned,
        None if trump == NO_SUIT else trump,
        list(range(n)),
        False,
        [0] * n,
        [0] * n,
        hands,
        False,
        bids=[None] * n,
        bids_public=not rules.closed_bids,
        tricks_won=[0] * n,
        voids=[set() for _ in range(n)],
        passed=[[] for _ in range(n)],
        visible=[None] * n,
    )
    moves = [int(b) for b in bids] + played
    steps = table_steps(table, [f"position {p}" for p in range(n)])
    answer = None
    for i in range(len(moves) + 1):
        try:
            step = steps.send(answer)
        except IllegalMoveError as error:
            raise InvalidArgumentError(
                f"the bids and cards given break the rules: {error}"
            ) from None
        if not isinstance(step, Decision):
            break
        if i == len(moves):
            if step.seat != position:
                raise InvalidArgumentError(
                    f"position {step.seat} is to move after these bids and cards, not position "
                    f"{position}"
                )
            return step.view
        answer = moves[i]
    raise InvalidArgumentError("the deal is over after these bids and cards: nothing to advise")
