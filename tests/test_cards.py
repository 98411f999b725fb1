"""Card encoding: parsing and printing round trips, and errors that name the bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ohhell_sim.cards import (
    DECK_SIZE,
    card_code,
    card_pretty,
    card_rank,
    card_suit,
    cards_of,
    make_card,
    mask_of,
    parse_card,
    parse_cards,
    suit_pretty,
)

cards_st = st.integers(min_value=0, max_value=DECK_SIZE - 1)


@pytest.mark.parametrize(
    ("text", "suit", "rank"),
    [
        ("TH", 2, 8),
        ("th", 2, 8),
        ("10h", 2, 8),
        ("10H", 2, 8),
        ("10♥", 2, 8),
        ("A♣", 0, 12),
        ("a♣", 0, 12),
        ("AC", 0, 12),
        ("2C", 0, 0),
        ("2c", 0, 0),
        ("KD", 1, 11),
        ("Q♦", 1, 10),
        ("JS", 3, 9),
        ("j♠", 3, 9),
        ("9s", 3, 7),
        ("  TH  ", 2, 8),
    ],
)
def test_parse_known_cards(text, suit, rank):
    card = parse_card(text)
    assert card == suit * 13 + rank
    assert card_suit(card) == suit
    assert card_rank(card) == rank


def test_encoding_is_suit_times_13_plus_rank():
    assert parse_card("2C") == 0
    assert parse_card("AC") == 12
    assert parse_card("2D") == 13
    assert parse_card("2H") == 26
    assert parse_card("AS") == 51
    assert make_card(2, 8) == parse_card("TH")


def test_print_known_cards():
    th = parse_card("TH")
    assert card_code(th) == "TH"
    assert card_pretty(th) == "10♥"
    assert card_pretty(parse_card("AC")) == "A♣"
    assert card_code(parse_card("A♣")) == "AC"
    assert card_pretty(parse_card("2D")) == "2♦"
    assert card_pretty(parse_card("QS")) == "Q♠"
    assert suit_pretty(0) == "♣"
    assert suit_pretty(3) == "♠"
    assert suit_pretty(-1) == "no trump"


@given(cards_st)
def test_round_trips(card):
    assert parse_card(card) == card
    assert parse_card(card_code(card)) == card
    assert parse_card(card_pretty(card)) == card
    assert parse_card(card_code(card).lower()) == card
    assert parse_card(card_pretty(card).lower()) == card
    assert make_card(card_suit(card), card_rank(card)) == card


def test_every_card_prints_uniquely():
    codes = {card_code(c) for c in range(DECK_SIZE)}
    pretty = {card_pretty(c) for c in range(DECK_SIZE)}
    assert len(codes) == DECK_SIZE
    assert len(pretty) == DECK_SIZE
    assert all(len(code) == 2 for code in codes)


def test_parse_cards_splits_on_spaces_and_commas():
    assert parse_cards("TH, 10h A♣,2c") == [34, 34, 12, 0]
    assert parse_cards(["TH", 0, "A♣"]) == [34, 0, 12]


@given(st.sets(cards_st))
def test_mask_round_trip(cards):
    mask = mask_of(cards)
    assert cards_of(mask) == sorted(cards)
    assert bin(mask).count("1") == len(cards)
    assert mask < 1 << 52


@pytest.mark.parametrize(
    "bad",
    ["", "T", "1H", "10", "11H", "ZH", "TX", "T♡", "♣A", "AHH", "ten of hearts", "0C", "1 0H"],
)
def test_parse_errors_name_the_input(bad):
    with pytest.raises(ValueError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", [-1, 53, 100])
def test_card_id_errors_name_the_value(bad):
    named = rf"got {bad}\b"
    with pytest.raises(ValueError, match=named):
        parse_card(bad)
    with pytest.raises(ValueError, match=named):
        card_code(bad)
    with pytest.raises(ValueError, match=named):
        card_pretty(bad)
    with pytest.raises(ValueError, match=named):
        mask_of([0, bad])


@pytest.mark.parametrize(("suit", "rank"), [(4, 0), (-1, 0), (0, 13), (0, -1)])
def test_make_card_errors_name_the_values(suit, rank):
    with pytest.raises(ValueError, match=rf"suit={suit}, rank={rank}"):
        make_card(suit, rank)


def test_parse_cards_error_names_the_bad_card():
    with pytest.raises(ValueError, match="'XX'"):
        parse_cards("TH XX AC")


def test_numpy_integer_card_ids_parse():
    # Regression: parse_card once accepted only ``int`` ids; a numpy integer (what
    # card arrays hold) fell through to ``text.strip()`` and raised AttributeError.
    import numpy as np

    assert parse_card(np.int64(34)) == 34
    assert parse_card(np.int8(0)) == 0


@pytest.mark.parametrize("bad", [None, 3.5, True, ["TH"]])
def test_non_card_objects_are_rejected_by_name(bad):
    # Regression: None / floats / lists once raised AttributeError ("object has no
    # attribute 'strip'") instead of an error naming the input, and ``True`` was
    # returned unchanged as if it were a card id.
    with pytest.raises((ValueError, TypeError)) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)


def test_card_52_is_the_joker_or_invalid():
    from ohhell_sim import cards

    joker = getattr(cards, "JOKER", None)
    if joker is None:
        with pytest.raises(ValueError, match="got 52"):
            card_code(52)
    else:
        assert joker == 52
        assert parse_card(card_code(joker)) == joker
        assert cards_of(mask_of([0, joker])) == [0, joker]
