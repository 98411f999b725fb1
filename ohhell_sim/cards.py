"""Card encoding, parsing and printing.

A card is an integer ``suit * 13 + rank`` with suits ordered clubs, diamonds,
hearts, spades (0-3) and ranks from the two (0) to the ace (12).  A set of cards
(a hand, the cards played so far) is a bit mask held in an ``int64``: bit ``c``
is set when card ``c`` is in the set.  Masks stay below bit 63 so that signed
64-bit arithmetic in Numba never mixes with unsigned types.

Two text forms are used:

* the *code* ``"TH"`` (rank ``23456789TJQKA`` + suit ``CDHS``; ``"JK"`` for the
  joker, card 52), used in game logs and accepted everywhere;
* the *pretty* form ``"10♥"`` used in human-readable output.

``parse_card`` also accepts ``"10h"``, ``"A♣"`` and lower case; ``parse_cards``
reads several (``"AS KH 10D"``) and ``parse_suit`` a suit (``"S"``, ``"♠"``, ``"N"``
for no trump).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable

from ohhell_sim.argument_error import InvalidArgumentError

N_SUITS = 4
N_RANKS = 13
DECK_SIZE = 52
NO_SUIT = -1
#: The joker of the joker variant: the highest trump in every deal.
JOKER = 52
JOKER_CODE = "JK"

SUIT_CODES = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_CODES = "23456789TJQKA"
RANK_PRETTY = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

_SUIT_LOOKUP = {c: i for i, c in enumerate(SUIT_CODES)} | {s: i for i, s in enumerate(SUIT_SYMBOLS)}
_RANK_LOOKUP = {c: i for i, c in enumerate(RANK_CODES)} | {"10": 8}


def card_suit(card: int) -> int:
    """Return the suit (0-3) of ``card``."""
    return card // N_RANKS


def card_rank(card: int) -> int:
    """Return the rank (0 = two ... 12 = ace) of ``card``."""
    return card % N_RANKS


def make_card(suit: int, rank: int) -> int:
    """Return the card id for ``suit`` (0-3) and ``rank`` (0-12)."""
    if not 0 <= suit < N_SUITS or not 0 <= rank < N_RANKS:
        raise InvalidArgumentError(
            f"suit must be in 0..3 and rank in 0..12, got suit={suit}, rank={rank}"
        )
    return suit * N_RANKS + rank


def card_code(card: int) -> str:
    """Return the two-character code of ``card``, e.g. ``"TH"`` for the ten of hearts."""
    _check_card(card)
    if card == JOKER:
        return JOKER_CODE
    return RANK_CODES[card % N_RANKS] + SUIT_CODES[card // N_RANKS]


def card_pretty(card: int) -> str:
    """Return ``card`` with a suit symbol, e.g. ``"10♥"``."""
    _check_card(card)
    if card == JOKER:
        return "Joker"
    return RANK_PRETTY[card % N_RANKS] + SUIT_SYMBOLS[card // N_RANKS]


def suit_pretty(suit: int) -> str:
    """Return the symbol of ``suit``, or ``"no trump"`` for ``NO_SUIT``."""
    return "no trump" if suit == NO_SUIT else SUIT_SYMBOLS[suit]


def parse_card(text: str | int) -> int:
    """Parse a card from ``"TH"``, ``"10h"``, ``"A♣"`` or an integer id.

    Raises
    ------
    ValueError
        If ``text`` is not a card, with the accepted forms in the message.
    """
    if isinstance(text, numbers.Integral) and not isinstance(text, bool):
        _check_card(int(text))
        return int(text)
    if not isinstance(text, str):
        raise InvalidArgumentError(
            f"cannot parse card {text!r}: expected a card id 0..52 or a string like 'TH'"
        )
    raw = text.strip()
    if raw.upper() in (JOKER_CODE, "JOKER"):
        return JOKER
    if len(raw) < 2:
        raise InvalidArgumentError(
            f"cannot parse card {text!r}: expected rank + suit like 'TH', '10h' or 'A♣'"
        )
    rank_part = raw[:-1].upper()
    suit_part = raw[-1] if raw[-1] in SUIT_SYMBOLS else raw[-1].upper()
    if rank_part not in _RANK_LOOKUP or suit_part not in _SUIT_LOOKUP:
        raise InvalidArgumentError(
            f"cannot parse card {text!r}: rank must be one of {RANK_CODES} (or 10), "
            f"suit one of {SUIT_CODES} or {SUIT_SYMBOLS}"
        )
    return _SUIT_LOOKUP[suit_part] * N_RANKS + _RANK_LOOKUP[rank_part]


def parse_suit(text: str) -> int:
    """Parse a suit from ``"S"``, ``"h"``, ``"♣"`` or ``"spades"``; ``"N"`` is no trump.

    ``"NT"``, ``"none"`` and ``"no trump"`` are no trump too.

    Returns
    -------
    int
        The suit 0-3 (clubs, diamonds, hearts, spades), or ``NO_SUIT`` (-1).

    Raises
    ------
    ValueError
        If ``text`` is not a suit, with the accepted forms in the message.
    """
    raw = text.strip() if isinstance(text, str) else None
    if raw is None or not raw:
        raise InvalidArgumentError(
            f"cannot parse suit {text!r}: expected one of {SUIT_CODES}, {SUIT_SYMBOLS}, "
            "a suit's name, or N (no trump)"
        )
    if raw.upper() in ("N", "NT", "NONE", "NO TRUMP", "NOTRUMP"):
        return NO_SUIT
    if raw.lower() in SUIT_NAMES:
        return SUIT_NAMES.index(raw.lower())
    key = raw if raw in SUIT_SYMBOLS else raw.upper()
    if key not in _SUIT_LOOKUP:
        raise InvalidArgumentError(
            f"cannot parse suit {text!r}: expected one of {SUIT_CODES}, {SUIT_SYMBOLS}, "
            "a suit's name, or N (no trump)"
        )
    return _SUIT_LOOKUP[key]


def parse_cards(texts: Iterable[str | int] | str) -> list[int]:
    """Parse several cards; a string is split on whitespace and commas."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [parse_card(t) for t in texts]


def mask_of(cards: Iterable[int]) -> int:
    """Return the bit mask holding ``cards``."""
    mask = 0
    for card in cards:
        _check_card(card)
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """Return the cards in ``mask`` in increasing id order."""
    return [c for c in range(JOKER + 1) if (mask >> c) & 1]


def _check_card(card: int) -> None:
    if not 0 <= card <= JOKER:
        raise InvalidArgumentError(
            f"card id must be in 0..{DECK_SIZE - 1} (or {JOKER} for the joker), got {card}"
        )
