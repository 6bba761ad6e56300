"""Cards, suits and hands.

A card is a small immutable value with a stable integer id ``suit * 13 + rank`` in ``0..51``:
suits are ordered clubs (0), diamonds (1), hearts (2), spades (3) and ranks ``0..12`` stand for
``2 3 4 5 6 7 8 9 T J Q K A`` (seeds 000/004, "Basic terms": A K Q J 10 9 ... 2 in every suit).
A hand is a 52-bit integer mask (bit ``id`` set when the card is held), so following suit and
resolving tricks are mask operations.

The canonical text of a card is rank then suit, upper case: ``AS KH TD 2C``. :func:`parse_card`
is lenient: ``10D``, ``td``, ``Qs``, ``Q♠``, the white suit symbols ``♤ ♡ ♢ ♧`` and a symbol followed by
the emoji or text variation selector (``Q♠️``: U+FE0F, as phones type it; U+FE0E), German ``D``/``B`` for
queen/jack with ``german=True``, ``H``/``K``/``P``/``C`` suit letters are not guessed: anything else raises
:class:`CardParseError` quoting the input (characters one cannot see by their code point).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

from sergeant_major.core.errors import CardParseError
from sergeant_major.core.safetext import char_text, quote

__all__ = [
    "Suit",
    "Card",
    "CARDS",
    "RANK_CHARS",
    "SUIT_MASKS",
    "FULL_DECK",
    "parse_card",
    "parse_cards",
    "mask_of",
    "cards_of",
    "ids_of",
    "id_list",
    "format_cards",
    "sort_hand",
]

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
WHITE_SUIT_SYMBOLS: Final = "♧♢♡♤"
"""The white (outlined) suit symbols, read as the same suits as :data:`SUIT_SYMBOLS`."""
_PLAIN_SYMBOL: Final = dict(zip(WHITE_SUIT_SYMBOLS, SUIT_SYMBOLS, strict=True))
_VARIATION_SELECTORS: Final = "\ufe0e\ufe0f"  # text / emoji presentation of the symbol before it


def _half_width(text: str) -> str:
    """``text`` with the full-width forms of ASCII (U+FF01..U+FF5E: ``'ＱＳ，２Ｃ'``) made ASCII; ASCII ``text`` itself."""
    if text.isascii():  # nearly every text parsed: not rebuilt character by character
        return text
    return "".join(chr(ord(ch) - 0xFEE0) if "\uff01" <= ch <= "\uff5e" else ch for ch in text)


def _plain_symbols(text: str) -> str:
    """``text`` with full-width letters and digits made ASCII (``'ＱＳ'``, as East Asian input methods type it), white
    suit symbols made black and one variation selector (U+FE0E or U+FE0F) right after a suit symbol dropped:
    ``'Q♡️'`` -> ``'Q♥'``. Anything else is kept, to be refused with its place named."""
    text = _half_width(text)
    if not any(ch in _VARIATION_SELECTORS or ch in _PLAIN_SYMBOL for ch in text):
        return text
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch in _VARIATION_SELECTORS and i > 0 and (text[i - 1] in SUIT_SYMBOLS or text[i - 1] in _PLAIN_SYMBOL):
            continue
        out.append(_PLAIN_SYMBOL.get(ch, ch))
    return "".join(out)


class Suit(IntEnum):
    """The four suits, in the order used for card ids. ``str(Suit.SPADES) == 'S'``."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    def __str__(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol, one of ``♣ ♦ ♥ ♠``."""
        return SUIT_SYMBOLS[self]

    @property
    def word(self) -> str:
        """The suit's English name in lower case, e.g. ``'spades'``."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``'S'``, ``'spades'``, ``'♠'``, ``'♤'``, ``'♠️'`` (any case; a symbol may be followed by U+FE0F or
        U+FE0E, as phones type it).

        Raises:
            CardParseError: quoting ``text`` (invisible characters escaped) when it names no suit.
        """
        t = _plain_symbols(text.strip().lower())
        for s in cls:
            if t in (SUIT_CHARS[s].lower(), s.word, s.word[:-1], SUIT_SYMBOLS[s]):
                return s
        raise CardParseError(f"{quote(text)} is not a suit (use C, D, H, S or clubs, diamonds, hearts, spades)")


class Card:
    """An immutable playing card; there are exactly 52 instances, ``CARDS[0..51]``.

    Attributes:
        id: ``suit * 13 + rank``, in ``0..51``.
        suit: the :class:`Suit`.
        rank: ``0`` (two) .. ``12`` (ace).
    """

    __slots__ = ("id", "suit", "rank", "_text")
    id: int
    suit: Suit
    rank: int
    _text: str

    def __new__(cls, id: int) -> Card:  # noqa: A002 - 'id' is the field's name
        if _READY:  # after module initialisation: interned instances
            if not 0 <= id < 52:
                raise CardParseError(f"card id {id!r} is outside 0..51")
            return CARDS[id]
        self = object.__new__(cls)
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "suit", Suit(id // 13))
        object.__setattr__(self, "rank", id % 13)
        object.__setattr__(self, "_text", RANK_CHARS[id % 13] + SUIT_CHARS[id // 13])
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.id,))

    @property
    def mask(self) -> int:
        """The card's bit in a hand mask: ``1 << id``."""
        return 1 << self.id

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __hash__(self) -> int:
        return self.id

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    @staticmethod
    def parse(text: str, *, german: bool = False) -> Card:
        """Same as :func:`parse_card`."""
        return parse_card(text, german=german)


_READY = False
CARDS: list[Card] = [Card(i) for i in range(52)]
_READY = True

SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
FULL_DECK: Final = (1 << 52) - 1

_RANK_ALIASES: Final = {c: i for i, c in enumerate(RANK_CHARS)} | {"10": 8, "1": -1}
_GERMAN_RANKS: Final = {"D": 10, "B": 9}


def _suit_first(t: str, german: bool) -> str | None:
    """``t`` (upper case, symbols plain) written the other way round, rank then suit (``'5S'`` for ``'S5'``,
    ``'10♠'`` for ``'♠10'``), when it is a suit followed by a rank; else ``None``."""
    suit, rank = t[0], t[1:].strip()
    if suit not in SUIT_CHARS and suit not in SUIT_SYMBOLS:
        return None
    if rank in _RANK_ALIASES and _RANK_ALIASES[rank] >= 0 or german and rank in _GERMAN_RANKS:
        return f"{rank}{suit}"
    return None


def parse_card(text: str, *, german: bool = False) -> Card:
    """Parse one card: ``'QS'``, ``'10h'``, ``'qs'``, ``'TD'``, ``'Q♠'``, ``'as'``; the white suit symbols
    ``♤ ♡ ♢ ♧`` are the same suits, and a symbol may be followed by U+FE0F or U+FE0E (``'Q♥️'``, as phones type it).

    With ``german=True`` the rank letters ``D`` (Dame) and ``B`` (Bube) mean queen and jack
    (``DS``, ``B♥``, ``DD`` = queen of diamonds); suits are still ``C D H S`` or symbols: German suit
    letters (``K`` for both Kreuz and Karo) would be ambiguous and are not accepted.

    Raises:
        CardParseError: quoting ``text`` when it is not exactly one card (a character one cannot see, such
            as a second U+FE0F, by its code point and name).
    """
    raw = text
    plain = _plain_symbols(text.strip())
    t = plain.upper()
    if len(t) < 2:
        raise CardParseError(f"{quote(raw)} is not a card (write rank then suit, e.g. QS, 10H, TD)")
    suit_part = t[-1]
    rank_part = t[:-1].strip()
    if suit_part in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS.index(suit_part)
    elif suit_part in SUIT_CHARS:
        suit = SUIT_CHARS.index(suit_part)
    else:
        flipped = _suit_first(t, german)
        if flipped is not None:  # 'S5', '♠5': a card written suit first, named as such rather than "'5' is not a suit"
            raise CardParseError(f"{quote(raw)} is not a card: write the rank then the suit, e.g. {flipped}")
        raise CardParseError(f"{quote(raw)} is not a card: {char_text(plain[-1])} is not a suit (C, D, H, S)")
    if german and rank_part in _GERMAN_RANKS:
        rank = _GERMAN_RANKS[rank_part]
    else:
        rank = _RANK_ALIASES.get(rank_part, -1)
    if rank < 0:
        raise CardParseError(
            f"{quote(raw)} is not a card: {quote(plain[:-1])} is not a rank (2-10, T, J, Q, K, A)"
        )
    return CARDS[suit * 13 + rank]


def parse_cards(text: str, *, german: bool = False) -> list[Card]:
    """Parse cards separated by spaces or commas, e.g. ``'AS KH, 10D'``.

    Raises:
        CardParseError: quoting the first word that is not a card.
    """
    words = text.replace(",", " ").replace("\uff0c", " ").split()  # a comma, full-width too
    return [parse_card(w, german=german) for w in words]


def mask_of(cards: Iterable[Card]) -> int:
    """The hand mask of ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c.id
    return m


def ids_of(mask: int) -> Iterator[int]:
    """The card ids set in ``mask``, ascending (:func:`id_list`'s ids, one at a time)."""
    return iter(id_list(mask))


# id_list's table: per suit, the card ids of each 13-bit pattern of the suit (a tuple each), built at the first call
# (4 x 8192 tuples: about a tenth of a second, which every import would pay otherwise).
_SUIT_IDS: list[tuple[tuple[int, ...], ...]] = []


def id_list(mask: int) -> list[int]:
    """The card ids set in the 52-bit ``mask``, ascending: a fresh list (:func:`ids_of` as a list, by one table
    lookup per suit: the search asks it for many hands)."""
    try:
        t0, t1, t2, t3 = _SUIT_IDS
    except ValueError:  # the first call
        bits = [tuple(b for b in range(13) if v >> b & 1) for v in range(1 << 13)]
        _SUIT_IDS[:] = [tuple(tuple(13 * s + b for b in row) for row in bits) for s in range(4)]
        t0, t1, t2, t3 = _SUIT_IDS
    return [*t0[mask & 0x1FFF], *t1[mask >> 13 & 0x1FFF], *t2[mask >> 26 & 0x1FFF], *t3[mask >> 39]]


def cards_of(mask: int) -> list[Card]:
    """The cards of ``mask``, in ascending id order."""
    return [CARDS[i] for i in id_list(mask)]


def sort_hand(cards: Iterable[Card], trump: Suit | None = None) -> list[Card]:
    """Cards sorted for display: by suit (trump first once named, then S H D C), high to low."""
    order = [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]
    if trump is not None:
        order.remove(trump)
        order.insert(0, trump)
    pos = {s: i for i, s in enumerate(order)}
    return sorted(cards, key=lambda c: (pos[c.suit], -c.rank))


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text of several cards, space separated: ``'AS KH TD'``."""
    return " ".join(str(c) for c in cards)
