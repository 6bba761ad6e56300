"""A position of the trick phase with every hand known, and its one-line text (like chess FEN).

Text form, six fields separated by ``|``::

    RULES | CONTRACT | TO-MOVE | TRICKS | HAND0 / HAND1 / HAND2 | TRICK
    9-5-2 | S | 1 | 0-0-0 | AKQ2.JT9..432 / ... / ... | -

* ``RULES``: the rules' string form (``str(rules)``, e.g. ``8-5-3 must-overtrump=on``);
* ``CONTRACT``: ``C D H S`` (trump suit), ``NT`` (no-trump) or ``MT`` (minimum tricks);
* ``TO-MOVE``: the seat to play, ``0..players-1``;
* ``TRICKS``: tricks already taken by each seat, ``-``-separated, seat 0 first;
* hands by seat, each ``SPADES.HEARTS.DIAMONDS.CLUBS`` with ranks high to low (``AKQJT98765432``; an
  empty part is a void) - a plain card list such as ``AS KH TD`` is also read;
* ``TRICK``: the cards already played to the trick in progress, in play order (``-`` when none).

The seat that led the trick in progress is ``TO-MOVE`` minus the cards in ``TRICK``. ``str(pos)`` is
the text, ``Position.parse(str(pos)) == pos`` and ``repr(pos)`` (``Position.parse('...')``) pastes back.
"""

from __future__ import annotations

import operator
import random
from dataclasses import dataclass

from sergeant_major.core.actions import Contract, NameContract
from sergeant_major.core.cards import CARDS, RANK_CHARS, Card, cards_of, parse_card, parse_cards
from sergeant_major.core.deal import Deal, Phase
from sergeant_major.core.errors import CardParseError, RulesError, SergeantMajorError
from sergeant_major.core.match import deal_cards
from sergeant_major.core.rule_options import KittyProcedure
from sergeant_major.core.rules import Rules

__all__ = ["Position", "PositionError", "format_hand", "parse_hand", "trick_winner"]

_PBN_SUITS = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs


class PositionError(SergeantMajorError):
    """A position text or a position that makes no sense; the message quotes the fault."""


def format_hand(mask: int) -> str:
    """A hand as ``SPADES.HEARTS.DIAMONDS.CLUBS``, ranks high to low, e.g. ``'AK.QJ2..T9'``."""
    parts = []
    for s in _PBN_SUITS:
        v = mask >> (13 * s) & 0x1FFF
        parts.append("".join(RANK_CHARS[r] for r in range(12, -1, -1) if v >> r & 1))
    return ".".join(parts)


def parse_hand(text: str) -> int:
    """Read a hand: ``'AK.QJ2..T9'`` (spades.hearts.diamonds.clubs) or a card list ``'AS KS QH'``; ``'-'`` is empty.

    Raises:
        PositionError: quoting ``text`` when it is not a hand or names a card twice.
    """
    text = text.strip()  # quoted as given, less the spaces around it
    t = text
    if t in ("", "-"):
        return 0
    mask = 0
    if "." in t:
        parts = t.split(".")
        if len(parts) != 4:
            raise PositionError(f"hand {text!r}: write four suits spades.hearts.diamonds.clubs separated by dots")
        cards: list[Card] = []
        for s, part in zip(_PBN_SUITS, parts, strict=True):
            p = part.strip().upper().replace("10", "T")
            if p == "-":
                continue
            for ch in p:
                if ch.isspace():
                    continue
                if ch not in RANK_CHARS:
                    raise PositionError(f"hand {text!r}: {ch!r} is not a rank (AKQJT98765432)")
                cards.append(CARDS[13 * s + RANK_CHARS.index(ch)])
    else:
        try:
            cards = parse_cards(t)
        except CardParseError as e:
            # one word that is no card ('K9874'): most likely one suit's ranks, the dotted form cut short
            form = ("; a hand is four suits spades.hearts.diamonds.clubs ('K9874.A.-.95') or a card list ('KS 9S AH')"
                    if len(t.split()) == 1 and len(t) > 3 else "")
            raise PositionError(f"hand {text!r}: {e}{form}") from None
    for c in cards:
        if mask >> c.id & 1:
            raise PositionError(f"hand {text!r} names {c} twice")
        mask |= 1 << c.id
    return mask


def _popcount(m: int) -> int:
    return m.bit_count()  # the ones of |m|, as bin(m).count("1") counted them, without making the text


@dataclass(frozen=True)
class Position:
    """The trick phase with every hand known: what the double-dummy solver and the play-out kernel read.

    Attributes:
        rules: the rules in force (their obligations: must follow, ``must-trump``, ``must-overtrump``).
        contract: the contract played (a trump suit, no-trump or minimum tricks).
        to_move: the seat to play next, ``0..players-1``.
        tricks: tricks already taken, by seat.
        hands: each seat's remaining cards as a 52-bit mask (bit ``card id``).
        trick: card ids already played to the trick in progress, in play order (``len < players``).

    Raises:
        PositionError: when the parts do not fit together (a card held twice, wrong hand sizes, tricks that do
            not add up to the rules' tricks...) or are not of their types (a float seat, lists instead of
            tuples, hands that are not int masks); the message says which.
    """

    rules: Rules
    contract: Contract
    to_move: int
    tricks: tuple[int, ...]
    hands: tuple[int, ...]
    trick: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise PositionError(f"rules {self.rules!r} is not a Rules (Rules.parse('9-5-2'))")
        if not isinstance(self.contract, Contract):
            raise PositionError(f"contract {self.contract!r} is not a Contract")
        if isinstance(self.to_move, bool) or not isinstance(self.to_move, int):
            raise PositionError(f"seat to move {self.to_move!r} is not an int")
        for name in ("tricks", "hands", "trick"):  # tuples of ints: a Position is hashable and compares by value
            value = getattr(self, name)
            if not isinstance(value, tuple) or any(isinstance(x, bool) or not isinstance(x, int) for x in value):
                raise PositionError(f"{name} {value!r} is not a tuple of ints")
        n = self.rules.players
        if len(self.hands) != n or len(self.tricks) != n:
            raise PositionError(f"{n} players need {n} hands and {n} trick counts, got {len(self.hands)} and {len(self.tricks)}")
        if not 0 <= self.to_move < n:
            raise PositionError(f"seat to move {self.to_move} is outside 0..{n - 1}")
        if len(self.trick) >= n:
            raise PositionError(f"the trick in progress has {len(self.trick)} cards; a complete trick of {n} is already won")
        if not self.rules.has_nt_mt and self.contract.trump is None:
            raise PositionError(f"contract {self.contract.word} needs contracts=suits-nt-mt in the rules {str(self.rules)!r}")
        seen = 0
        for s, h in enumerate(self.hands):
            if not 0 <= h < 1 << 52:
                raise PositionError(f"hand of seat {s} is not a 52-bit mask: {h!r}")
            if seen & h:
                raise PositionError(f"{' '.join(str(c) for c in cards_of(seen & h))} held twice")
            seen |= h
        for c in self.trick:
            if not 0 <= c < 52:
                raise PositionError(f"card id {c!r} in the trick is outside 0..51")
            if seen >> c & 1:
                raise PositionError(f"{CARDS[c]} is both in the trick and held (or played twice)")
            seen |= 1 << c
        if self.rules.kitty is KittyProcedure.NONE and seen & 1:  # card id 0
            raise PositionError(f"2C: with kitty=none the 2C is removed from the deck (seed 002), so no hand holds it "
                                f"and it is never played (rules {str(self.rules)!r})")
        if any(t < 0 for t in self.tricks):
            raise PositionError(f"negative tricks taken: {self.tricks}")
        r = _popcount(self.hands[self.to_move])
        lead = self.leader
        # each hand's count with its card in the trick put back: the count most hands agree on is taken as right, so
        # that the message names the hand that is off (the seat to move's count when no two agree)
        full = {(lead + i) % n: _popcount(self.hands[(lead + i) % n]) + (1 if i < len(self.trick) else 0) for i in range(n)}
        votes = sorted(set(full.values()), key=lambda x: (-list(full.values()).count(x), x != r))
        ref = votes[0] if list(full.values()).count(votes[0]) > 1 else r
        for i in range(n):
            s = (lead + i) % n
            if full[s] != ref:
                want = ref - 1 if i < len(self.trick) else ref
                others = all(full[x] == ref for x in range(n) if x != s)  # "each": only when they all agree
                why = (f"the other hands hold {ref} each" + (" (a card played to the trick counted)" if self.trick else "") if others else
                       f"with seat {self.to_move} to move holding {r} and {len(self.trick)} card(s) in the trick")
                held = _popcount(self.hands[s])
                raise PositionError(f"seat {s} holds {held} card{'' if held == 1 else 's'}; {why}, it should hold {want}")
        if self.trick and r == 0:
            raise PositionError("the seat to move holds no card but the trick is not complete")
        if sum(self.tricks) + r != self.rules.tricks:
            raise PositionError(
                f"tricks taken {'-'.join(map(str, self.tricks))} plus the {r} trick(s) still to play make "
                f"{sum(self.tricks) + r}, not the {self.rules.tricks} tricks of {self.rules.name}")
        if self.trick:
            self._check_trick_legal()

    def _check_trick_legal(self) -> None:
        """Each card of the trick in progress was a legal play for its player, whose hand then was its hand now
        and that card (follow suit; must trump and must over-trump where the rules say so - seeds 000/004
        "Playing the tricks", docs/rules.md).

        Raises:
            PositionError: naming the first card that was not legal and the cards its player could play.
        """
        from sergeant_major.search.kernels import legal_mask  # the function of Position.legal_mask (compiled once with numba)

        n = self.rules.players
        lead = self.leader
        trump = self.trump
        mt, mo = int(self.rules.must_trump), int(self.rules.must_overtrump)
        for i, c in enumerate(self.trick):
            p = (lead + i) % n
            held = self.hands[p] | 1 << c
            prefix = tuple(self.trick[:i]) + (0,) * (4 - i)
            legal = int(legal_mask(held, prefix, i, trump, mt, mo))
            if not legal >> c & 1:
                could = " ".join(str(x) for x in cards_of(legal))
                raise PositionError(f"{CARDS[c]} played by seat {p} to the trick in progress was not legal "
                                    f"(a revoke, or a missed must-trump or must-over-trump): it could play {could}")

    # ------------------------------------------------------------------ derived
    @property
    def n(self) -> int:
        """Number of players."""
        return self.rules.players

    @property
    def leader(self) -> int:
        """The seat that led (or leads) the trick in progress."""
        return (self.to_move - len(self.trick)) % self.rules.players

    @property
    def trump(self) -> int:
        """Trump suit ``0..3`` or ``-1`` (no-trump, minimum tricks)."""
        t = self.contract.trump
        return -1 if t is None else int(t)

    @property
    def misere(self) -> bool:
        """Whether the contract is minimum tricks (each seat wants few tricks)."""
        return self.contract is Contract.MINIMUM

    @property
    def remaining(self) -> int:
        """Tricks still to be completed, the one in progress included (``0`` when the deal is over)."""
        return _popcount(self.hands[self.to_move])

    @property
    def over(self) -> bool:
        """Whether every trick has been played."""
        return self.remaining == 0

    def legal_mask(self) -> int:
        """Cards the seat to move may play, as a mask (same rule as ``Deal.legal_play_mask``)."""
        from sergeant_major.search.kernels import legal_mask

        tr = tuple(self.trick) + (0,) * (4 - len(self.trick))
        return int(legal_mask(self.hands[self.to_move], tr, len(self.trick), self.trump,
                              int(self.rules.must_trump), int(self.rules.must_overtrump)))

    def legal_cards(self) -> list[Card]:
        """Cards the seat to move may play, ascending id."""
        return cards_of(self.legal_mask())

    def play(self, card: Card | int | str) -> Position:
        """The position after the seat to move plays ``card`` (a Card, an id, or a text such as ``'QS'``).

        Raises:
            PositionError: when the card is not held or not legal now, or is not a card at all (``None``, a
                float, a bool: ``True`` is not card id 1), quoting it.
        """
        if isinstance(card, str):
            try:
                card = parse_card(card)
            except CardParseError as e:
                raise PositionError(str(e)) from None
        if isinstance(card, Card):
            cid = card.id
        else:
            cid_or_none: int | None = None
            if not isinstance(card, bool):  # a bool is not a card id
                try:  # an int or a NumPy integer
                    cid_or_none = operator.index(card)
                except TypeError:
                    pass
            if cid_or_none is None:
                raise PositionError(f"{card!r} is not a card: give a Card, a card id 0..51 or a text such as 'QS'")
            cid = cid_or_none
        if not 0 <= cid < 52:
            raise PositionError(f"card id {cid!r} is outside 0..51")
        if not self.hands[self.to_move] >> cid & 1:
            raise PositionError(f"seat {self.to_move} does not hold {CARDS[cid]}")
        if not self.legal_mask() >> cid & 1:
            legal = " ".join(str(c) for c in self.legal_cards())
            raise PositionError(f"{CARDS[cid]} is not legal now; seat {self.to_move} may play {legal}")
        return self.play_unchecked(cid)

    def play_unchecked(self, cid: int) -> Position:
        """The position after the seat to move plays card id ``cid`` (``0..51``), without the legality check: the
        step :meth:`play` runs once the card is legal, which search calls directly with a legal card. The new
        position is not checked again (it follows from a checked one); an illegal card gives one that
        :class:`Position` would refuse.

        Raises:
            PositionError: when ``cid`` is outside ``0..51`` or not held by the seat to move, quoting it (a
                negative id was a bare "negative shift count", a card not held a hand-size error).
        """
        if not 0 <= cid < 52:
            raise PositionError(f"card id {cid!r} is outside 0..51")
        if not self.hands[self.to_move] >> cid & 1:
            raise PositionError(f"seat {self.to_move} does not hold {CARDS[cid]}")
        n = self.n
        hands = list(self.hands)
        hands[self.to_move] &= ~(1 << cid)
        trick = self.trick + (cid,)
        if len(trick) < n:
            return self._derived((self.to_move + 1) % n, self.tricks, tuple(hands), trick)
        w = (self.leader + trick_winner(trick, self.trump)) % n
        tricks = list(self.tricks)
        tricks[w] += 1
        return self._derived(w, tuple(tricks), tuple(hands), ())

    def _derived(self, to_move: int, tricks: tuple[int, ...], hands: tuple[int, ...], trick: tuple[int, ...]) -> Position:
        """A position of the same rules and contract built without the checks of ``__post_init__``: the checks
        took about a tenth of the expert's time per decision, each candidate card making a position."""
        return _unchecked(self.rules, self.contract, to_move, tricks, hands, trick)

    # ------------------------------------------------------------------ conversions
    @classmethod
    def from_deal(cls, deal: object) -> Position:
        """The position of a :class:`sergeant_major.core.deal.Deal` in (or at the end of) its play phase.

        Not checked again: the deal's cards were checked when dealt and each of its actions when applied, so the
        position passes the constructor's checks (tested); they took about a twentieth of the expert's time, which
        makes a position of every world it searches.

        Raises:
            PositionError: when the deal has not reached the play.
        """

        if not isinstance(deal, Deal):
            raise PositionError(f"{deal!r} is not a Deal")
        if deal.phase not in (Phase.PLAY, Phase.SCORED) or deal.contract is None:
            raise PositionError(f"the deal is in the {deal.phase.value} phase, not yet in the play")
        return _unchecked(deal.rules, deal.contract, deal.to_play, tuple(deal.tricks_won), tuple(deal.hands),
                          tuple([c for _, c in deal.trick]))

    def text(self) -> str:
        """The one-line text (module docstring)."""
        hands = " / ".join(format_hand(h) for h in self.hands)
        trick = " ".join(str(CARDS[c]) for c in self.trick) or "-"
        return (f"{self.rules} | {self.contract.code} | {self.to_move} | {'-'.join(map(str, self.tricks))} | "
                f"{hands} | {trick}")

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Position.parse({self.text()!r})"

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read the one-line text (module docstring).

        Raises:
            PositionError: quoting the field at fault.
        """
        if not isinstance(text, str):
            raise PositionError(f"{text!r} is not a position: give the one-line text (a str)")
        fields = [f.strip() for f in text.strip().split("|")]
        if len(fields) != 6:
            raise PositionError(
                f"{text!r} is not a position: it needs 6 fields separated by '|' "
                f"(rules | contract | to move | tricks | hands | trick), got {len(fields)}")
        rules_t, contract_t, to_t, tricks_t, hands_t, trick_t = fields
        if not rules_t:
            raise PositionError(f"{text!r} is not a position: the rules field is empty (give a preset such as 9-5-2)")
        try:
            rules = Rules.parse(rules_t, check_end=False)  # one deal: the game end plays no part (docs/rules.md decision 13)
        except RulesError as e:
            raise PositionError(f"rules field {rules_t!r}: {e}") from None
        try:
            contract = Contract.parse(contract_t)
        except CardParseError:
            raise PositionError(f"contract {contract_t!r}: use C, D, H, S, NT or MT") from None
        try:
            to_move = int(to_t)
        except ValueError:
            raise PositionError(f"seat to move {to_t!r} is not a number 0..{rules.players - 1}") from None
        try:
            tricks = tuple(int(x) for x in tricks_t.split("-"))
        except ValueError:
            raise PositionError(f"tricks {tricks_t!r}: write each seat's tricks taken, e.g. 3-2-1") from None
        hands = tuple(parse_hand(h) for h in hands_t.split("/"))
        if trick_t in ("", "-"):
            trick: tuple[int, ...] = ()
        else:
            try:
                trick = tuple(c.id for c in parse_cards(trick_t))
            except CardParseError as e:
                raise PositionError(f"trick {trick_t!r}: {e}") from None
        return cls(rules, contract, to_move, tricks, hands, trick)


def _unchecked(rules: Rules, contract: Contract, to_move: int, tricks: tuple[int, ...], hands: tuple[int, ...],
               trick: tuple[int, ...]) -> Position:
    """A :class:`Position` of these fields built without the checks of ``__post_init__`` (for fields that follow
    from a checked position or deal)."""
    pos = object.__new__(Position)
    # the frozen dataclass refuses setattr; its fields live in the instance dict (no slots), filled at once
    pos.__dict__.update(rules=rules, contract=contract, to_move=to_move, tricks=tricks, hands=hands, trick=trick)
    return pos


def trick_winner(trick: tuple[int, ...] | list[int], trump: int) -> int:
    """Index in play order of the winning card of a complete trick: the highest trump, else the highest
    card of the suit led (seeds 000/004 "Playing the tricks")."""
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        cs, bs = c // 13, b // 13
        if cs == bs and c > b or cs == trump and bs != trump:
            best = i
    return best


def random_play_start(rules: Rules, rng: random.Random, *, contract: Contract | None = None) -> Deal:
    """A random first deal under ``rules`` at its first card: the kitty, discards and ``contract`` (default: a
    random allowed one) chosen at random among the legal actions. For tests and benchmarks."""
    dealer = rng.randrange(rules.players)
    hands, kitty = deal_cards(rules, rng.randrange(1 << 30), 1, dealer)
    deal = Deal(rules, dealer, hands, kitty)
    while deal.phase is not Phase.PLAY:
        action = deal.forced_action()
        if action is None:
            acts = deal.legal_actions()
            if contract is not None and deal.phase is Phase.CONTRACT:
                acts = [a for a in acts if isinstance(a, NameContract) and a.contract is contract] or acts
            action = rng.choice(acts)
        deal.apply(action)
    return deal


def random_position(rules: Rules, rng: random.Random, tricks_left: int, *, contract: Contract | None = None,
                    in_trick: int = 0) -> Position:
    """A random position of a first deal under ``rules``: the kitty and discards done at random, the
    ``contract`` (default: a random allowed one), then random legal cards until ``tricks_left`` tricks remain
    with ``in_trick`` cards already played to the trick in progress. For tests and benchmarks.

    Raises:
        PositionError: when ``tricks_left`` is outside ``1..rules.tricks`` or ``in_trick`` outside ``0..players-1``.
    """
    if not 1 <= tricks_left <= rules.tricks or not 0 <= in_trick < rules.players:
        raise PositionError(f"tricks_left={tricks_left} / in_trick={in_trick} outside 1..{rules.tricks} / 0..{rules.players - 1}")
    deal = random_play_start(rules, rng, contract=contract)
    stop = (rules.tricks - tricks_left) * rules.players + in_trick
    for _ in range(stop):
        m = deal.legal_play_mask()
        ids = [i for i in range(52) if m >> i & 1]
        deal.play_unchecked(rng.choice(ids))
    return Position.from_deal(deal)
