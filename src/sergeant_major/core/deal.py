"""One deal: an explicit phase machine from the cards as dealt to the score.

Phases (:class:`Phase`), in the order the rules in force give them (docs/rules.md reference presets):
``assign`` (double dealer right) -> ``exchange`` (gives and returns, from the second deal on) ->
``contract`` (trump, or the 3-5-8 contract) -> ``kitty`` / ``discard`` -> ``play`` -> ``scored``.
Presets move these around: 8-5-3 discards before taking the kitty; 9-2-5 takes the kitty and discards
first, then the gives, then trump, then the returns; 3-5-8 names the contract first, after six cards.

Each rule has one home. What is legal: :meth:`Deal.verify` (with :meth:`Deal.legal_play_mask` for the cards,
:meth:`Deal._give_mask` and :meth:`Deal._return_mask` for the exchange); :meth:`Deal.legal_actions` lists what
they allow. What an action changes: :meth:`Deal.apply_unchecked`, one branch per kind of action, with
:meth:`Deal.play_unchecked` for a card (who wins a trick: the rank keys ``_TRICK_KEYS``). The checked entry
point :meth:`Deal.apply` is ``verify`` then ``apply_unchecked`` (as python-chess's ``push_san`` is built on
``push``): it raises :class:`IllegalActionError` naming the rule and leaves the state unchanged. Search and
simulation call the unchecked steps directly. The order of the steps before the play: :mod:`.steps`.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple, cast

from sergeant_major.core.actions import (
    Action,
    AssignTargets,
    Contract,
    Discard,
    EndGive,
    Give,
    NameContract,
    Play,
    Return,
    TakeKitty,
    action_text,
)
from sergeant_major.core.cards import CARDS, SUIT_MASKS, Card, Suit, cards_of, format_cards, id_list, sort_hand
from sergeant_major.core.errors import IllegalActionError
from sergeant_major.core.rule_options import ExchangeCount, GiveRule, KittyProcedure, ReturnRule, Scoring, TrumpReturn
from sergeant_major.core.rules import Rules, minimum_ceilings
from sergeant_major.core.steps import Step, exchange_rounds, step_plan

__all__ = ["Phase", "Deal", "DealResult", "Trick", "ExchangeEvent", "ExchangeKind", "ROLE_NAMES", "role_name", "contracts_for",
           "step_plan", "exchange_rounds"]  # the last two live in core.steps; kept here for their importers

ROLE_NAMES = ("dealer", "eldest", "third", "fourth")


def role_name(role: int) -> str:
    """``'dealer'``, ``'eldest'``, ``'third'`` or ``'fourth'`` for role index 0..3."""
    return ROLE_NAMES[role]


class Phase(str, Enum):
    """The phase of a deal: which kind of action comes next."""

    ASSIGN = "assign"
    EXCHANGE = "exchange"
    CONTRACT = "contract"
    KITTY = "kitty"
    DISCARD = "discard"
    PLAY = "play"
    SCORED = "scored"


@dataclass(frozen=True)
class Trick:
    """A completed trick: who led, the cards in play order as ``(seat, card)``, and the winner's seat."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int


class ExchangeKind(str, Enum):
    """Which way a card of the exchange went: given by an up player, or returned by a down player."""

    GIVE = "give"
    RETURN = "return"


@dataclass(frozen=True)
class ExchangeEvent:
    """One card passed in the exchange. ``card`` is ``None`` in a view of a seat that neither gave nor received it."""

    kind: ExchangeKind
    giver: int
    receiver: int
    card: Card | None


@dataclass(frozen=True)
class DealResult:
    """The outcome of a deal, by seat.

    Attributes:
        tricks: tricks taken by each seat (sum: the rules' tricks).
        targets: each seat's target (ceiling in minimum tricks).
        diffs: over-tricks (> 0) or under-tricks (< 0) as the exchange counts them: ``tricks - target``,
            inverted in minimum tricks (docs/rules.md reference decision 3).
        scores: the deal's score per seat under the rules' scoring; they add up to
            ``rules.score_sum(minimum)``: 0 with balanced targets (docs/rules.md reference decision 5).
        contract: the contract played.
    """

    tricks: tuple[int, ...]
    targets: tuple[int, ...]
    diffs: tuple[int, ...]
    scores: tuple[int, ...]
    contract: Contract


# The step kinds (:class:`Step`) by short names: the stack of what comes next, expanded lazily for the exchange.
# Module names because reading Step.GIVE looks it up on the enum class, about 0.4 us a time in CPython 3.11.
_ASSIGN, _CONTRACT, _EXCHANGE, _GIVES, _RETURNS, _GIVE, _RETURN, _KITTY, _DISCARD, _SCORED = Step
_SCORED_STEP = (_SCORED, -1, -1)  # the last step of a scored deal: the stack is empty only during the play
_BIT = [1 << i for i in range(52)]
_FULL_MASK = (1 << 52) - 1  # every card id
_SEAT_CARD = [[(s, c) for c in range(52)] for s in range(4)]  # the (seat, card id) pairs of a trick, prebuilt
_card_id = operator.attrgetter("id")
_pick_cards = operator.itemgetter
_OUTSIDE_SUIT = [((1 << 52) - 1) ^ m for m in SUIT_MASKS]  # by suit: the cards of the other three suits
_DECK_MASK = {52: (1 << 52) - 1, 51: (1 << 52) - 2}  # the mask of a whole deck: without the 2C with kitty=none
_ALL_CONTRACTS = tuple(Contract)
_SUIT_CONTRACTS = _ALL_CONTRACTS[:4]
_MINIMUM = Contract.MINIMUM


def contracts_for(rules: Rules) -> tuple[Contract, ...]:
    """The contracts ``rules`` let a declarer name: the four trump suits, and with ``contracts=suits-nt-mt`` also
    no-trump and minimum tricks (seed 003). The same tuple each call (a deal's listing of actions tests for it)."""
    return _ALL_CONTRACTS if rules.has_nt_mt else _SUIT_CONTRACTS
# Rank keys of the cards in a trick, by trump suit (-1: none) and suit led: a trump beats the suit led, which
# beats anything else; within a suit the ids order the ranks. The highest key wins the trick.
_TRICK_KEYS = [[[c + 64 if c // 13 == tr else (c if c // 13 == led else -1) for c in range(52)] for led in range(4)]
               for tr in (0, 1, 2, 3, -1)]
# Every action that names a card, prebuilt (they are immutable values): by seat (and receiver) and card id.
_PLAY_CACHE = [[Play(s, CARDS[i]) for i in range(52)] for s in range(4)]
_DISCARD_CACHE = [[Discard(s, CARDS[i]) for i in range(52)] for s in range(4)]
_GIVE_CACHE = [[[Give(s, CARDS[i], t) for i in range(52)] for t in range(4)] for s in range(4)]
_RETURN_CACHE = [[[Return(s, CARDS[i], t) for i in range(52)] for t in range(4)] for s in range(4)]
_CONTRACT_CACHE: list[list[Action]] = [[NameContract(s, c) for c in _ALL_CONTRACTS] for s in range(4)]
_TAKE_CACHE = [TakeKitty(s) for s in range(4)]
_END_GIVE_CACHE = [[EndGive(s, t) for t in range(4)] for s in range(4)]

# Listing the legal actions is the hot path of simulation. _PICK13 holds, for every 13-bit suit pattern, a C-level
# getter that picks the actions of its cards out of one suit's 13 prebuilt actions (a tuple in rank order): the
# actions for a mask are then one pick per suit. For plays and discards a memo keeps these picks: memo[seat][suit] is
# a list indexed by the 13-bit pattern of the suit's cards, holding the tuple of the seat's actions for them, so
# that most lists are four list lookups. Entries are filled when a pattern first occurs, for every seat at once;
# until then they hold None (typed away: unpacking it raises TypeError, which the readers catch). At most
# 2 x 4 x 4 x 8192 tuples (about 25 MB when all are filled; a long simulation fills most).
_Rows = tuple[tuple[Action, ...], ...]  # a row of 52 prebuilt actions, as 4 suits of 13
_Memo = list[list[list[tuple[Action, ...]]]]  # [seat][suit][pattern] -> the seat's actions for the pattern
_BITS13: tuple[tuple[int, ...], ...] = tuple(tuple(b for b in range(13) if v >> b & 1) for v in range(1 << 13))
_PICK13: list[Callable[[tuple[Action, ...]], tuple[Action, ...]]] = [
    operator.itemgetter(*b) if len(b) > 1 else operator.itemgetter(slice(b[0], b[0] + 1) if b else slice(0, 0))
    for b in _BITS13]  # itemgetter of one index gives the item, of a slice a tuple


def _rows(row: Sequence[Action]) -> _Rows:
    return tuple(tuple(row[13 * u: 13 * u + 13]) for u in range(4))


def _new_memo() -> _Memo:
    unfilled = cast(tuple[Action, ...], None)
    return [[[(), *[unfilled] * 8191] for _ in range(4)] for _ in range(4)]


_PLAY_ROWS = [_rows(row) for row in _PLAY_CACHE]
_DISCARD_ROWS = [_rows(row) for row in _DISCARD_CACHE]
_GIVE_ROWS = [[_rows(row) for row in rows] for rows in _GIVE_CACHE]
_RETURN_ROWS = [[_rows(row) for row in rows] for rows in _RETURN_CACHE]
_PLAY_MEMO = _new_memo()
_DISCARD_MEMO = _new_memo()


def _pick_acts(rows: _Rows, m: int) -> list[Action]:
    """The actions of the card ids of mask ``m`` out of a row, ascending id: a fresh list."""
    r0, r1, r2, r3 = rows
    p = _PICK13
    return [*p[m & 0x1FFF](r0), *p[m >> 13 & 0x1FFF](r1), *p[m >> 26 & 0x1FFF](r2), *p[m >> 39](r3)]


def _acts_of(memo: _Memo, family: list[_Rows], seat: int, m: int) -> list[Action]:
    """:func:`_pick_acts` for ``seat``'s row of ``family``, through ``memo`` (filling the patterns not seen before,
    for every seat): a fresh list."""
    out: list[Action] = []
    for u, bits in enumerate((m & 0x1FFF, m >> 13 & 0x1FFF, m >> 26 & 0x1FFF, m >> 39)):
        acts: tuple[Action, ...] | None = memo[seat][u][bits]
        if acts is None:
            pick = _PICK13[bits]
            for suits, row in zip(memo, family, strict=True):  # the four seats
                suits[u][bits] = pick(row[u])
            acts = memo[seat][u][bits]
        out += acts
    return out


# A step on a deal's stack: (kind, the seat to act, the other seat of a give or a return, else -1).
_StepEntry = tuple[Step, int, int]
# The exchange's gives and returns as steps (stack order), by (step kind, rules.two_up, previous diffs, targets).
_EXCHANGE_STEPS: dict[tuple[Step, str, tuple[int, ...] | None, tuple[int, ...]], tuple[_StepEntry, ...]] = {}


class _Plan(NamedTuple):
    """What a new deal derives from its rules and dealer alone."""

    declarer: int
    contracts: tuple[Contract, ...]
    steps: tuple[_StepEntry, ...]  # the steps before the play, in stack order (the first step last)
    hand_sizes: list[int]  # by seat
    kitty_size: int
    targets: tuple[int, ...]  # by seat


# _plan's results by (id(rules), dealer, exchange); each entry keeps its Rules alive, so the id is not reused.
_PLANS: dict[tuple[int, int, bool], tuple[Rules, _Plan]] = {}


def _plan(rules: Rules, dealer: int, prev_diffs: tuple[int, ...] | None) -> _Plan:
    """The :class:`_Plan` of a deal under ``rules`` with ``dealer``, after a deal that ended with ``prev_diffs``."""
    exchange = bool(rules.exchange and prev_diffs is not None and any(prev_diffs))
    key = (id(rules), dealer, exchange)
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    n = rules.players
    declarer = (dealer + rules.declarer_role) % n
    steps = tuple((k, declarer if k in (_CONTRACT, _KITTY, _DISCARD) else dealer, -1)
                  for k in reversed(step_plan(rules, exchange)))
    plan = _Plan(declarer, contracts_for(rules), steps, [rules.hand_size] * n, rules.kitty_size,
                 tuple([rules.targets[(s - dealer) % n] for s in range(n)]))
    if len(_PLANS) >= 512:
        _PLANS.clear()
    _PLANS[key] = (rules, plan)
    return plan


# Trick values are immutable: one per (winner, ((seat, card id), ...) in play order) - the leader is the first seat - made
# when first read and shared by every deal that played that trick. The search's worlds of one decision share their
# public tricks, so each world's view (resample checks every world by its view) holds the same Trick objects, which
# compare at once (half a second of the expert's 9-5-2 profile went to building them). At most 16,384, then anew.
_TRICKS: dict[tuple[int, tuple[tuple[int, int], ...]], Trick] = {}

# ExchangeEvent values are immutable: one per (kind, giver, receiver, card), made when first needed.
_EVENTS: dict[int, ExchangeEvent] = {}


def _event(kind: int, giver: int, receiver: int, cid: int) -> ExchangeEvent:
    """The :class:`ExchangeEvent` of a give (``kind`` 0) or a return (1) of card id ``cid``, made once (the hot
    path reads ``_EVENTS`` first, by this key)."""
    key = ((kind * 4 + giver) * 4 + receiver) * 52 + cid
    e = _EVENTS.get(key)
    if e is None:
        e = _EVENTS[key] = ExchangeEvent(ExchangeKind.RETURN if kind else ExchangeKind.GIVE, giver, receiver, CARDS[cid])
    return e


def _check_deal(r: Rules, dealt: tuple[tuple[Card, ...], ...], kitty_dealt: tuple[Card, ...], sizes: list[int],
                kitty_size: int) -> list[int]:
    """Check the cards dealt against the hand ``sizes`` by seat and the ``kitty_size``; return each seat's hand mask.

    Raises:
        IllegalActionError: (rule ``"deal"``) when the cards are not a whole deck split as the rules say.
    """
    seen: set[int] = set()
    if [len(h) for h in dealt] != sizes:
        raise IllegalActionError(
            f"a deal needs {r.players} hands of {r.hand_size} cards, got sizes {[len(h) for h in dealt]}", "deal")
    if len(kitty_dealt) != kitty_size:
        raise IllegalActionError(f"the kitty needs {r.kitty_size} cards, got {len(kitty_dealt)}", "deal")
    bit = _BIT.__getitem__
    masks = [sum(map(bit, map(_card_id, h))) for h in dealt]
    every = sum(masks) + sum(map(bit, map(_card_id, kitty_dealt)))
    # a card dealt twice makes a carry in the sum, so fewer bits than cards
    if every.bit_count() != sum(sizes) + kitty_size:  # name the first card seen twice, in dealing order
        for c in itertools.chain(*dealt, kitty_dealt):
            if c.id in seen:
                raise IllegalActionError(f"card {c} is dealt twice", "deal")
            seen.add(c.id)
    if r.kitty is KittyProcedure.NONE and every & 1:
        raise IllegalActionError("with kitty=none the 2C is removed from the deck (seed 002)", "deal")
    return masks


def _rank_key_high(cid: int, trump: int) -> tuple[int, int, int]:
    s = cid // 13
    return (cid % 13, 1 if s == trump else 0, s)


class Deal:
    """The state of one deal. Mutable; :meth:`clone` copies it.

    Args:
        rules: the rules in force.
        dealer: the dealer's seat, ``0..players-1``.
        hands: each seat's cards in the order dealt (``rules.hand_size`` each).
        kitty: the kitty's cards (``rules.kitty_size``).
        prev_diffs: the previous deal's over/under-tricks by seat, or ``None`` on the first deal
            (no exchange; seeds 000/004 "Exchanging cards").
        allowed_contracts: contracts the declarer may choose (3-5-8 ``contract-once``); default all.
        number: the deal's number in the match, from 1.

    Raises:
        IllegalActionError: (rule ``"deal"``) when the cards are not a whole deck split as the rules say.
    """

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: list[list[Card]] | tuple[tuple[Card, ...], ...],
        kitty: list[Card] | tuple[Card, ...],
        prev_diffs: tuple[int, ...] | None = None,
        allowed_contracts: tuple[Contract, ...] | None = None,
        number: int = 1,
    ) -> None:
        plan = _plan(rules, dealer, prev_diffs)
        dealt = tuple([tuple(h) for h in hands])
        kitty_dealt = tuple(kitty)
        masks = _check_deal(rules, dealt, kitty_dealt, plan.hand_sizes, plan.kitty_size)
        self._init(rules, dealer, dealt, kitty_dealt, masks, sum(map(_BIT.__getitem__, map(_card_id, kitty_dealt))),
                   prev_diffs, allowed_contracts, number, plan)

    @classmethod
    def from_deck(cls, rules: Rules, dealer: int, deck: list[int], prev_diffs: tuple[int, ...] | None = None,
                  allowed_contracts: tuple[Contract, ...] | None = None, number: int = 1) -> Deal:
        """The deal of the shuffled card ids ``deck``, dealt one card at a time clockwise from the eldest hand and
        the rest to the kitty (seeds 000/004 "Setup"); the other arguments as for :class:`Deal`.

        ``deck`` must be the whole deck, each card id once: 52 ids, or 51 without the 2C (id 0) with ``kitty=none``
        (:func:`sergeant_major.core.match.shuffled_deck` gives it). It is not checked: this is the fast way in for
        a deck that is whole by construction.
        """
        plan = _plan(rules, dealer, prev_diffs)
        n = rules.players
        cut = n * plan.hand_sizes[0]
        cards: tuple[Card, ...] = _pick_cards(*deck)(CARDS)
        bit = _BIT.__getitem__
        # card j of the deck goes to seat (dealer + 1 + j) % n
        starts = [(s - dealer - 1) % n for s in range(n)]
        masks = [sum(map(bit, deck[k:cut:n])) for k in starts[:-1]]
        kitty = sum(map(bit, deck[cut:]))
        masks.append(_DECK_MASK[len(deck)] - kitty - sum(masks))  # the last seat: the rest of the deck
        self = cls.__new__(cls)
        self._init(rules, dealer, tuple([cards[k:cut:n] for k in starts]), cards[cut:], masks, kitty, prev_diffs,
                   allowed_contracts, number, plan)
        return self

    def as_dealt(self) -> Deal:
        """A new deal as this one was dealt, before any action: the same rules, cards, dealer and match context. Not
        checked again (the cards were checked when this deal was made): for replaying the deal's history, as the
        expert's inference does for every world it draws."""
        bit = _BIT.__getitem__
        new = object.__new__(Deal)
        new._init(self.rules, self.dealer, self.dealt, self.kitty_dealt,
                  [sum(map(bit, map(_card_id, h))) for h in self.dealt], sum(map(bit, map(_card_id, self.kitty_dealt))),
                  self.prev_diffs, self.allowed_contracts, self.number, _plan(self.rules, self.dealer, self.prev_diffs))
        return new

    def _init(self, rules: Rules, dealer: int, dealt: tuple[tuple[Card, ...], ...], kitty_dealt: tuple[Card, ...],
              masks: list[int], kitty: int, prev_diffs: tuple[int, ...] | None,
              allowed_contracts: tuple[Contract, ...] | None, number: int, plan: _Plan) -> None:
        n = rules.players
        self.rules = rules
        self.n = n
        self.number = number
        self.dealer = dealer
        self.dealt: tuple[tuple[Card, ...], ...] = dealt
        self.kitty_dealt: tuple[Card, ...] = kitty_dealt
        self.hands: list[int] = masks
        self.kitty = kitty
        self.kitty_seen = False
        self.discards = 0
        self.targets: tuple[int, ...] = plan.targets
        self.declarer = plan.declarer
        self.contract: Contract | None = None
        self.trump = -1
        self.prev_diffs = prev_diffs
        self.allowed_contracts: tuple[Contract, ...] = allowed_contracts if allowed_contracts is not None else plan.contracts
        self._steps: list[_StepEntry] = list(plan.steps)  # a stack: the next step is at the end
        self.exchange_log: list[ExchangeEvent] = []
        self._to_return: dict[tuple[int, int], list[int]] = {}
        self.leader = (dealer + 1) % n
        self.to_play = self.leader
        self.trick: list[tuple[int, int]] = []
        self.led_suit = -1
        self.tricks_won: list[int] = [0] * n
        # Completed tricks, compact: (leader, [(seat, card id), ...], winner); the public Trick values of
        # :attr:`completed` are built from them when first read.
        self._done: list[tuple[int, list[tuple[int, int]], int]] = []
        self._completed: list[Trick] = []
        # Keep the instance attributes at 29 or fewer: CPython 3.11 keeps up to 29 in the fast, shared-key layout.
        self.history: list[Action] = []
        self.result: DealResult | None = None
        # the card mask legal_actions last offered, with len(history) above bit 52: apply checks a card against it
        self._offered = -1
        self._settle()

    @property
    def completed(self) -> list[Trick]:
        """The completed tricks of the deal, in order (a :class:`Trick` each)."""
        out = self._completed
        done = self._done
        if len(out) < len(done):
            for leader, cards, winner in done[len(out):]:
                key = (winner, tuple(cards))
                trick = _TRICKS.get(key)
                if trick is None:
                    if len(_TRICKS) >= 1 << 14:
                        _TRICKS.clear()
                    trick = _TRICKS[key] = Trick(leader, tuple([(s, CARDS[c]) for s, c in cards]), winner)
                out.append(trick)
        return out

    @completed.setter
    def completed(self, tricks: list[Trick]) -> None:
        self._completed = list(tricks)
        self._done = [(t.leader, [(s, c.id) for s, c in t.cards], t.winner) for t in self._completed]

    # ------------------------------------------------------------------ basics
    def clone(self) -> Deal:
        """An independent copy of the state (for search): the mutable containers are copied, the immutable
        values (cards, actions, tricks, rules) shared. About 100x faster than ``copy.deepcopy``."""
        new = object.__new__(Deal)
        d = new.__dict__
        d.update(self.__dict__)
        for k, v in d.items():
            if type(v) is list:
                d[k] = v.copy()
            elif type(v) is dict:
                d[k] = {kk: (vv.copy() if type(vv) is list else vv) for kk, vv in v.items()}
        return new

    def role(self, seat: int) -> int:
        """Role index of ``seat``: 0 dealer, 1 eldest, 2 third, 3 fourth."""
        return (seat - self.dealer) % self.n

    @property
    def phase(self) -> Phase:
        """The current :class:`Phase`."""
        if self.result is not None:
            return Phase.SCORED
        if not self._steps:
            return _PLAY
        k = self._steps[-1][0]
        return _PHASE_OF[k]

    @property
    def to_act(self) -> int | None:
        """The seat whose action comes next, or ``None`` once scored."""
        if self.result is not None:
            return None
        if not self._steps:
            return self.to_play
        return self._steps[-1][1]

    @property
    def trump_suit(self) -> int:
        """The trump suit's number ``0..3``, or ``-1`` (not yet named, no-trump, minimum tricks)."""
        return self.trump

    def hand(self, seat: int) -> list[Card]:
        """``seat``'s cards now, ascending id."""
        return cards_of(self.hands[seat])

    # ------------------------------------------------------------------ step machinery
    def _settle(self) -> None:
        """Expand macro steps and skip empty returns so that the top of the stack is a real decision."""
        st = self._steps
        while st:
            k, seat, other = st[-1]
            if k == _EXCHANGE or k == _GIVES or k == _RETURNS:
                st.pop()
                if k != _RETURNS and self.contract is not None and self.contract.trump is None:
                    # no exchange in NT and MT deals (seed 003; docs/rules.md reference decision 3) - when the contract is known
                    # before any card is passed. With trump named mid-exchange the gives come before the contract,
                    # so their returns are still owed (docs/rules.md reference decision 1; docs/rules.md decision 12).
                    continue
                if k == _GIVES:
                    # the returns that answer these gives are fixed now, in the same order (docs/rules.md reference decision 2):
                    # an MT contract named in between turns the targets into ceilings, which must not reorder them
                    for i in range(len(st) - 1, -1, -1):
                        if st[i][0] == _RETURNS:
                            st[i:i + 1] = self._exchange_steps(_RETURNS)
                            break
                st.extend(self._exchange_steps(k))
                continue
            if k == _RETURN and not self._to_return.get((seat, other)):
                st.pop()
                continue
            if k == _GIVE and self.rules.exchange_count is ExchangeCount.AT_MOST and not self.hands[seat]:
                st.pop()
                continue
            break

    def _exchange_steps(self, k: Step) -> tuple[_StepEntry, ...]:
        """The gives and returns of macro step ``k`` (``_EXCHANGE``, ``_GIVES`` or ``_RETURNS``) for the deal's
        previous results and current targets, in stack order (the first step last; memoized)."""
        assert self.prev_diffs is not None
        key = (k, self.rules.two_up, self.prev_diffs, self.targets)
        memo = _EXCHANGE_STEPS.get(key)
        if memo is not None:
            return memo
        rounds = exchange_rounds(self.rules, self.prev_diffs, self.targets)
        new: list[_StepEntry] = []
        for u, parts in rounds:
            if k != _RETURNS:
                for d, cnt in parts:
                    new += [(_GIVE, u, d)] * cnt
            if k != _GIVES:
                for d, cnt in parts:
                    new += [(_RETURN, d, u)] * cnt
        if len(_EXCHANGE_STEPS) >= 4096:
            _EXCHANGE_STEPS.clear()
        out = _EXCHANGE_STEPS[key] = tuple(reversed(new))
        return out

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now, for the seat :attr:`to_act` (empty once scored).

        A fresh list each call, in a fixed order (cards by ascending id); the action values are shared, immutable.
        """
        if not self._steps:  # the play (a scored deal keeps a last step, _SCORED)
            seat = self.to_play
            m = self.legal_play_mask()
            self._offered = len(self.history) << 52 | m
            memo = _PLAY_MEMO[seat]
            try:
                if self.trick:
                    u = self.led_suit
                    if not m & _OUTSIDE_SUIT[u]:  # cards of the suit led only: one memo lookup (masks of 52 bits
                        return [*memo[u][m >> 13 * u]]  # are slow ints in CPython; fewer operations on them)
                r0, r1, r2, r3 = memo  # _acts_of, inline: one memo lookup per suit
                return [*r0[m & 0x1FFF], *r1[m >> 13 & 0x1FFF], *r2[m >> 26 & 0x1FFF], *r3[m >> 39]]
            except TypeError:  # a suit pattern not seen before
                return _acts_of(_PLAY_MEMO, _PLAY_ROWS, seat, m)
        if self.result is not None:
            return []
        k, seat, other = self._steps[-1]
        if k == _DISCARD:
            h = self.hands[seat]
            r0, r1, r2, r3 = _DISCARD_MEMO[seat]
            try:  # _acts_of, inline
                return [*r0[h & 0x1FFF], *r1[h >> 13 & 0x1FFF], *r2[h >> 26 & 0x1FFF], *r3[h >> 39]]
            except TypeError:
                return _acts_of(_DISCARD_MEMO, _DISCARD_ROWS, seat, h)
        if k == _GIVE:
            acts = _pick_acts(_GIVE_ROWS[seat][other], self._give_mask(seat))
            if self.rules.exchange_count is ExchangeCount.AT_MOST:
                acts.append(_END_GIVE_CACHE[seat][other])
            return acts
        if k == _RETURN:
            m = self._return_mask(seat, other)
            if m & (m - 1) == 0:  # one card (or none)
                return [_RETURN_CACHE[seat][other][m.bit_length() - 1]] if m else []
            return _pick_acts(_RETURN_ROWS[seat][other], m)
        if k == _CONTRACT:
            allowed = self.allowed_contracts
            if allowed is _SUIT_CONTRACTS:
                return _CONTRACT_CACHE[seat][:4]
            if allowed is _ALL_CONTRACTS:
                return _CONTRACT_CACHE[seat][:]
            return [NameContract(seat, c) for c in allowed]
        if k == _KITTY:
            return [_TAKE_CACHE[seat]]
        # _ASSIGN
        perms = sorted(set(itertools.permutations(self.rules.targets)))
        return [AssignTargets(seat, tuple(p[(s - self.dealer) % self.n] for s in range(self.n))) for p in perms]

    def forced_action(self) -> Action | None:
        """The next action when the rules leave no choice (taking the kitty, a return by the rule,
        a give of the lowest card), else ``None``. Drivers apply it without asking the player."""
        if self.result is not None or not self._steps:
            return None
        k, seat, other = self._steps[-1]
        if k == _KITTY:
            return _TAKE_CACHE[seat]
        if k == _RETURN:
            m = self._return_mask(seat, other)
            if m & (m - 1) == 0:
                return Return(seat, CARDS[m.bit_length() - 1], other)
        if k == _GIVE and self.rules.give is GiveRule.LOWEST and self.rules.exchange_count is ExchangeCount.EXACT:
            m = self._give_mask(seat)
            return Give(seat, CARDS[m.bit_length() - 1], other)
        return None

    def publicly_forced_action(self) -> Action | None:
        """:meth:`forced_action`, but only where the others can know that there is no choice: with
        ``trump-return=free`` (seed 003; the 3-5-8 preset) a return is forced for a card of another suit
        received and free for a trump, so a driver that applied the forced returns by itself would show every
        other seat, by whose decision comes next, whether trumps were given. There every return is left to the
        returner (a one-card choice when forced). Drivers that show the turn order to seats that may not see the
        exchanged cards (the research environments, the OpenSpiel game, the web server) use this."""
        if self.rules.trump_return is TrumpReturn.FREE and self.trump >= 0 and self._steps and self._steps[-1][0] == _RETURN:
            return None
        return self.forced_action()

    def _give_mask(self, seat: int) -> int:
        h = self.hands[seat]
        if self.rules.give is GiveRule.CHOSEN:
            return h
        # his lowest card: lowest rank; ties: a non-trump before a trump, then clubs < diamonds < hearts < spades
        best = min(id_list(h), key=lambda c: _rank_key_high(c, self.trump))
        return 1 << best

    def _receipt_index(self, queue: list[int]) -> int:
        """Which card received is answered next: the oldest, except that with ``trump-return=free`` the cards
        of other suits are answered before the trumps, so a free return can never take away the card of a
        suit still owed a return (seed 003: "Dies gilt aber nicht für Trumpfkarten")."""
        if self.rules.trump_return is TrumpReturn.FREE and self.trump >= 0:
            for i, cid in enumerate(queue):
                if cid // 13 != self.trump:
                    return i
        return 0

    def _owed_mask(self, seat: int) -> int:
        """Cards of ``seat`` still owed as returns for non-trumps received and not yet answered, from any up
        player: for ``k`` cards of suit S, his ``k`` highest S cards (docs/rules.md reference decision 1). A free answer to a
        trump (``trump-return=free``) may not take them. With trump named mid-exchange (9-2-5) two up players'
        gives are all received before any return, so without this a free answer to the first could take the
        only card of a suit owed to the second. ``0`` with ``return=overall`` (any card can be the highest)."""
        if self.rules.return_rule is ReturnRule.OVERALL:
            return 0
        owed = 0
        h = self.hands[seat]
        counts = [0, 0, 0, 0]
        for (s, _), queue in self._to_return.items():
            if s == seat:
                for cid in queue:
                    if cid // 13 != self.trump:
                        counts[cid // 13] += 1
        for suit, k in enumerate(counts):
            same = h & SUIT_MASKS[suit]
            for _ in range(k):
                if not same:
                    break
                top = 1 << (same.bit_length() - 1)
                owed |= top
                same ^= top
        return owed

    def _return_mask(self, seat: int, to: int) -> int:
        """Cards ``seat`` may return for the next card received from ``to`` (docs/rules.md reference decision 1; see
        :meth:`_receipt_index`)."""
        h = self.hands[seat]
        queue = self._to_return.get((seat, to))
        if not queue:
            return 0
        r = self.rules
        if r.trump_return is TrumpReturn.FREE:
            suit = queue[self._receipt_index(queue)] // 13
            if suit == self.trump:
                return h & ~self._owed_mask(seat)  # seed 003: "does not apply to trump cards"
        else:
            suit = queue[0] // 13  # the oldest card received
        if r.return_rule is ReturnRule.OVERALL:
            best = max(id_list(h), key=lambda c: _rank_key_high(c, self.trump))
            return 1 << best
        same = h & SUIT_MASKS[suit]
        return 1 << (same.bit_length() - 1)  # the highest of that suit; may be the card just received

    def legal_play_mask(self) -> int:
        """Mask of the cards :attr:`to_play` may play now (phase ``play``).

        Follow suit if able; otherwise any card (seeds 000/004 "Playing the tricks"), or a trump if
        able with ``must-trump=on`` (seed 003); with ``must-overtrump=on`` a trump must beat the trumps
        already in the trick when the player can (docs/rules.md reference options).
        """
        h = self.hands[self.to_play]
        if not self.trick:
            return h
        led = self.led_suit
        follow = h & SUIT_MASKS[led]
        tr = self.trump
        if follow:
            if tr == led and self.rules.must_overtrump:
                over = self._over_trump(follow)
                return over or follow
            return follow
        if tr >= 0:
            trumps = h & SUIT_MASKS[tr]
            if trumps:
                if self.rules.must_overtrump:
                    over = self._over_trump(trumps)
                    if self.rules.must_trump:
                        return over or trumps
                    if over != trumps and any(c // 13 == tr for _, c in self.trick):
                        # may discard; a trump must be a higher one if able; holding only lower trumps, any of them
                        return ((h & ~trumps) | over) or h
                elif self.rules.must_trump:
                    return trumps
        return h

    def _over_trump(self, trumps: int) -> int:
        tr = self.trump
        high = -1
        for _, c in self.trick:
            if c // 13 == tr and c > high:
                high = c
        if high < 0:
            return trumps
        return trumps & ~((1 << (high + 1)) - 1)

    # ------------------------------------------------------------------ checked apply
    def apply(self, action: Action) -> None:
        """Apply ``action`` after checking it against the rules: :meth:`verify`, then :meth:`apply_unchecked`.

        A card of the seat to play that :meth:`legal_play_mask` allows is accepted at once (the hot path of
        simulation); it is what :meth:`verify` accepts for a card, and it goes to the same step.

        Raises:
            IllegalActionError: from :meth:`verify`, naming the rule broken; the state is unchanged.
        """
        if type(action) is Play and not self._steps:  # the play (a scored deal keeps a last step, _SCORED)
            card = action.card
            offered = self._offered  # the mask legal_actions gave for this very state, if it was asked
            legal = offered & _FULL_MASK if offered >> 52 == len(self.history) else self.legal_play_mask()
            if action.seat == self.to_play and type(card) is Card and legal >> card.id & 1:
                self.play_unchecked(card.id)  # apply_unchecked's step for a card
                return
        self.verify(action)
        self.apply_unchecked(action)

    def _name(self, c: Contract) -> None:
        """Set the contract ``c`` (the declarer's choice)."""
        self.contract = c
        self.trump = int(c) if c < 4 else -1  # clubs..spades are 0..3, as the suits
        if c is _MINIMUM:  # targets become ceilings (seed 003; rules.minimum_ceilings)
            self.targets = minimum_ceilings(self.targets)

    def can_apply(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def verify(self, action: Action) -> None:
        """Check ``action`` against the rules now; change nothing.

        Raises:
            IllegalActionError: with a full sentence, naming the rule broken: ``action`` (not an action, card or
                contract), ``phase``, ``turn``, ``card not held``, ``follow suit``, ``must trump``,
                ``must over-trump``, ``exchange``, ``exchange count``, ``give lowest``, ``return highest``,
                ``contract`` or ``targets``.
        """
        kind = _KIND_OF.get(type(action))
        if kind is None:
            raise IllegalActionError(f"{action!r} is not an action", "action")
        if isinstance(action, _CARD_ACTIONS) and not isinstance(action.card, Card):
            raise IllegalActionError(f"{action!r}: {action.card!r} is not a card", "action")
        if isinstance(action, NameContract) and not isinstance(action.contract, Contract):
            raise IllegalActionError(f"{action!r}: {action.contract!r} is not a contract", "action")
        if self.result is not None:
            raise IllegalActionError(f"the deal is over; {_desc(action)} is refused", "phase")
        st = self._steps  # what to_act and phase read, read once: the top step, or the play when there is none
        if st:
            k, expected, other = st[-1]
            phase = _PHASE_OF[k]
        else:
            expected = self.to_play
            phase = _PLAY
        if kind is not phase:
            raise IllegalActionError(
                f"{_desc(action)} is refused: the deal is in the {phase.value} phase, waiting for seat {expected}", "phase")
        if action.seat != expected:
            raise IllegalActionError(
                f"{_desc(action)} is refused: it is seat {expected}'s turn, not seat {action.seat}'s", "turn")
        # the kinds in the order they come most often here (a legal card is accepted by apply without verify)
        if isinstance(action, Discard):
            if not self.hands[action.seat] >> action.card.id & 1:
                raise IllegalActionError(f"you do not hold {action.card}", "card not held")
            return
        if isinstance(action, (Give, Return, EndGive)):
            # the top step is a give or a return: the exchange's other steps are expanded at once
            if not isinstance(action, (Give, EndGive) if k == _GIVE else Return):
                raise IllegalActionError(f"{_desc(action)} is refused: the exchange waits for a {'give' if k == _GIVE else 'return'} from seat {expected}", "exchange")
            if action.to != other:
                raise IllegalActionError(f"{_desc(action)} is refused: this card goes to seat {other}, not seat {action.to}", "exchange")
            if isinstance(action, EndGive):
                if self.rules.exchange_count is not ExchangeCount.AT_MOST:
                    raise IllegalActionError("every over-trick gives exactly one card (exchange-count=exact, seeds 000/004)", "exchange count")
                return
            c = action.card
            if not self.hands[action.seat] >> c.id & 1:
                raise IllegalActionError(f"you do not hold {c}", "card not held")
            if isinstance(action, Give):
                if not self._give_mask(action.seat) >> c.id & 1:
                    raise IllegalActionError(f"give={self.rules.give}: the up player gives his lowest card, not {c}", "give lowest")
            else:
                m = self._return_mask(action.seat, action.to)
                if not m >> c.id & 1:
                    queue = self._to_return[(action.seat, action.to)]
                    rec = CARDS[queue[self._receipt_index(queue)]]
                    if self.rules.trump_return is TrumpReturn.FREE and rec.suit == self.trump:
                        owed = format_cards(cards_of(self._owed_mask(action.seat)))
                        raise IllegalActionError(
                            f"for the trump {rec} received you may return any card but those still owed for the other "
                            f"suits received ({owed}), not {c} (docs/rules.md reference decision 1)", "return highest")
                    must = format_cards(cards_of(m))
                    what = "highest card" if self.rules.return_rule is ReturnRule.OVERALL else f"highest {rec.suit.word[:-1]}"
                    raise IllegalActionError(
                        f"for the {rec} received you must return your {what} ({must}), not {c} (docs/rules.md reference decision 1)", "return highest")
            return
        if isinstance(action, NameContract):
            if action.contract not in self.allowed_contracts:
                left = ", ".join(c.word for c in self.allowed_contracts)
                raise IllegalActionError(f"{action.contract.word} is not allowed now; choose from: {left}", "contract")
            return
        if isinstance(action, Play):
            c = action.card
            if not self.hands[action.seat] >> c.id & 1:
                raise IllegalActionError(f"you do not hold {c}", "card not held")
            if not self.legal_play_mask() >> c.id & 1:
                raise self._why_not(c)
            return
        if isinstance(action, AssignTargets):
            if sorted(action.targets) != sorted(self.rules.targets) or len(action.targets) != self.n:
                raise IllegalActionError(
                    f"targets {'-'.join(map(str, action.targets))} are not the preset's targets {'-'.join(map(str, self.rules.targets))} assigned to the seats", "targets")
            return
        # TakeKitty: the seat and phase checks above suffice

    def _why_not(self, c: Card) -> IllegalActionError:
        led = self.led_suit
        h = self.hands[self.to_play]
        follow = h & SUIT_MASKS[led]
        ledw = CARDS[led * 13].suit.word
        trump = Suit(self.trump) if self.trump >= 0 else None

        def in_hand_order(mask: int) -> str:  # as the hand is shown: trump first, each suit high to low
            return format_cards(sort_hand(cards_of(mask), trump))

        if follow and c.suit != led:
            return IllegalActionError(
                f"revoke: {ledw} were led and you hold {in_hand_order(follow)}; you must follow suit, not play {c}",
                "follow suit")
        legal = in_hand_order(self.legal_play_mask())
        if self.rules.must_overtrump and c.suit == self.trump:
            return IllegalActionError(f"{c} does not beat the trump in the trick; you must over-trump with one of {legal} (must-overtrump=on)", "must over-trump")
        return IllegalActionError(f"void in {ledw} you must trump: play one of {legal}, not {c} (must-trump=on, seed 003)", "must trump")

    # ------------------------------------------------------------------ unchecked apply
    def apply_unchecked(self, action: Action) -> None:
        """Apply ``action`` without any check: the one place each kind of action changes the state. Only for an
        action that :meth:`verify` accepts now (:meth:`apply` checks first; search and replay of checked actions
        call this directly); anything else leaves the deal in a state the rules do not allow."""
        if type(action) is Play:
            self.play_unchecked(action.card.id)
            return
        self.history.append(action)
        seat = action.seat
        st = self._steps
        if type(action) is Discard:
            bit = _BIT[action.card.id]
            self.hands[seat] &= ~bit
            self.discards |= bit
        elif type(action) is Give:
            cid = action.card.id
            to = action.to
            hands = self.hands
            hands[seat] &= ~_BIT[cid]
            hands[to] |= _BIT[cid]
            queue = self._to_return.get((to, seat))
            if queue is None:
                self._to_return[(to, seat)] = [cid]
            else:
                queue.append(cid)
            self.exchange_log.append(_EVENTS.get((seat * 4 + to) * 52 + cid) or _event(0, seat, to, cid))
        elif type(action) is Return:
            cid = action.card.id
            to = action.to
            hands = self.hands
            hands[seat] &= ~_BIT[cid]
            hands[to] |= _BIT[cid]
            queue = self._to_return[(seat, to)]
            queue.pop(self._receipt_index(queue))
            self.exchange_log.append(_EVENTS.get(((4 + seat) * 4 + to) * 52 + cid) or _event(1, seat, to, cid))
        elif type(action) is NameContract:
            self._name(action.contract)
        elif type(action) is TakeKitty:
            self.hands[seat] |= self.kitty
            self.kitty = 0
            self.kitty_seen = True
        elif type(action) is EndGive:  # the up player stops: his gives to this down player left are dropped
            while st and st[-1][0] == _GIVE and st[-1][1] == seat and st[-1][2] == action.to:
                st.pop()
            self._settle()
            return
        elif type(action) is AssignTargets:
            self.targets = tuple(action.targets)
        # the step on top is done: pop it, then settle what comes next
        st.pop()
        if st and _EXCHANGE <= st[-1][0] <= _RETURN:  # the only kinds _settle may expand or skip
            self._settle()

    def play_unchecked(self, cid: int) -> None:
        """Play card id ``cid`` (0..51) for :attr:`to_play` without any check: the card play's step, which
        :meth:`apply` runs once the card is legal; search and simulation call it directly with a card of
        :meth:`legal_play_mask`.

        A full trick goes to the highest trump, else the highest card of the suit led (seeds 000/004 "Playing the
        tricks"); its winner leads next. The last trick scores the deal.
        """
        seat = self.to_play
        self.history.append(_PLAY_CACHE[seat][cid])
        self.hands[seat] &= ~_BIT[cid]
        trick = self.trick
        if not trick:
            self.led_suit = cid // 13
        trick.append(_SEAT_CARD[seat][cid])
        if len(trick) < self.n:
            self.to_play = (seat + 1) % self.n
            return
        keys = _TRICK_KEYS[self.trump][self.led_suit]
        if len(trick) == 3:  # the highest key of three, unrolled (the hot path of simulation)
            (s0, c0), (s1, c1), (s2, c2) = trick
            k0 = keys[c0]
            k1 = keys[c1]
            k2 = keys[c2]
            if k0 > k1:
                win_seat = s0 if k0 > k2 else s2
            else:
                win_seat = s1 if k1 > k2 else s2
        else:
            win_seat = max(trick, key=lambda played: keys[played[1]])[0]
        self.tricks_won[win_seat] += 1
        done = self._done
        done.append((self.leader, trick, win_seat))  # the list is never changed again: a new trick starts below
        self.trick = []
        self.leader = self.to_play = win_seat
        # the last trick: every hand is empty (all are of one size after a trick), and the rules' tricks are played
        if not self.hands[win_seat] and len(done) == self.rules.tricks:
            self._score()

    def _score(self) -> None:
        """Score the deal (seeds 000/004 "Scoring"; 003 "Wertung" for minimum tricks; 002 chips)."""
        contract = self.contract
        assert contract is not None
        tricks = tuple(self.tricks_won)
        targets = self.targets
        if contract is _MINIMUM:
            diffs = tuple(map(operator.sub, targets, tricks))
        else:
            diffs = tuple(map(operator.sub, tricks, targets))
        if self.rules.scoring is Scoring.CHIPS:
            ups = [d for d in diffs if d > 0]
            n_down = sum(1 for d in diffs if d < 0)
            scores = tuple(d * n_down if d > 0 else (-sum(ups) if d < 0 else 0) for d in diffs)
            if sum(scores) != 0:  # unbalanced targets: pay only what was won
                scores = diffs
        else:
            scores = diffs
        self.result = DealResult(tricks, targets, diffs, scores, contract)
        self._steps.append(_SCORED_STEP)  # so that "no step left" always means the play

    # ------------------------------------------------------------------ conveniences
    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards played to the trick in progress, as ``(seat, card)`` in play order."""
        return [(s, CARDS[c]) for s, c in self.trick]

    def __repr__(self) -> str:
        return (f"<Deal {self.number} rules={str(self.rules)!r} dealer={self.dealer} phase={self.phase.value} "
                f"to_act={self.to_act} tricks={self.tricks_won}>")


_CARD_ACTIONS = (Play, Discard, Give, Return)  # the actions that name a card
_PLAY = Phase.PLAY  # Phase.PLAY looks the member up on the enum class, slowly
_PHASE_OF = {
    _ASSIGN: Phase.ASSIGN, _CONTRACT: Phase.CONTRACT, _EXCHANGE: Phase.EXCHANGE, _GIVES: Phase.EXCHANGE,
    _RETURNS: Phase.EXCHANGE, _GIVE: Phase.EXCHANGE, _RETURN: Phase.EXCHANGE, _KITTY: Phase.KITTY,
    _DISCARD: Phase.DISCARD, _SCORED: Phase.SCORED,
}
_KIND_OF: dict[type, Phase] = {
    Play: Phase.PLAY, Give: Phase.EXCHANGE, Return: Phase.EXCHANGE, EndGive: Phase.EXCHANGE,
    NameContract: Phase.CONTRACT, TakeKitty: Phase.KITTY, Discard: Phase.DISCARD, AssignTargets: Phase.ASSIGN,
}


def _desc(action: Action) -> str:
    return repr(action_text(action))
