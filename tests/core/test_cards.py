"""Cards: ids, canonical text, the lenient parser, its errors, and hand sorting (DESIGN.md conventions 2, 3, 10)."""

from __future__ import annotations

import pickle
import random

import pytest

from sergeant_major.core.cards import (
    CARDS,
    FULL_DECK,
    SUIT_MASKS,
    Card,
    Suit,
    cards_of,
    format_cards,
    id_list,
    ids_of,
    mask_of,
    parse_card,
    parse_cards,
    sort_hand,
)
from sergeant_major.core.errors import CardParseError, SergeantMajorError


def test_ids_are_suit_times_13_plus_rank() -> None:
    assert len(CARDS) == 52
    for i, c in enumerate(CARDS):
        assert c.id == i
        assert c.id == int(c.suit) * 13 + c.rank
        assert Card(i) is c
    assert str(CARDS[0]) == "2C"
    assert str(CARDS[12]) == "AC"
    assert str(CARDS[13]) == "2D"
    assert str(CARDS[51]) == "AS"
    assert parse_card("TH").id == 2 * 13 + 8


def test_canonical_text_round_trips() -> None:
    texts = {str(c) for c in CARDS}
    assert len(texts) == 52
    for c in CARDS:
        assert parse_card(str(c)) is c
        assert eval(repr(c), {"Card": Card}) is c  # paste-back repr
        assert pickle.loads(pickle.dumps(c)) is c
    assert format_cards(parse_cards("AS KH TD 2C")) == "AS KH TD 2C"


def test_rank_order_is_ace_high() -> None:
    """Seeds 000/004 "Basic terms": A K Q J 10 9 8 7 6 5 4 3 2 in every suit."""
    order = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")
    assert [c.rank for c in order] == list(range(13))


def test_card_is_immutable_and_hashable() -> None:
    c = parse_card("QS")
    with pytest.raises(AttributeError):
        c.rank = 3  # type: ignore[misc]
    assert {c: 1}[CARDS[c.id]] == 1
    with pytest.raises(CardParseError):
        Card(52)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QS", "QS"), ("qs", "QS"), ("Qs", "QS"), ("10h", "TH"), ("10H", "TH"), ("TD", "TD"), ("td", "TD"),
        ("Q♠", "QS"), ("a♥", "AH"), ("10♦", "TD"), ("2♣", "2C"), (" KS ", "KS"), ("as", "AS"), ("jc", "JC"),
    ],
)
def test_lenient_parser(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("DS", "QS"), ("BH", "JH"), ("d♠", "QS"), ("b♦", "JD"), ("DD", "QD"), ("KC", "KC"), ("10D", "TD"), ("QS", "QS"), ("JH", "JH")],
)
def test_german_queen_and_jack(text: str, expected: str) -> None:
    """Seed 000/002 use A K D B 10 ...: D (Dame) is the queen, B (Bube) the jack, with ``german=True``."""
    assert str(parse_card(text, german=True)) == expected


def test_german_letters_need_the_flag() -> None:
    with pytest.raises(CardParseError):
        parse_card("BH")
    with pytest.raises(CardParseError):
        parse_card("DS")


@pytest.mark.parametrize("text", ["QSX", "", "1", "10", "Q", "S", "   ", "1S", "11S", "QQ", "XS", "QX", "Q S S", "AS,", "0S", "♠Q", "K♠♠"])
def test_no_phantom_card_from_stray_text(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    assert repr(text) in str(info.value), "the error quotes the input"
    assert isinstance(info.value, SergeantMajorError) and isinstance(info.value, ValueError)


def test_parse_cards_errors_quote_the_bad_word_and_return_nothing() -> None:
    assert parse_cards("AS KH, 10D") == [parse_card("AS"), parse_card("KH"), parse_card("TD")]
    assert parse_cards("") == []
    with pytest.raises(CardParseError) as info:
        parse_cards("AS KX 10D")
    assert "'KX'" in str(info.value)


def test_suit_parse() -> None:
    assert Suit.parse("S") is Suit.SPADES
    assert Suit.parse("hearts") is Suit.HEARTS
    assert Suit.parse("♦") is Suit.DIAMONDS
    assert Suit.parse("Club") is Suit.CLUBS
    with pytest.raises(CardParseError) as info:
        Suit.parse("swords")
    assert "'swords'" in str(info.value)


def test_masks() -> None:
    cards = parse_cards("AS 2C TD")
    m = mask_of(cards)
    assert m == (1 << 51) | (1 << 0) | (1 << 21)
    assert cards_of(m) == sorted(cards, key=lambda c: c.id)
    assert list(ids_of(m)) == [0, 21, 51]
    assert FULL_DECK == sum(SUIT_MASKS)
    for s in Suit:
        assert all(CARDS[i].suit is s for i in ids_of(SUIT_MASKS[s]))
        assert SUIT_MASKS[s].bit_count() == 13
    assert parse_card("QS").mask == 1 << parse_card("QS").id


def test_id_list_and_ids_of_give_the_set_bits_in_order() -> None:
    """The table lookup gives each set bit of any 52-bit mask, ascending (as a test of every bit finds them), and
    ``ids_of`` the same one at a time; each call of ``id_list`` a new list."""
    rng = random.Random(3)
    masks = [0, FULL_DECK, 1, 1 << 51, *SUIT_MASKS] + [rng.getrandbits(52) & rng.getrandbits(52) for _ in range(500)]
    for m in masks:
        bits = [i for i in range(52) if m >> i & 1]
        assert id_list(m) == bits and list(ids_of(m)) == bits
    a = id_list(FULL_DECK)
    a.pop()
    assert id_list(FULL_DECK) == list(range(52))


def test_sort_hand() -> None:
    hand = parse_cards("2C AS 3H KD TS 4C AH")
    assert format_cards(sort_hand(hand)) == "AS TS AH 3H KD 4C 2C"
    assert format_cards(sort_hand(hand, Suit.CLUBS)) == "4C 2C AS TS AH 3H KD"
    assert format_cards(sort_hand(hand, Suit.HEARTS)) == "AH 3H AS TS KD 4C 2C"
    assert sorted(sort_hand(hand)) == sorted(hand)


# ---------------------------------------------------------------------------------------------- second review
@pytest.mark.parametrize(("text", "expected"), [
    ("Q♥\ufe0f", "QH"), ("Q♠\ufe0f", "QS"), ("10♦\ufe0f", "TD"), ("a♣\ufe0e", "AC"),  # as phones type the symbols
    ("Q♡", "QH"), ("J♢", "JD"), ("K♤", "KS"), ("2♧", "2C"), ("q♤\ufe0f", "QS"), (" A♡\ufe0f ", "AH"),
])
def test_emoji_and_white_suit_symbols(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected
    assert parse_cards(f"{text}, {text}") == [parse_card(expected)] * 2


def test_suit_parse_emoji_and_white_symbols() -> None:
    from sergeant_major.core.actions import Contract

    assert Suit.parse("♠\ufe0f") is Suit.SPADES and Suit.parse("♡") is Suit.HEARTS and Suit.parse("♢\ufe0e") is Suit.DIAMONDS
    assert Contract.parse("♧\ufe0f") is Contract.CLUBS


def test_full_width_letters_and_digits_are_cards_and_suits() -> None:
    """East Asian input methods type full-width letters and digits ('ＱＳ' was refused as "'Ｓ' is not a suit")."""
    from sergeant_major.core.actions import Contract

    assert str(parse_card("ＱＳ")) == "QS" and str(parse_card("１０ｈ")) == "TH" and str(parse_card("Ａ♠")) == "AS"
    assert parse_cards("ＱＳ，２Ｃ") == parse_cards("QS 2C")
    assert Suit.parse("Ｓ") is Suit.SPADES and Suit.parse("ｈｅａｒｔｓ") is Suit.HEARTS and Contract.parse("Ｄ") is Contract.DIAMONDS
    with pytest.raises(CardParseError, match="'ＱＸ' is not a card"):
        parse_card("ＱＸ")  # refused quoting what was typed
    with pytest.raises(CardParseError, match="'ＱＸ' is not a card"):
        parse_cards("ＱＳ，ＱＸ")


def test_ascii_text_is_read_without_being_rebuilt() -> None:
    """Reading full-width input must not cost the ASCII text every parse gets: it comes back as the same object."""
    from sergeant_major.core.cards import _half_width

    text = "QS 2C, 10H"
    assert _half_width(text) is text
    assert _half_width("ＱＳ，２Ｃ") == "QS,2C" and _half_width("Q♥") == "Q♥"


@pytest.mark.parametrize(("text", "shown"), [
    ("Q♥\ufe0f\ufe0f", "U+FE0F VARIATION SELECTOR-16"),  # one selector is the symbol's; a second is not a suit
    ("Q\u200b", "U+200B ZERO WIDTH SPACE"),
    ("Q\ufe0f", "U+FE0F VARIATION SELECTOR-16"),  # a selector after no symbol
])
def test_an_invisible_character_is_quoted_visibly(text: str, shown: str) -> None:
    """A refusal never quotes a character one cannot see as itself: the input is escaped, the suit by its code point."""
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    msg = str(info.value)
    assert f"{shown} is not a suit" in msg, msg
    assert "\ufe0f" not in msg and "\u200b" not in msg
    assert repr(text).replace("\ufe0f", "\\ufe0f") in msg
    with pytest.raises(CardParseError) as info:
        Suit.parse("♠\ufe0f\ufe0f")
    assert "'♠\\ufe0f\\ufe0f' is not a suit" in str(info.value)


@pytest.mark.parametrize(("text", "flipped"), [("S5", "5S"), ("s5", "5S"), ("♠5", "5♠"), ("H10", "10H"), ("DQ", "QD")])
def test_a_card_written_suit_first_is_named_as_such(text: str, flipped: str) -> None:
    """``S5`` was refused as "'5' is not a suit (C, D, H, S)": true, and no help. The refusal now says the order."""
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    assert str(info.value) == f"'{text}' is not a card: write the rank then the suit, e.g. {flipped}"


def test_a_card_not_suit_first_keeps_its_refusal() -> None:
    with pytest.raises(CardParseError, match=r"'SX' is not a card: 'X' is not a suit"):
        parse_card("SX")
