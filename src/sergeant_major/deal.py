"""One deal: an explicit phase machine from the cards as dealt to the score.

Phases (:class:`Phase`), in the order the rules in force give them (RULES.md "Presets"):
``assign`` (double dealer right) -> ``exchange`` (gives and returns, from the second deal on) ->
``contract`` (trump, or the 3-5-8 contract) -> ``kitty`` / ``discard`` -> ``play`` -> ``scored``.
Presets move these around: 8-5-3 discards before taking the kitty; 9-2-5 takes the kitty and discards
first, then the gives, then trump, then the returns; 3-5-8 names the contract first, after six cards.

Checked entry point: :meth:`Deal.apply` (raises :class:`IllegalActionError` naming the rule and leaves the
state unchanged). Fast, unchecked paths for search and simulation: :meth:`Deal.legal_play_mask`,
:meth:`Deal.play_unchecked`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import Enum

from .actions import (
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
)
from .cards import CARDS, SUIT_MASKS, Card, cards_of, format_cards, ids_of
from .errors import IllegalActionError
from .rules import Rules, minimum_ceilings

__all__ = ["Phase", "Deal", "DealResult", "Trick", "ExchangeEvent", "ROLE_NAMES", "role_name"]

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


@dataclass(frozen=True)
class ExchangeEvent:
    """One card passed in the exchange. ``card`` is ``None`` in a view of a seat that neither gave nor received it."""

    kind: str  # "give" or "return"
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
            inverted in minimum tricks (RULES.md decision 3).
        scores: the deal's score per seat under the rules' scoring; they add up to
            ``rules.score_sum(minimum)``: 0 with balanced targets (RULES.md decision 5).
        contract: the contract played.
    """

    tricks: tuple[int, ...]
    targets: tuple[int, ...]
    diffs: tuple[int, ...]
    scores: tuple[int, ...]
    contract: Contract


# Step kinds (internal): the queue of what comes next, expanded lazily for the exchange.
_ASSIGN, _CONTRACT, _EXCHANGE, _GIVES, _RETURNS, _GIVE, _RETURN, _KITTY, _DISCARD = range(9)
_PLAY_CACHE = [[Play(s, CARDS[i]) for i in range(52)] for s in range(4)]
# The set bits of every 13-bit suit pattern, and the Play actions per seat and suit: listing the legal
# cards is the hot path of simulation, and a table lookup per suit beats a bit loop by ~3x.
_BITS13: tuple[tuple[int, ...], ...] = tuple(tuple(b for b in range(13) if v >> b & 1) for v in range(1 << 13))
_PLAY_ROWS = [[_PLAY_CACHE[s][13 * u: 13 * u + 13] for u in range(4)] for s in range(4)]
# Play actions by seat, suit and 13-bit pattern of that suit's legal cards, filled as patterns occur
# (at most 16 x 8192 small tuples).
_PLAY_MEMO: list[list[dict[int, tuple[Action, ...]]]] = [[{} for _ in range(4)] for _ in range(4)]


def _memo_plays(seat: int, suit: int, bits: int) -> tuple[Action, ...]:
    row = _PLAY_ROWS[seat][suit]
    plays = _PLAY_MEMO[seat][suit][bits] = tuple([row[b] for b in _BITS13[bits]])
    return plays


_BIT = [1 << i for i in range(52)]
_ALL_CONTRACTS = tuple(Contract)
_SUIT_CONTRACTS = _ALL_CONTRACTS[:4]
_DISCARD_CACHE = [[Discard(s, CARDS[i]) for i in range(52)] for s in range(4)]
_GIVE_CACHE = [[[Give(s, CARDS[i], t) for i in range(52)] for t in range(4)] for s in range(4)]
_RETURN_CACHE = [[[Return(s, CARDS[i], t) for i in range(52)] for t in range(4)] for s in range(4)]


def _ids(mask: int) -> list[int]:
    """The card ids set in ``mask``, ascending (as :func:`~sergeant_major.cards.ids_of`, by table lookup)."""
    out: list[int] = []
    for off in (0, 13, 26, 39):
        bits = mask >> off & 0x1FFF
        if bits:
            out += [off + b for b in _BITS13[bits]]
    return out


def _kitty_steps(rules: Rules) -> list[int]:
    """The kitty procedure as steps, with _CONTRACT marking when trump is named (RULES.md options)."""
    k = rules.kitty
    if k in ("take-then-discard", "blind-trump"):
        return [_CONTRACT, _KITTY] + [_DISCARD] * 4
    if k == "discard-then-take":
        return [_CONTRACT] + [_DISCARD] * 4 + [_KITTY]
    if k == "see-then-trump":
        return [_KITTY, _CONTRACT] + [_DISCARD] * 4
    return [_CONTRACT]


def step_plan(rules: Rules, exchange: bool) -> list[int]:
    """The order of steps before the play for ``rules`` (exchange on or off for this deal).

    Source: RULES.md "Presets" (kitty order per preset) and "Options" (kitty procedure, trump timing).
    With ``kitty-timing=before-exchange`` (9-2-5, seeds 000/004 Variants "reversed targets") the declarer
    takes the kitty and discards first and names trump later, also in a deal without exchange (the
    first deal): kitty -> discard -> trump. With ``trump=before-exchange`` too, the kitty procedure keeps
    its own order before the exchange (so ``kitty=blind-trump`` names trump before the kitty is seen).
    """
    ks = _kitty_steps(rules)
    ci = ks.index(_CONTRACT)
    pre: list[int] = [_ASSIGN] if rules.dealer_assigns else []
    if rules.kitty_timing == "before-exchange" and rules.trump_timing == "before-exchange":
        return pre + ks + ([_EXCHANGE] if exchange else [])
    if rules.kitty_timing == "before-exchange" and not exchange:
        return pre + [s for s in ks if s != _CONTRACT] + [_CONTRACT]
    if not exchange:
        return pre + ks
    if rules.kitty_timing == "before-exchange":
        kitty_part = [s for s in ks if s != _CONTRACT]
        t = rules.trump_timing
        if t == "mid-exchange":
            return pre + kitty_part + [_GIVES, _CONTRACT, _RETURNS]
        return pre + kitty_part + [_EXCHANGE, _CONTRACT]
    if rules.trump_timing == "before-exchange":
        return pre + ks[: ci + 1] + [_EXCHANGE] + ks[ci + 1:]
    if rules.trump_timing == "mid-exchange":  # only with kitty=none (validated)
        return pre + [_GIVES, _CONTRACT, _RETURNS]
    return pre + [_EXCHANGE] + ks


def exchange_rounds(rules: Rules, diffs: tuple[int, ...], targets: tuple[int, ...]) -> list[tuple[int, list[tuple[int, int]]]]:
    """Who gives how many cards to whom, in order: ``[(up_seat, [(down_seat, count), ...]), ...]``.

    ``diffs`` are the previous deal's over/under-tricks by seat (RULES.md decision 3: by player, whatever
    seat role they hold now); ``targets`` the coming deal's targets by seat. With two up, the one with
    the higher coming target exchanges first (decision 2; ``two-up=most-up``: the most up first).
    Each up player gives one card per over-trick to the down players, highest coming target first, each
    receiving at most his under-tricks (decision 5). A player who made his target exactly takes no part.
    """
    n = len(diffs)
    ups = [s for s in range(n) if diffs[s] > 0]
    downs = [s for s in range(n) if diffs[s] < 0]
    if rules.two_up == "most-up":
        ups.sort(key=lambda s: (-diffs[s], -targets[s], s))
    else:
        ups.sort(key=lambda s: (-targets[s], -diffs[s], s))
    downs.sort(key=lambda s: (-targets[s], s))
    room = {d: -diffs[d] for d in downs}
    rounds: list[tuple[int, list[tuple[int, int]]]] = []
    for u in ups:
        left = diffs[u]
        parts: list[tuple[int, int]] = []
        for d in downs:
            k = min(left, room[d])
            if k > 0:
                parts.append((d, k))
                room[d] -= k
                left -= k
        if parts:
            rounds.append((u, parts))
    return rounds


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
        n = rules.players
        self.rules = rules
        self.n = n
        self.number = number
        self.dealer = dealer
        self.dealt: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in hands)
        self.kitty_dealt: tuple[Card, ...] = tuple(kitty)
        self._check_deal()
        self.hands: list[int] = [sum([_BIT[c.id] for c in h]) for h in self.dealt]  # distinct cards (checked)
        self.kitty = sum([_BIT[c.id] for c in self.kitty_dealt])
        self.kitty_seen = False
        self.discards = 0
        self.targets: tuple[int, ...] = tuple(rules.targets[(s - dealer) % n] for s in range(n))
        self.declarer = (dealer + rules.declarer_role) % n
        self.contract: Contract | None = None
        self.trump = -1
        self.prev_diffs = prev_diffs
        all_contracts = _ALL_CONTRACTS if rules.has_nt_mt else _SUIT_CONTRACTS
        self.allowed_contracts: tuple[Contract, ...] = allowed_contracts if allowed_contracts is not None else all_contracts
        do_exchange = rules.exchange and prev_diffs is not None and any(prev_diffs)
        self._steps: list[tuple[int, int, int]] = []
        for k in reversed(step_plan(rules, do_exchange)):
            self._steps.append((k, self.declarer if k in (_CONTRACT, _KITTY, _DISCARD) else dealer, -1))
        # self._steps is a stack: the next step is at the end.
        self.exchange_log: list[ExchangeEvent] = []
        self._to_return: dict[tuple[int, int], list[int]] = {}
        self.leader = (dealer + 1) % n
        self.to_play = self.leader
        self.trick: list[tuple[int, int]] = []
        self.led_suit = -1
        self.tricks_won: list[int] = [0] * n
        self.completed: list[Trick] = []
        self.n_tricks = rules.tricks  # tricks in the deal (rules.tricks is computed; this is read every trick)
        self.history: list[Action] = []
        self.result: DealResult | None = None
        self._settle()

    # ------------------------------------------------------------------ basics
    def _check_deal(self) -> None:
        r = self.rules
        seen: set[int] = set()
        if len(self.dealt) != r.players or any(len(h) != r.hand_size for h in self.dealt):
            raise IllegalActionError(
                f"a deal needs {r.players} hands of {r.hand_size} cards, got sizes {[len(h) for h in self.dealt]}", "deal")
        if len(self.kitty_dealt) != r.kitty_size:
            raise IllegalActionError(f"the kitty needs {r.kitty_size} cards, got {len(self.kitty_dealt)}", "deal")
        ids = [c.id for h in self.dealt for c in h]
        ids += [c.id for c in self.kitty_dealt]
        if len(set(ids)) != len(ids):  # name the first card seen twice, in dealing order
            for c in itertools.chain(*self.dealt, self.kitty_dealt):
                if c.id in seen:
                    raise IllegalActionError(f"card {c} is dealt twice", "deal")
                seen.add(c.id)
        if r.kitty == "none" and 0 in ids:
            raise IllegalActionError("with kitty=none the 2C is removed from the deck (seed 002)", "deal")

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
            return Phase.PLAY
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
                assert self.prev_diffs is not None
                if self.contract is not None and self.contract.trump is None:
                    continue  # no exchange in NT and MT deals (seed 003; RULES.md decision 3)
                rounds = exchange_rounds(self.rules, self.prev_diffs, self.targets)
                new: list[tuple[int, int, int]] = []
                if k == _EXCHANGE:
                    for u, parts in rounds:
                        for d, cnt in parts:
                            new += [(_GIVE, u, d)] * cnt
                        for d, cnt in parts:
                            new += [(_RETURN, d, u)] * cnt
                elif k == _GIVES:
                    for u, parts in rounds:
                        for d, cnt in parts:
                            new += [(_GIVE, u, d)] * cnt
                else:
                    for u, parts in rounds:
                        for d, cnt in parts:
                            new += [(_RETURN, d, u)] * cnt
                st.extend(reversed(new))
                continue
            if k == _RETURN and not self._to_return.get((seat, other)):
                st.pop()
                continue
            if k == _GIVE and self.rules.exchange_count == "at-most" and not self.hands[seat]:
                st.pop()
                continue
            break

    def _pop(self) -> None:
        self._steps.pop()
        self._settle()

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now, for the seat :attr:`to_act` (empty once scored)."""
        if self.result is not None:
            return []
        if not self._steps:
            m = self.legal_play_mask()
            u = ((m & -m).bit_length() - 1) // 13  # the lowest suit among the legal cards
            memo = _PLAY_MEMO[self.to_play][u]
            bits = m >> (13 * u) & 0x1FFF
            plays: list[Action] = list(memo.get(bits) or _memo_plays(self.to_play, u, bits))
            m >>= 13 * u + 13
            while m:  # the other suits (leading, or void in the suit led)
                u += 1
                bits = m & 0x1FFF
                if bits:
                    plays += _PLAY_MEMO[self.to_play][u].get(bits) or _memo_plays(self.to_play, u, bits)
                m >>= 13
            return plays
        k, seat, other = self._steps[-1]
        if k == _GIVE:
            gives = _GIVE_CACHE[seat][other]
            acts: list[Action] = [gives[i] for i in _ids(self._give_mask(seat))]
            if self.rules.exchange_count == "at-most":
                acts.append(EndGive(seat, other))
            return acts
        if k == _RETURN:
            returns = _RETURN_CACHE[seat][other]
            return [returns[i] for i in _ids(self._return_mask(seat, other))]
        if k == _CONTRACT:
            return [NameContract(seat, c) for c in self.allowed_contracts]
        if k == _KITTY:
            return [TakeKitty(seat)]
        if k == _DISCARD:
            discards = _DISCARD_CACHE[seat]
            return [discards[i] for i in _ids(self.hands[seat])]
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
            return TakeKitty(seat)
        if k == _RETURN:
            m = self._return_mask(seat, other)
            if m & (m - 1) == 0:
                return Return(seat, CARDS[m.bit_length() - 1], other)
        if k == _GIVE and self.rules.give == "lowest" and self.rules.exchange_count == "exact":
            m = self._give_mask(seat)
            return Give(seat, CARDS[m.bit_length() - 1], other)
        return None

    def _give_mask(self, seat: int) -> int:
        h = self.hands[seat]
        if self.rules.give == "chosen":
            return h
        # his lowest card: lowest rank; ties: a non-trump before a trump, then clubs < diamonds < hearts < spades
        best = min(ids_of(h), key=lambda c: _rank_key_high(c, self.trump))
        return 1 << best

    def _receipt_index(self, queue: list[int]) -> int:
        """Which card received is answered next: the oldest, except that with ``trump-return=free`` the cards
        of other suits are answered before the trumps, so a free return can never take away the card of a
        suit still owed a return (seed 003: "Dies gilt aber nicht für Trumpfkarten")."""
        if self.rules.trump_return == "free" and self.trump >= 0:
            for i, cid in enumerate(queue):
                if cid // 13 != self.trump:
                    return i
        return 0

    def _return_mask(self, seat: int, to: int) -> int:
        """Cards ``seat`` may return for the next card received from ``to`` (RULES.md decision 1; see
        :meth:`_receipt_index`)."""
        h = self.hands[seat]
        queue = self._to_return.get((seat, to))
        if not queue:
            return 0
        received = queue[self._receipt_index(queue)]
        suit = received // 13
        if self.rules.trump_return == "free" and suit == self.trump:
            return h  # seed 003: "does not apply to trump cards"
        if self.rules.return_rule == "overall":
            best = max(ids_of(h), key=lambda c: _rank_key_high(c, self.trump))
            return 1 << best
        same = h & SUIT_MASKS[suit]
        return 1 << (same.bit_length() - 1)  # the highest of that suit; may be the card just received

    def legal_play_mask(self) -> int:
        """Mask of the cards :attr:`to_play` may play now (phase ``play``).

        Follow suit if able; otherwise any card (seeds 000/004 "Playing the tricks"), or a trump if
        able with ``must-trump=on`` (seed 003); with ``must-overtrump=on`` a trump must beat the trumps
        already in the trick when the player can (RULES.md options).
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
        """Apply ``action`` after checking it against the rules.

        Raises:
            IllegalActionError: naming the rule broken (``turn``, ``phase``, ``card not held``,
                ``follow suit``, ``must trump``, ``must over-trump``, ``exchange``, ``contract``...);
                the state is unchanged.
        """
        if (type(action) is Play and not self._steps and self.result is None and action.seat == self.to_play
                and type(action.card) is Card):
            cid = action.card.id
            if self.legal_play_mask() >> cid & 1:  # the common legal card play: skip the full verify
                self.play_unchecked(cid)
                return
        elif self._steps and self.result is None and self._plainly_legal(action):
            self._apply(action)
            return
        self.verify(action)
        self._apply(action)

    def _plainly_legal(self, action: Action) -> bool:
        """A quick test that ``action`` is the legal step now (what :meth:`verify` would accept); ``False``
        leaves the decision, and the error message, to :meth:`verify`. Only before the play. Keep it in step
        with :meth:`verify`: a rule added there must be added here too (or return ``False`` for that action)."""
        t = type(action)
        if t is not Discard and t is not Give and t is not Return and t is not NameContract and t is not TakeKitty:
            return False  # Play, EndGive, AssignTargets, anything else: verify decides
        k, seat, other = self._steps[-1]
        if action.seat != seat:
            return False
        if isinstance(action, (Discard, Give, Return)) and type(action.card) is not Card:
            return False
        if type(action) is Discard:
            return k == _DISCARD and bool(self.hands[seat] >> action.card.id & 1)
        if type(action) is Give:
            cid = action.card.id
            return (k == _GIVE and action.to == other and bool(self.hands[seat] >> cid & 1)
                    and bool(self._give_mask(seat) >> cid & 1))
        if type(action) is Return:
            return (k == _RETURN and action.to == other
                    and bool((self._return_mask(seat, other) & self.hands[seat]) >> action.card.id & 1))
        if type(action) is NameContract:
            return k == _CONTRACT and type(action.contract) is Contract and action.contract in self.allowed_contracts
        if type(action) is TakeKitty:
            return k == _KITTY
        return False

    def can_apply(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` with a full sentence if ``action`` is not legal now."""
        kind = _KIND_OF.get(type(action))
        if kind is None:
            raise IllegalActionError(f"{action!r} is not an action", "action")
        if isinstance(action, (Play, Discard, Give, Return)) and not isinstance(action.card, Card):
            raise IllegalActionError(f"{action!r}: {action.card!r} is not a card", "action")
        if isinstance(action, NameContract) and not isinstance(action.contract, Contract):
            raise IllegalActionError(f"{action!r}: {action.contract!r} is not a contract", "action")
        if self.result is not None:
            raise IllegalActionError(f"the deal is over; {_desc(action)} is refused", "phase")
        expected = self.to_act
        phase = self.phase
        if kind != phase and not (kind == Phase.EXCHANGE and phase == Phase.EXCHANGE):
            raise IllegalActionError(
                f"{_desc(action)} is refused: the deal is in the {phase.value} phase, waiting for seat {expected}", "phase")
        if action.seat != expected:
            raise IllegalActionError(
                f"{_desc(action)} is refused: it is seat {expected}'s turn, not seat {action.seat}'s", "turn")
        if isinstance(action, Play):
            c = action.card
            if not self.hands[action.seat] >> c.id & 1:
                raise IllegalActionError(f"you do not hold {c}", "card not held")
            if not self.legal_play_mask() >> c.id & 1:
                raise self._why_not(c)
            return
        if isinstance(action, (Give, Return, EndGive)):
            k, seat, other = self._steps[-1]
            want = {_GIVE: (Give, EndGive), _RETURN: (Return,)}.get(k, ())
            if not isinstance(action, want):
                raise IllegalActionError(f"{_desc(action)} is refused: the exchange waits for a {'give' if k == _GIVE else 'return'} from seat {seat}", "exchange")
            if action.to != other:
                raise IllegalActionError(f"{_desc(action)} is refused: this card goes to seat {other}, not seat {action.to}", "exchange")
            if isinstance(action, EndGive):
                if self.rules.exchange_count != "at-most":
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
                    must = format_cards(cards_of(m))
                    what = "highest card" if self.rules.return_rule == "overall" else f"highest {rec.suit.word[:-1]}"
                    raise IllegalActionError(
                        f"for the {rec} received you must return your {what} ({must}), not {c} (RULES.md decision 1)", "return highest")
            return
        if isinstance(action, NameContract):
            if action.contract not in self.allowed_contracts:
                left = ", ".join(c.word for c in self.allowed_contracts)
                raise IllegalActionError(f"{action.contract.word} is not allowed now; choose from: {left}", "contract")
            return
        if isinstance(action, Discard):
            if not self.hands[action.seat] >> action.card.id & 1:
                raise IllegalActionError(f"you do not hold {action.card}", "card not held")
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
        if follow and c.suit != led:
            return IllegalActionError(
                f"revoke: {ledw} were led and you hold {format_cards(cards_of(follow))}; you must follow suit, not play {c}",
                "follow suit")
        legal = format_cards(cards_of(self.legal_play_mask()))
        if self.rules.must_overtrump and c.suit == self.trump:
            return IllegalActionError(f"{c} does not beat the trump in the trick; you must over-trump with one of {legal} (must-overtrump=on)", "must over-trump")
        return IllegalActionError(f"void in {ledw} you must trump: play one of {legal}, not {c} (must-trump=on, seed 003)", "must trump")

    # ------------------------------------------------------------------ unchecked apply
    def _apply(self, action: Action) -> None:
        if isinstance(action, Play):
            self.play_unchecked(action.card.id)
            return
        self.history.append(action)
        seat = action.seat
        if isinstance(action, Give):
            cid = action.card.id
            self.hands[seat] &= ~(1 << cid)
            self.hands[action.to] |= 1 << cid
            self._to_return.setdefault((action.to, seat), []).append(cid)
            self.exchange_log.append(ExchangeEvent("give", seat, action.to, action.card))
            self._pop()
        elif isinstance(action, EndGive):
            st = self._steps
            while st and st[-1][0] == _GIVE and st[-1][1] == seat and st[-1][2] == action.to:
                st.pop()
            self._settle()
        elif isinstance(action, Return):
            cid = action.card.id
            self.hands[seat] &= ~(1 << cid)
            self.hands[action.to] |= 1 << cid
            queue = self._to_return[(seat, action.to)]
            queue.pop(self._receipt_index(queue))
            self.exchange_log.append(ExchangeEvent("return", seat, action.to, action.card))
            self._pop()
        elif isinstance(action, NameContract):
            self.contract = action.contract
            t = action.contract.trump
            self.trump = -1 if t is None else int(t)
            if action.contract is Contract.MINIMUM:  # targets become ceilings (seed 003; rules.minimum_ceilings)
                self.targets = minimum_ceilings(self.targets)
            self._pop()
        elif isinstance(action, TakeKitty):
            self.hands[seat] |= self.kitty
            self.kitty = 0
            self.kitty_seen = True
            self._pop()
        elif isinstance(action, Discard):
            self.hands[seat] &= ~(1 << action.card.id)
            self.discards |= 1 << action.card.id
            self._pop()
        elif isinstance(action, AssignTargets):
            self.targets = tuple(action.targets)
            self._pop()

    def play_unchecked(self, cid: int) -> None:
        """Play card id ``cid`` for :attr:`to_play` without any check (fast path for search)."""
        seat = self.to_play
        self.history.append(_PLAY_CACHE[seat][cid])
        self.hands[seat] &= ~(1 << cid)
        trick = self.trick
        if not trick:
            self.led_suit = cid // 13
        trick.append((seat, cid))
        if len(trick) < self.n:
            self.to_play = (seat + 1) % self.n
            return
        # resolve: the highest trump, else the highest card of the suit led
        tr = self.trump
        led = self.led_suit
        win_seat, win_card = trick[0]
        win_trump = win_card // 13 == tr
        for s, c in trick[1:]:
            cs = c // 13
            if cs == tr:
                if not win_trump or c > win_card:
                    win_seat, win_card, win_trump = s, c, True
            elif cs == led and not win_trump and c > win_card:
                win_seat, win_card = s, c
        self.tricks_won[win_seat] += 1
        completed = self.completed
        if self.n == 3:
            (s0, c0), (s1, c1), (s2, c2) = trick
            completed.append(Trick(self.leader, ((s0, CARDS[c0]), (s1, CARDS[c1]), (s2, CARDS[c2])), win_seat))
        else:
            completed.append(Trick(self.leader, tuple([(s, CARDS[c]) for s, c in trick]), win_seat))
        self.trick = []
        self.leader = self.to_play = win_seat
        if len(completed) == self.n_tricks:
            self._score()

    def _score(self) -> None:
        """Score the deal (seeds 000/004 "Scoring"; 003 "Wertung" for minimum tricks; 002 chips)."""
        assert self.contract is not None
        mt = self.contract is Contract.MINIMUM
        tricks = tuple(self.tricks_won)
        diffs = tuple((t - w) if mt else (w - t) for w, t in zip(tricks, self.targets, strict=True))
        scoring = self.rules.scoring
        if scoring == "chips":
            ups = [d for d in diffs if d > 0]
            n_down = sum(1 for d in diffs if d < 0)
            scores = tuple(d * n_down if d > 0 else (-sum(ups) if d < 0 else 0) for d in diffs)
            if sum(scores) != 0:  # unbalanced targets: pay only what was won
                scores = diffs
        else:
            scores = diffs
        self.result = DealResult(tricks, self.targets, diffs, scores, self.contract)

    # ------------------------------------------------------------------ conveniences
    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards played to the trick in progress, as ``(seat, card)`` in play order."""
        return [(s, CARDS[c]) for s, c in self.trick]

    def __repr__(self) -> str:
        return (f"<Deal {self.number} rules={str(self.rules)!r} dealer={self.dealer} phase={self.phase.value} "
                f"to_act={self.to_act} tricks={self.tricks_won}>")


_PHASE_OF = {
    _ASSIGN: Phase.ASSIGN, _CONTRACT: Phase.CONTRACT, _EXCHANGE: Phase.EXCHANGE, _GIVES: Phase.EXCHANGE,
    _RETURNS: Phase.EXCHANGE, _GIVE: Phase.EXCHANGE, _RETURN: Phase.EXCHANGE, _KITTY: Phase.KITTY,
    _DISCARD: Phase.DISCARD,
}
_KIND_OF: dict[type, Phase] = {
    Play: Phase.PLAY, Give: Phase.EXCHANGE, Return: Phase.EXCHANGE, EndGive: Phase.EXCHANGE,
    NameContract: Phase.CONTRACT, TakeKitty: Phase.KITTY, Discard: Phase.DISCARD, AssignTargets: Phase.ASSIGN,
}


def _desc(action: Action) -> str:
    from .actions import action_text

    return repr(action_text(action))
