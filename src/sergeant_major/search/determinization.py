"""Determinization: draw a whole deal consistent with what one seat knows (for PIMC and ISMCTS search).

:func:`resample` takes a seat's :class:`~sergeant_major.core.view.View` and a generator and returns a
:class:`~sergeant_major.core.deal.Deal` - built from sampled hands as dealt and replayed action by action
through the checked engine - that equals the real deal in every public respect and in the seat's own
cards: ``build_view(sample, view.seat, ...) == view``. No third-party dependency.

What the seat knows and the sample honours (rules texts: seeds 000/004 "Exchanging cards", "Playing the
tricks"; 002; 003; RULES.md decisions 1-4):

- its own hand (in 3-5-8 before the contract only the first ``contract-after`` cards dealt: the rest of its
  own hand is unknown too), every card played, the hand sizes, the kitty and discards if it is the declarer
  (for the others the kitty and the discards are unknown cards that sit out);
- shown voids: a seat that did not follow suit holds no card of the suit led; with ``must-trump=on`` a seat
  that neither followed nor trumped holds no trump; with ``must-overtrump=on`` a seat that under-trumped
  holds no higher trump (and, without must-trump, no card but trumps);
- the exchange: the cards the seat gave and received; a card it gave is in the receiver's hand, unless a
  later move it cannot see (a return to another up player, a discard by the declarer) may have taken it on;
- the return rule (RULES.md decision 1): a down player who returned ``r`` for a card of suit S held no S
  card above ``r`` at that moment (``return=suit``), or no card above ``r`` in the order rank, then trump,
  then suit (``return=overall``); with ``trump-return=free`` (3-5-8) a trump received reveals nothing.
  A card he returned was his highest of that suit *then*: it says nothing about cards that reached him later
  (a second up player's gives, the kitty). ``give=lowest``: the card given was the giver's lowest then;
- exchanges between two other seats: the cards are unknown, but the return rule must have been possible
  with what those seats held.

Method and exactness. (1) From the view, derive the *world* to sample: the current place of every card
the seat cannot see - another seat's hand, the kitty still in the middle, "out" (unseen discards), or the
seat's own undealt rest (3-5-8) - with per-card allowed places (voids, where a given card can have gone)
and the sizes of every place. (2) Draw a world exactly uniformly from those constraints: the cards are
grouped by their set of allowed places, the assignments are counted by dynamic programming over the
groups (multinomials, big integers; the two largest groups together in closed form, :func:`_two_groups`), and
the groups are split by sequential counting; inside a group the cards are shuffled. (3) Complete the world into a history: walk the public history backwards, choosing what
the seat cannot see (which cards of the declarer's hand came from the kitty, the order of unseen discards,
the cards passed in exchanges it did not take part in, drawn at random among the choices the return rule
allows; with ``trump-return=free`` the non-trumps received are answered before the trumps, deal.py
``_receipt_index``, so a return before one that answered a non-trump answers a non-trump too), then build
the deal as dealt and replay everything forwards with the checked engine; a completion
that breaks a rule (a constraint of the exchange that step (1) cannot express as a place) is retried, and
after :data:`COMPLETIONS` failures the world is rejected and a new one drawn. With ``return=suit`` the
unseen returns of an exchange are walked back together, depth first: a return that finds no allowed card
undoes the one walked before it and tries another (at most :data:`RETURN_STEPS` choices), so a world with
few histories is found about as often as one with many. Before any completion, a world is dropped at once
when an exchange the seat saw none of cannot have happened in it: each unseen return (``return=suit``, no
free trump answer) beat every card the returner still holds or has played of its suit, so the receiver
must hold (or have played) that many such cards, among them every card the seat gave the returner that the
receiver holds now. Such a world has no history, so dropping it early changes nothing but the time.

Thresholds. Two rules make an unseen exchange pin a whole hand, which per-card places alone miss (and
rejection then almost never succeeds). ``give=lowest``: the cards an up player gave were his lowest, so
every card he kept is above the highest card he gave, his *threshold* ``t``; a card at or below ``t`` that
he holds after his gives came back later (a return, the kitty). ``return=overall`` (without free trump
returns): a down player's unseen returns were his highest cards, so he kept nothing from the lowest of them
up, except what reached him later (the kitty). The threshold is unknown when the cards are: step (1) builds
one set of place constraints per possible threshold (a second "late" place for the seat, holding the cards
beyond the threshold, at most as many as can have come later; with one ``give=lowest`` up player also the
rule that enough low cards stayed where his gives can have gone), and step (2) draws the threshold in
proportion to its number of assignments, then the world. A declarer who is such an up player and discards
after his gives (the seat not seeing the discards) had each discard in his hand after his gives, so an unseen
discard at or below ``t`` counts with his late cards (a twin of the discards' place; before a kitty taken after
the discards, at most as many as the returns he got). For an up player whose gives the seat did not
see, a world with ``j`` low cards in his late places is weighted ``LATE_ODDS ** -j`` (a return is rarely a
low card), the same weight for every threshold choice. Step (3) then chooses the unseen gives as a rising
sequence of cards at or below ``t`` (uniform among those the receivers hold; for one down player of a round the
seat saw none of, directly among those whose forced returns the up player's hand can hold, :func:`_capped_gives`)
and the unseen returns as the rule forces them. A world in which ``t`` and as many cards at or below it as he
gave are not where his gives can be now is dropped before any completion (:func:`_gives_possible`), and so is one
whose gives to a down player he saw none of cannot be answered (``return=suit``: each give of suit S came back as
the down player's highest S card, which the up player still holds or has played, so per suit at most as many gives
as he has such cards above the down player's, and at least as many as the low cards he holds or played when only
that down player's returns reached him: :func:`_answerable_under_caps`); a threshold for which this fails on what
the play alone shows is not built at all. Both drops remove only worlds without any history.

The result is exactly uniform over the worlds that satisfy the place constraints and have a legal
completion *provided every such world finds one with the same probability*. That holds whenever the
place constraints are the whole story (the play phase with the declarer's view; any view without an
exchange the seat did not see and without an unseen kitty taken after a return it saw), and is approximate
otherwise (a world with few legal completions is found a little less often). With thresholds it is
approximate too: a world consistent with several thresholds is counted once for each, the ``LATE_ODDS``
weight is a heuristic, and the unseen gives and returns are drawn by rejection. Views of games without
``give=lowest`` or ``return=overall`` draw exactly as before. The hidden history is one completion drawn at
random, not a uniform draw over histories. Every returned deal is verified: its view for the seat equals the
given view. Same generator state, same sample.

Cost: about 0.4 ms per sample for most views (the plan of a view and the static facts of its history are
cached). Views after a large exchange the seat did not see take longer (tens of ms, up to about 0.3 s in
3-5-8 and 9-5-2 after an unseen 8- or 5-card exchange; up to a few seconds in 4-player ``give=lowest`` games
with two up players, where the low cards' places are not counted, and in 3-5-8 with ``return=overall``).
The first sample of a view also counts its worlds: with 4 players and ``give=lowest`` every combination of the
up players' threshold choices (up to :data:`MAX_THRESHOLD_CHOICES`), up to about 10 s; milliseconds otherwise.
A caller that must bound the time passes a :class:`Budget` (a count of steps, shared by several calls; the
expert player's worlds of one decision share one): :func:`resample` then raises :class:`BudgetExhausted` rather
than exceed it, and draws exactly as without it while budget is left. The plan and the first count of a view
are not counted in it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb, factorial

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
)
from sergeant_major.core.cards import CARDS, FULL_DECK, SUIT_MASKS, Card, mask_of
from sergeant_major.core.deal import Deal, Phase
from sergeant_major.core.errors import IllegalActionError, SergeantMajorError
from sergeant_major.core.rules import Rules, minimum_ceilings
from sergeant_major.core.seeding import check_rng
from sergeant_major.core.view import View, build_view

__all__ = ["resample", "ResampleError", "Budget", "BudgetExhausted", "COMPLETIONS", "MAX_WORLDS", "RETURN_STEPS",
           "PLAN_TRIES"]

COMPLETIONS = 12
"""Completion attempts per sampled world before it is rejected."""
MAX_WORLDS = 2000
"""Worlds drawn before :func:`resample` gives up (never reached on views of legal games in the tests)."""
RETURN_STEPS = 512
"""Choices tried per run of unseen returns walked back together (``return=suit``) before the completion fails."""


class ResampleError(SergeantMajorError):
    """The view admits no consistent deal (it was not built from a legal game), or sampling gave up."""


class BudgetExhausted(ResampleError):
    """A :class:`Budget` passed to :func:`resample` ran out before a consistent deal was found."""


@dataclass
class Budget:
    """A cap, in counts of work, on the :func:`resample` calls that share it - never wall time, so the same
    generator and budget give the same samples on any machine, however loaded.

    The unit is one *step*: a world drawn (step (2) of the module docstring), a completion attempt (step (3)), a
    draw of the unseen gives of a ``give=lowest`` round (up to :data:`PLAN_TRIES` per completion) or a return
    walked back (up to :data:`RETURN_STEPS` per run). A step costs about 0.05-0.3 ms. Most views need two steps
    per sample (a world, a completion); views after a large exchange the seat did not see (``give=lowest``) can
    need hundreds of thousands.

    Attributes:
        steps: steps allowed in all (``>= 0``); a call that would take one more raises :class:`BudgetExhausted`.
        used: steps taken so far by the calls given this budget (``0..steps``).
        draws: worlds drawn so far by those calls; ``completions``: completion attempts; ``samples``: deals
            returned (all ``>= 0``, counted in ``used`` except ``samples``).

    Raises:
        ValueError: quoting ``steps`` when it is not an int ``>= 0``.
    """

    steps: int
    used: int = 0
    draws: int = 0
    completions: int = 0
    samples: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.steps, bool) or not isinstance(self.steps, int) or self.steps < 0:
            raise ValueError(f"Budget: steps={self.steps!r} must be an int >= 0")

    @property
    def left(self) -> int:
        """Steps still allowed (``0..steps``)."""
        return max(0, self.steps - self.used)

    def _take(self) -> None:
        """Take one step, or raise :class:`BudgetExhausted` (changing nothing) when none is left."""
        if self.used >= self.steps:
            raise BudgetExhausted(f"the budget of {self.steps} resample steps ran out before a consistent deal was found")
        self.used += 1


def _key(cid: int, trump: int) -> tuple[int, int, int]:
    """Order of cards for ``return=overall`` and ``give=lowest`` (deal.py ``_rank_key_high``)."""
    s = cid // 13
    return (cid % 13, 1 if s == trump else 0, s)


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


@dataclass
class _Slot:
    """One action of the deal before the play, in order: what kind, who, and the card if the seat saw it."""

    kind: str  # assign contract kitty discard give endgive return
    seat: int
    other: int = -1
    card: int = -1  # -1: not seen by the viewer
    action: Action | None = None  # the fixed public action (assign, contract, kitty, endgive)
    trump: int = -1  # the trump suit known at that moment


@dataclass
class _Plan:
    """Everything derived from one view; :meth:`sample` draws from it."""

    view: View
    slots: list[_Slot]
    plays: list[tuple[int, int]]  # (seat, card id) of every card played, in order
    own: int  # mask of the viewer's known own cards now
    hidden_own: bool  # 3-5-8 before the contract: the viewer's rest of hand is unknown
    bins: list[tuple[str, int]]  # ("seat", s) / ("late", s) / ("kitty", -1) / ("out", -1) / ("rest", viewer)
    subs: list[_Sub]  # one per choice of the give=lowest thresholds (a single one without them)
    known_out: int  # cards out of play known to the viewer (its discards; the 2C with kitty=none)
    from_viewer: dict[int, int] = field(default_factory=dict)  # card -> seat the viewer gave it to
    seen_f: dict[int, int] = field(default_factory=dict)  # seat -> cards above a return it made to the viewer
    rounds: dict[int, list[int]] = field(default_factory=dict)  # give=lowest: up seat -> its slots (gives, returns)
    totals: list[int] | None = None  # assignment counts per (sub, variant), filled on the first draw
    memo: dict[tuple[str, int], int] = field(default_factory=dict)  # per-slot facts of the public history (_memo)
    return_checks: list[tuple[int, int, int]] = field(default_factory=list)  # (d, u, k) of _return_checks
    never: int = 0  # cards the viewer knows no other seat held at the exchange (its own, not received, or given)


@dataclass
class _Sub:
    """The place constraints for one choice of thresholds: ``thresholds[u]`` is the highest card the up
    player ``u`` gave (``give=lowest``), so that every card he held then and kept is above it."""

    thresholds: dict[int, int]
    variants: list[tuple[int, ...]]  # the sizes of the bins, one tuple per split of the late bins
    groups: list[tuple[int, list[int]]]  # (allowed-bins mask, card ids), largest group last
    weights: list[int]  # per variant: LATE_ODDS ** (cards fewer in the up players' late bins than at most)
    counter: Callable[[int, tuple[int, ...]], int] | None = None  # memoised assignment counts


def resample(view: View, rng: random.Random, *, budget: Budget | None = None) -> Deal:
    """A whole deal drawn from the states consistent with ``view`` (see the module docstring).

    Args:
        view: a seat's view of a legal game (from :meth:`Match.view` or :func:`build_view`).
        rng: the generator; the same state gives the same deal.
        budget: optional (keyword only): a :class:`Budget` shared by several calls; this call adds its steps (world
            draws, completion attempts...) to it and raises :class:`BudgetExhausted` rather than exceed it. With
            budget left, the call draws exactly what it draws without one (same generator use, same deal).

    Returns:
        A new :class:`Deal` at the same moment as ``view``: same public history, the viewer's own cards,
        and for the other seats, the kitty and the discards cards drawn as described.

    Raises:
        ResampleError: when the view admits no consistent deal (it was not built from a legal game).
        BudgetExhausted: (a ResampleError) when ``budget`` ran out first; the generator has advanced.
        SergeantMajorError: quoting ``view`` when it is not a :class:`View`, or ``rng`` when it is not a
            :class:`random.Random` (a NumPy generator was an AttributeError about ``randrange``). Nothing is drawn.
    """
    if not isinstance(view, View):
        raise SergeantMajorError(f"resample: view={_short(view)} is not a View (Match.view(seat) or build_view gives one)")
    check_rng(rng, "resample")
    if budget is not None and not isinstance(budget, Budget):
        raise SergeantMajorError(f"resample: budget={_short(budget)} is not a Budget (or None)")
    plan = _prepare(view)
    return _sample(plan, rng, budget)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# ---------------------------------------------------------------------------------------------- prepare
@lru_cache(maxsize=64)
def _prepare(view: View) -> _Plan:
    r = view.rules
    n = view.players
    v = view.seat
    decl = view.declarer
    slots, sizes, kitty_left = _public_slots(view)
    plays = [(s, c.id) for t in view.completed for s, c in t.cards] + [(s, c.id) for s, c in view.trick]
    played = 0
    for _, c in plays:
        played |= 1 << c
    deck = FULL_DECK & ~1 if r.kitty == "none" else FULL_DECK
    hidden_own = bool(r.contract_after) and view.contract is None
    own = mask_of(view.hand)
    known_out = (deck ^ FULL_DECK) | (mask_of(view.discards) if view.discards is not None else 0)
    unknown = deck & ~own & ~played & ~known_out
    # returns the viewer saw: the returner held no higher card then (RULES.md decision 1). A card above it
    # that he holds now must have reached him later (a later give, the kitty): at most ``late[d]`` of them.
    seen_f: dict[int, int] = {}
    first_seen: dict[int, int] = {}
    for idx, sl in enumerate(slots):
        if sl.kind != "return" or sl.other != v or sl.card < 0:
            continue
        d = sl.seat
        first_seen.setdefault(d, idx)
        got = _received_for(slots, idx, r.trump_return)
        seen_f[d] = seen_f.get(d, 0) | _return_forbidden(sl.card, got, sl.trump, r.return_rule, r.trump_return)
    # A card above a seen return that reaches him by a later give is itself answered by a return of the highest
    # card of its suit (or overall): it comes back out. What can leave such cards with him: the kitty, and a
    # trump received under trump-return=free (answered by any card). With return=overall that free answer can
    # be a trump received with the card, which then stays; with return=suit only the free trump itself can
    # stay, so it counts only when the seen returns rule out trumps (a return made before the trump was known).
    late: dict[int, int] = {}
    free = r.trump_return == "free"
    for d, first in first_seen.items():
        later = slots[first + 1:]
        late[d] = (sum(1 for x in later if free and x.kind == "give" and x.other == d
                       and (r.return_rule == "overall"
                            or (x.trump >= 0 and seen_f[d] & SUIT_MASKS[x.trump] != 0)))
                   + sum(r.kitty_size for x in later if x.kind == "kitty" and x.seat == d))
    # give=lowest (seed 002 house variant; deal.py _give_mask): each card an up player gave was his lowest
    # then, so every card he kept is above the highest card he gave (his threshold). A card at or below it
    # that he holds after his gives (now, or played since) reached him later: a return or the kitty.
    rounds: dict[int, list[int]] = {}
    up_cap: dict[int, int] = {}
    if r.give == "lowest":
        for sl in slots:
            if sl.kind == "give" and sl.seat != v:
                rounds.setdefault(sl.seat, [])
        for u in rounds:
            idxs = [i for i, sl in enumerate(slots)
                    if (sl.kind == "give" and sl.seat == u) or (sl.kind == "return" and sl.other == u)]
            rounds[u] = idxs
            first = idxs[0]
            up_cap[u] = (sum(1 for i in idxs if slots[i].kind == "return")
                         + sum(r.kitty_size for x in slots[first + 1:] if x.kind == "kitty" and x.seat == u))
    # return=overall: a down player's unseen returns to another seat were his highest cards then, so he kept
    # nothing above the lowest of them (his threshold); a card above it that he holds came later (the kitty)
    downs_cap: dict[int, tuple[int, int, int]] = {}  # seat -> (returns, at most late, trump then)
    if r.return_rule == "overall" and r.trump_return != "free":
        for idx, sl in enumerate(slots):
            d = sl.seat
            if sl.kind != "return" or sl.card >= 0 or d == v or d in seen_f or sl.other == v:
                continue
            k0, _, _ = downs_cap.get(d, (0, 0, 0))
            if not k0:  # what may reach him after his first such return: the kitty, later gives
                later = slots[idx + 1:]
                cap = (sum(r.kitty_size for x in later if x.kind == "kitty" and x.seat == d)
                       + sum(1 for x in later if x.kind == "give" and x.other == d))
            downs_cap[d] = (k0 + 1, cap if not k0 else downs_cap[d][1], sl.trump)
    # bins and their sizes; a seat with such cards gets a second bin for them, of size 0..late[d]
    bins: list[tuple[str, int]] = []
    base: list[int] = []
    split: list[tuple[int, int, int]] = []  # (bin of the seat, bin of its late cards, at most)
    for s in range(n):
        if s == v:
            continue
        bins.append(("seat", s))
        base.append(sizes[s] if hidden_own else view.hand_sizes[s])
        fs = seen_f.get(s, 0) & unknown
        if (fs and late.get(s, 0)) or s in rounds or s in downs_cap:
            bins.append(("late", s))
            base.append(0)
            if s not in rounds and s not in downs_cap:
                split.append((len(bins) - 2, len(bins) - 1, min(late[s], base[-2], fs.bit_count())))
    if kitty_left:
        bins.append(("kitty", -1))
        base.append(kitty_left)
    n_disc = sum(1 for sl in slots if sl.kind == "discard")
    if v != decl and n_disc:
        bins.append(("out", -1))
        base.append(n_disc)
    if hidden_own:
        bins.append(("rest", v))
        base.append(sizes[v] - len(view.hand))
    # one up player with unseen gives: the cards he gave are at or below his threshold and went to his down
    # players; a twin bin of each place they cannot have reached counts the low cards there
    twin: dict[int, int] = {}
    if len(rounds) == 1:
        (u1, idxs1), = rounds.items()
        downs = {slots[i].other for i in idxs1 if slots[i].kind == "give"}
        for b, (k, s) in enumerate(list(bins)):
            if k in ("kitty", "rest") or (k in ("seat", "late") and s not in downs and s != u1):
                bins.append(("low", b))
                base.append(0)
                twin[b] = len(bins) - 1
    # give=lowest, the declarer an up player who discards after his gives (the viewer not seeing the discards):
    # a discard at or below his threshold was in his hand after his gives, so it reached him later like a low card
    # he holds or played (a return; the kitty only if taken before that discard). A twin bin of "out" holds them
    out_bin0 = next((i for i, (k, _) in enumerate(bins) if k == "out"), -1)
    out_low = -1
    out_low_most = -1  # at most this many (the returns before the discards) when the kitty comes after them; -1: no cap
    if decl in rounds and out_bin0 >= 0:
        first_d = rounds[decl][0]
        discs = [i for i, sl in enumerate(slots) if sl.kind == "discard" and i > first_d]
        if discs:
            bins.append(("outlow", out_bin0))
            base.append(0)
            out_low = len(bins) - 1
            if not any(sl.kind == "kitty" and sl.seat == decl and first_d < i < discs[-1] for i, sl in enumerate(slots)):
                out_low_most = sum(1 for i in rounds[decl] if slots[i].kind == "return" and i < discs[-1])
    if unknown.bit_count() != sum(base):
        raise ResampleError(f"the view of seat {v} does not add up: {unknown.bit_count()} unseen cards for {sum(base)} places")
    bin_of_seat = {s: i for i, (k, s) in enumerate(bins) if k == "seat"}
    late_bin = {s: i for i, (k, s) in enumerate(bins) if k == "late"}
    seat_bits = {s: 1 << b | (1 << late_bin[s] if s in late_bin else 0) for s, b in bin_of_seat.items()}
    for s in seat_bits:
        for b in (bin_of_seat[s], late_bin.get(s, -1)):
            if b in twin:
                seat_bits[s] |= 1 << twin[b]
    out_bin = next((i for i, (k, _) in enumerate(bins) if k == "out"), -1)
    late_all = (sum(1 << b for b in late_bin.values()) | sum(1 << b for b in twin.values())
                | (1 << out_low if out_low >= 0 else 0))
    allowed = dict.fromkeys(_bits(unknown), ((1 << len(bins)) - 1) & ~late_all)
    for s, fs in seen_f.items():  # cards above a seen return: only in the seat's late bin (or elsewhere)
        for cid in _bits(fs & unknown):
            allowed[cid] &= ~(1 << bin_of_seat[s])
            if s in late_bin:
                allowed[cid] |= 1 << late_bin[s]
    # shown voids and what the play reveals
    trump = view.trump
    for i, (s, c) in enumerate(plays):
        if s == v:
            continue
        start = i - i % n if i < len(plays) - len(view.trick) else len(plays) - len(view.trick)
        before = plays[start:i]
        x = _play_forbidden(c, before, trump, r.must_trump, r.must_overtrump)
        b = seat_bits[s]
        for cid in _bits(x & unknown):
            allowed[cid] &= ~b
    # cards the viewer gave: where they can have gone since. One another seat played since is placed already,
    # but the history still has to carry it from the receiver to the player (completion: _hidden_return)
    from_viewer: dict[int, int] = {}
    played_by_others = 0
    for s, c in plays:
        if s != v:
            played_by_others |= 1 << c
    for idx, sl in enumerate(slots):
        if sl.kind not in ("give", "return") or sl.seat != v or sl.card < 0:
            continue
        if played_by_others >> sl.card & 1:
            from_viewer[sl.card] = sl.other
        if not unknown >> sl.card & 1:
            continue
        from_viewer[sl.card] = sl.other
        holders = {sl.other}
        out = False
        for nxt in slots[idx + 1:]:
            if nxt.kind in ("give", "return") and nxt.seat in holders and nxt.card < 0:
                holders.add(nxt.other)
            elif nxt.kind == "discard" and decl in holders:
                out = True
        m = 0
        for h in holders:
            if h in bin_of_seat:
                m |= seat_bits[h]
        if out and out_bin >= 0:
            m |= 1 << out_bin
        allowed[sl.card] &= m
    variants = [tuple(base)]
    for hb, lb, most in split:
        variants = _grow(variants, hb, lb, most)
    return_checks = _return_checks(r, slots)
    thresholds = _threshold_options(view, slots, rounds, up_cap, plays, own, known_out, unknown, deck, downs_cap,
                                    return_checks)
    subs: list[_Sub] = []
    for combo in thresholds:
        al = dict(allowed)
        vs = variants
        for u, (_t, most, below, lowg, slack) in combo.items():
            main, lb = 1 << bin_of_seat[u], 1 << late_bin[u]
            for cid in _bits(below & unknown):
                if al[cid] & main:
                    al[cid] = (al[cid] & ~main) | lb
            if u == decl and out_low >= 0:
                for cid in _bits(below & unknown):
                    if al[cid] >> out_bin & 1:
                        al[cid] = (al[cid] & ~(1 << out_bin)) | 1 << out_low
                vs = _grow_sum(vs, [(bin_of_seat[u], late_bin[u]), (out_bin, out_low)], most)
                if out_low_most >= 0:
                    vs = [c for c in vs if c[out_low] <= out_low_most]
            else:
                vs = _grow(vs, bin_of_seat[u], late_bin[u], min(most, base[bin_of_seat[u]]))
            if twin and u in rounds and slack < lowg.bit_count():
                for cid in _bits(lowg):
                    for b, tb in twin.items():
                        if al[cid] >> b & 1:
                            al[cid] = (al[cid] & ~(1 << b)) | 1 << tb
                vs = _grow_sum(vs, list(twin.items()), slack)
        # penalise low cards in a late bin only where the gives were unseen (they may be the hidden returns)
        hid = [u for u in combo if u in rounds and any(slots[i].kind == "give" and slots[i].card < 0 for i in rounds[u])]
        ells = [sum(c[late_bin[u]] + (c[out_low] if u == decl and out_low >= 0 else 0) for u in hid) for c in vs]
        subs.append(_Sub({u: x[0] for u, x in combo.items()}, vs, _group(al, v), ells))
    # the weight of a world is LATE_ODDS ** -(its low cards in late bins), in integers: scaled by one power for all
    # the threshold choices (scaling each choice by its own largest power favoured the choices that allow many
    # late cards - the lowest thresholds - by up to LATE_ODDS ** 7, and most of their worlds have no history)
    top = max((e for sub in subs for e in sub.weights), default=0)
    for sub in subs:
        sub.weights = [LATE_ODDS ** (top - e) for e in sub.weights]
    return _Plan(view, slots, plays, own, hidden_own, bins, subs, known_out, from_viewer, seen_f, rounds,
                 return_checks=return_checks, never=_never_others(slots, plays, own, known_out, v))


def _never_others(slots: list[_Slot], plays: list[tuple[int, int]], own: int, known_out: int, v: int) -> int:
    """Cards no other seat can have given in the exchange: the viewer's own, played or known-out cards that it
    was not given or returned, and every card it gave or returned."""
    played_v = sum(1 << c for s, c in plays if s == v)
    received = sum(1 << sl.card for sl in slots if sl.other == v and sl.card >= 0 and sl.kind in ("give", "return"))
    gave = sum(1 << sl.card for sl in slots if sl.seat == v and sl.card >= 0 and sl.kind in ("give", "return"))
    return ((own | played_v | known_out) & ~received) | gave


def _grow(variants: list[tuple[int, ...]], hb: int, lb: int, most: int) -> list[tuple[int, ...]]:
    """Every split of bin ``hb`` into itself and its late bin ``lb`` with 0..``most`` cards in ``lb``."""
    grown = []
    for caps in variants:
        for ell in range(min(most, caps[hb]) + 1):
            c2 = list(caps)
            c2[hb] -= ell
            c2[lb] += ell
            grown.append(tuple(c2))
    return grown


def _grow_sum(variants: list[tuple[int, ...]], pairs: list[tuple[int, int]], most: int) -> list[tuple[int, ...]]:
    """Every split of each bin ``b`` into itself and its twin ``tb`` (``pairs``), ``most`` cards in the twins
    together at most."""
    out: list[tuple[int, ...]] = []

    def rec(caps: list[int], j: int, left: int) -> None:
        if j == len(pairs):
            out.append(tuple(caps))
            return
        b, tb = pairs[j]
        for x in range(min(left, caps[b]) + 1):
            c2 = list(caps)
            c2[b] -= x
            c2[tb] += x
            rec(c2, j + 1, left - x)

    for caps in variants:
        rec(list(caps), 0, most)
    return out


def _group(allowed: dict[int, int], v: int) -> list[tuple[int, list[int]]]:
    by_mask: dict[int, list[int]] = {}
    for cid in sorted(allowed):
        if allowed[cid] == 0:
            raise ResampleError(f"card {CARDS[cid]} has no place consistent with the view of seat {v}")
        by_mask.setdefault(allowed[cid], []).append(cid)
    return sorted(by_mask.items(), key=lambda g: (len(g[1]), g[0]))


LATE_ODDS = 32
"""``give=lowest``: each card at or below an up player's threshold that the drawn world leaves in his hand
(it must have come back as a return, which is rarely a low card) makes the world this many times less
likely to be drawn. A heuristic weight, not the exact posterior (see the module docstring)."""

MAX_THRESHOLD_CHOICES = 2000
"""Cap on the combinations of ``give=lowest`` thresholds of several up players (4 players): the later up players'
choices are cut to their lowest when the product exceeds it, and a real threshold cut off cannot be drawn. At 120
(until 2026-12-02) two up players of about 40 choices each kept only the 3 lowest of the second, and views whose
real one was above gave up; 2,000 keeps every combination of two such players (about 1,300 in the views seen)."""


def _threshold_options(view: View, slots: list[_Slot], rounds: dict[int, list[int]], up_cap: dict[int, int],
                       plays: list[tuple[int, int]], own: int, known_out: int, unknown: int,
                       deck: int, downs_cap: dict[int, tuple[int, int, int]] | None = None,
                       return_checks: list[tuple[int, int, int]] | None = None,
                       ) -> list[dict[int, tuple[int, int, int, int, int]]]:
    """For ``give=lowest``: per up player ``u`` (not the viewer), the possible thresholds ``t`` (the highest
    card he gave) as ``(t, most, below, lowg, slack)``: at most ``most`` unseen cards at or below ``t`` (mask
    ``below``) can be in his hand, since each reached him after his gives; of the unseen cards at or below
    ``t`` that he may have given (mask ``lowg``), at most ``slack`` can be where no card he gave can be
    (the kitty, a seat that took no part). A ``t`` whose gives to a down player ``d`` of ``return_checks`` cannot
    all be answered in any world (:func:`_gives_answerable`, with what the play shows: ``d``'s returns were above
    every card of their suit he played, and are with ``u`` or unseen) is left out. Returns the combinations ([{}]
    when none)."""
    if not rounds and not downs_cap:
        return [{}]
    v = view.seat
    played_by = [0] * view.players
    for s, c in plays:
        played_by[s] |= 1 << c
    received = sum(1 << sl.card for sl in slots if sl.other == v and sl.card >= 0 and sl.kind in ("give", "return"))
    never = _never_others(slots, plays, own, known_out, v)
    per_up: list[list[tuple[int, tuple[int, int, int, int, int]]]] = []
    for u, idxs in rounds.items():
        gives = [slots[i] for i in idxs if slots[i].kind == "give"]
        tg = gives[0].trump
        order = sorted(range(52), key=lambda c: _key(c, tg))
        pos = {c: i for i, c in enumerate(order)}
        seen = [g.card for g in gives if g.card >= 0]
        seen_mask = sum(1 << c for c in seen)
        lo = max((pos[c] for c in seen), default=-1)
        last = gives[-1].card
        opts: list[tuple[int, tuple[int, int, int, int, int]]] = []
        downs = {g.other for g in gives}
        reach = received | played_by[u]
        for d in downs:
            reach |= played_by[d]
        below = 0
        for c in order:
            below |= 1 << c
            np = (below & played_by[u]).bit_count()
            if np > up_cap[u]:
                break
            if pos[c] < lo or not deck >> c & 1 or (last >= 0 and c != last) or (last < 0 and never >> c & 1):
                continue
            if ((below & deck & ~never) | seen_mask).bit_count() < len(gives):
                continue
            lowg = below & unknown & ~never & ~seen_mask
            slack = (seen_mask | (reach & below & ~unknown)).bit_count() + lowg.bit_count() - len(gives)
            if slack < 0:
                continue
            if any(u2 == u and not _answerable_under_caps(
                    [slots[i] for i in idxs if slots[i].kind == "give"], d, c, below & deck & ~never & ~seen_mask,
                    played_by[d], unknown | played_by[u],
                    below & played_by[u] if _only_returns_from(slots, idxs[0], u, d) else 0)
                   for d, u2, _ in return_checks or []):
                continue
            # returns the viewer made above the threshold take no low card back to him
            high_back = sum(1 for i in idxs if slots[i].kind == "return" and slots[i].card >= 0 and not below >> slots[i].card & 1)
            opts.append((u, (c, up_cap[u] - np - high_back, below, lowg, slack)))
            if last >= 0:
                break
        if not opts:
            raise ResampleError(f"the gives of seat {u} in the view of seat {v} cannot have been his lowest cards")
        per_up.append(opts)
    for d, (k, cap, tr) in (downs_cap or {}).items():
        order = sorted(range(52), key=lambda c: _key(c, tr), reverse=True)
        dopts: list[tuple[int, tuple[int, int, int, int, int]]] = []
        above = 0
        for c in order:  # c: the lowest card he returned; he holds no card from c up, but late ones
            above |= 1 << c
            np = (above & played_by[d]).bit_count()
            if np > cap:
                break
            if not deck >> c & 1 or never >> c & 1 or (above & deck & ~never).bit_count() < k:
                continue
            dopts.append((d, (c, cap - np, above, 0, 0)))
        if not dopts:
            raise ResampleError(f"the returns of seat {d} in the view of seat {v} cannot have been his highest cards")
        per_up.append(dopts)
    combos: list[dict[int, tuple[int, int, int, int, int]]] = [{}]
    for opts in per_up:
        keep = max(1, MAX_THRESHOLD_CHOICES // max(1, len(combos)))
        combos = [{**cmb, u: x} for cmb in combos for u, x in opts[:keep]]
    return combos


def _answered(slots: list[_Slot], ret_idx: int, trump_return: str) -> int:
    """Index of the give that the return at ``ret_idx`` answers, or -1. The oldest card received is answered
    first, except that with ``trump-return=free`` cards of other suits are answered before trumps
    (deal.py ``_receipt_index``); a give the viewer did not see counts as a non-trump here."""
    d, u = slots[ret_idx].seat, slots[ret_idx].other
    queue = [i for i, sl in enumerate(slots[:ret_idx]) if sl.kind == "give" and sl.seat == u and sl.other == d]
    for j in range(ret_idx + 1):
        sl = slots[j]
        if sl.kind != "return" or sl.seat != d or sl.other != u:
            continue
        if not queue:
            return -1
        k = 0
        if trump_return == "free" and sl.trump >= 0:
            k = next((t for t, gi in enumerate(queue) if slots[gi].card < 0 or slots[gi].card // 13 != sl.trump), 0)
        gi = queue.pop(k)
        if j == ret_idx:
            return gi
    return -1


def _received_for(slots: list[_Slot], ret_idx: int, trump_return: str) -> int:
    """The card id (or -1) that the return at ``ret_idx`` answers."""
    gi = _answered(slots, ret_idx, trump_return)
    return slots[gi].card if gi >= 0 else -1


def _return_forbidden(ret: int, got: int, trump: int, rule: str, trump_return: str) -> int:
    """Cards the returner cannot have held when he returned ``ret`` for ``got`` (RULES.md decision 1)."""
    suit = (got if got >= 0 else ret) // 13
    if trump_return == "free" and suit == trump:
        return 0
    if rule == "overall":
        k = _key(ret, trump)
        return sum(1 << c for c in range(52) if _key(c, trump) > k)
    return SUIT_MASKS[ret // 13] & ~((1 << (ret + 1)) - 1)


def _play_forbidden(c: int, before: list[tuple[int, int]], trump: int, must_trump: bool, must_over: bool) -> int:
    """Cards the player of ``c`` cannot have held, given the trick so far ``before`` (deal.legal_play_mask)."""
    if not before:
        return 0
    led = before[0][1] // 13
    tmask = SUIT_MASKS[trump] if trump >= 0 else 0
    high = max((x for _, x in before if x // 13 == trump), default=-1) if trump >= 0 else -1
    above = tmask & ~((1 << (high + 1)) - 1) if high >= 0 else tmask
    cs = c // 13
    if cs == led:
        if trump == led and must_over and not above >> c & 1:
            return above
        return 0
    x = SUIT_MASKS[led]
    if trump >= 0:
        if must_over:
            if must_trump:
                x |= (above if not above >> c & 1 else 0) if cs == trump else tmask
            elif cs == trump and high >= 0 and not above >> c & 1:
                x |= (FULL_DECK & ~tmask) | above
        elif must_trump and cs != trump:
            x |= tmask
    return x


def _public_slots(view: View) -> tuple[list[_Slot], list[int], int]:
    """Walk a stand-in deal through the public history of ``view`` to list the actions taken before the
    play, in order. Returns the slots, every seat's hand size at the stop and the kitty cards left."""
    r = view.rules
    n = view.players
    deck = list(range(1, 52)) if r.kitty == "none" else list(range(52))
    hs = r.hand_size
    hands = [[CARDS[deck[s * hs + j]] for j in range(hs)] for s in range(n)]
    kitty = [CARDS[c] for c in deck[n * hs:]]
    allowed = view.contracts_left[view.declarer] if view.contracts_left else None
    dummy = Deal(r, view.dealer, hands, kitty, view.prev_diffs, allowed, view.deal_number)
    slots: list[_Slot] = []
    ex = view.exchange
    i = 0
    decl = view.declarer
    while dummy.phase not in (Phase.PLAY, Phase.SCORED):
        ph = dummy.phase
        trump = dummy.trump
        legal = dummy.legal_actions()
        act: Action
        if ph == Phase.ASSIGN:
            if view.phase == Phase.ASSIGN:
                break
            want = view.targets
            mt = view.contract is Contract.MINIMUM
            act = next(a for a in legal if isinstance(a, AssignTargets)
                       and (minimum_ceilings(a.targets) if mt else a.targets) == want)
            slots.append(_Slot("assign", act.seat, action=act))
        elif ph == Phase.CONTRACT:
            if view.contract is None:
                break
            act = NameContract(decl, view.contract)
            slots.append(_Slot("contract", decl, action=act))
        elif ph == Phase.KITTY:
            if view.kitty_count:
                break
            act = TakeKitty(decl)
            slots.append(_Slot("kitty", decl, action=act, trump=trump))
        elif ph == Phase.DISCARD:
            if view.phase == Phase.DISCARD and dummy.hands[decl].bit_count() == view.hand_sizes[decl]:
                break
            act = legal[0]
            slots.append(_Slot("discard", decl, trump=trump))
        else:
            a0 = legal[0]
            if isinstance(a0, (Give, EndGive)):
                u, d = a0.seat, a0.to
                if i < len(ex) and ex[i].kind == "give" and ex[i].giver == u and ex[i].receiver == d:
                    c = ex[i].card
                    slots.append(_Slot("give", u, d, c.id if c is not None else -1, trump=trump))
                    i += 1
                    act = next(a for a in legal if isinstance(a, Give))
                elif (u, d) in view.ended_gives and r.exchange_count == "at-most":
                    act = EndGive(u, d)
                    slots.append(_Slot("endgive", u, d, action=act))
                else:
                    break
            else:
                assert isinstance(a0, Return)
                d, u = a0.seat, a0.to
                if i < len(ex) and ex[i].kind == "return" and ex[i].giver == d and ex[i].receiver == u:
                    c = ex[i].card
                    slots.append(_Slot("return", d, u, c.id if c is not None else -1, trump=trump))
                    i += 1
                    act = a0
                else:
                    break
        dummy.apply(act)
    if i != len(ex):
        raise ResampleError(f"the exchange in the view of seat {view.seat} does not follow the rules' order")
    sizes = [h.bit_count() for h in dummy.hands]
    return slots, sizes, dummy.kitty.bit_count()


# ---------------------------------------------------------------------------------------------- world
def _count(groups: list[tuple[int, list[int]]], nb: int) -> Callable[[int, tuple[int, ...]], int]:
    """A memoised counter ``f(i, caps)``: assignments of groups ``i..`` filling ``caps`` exactly."""
    memo: dict[tuple[int, tuple[int, ...]], int] = {}
    last = len(groups) - 1

    def f(i: int, caps: tuple[int, ...]) -> int:
        if i > last:
            return 1 if not any(caps) else 0
        key = (i, caps)
        got = memo.get(key)
        if got is not None:
            return got
        mask, cards = groups[i]
        total = 0
        if i == last:
            if all(caps[b] == 0 for b in range(nb) if not mask >> b & 1) and sum(caps) == len(cards):
                total = _multinomial(len(cards), caps)
        elif i == last - 1:  # the two largest groups at once, without listing the splits of the first
            total = _two_groups(len(cards), mask, len(groups[last][1]), groups[last][0], caps)
        else:
            for split in _splits(len(cards), mask, caps, nb):
                rest = tuple(c - s for c, s in zip(caps, split, strict=True))
                sub = f(i + 1, rest)
                if sub:
                    total += _multinomial(len(cards), split) * sub
        memo[key] = total
        return total

    return f


def _two_groups(n1: int, m1: int, n2: int, m2: int, caps: tuple[int, ...]) -> int:
    """Assignments of ``n1`` cards allowed in the bins of mask ``m1`` and ``n2`` cards allowed in ``m2`` that fill
    ``caps`` exactly: the sum over the splits of the first group of the product of the two multinomials, in closed
    form. A bin only one group allows takes that group's cards; of the places ``S`` of the bins both allow, the
    first group fills any ``r1`` (Vandermonde: the sum over the splits of ``r1`` of the products of
    ``comb(caps[b], y_b)`` is ``comb(S, r1)``), so the count is ``n1! n2! comb(S, r1) / prod(caps[b]!)``. The
    same number as listing the splits (``_splits``), which with 4 players and ``give=lowest`` meant hundreds of
    thousands of splits per view (seconds to a minute before the first sample)."""
    r1, r2, shared, den = n1, n2, 0, 1
    for b, c in enumerate(caps):
        if not c:
            continue
        if (m1 & m2) >> b & 1:
            shared += c
        elif m1 >> b & 1:
            r1 -= c
        elif m2 >> b & 1:
            r2 -= c
        else:
            return 0
        den *= factorial(c)
    if r1 < 0 or r2 < 0 or r1 + r2 != shared:
        return 0
    return factorial(n1) * factorial(n2) * comb(shared, r1) // den


def _multinomial(n: int, parts: tuple[int, ...] | list[int]) -> int:
    out = 1
    left = n
    for p in parts:
        out *= comb(left, p)
        left -= p
    return out


def _splits(n: int, mask: int, caps: tuple[int, ...], nb: int) -> list[tuple[int, ...]]:
    """Every way to put ``n`` cards into the allowed bins within their capacities."""
    idx = [b for b in range(nb) if mask >> b & 1]
    out: list[tuple[int, ...]] = []
    cur = [0] * nb

    def rec(j: int, left: int) -> None:
        if j == len(idx) - 1:
            b = idx[j]
            if left <= caps[b]:
                cur[b] = left
                out.append(tuple(cur))
                cur[b] = 0
            return
        b = idx[j]
        for x in range(min(left, caps[b]) + 1):
            cur[b] = x
            rec(j + 1, left - x)
        cur[b] = 0

    if idx:
        rec(0, n)
    elif n == 0:
        out.append(tuple(cur))
    return out


def _draw_world(plan: _Plan, rng: random.Random) -> tuple[list[int], dict[int, int]]:
    """Masks of cards per bin, uniformly among the assignments allowed by one of the plan's place
    constraints (a threshold choice drawn in proportion to its count), and that choice's thresholds."""
    nb = len(plan.bins)
    if plan.totals is None:
        totals = []
        for sub in plan.subs:
            if sub.counter is None:
                sub.counter = _count(sub.groups, nb)
            totals += [sub.counter(0, c) * w for c, w in zip(sub.variants, sub.weights, strict=True)]
        plan.totals = totals
    totals = plan.totals
    if not any(totals):
        raise ResampleError(f"no deal is consistent with the view of seat {plan.view.seat}")
    pick = rng.randrange(sum(totals))
    j = 0
    while pick >= totals[j]:
        pick -= totals[j]
        j += 1
    for sub in plan.subs:
        if j < len(sub.variants):
            break
        j -= len(sub.variants)
    f = sub.counter
    assert f is not None
    caps = sub.variants[j]
    masks = [0] * nb
    for i, (mask, cards) in enumerate(sub.groups):
        if i == len(sub.groups) - 1:
            split: tuple[int, ...] = caps
        else:
            weights = []
            options = _splits(len(cards), mask, caps, nb)
            for sp in options:
                rest = tuple(c - s for c, s in zip(caps, sp, strict=True))
                weights.append(_multinomial(len(cards), sp) * f(i + 1, rest))
            pick = rng.randrange(sum(weights))
            j = 0
            while pick >= weights[j]:
                pick -= weights[j]
                j += 1
            split = options[j]
        shuffled = list(cards)
        rng.shuffle(shuffled)
        k = 0
        for b in range(nb):
            for cid in shuffled[k:k + split[b]]:
                masks[b] |= 1 << cid
            k += split[b]
        caps = tuple(c - s for c, s in zip(caps, split, strict=True))
    return masks, sub.thresholds


# ---------------------------------------------------------------------------------------------- completion
def _sample(plan: _Plan, rng: random.Random, budget: Budget | None = None) -> Deal:
    view = plan.view
    checks = plan.return_checks
    for _ in range(MAX_WORLDS):
        if budget is not None:
            budget._take()
            budget.draws += 1
        world, thresholds = _draw_world(plan, rng)
        if checks and not _returns_possible(plan, world, checks):
            continue
        if plan.rounds and not _gives_possible(plan, world, thresholds):
            continue
        for _ in range(COMPLETIONS):
            if budget is not None:
                budget._take()
                budget.completions += 1
            deal = _complete(plan, world, thresholds, rng, budget)
            if deal is not None:
                if budget is not None:
                    budget.samples += 1
                return deal
    raise ResampleError(f"no consistent deal found for the view of seat {view.seat} after {MAX_WORLDS} draws")


def _return_checks(r: Rules, slots: list[_Slot]) -> list[tuple[int, int, int]]:
    """``(d, u, k)`` for each unseen exchange whose ``k`` returns from ``d`` to ``u`` a world must be able to
    explain: with ``return=suit`` every one of them was the highest card of its suit in ``d``'s hand then (no
    free trump answer), so it beats every card ``d`` still holds or has played since in its suit, provided
    nothing reached ``d`` after its first return to ``u``; and it is in ``u``'s hand or played by ``u``,
    provided ``u`` passed nothing on since. Only exchanges the viewer saw none of qualify."""
    out: list[tuple[int, int, int]] = []
    if r.return_rule == "suit":
        pairs = {(sl.seat, sl.other) for sl in slots if sl.kind == "return"}
        for d, u in sorted(pairs):
            rets = [i for i, sl in enumerate(slots) if sl.kind == "return" and sl.seat == d and sl.other == u]
            gives = [i for i, sl in enumerate(slots) if sl.kind == "give" and sl.seat == u and sl.other == d]
            if any(slots[i].card >= 0 for i in rets + gives):
                continue
            if r.trump_return == "free" and any(slots[i].trump >= 0 for i in rets):
                continue
            first = rets[0]
            later = slots[first + 1:]
            if any((x.kind in ("give", "return") and x.other == d) or (x.kind == "kitty" and x.seat == d)
                   or (x.kind in ("give", "return", "discard") and x.seat == u) for x in later):
                continue
            out.append((d, u, len(rets)))
    return out


def _returns_possible(plan: _Plan, world: list[int], checks: list[tuple[int, int, int]]) -> bool:
    """Whether ``world`` leaves, for every check of :func:`_return_checks`, at least ``k`` cards with ``u``
    (held or played, none the viewer gave anyone but ``d``) above all of ``d``'s cards of their suit, among them
    every card the viewer gave ``d`` that ``u`` holds: if not, the world has no history and its completions need
    not be tried."""
    held: dict[int, int] = {}
    for (kind, s), m in zip(plan.bins, world, strict=True):
        if kind in ("low", "outlow"):
            kind, s = plan.bins[s]
        if kind in ("seat", "late"):
            held[s] = held.get(s, 0) | m
    for s, c in plan.plays:
        held[s] = held.get(s, 0) | 1 << c
    for d, u, k in checks:
        hd = held.get(d, 0)
        hu = held.get(u, 0)
        must = 0  # the viewer's gifts to d that u holds: they can only have come back to u as d's returns
        for c, to in plan.from_viewer.items():
            if to != d:  # any other gift of the viewer's is not a return of d's
                hu &= ~(1 << c)
            elif hu >> c & 1:
                must |= 1 << c
        above = 0
        for suit in range(4):
            top = (hd >> (13 * suit) & 0x1FFF).bit_length()  # ranks at or below d's highest: 0..top-1
            high = hu >> (13 * suit + top) & (0x1FFF >> top)
            if (must >> (13 * suit) & 0x1FFF) & ~(high << top):
                return False  # such a gift is not above d's cards of its suit: it was no return
            above += high.bit_count()
        if above < k:
            return False
    return True


def _gives_possible(plan: _Plan, world: list[int], thresholds: dict[int, int]) -> bool:
    """``give=lowest``: whether ``world`` can hold the gives of every up player ``u`` with unseen gives, for the
    drawn threshold ``t``: they are ``t`` and cards below it, so ``t`` and as many cards at or below it as he gave
    must be where those cards can be now - with ``u``, his down players, or a seat one of them passed a card to
    since (the discards, when the declarer is one of them), held or played. If not, the world has no history and
    its completions need not be tried (a necessary condition: dropping such a world changes only the time)."""
    slots = plan.slots
    view = plan.view
    v = view.seat
    place: dict[int, int] = {}
    out = 0
    for (kind, s), m in zip(plan.bins, world, strict=True):
        if kind in ("low", "outlow"):
            kind, s = plan.bins[s]
        if kind in ("seat", "late"):
            place[s] = place.get(s, 0) | m
        elif kind == "out":
            out |= m
        elif kind == "rest":
            place[v] = place.get(v, 0) | m
    place[v] = place.get(v, 0) | plan.own
    for s, c in plan.plays:
        place[s] = place.get(s, 0) | 1 << c
    if view.discards is not None:
        out |= mask_of(view.discards)
    for u, idxs in plan.rounds.items():
        t = thresholds.get(u, -1)
        if t < 0:
            continue
        gives = [i for i in idxs if slots[i].kind == "give"]
        holders = {u} | {slots[i].other for i in gives}
        reach_out = False
        for sl in slots[gives[0] + 1:]:
            if sl.kind in ("give", "return") and sl.seat in holders:
                holders.add(sl.other)
            elif sl.kind == "discard" and sl.seat in holders:
                reach_out = True
        reach = out if reach_out else 0
        for h in holders:
            reach |= place.get(h, 0)
        if not reach >> t & 1:
            return False
        tk = _key(t, slots[gives[0]].trump)
        if sum(1 for c in _bits(reach) if _key(c, slots[gives[0]].trump) <= tk) < len(gives):
            return False
        for d, u2, _ in plan.return_checks:
            if u2 == u and not _gives_answerable(plan, place, reach, gives, d, u, t):
                return False
    return True


def _gives_answerable(plan: _Plan, place: dict[int, int], reach: int, gives: list[int], d: int, u: int, t: int) -> bool:
    """``give=lowest`` with one of :func:`_return_checks`' unseen exchanges ``(d, u, k)``, in a drawn world (``place``:
    seat -> cards held or played): whether ``u``'s gives to ``d`` can be cards of ``reach`` at or below ``t`` that the
    viewer cannot have held, answered by ``d``'s returns (:func:`_answerable_under_caps`). A necessary condition: a
    world failing it has no history."""
    slots = plan.slots
    tg = slots[gives[0]].trump
    tk = _key(t, tg)
    seen = sum(1 << slots[i].card for i in gives if slots[i].card >= 0)
    low = sum(1 << c for c in _bits(FULL_DECK) if _key(c, tg) <= tk)
    u_low = place.get(u, 0) & low if _only_returns_from(slots, gives[0], u, d) else 0
    return _answerable_under_caps([slots[i] for i in gives], d, t, reach & low & ~plan.never & ~seen, place.get(d, 0),
                                  place.get(u, 0), u_low)


def _only_returns_from(slots: list[_Slot], first: int, u: int, d: int) -> bool:
    """Whether every card that reached ``u`` after slot ``first`` (his first give) was a return from ``d``."""
    return all(x.kind == "return" and x.seat == d for x in slots[first + 1:]
               if (x.kind in ("give", "return") and x.other == u) or (x.kind == "kitty" and x.seat == u))


def _answerable_under_caps(gives: list[_Slot], d: int, t: int, cand: int, d_cards: int, u_cards: int,
                           u_low: int) -> bool:
    """Whether the up player's gives to ``d`` (``gives``: all his give slots, rising, the last one ``t``) can be
    chosen among ``cand`` (cards at or below ``t``) so that ``d``'s unseen returns answer them
    (``return=suit``, no free trump answer, nothing reaching ``d`` after his first return nor leaving the up player:
    :func:`_return_checks`). Each give of suit S was answered by ``d``'s highest S card then, which is above every S
    card in ``d_cards`` (cards ``d`` holds or has played, all in his hand then) and is still in ``u_cards`` (cards the
    up player holds or has played, or may): so there are at most that many gives of suit S. ``t`` is one of them
    when the last give went to ``d`` unseen. ``u_low``: cards at or below ``t`` surely with the up player (held or
    played), when every card that reached him since his first give was a return of ``d``'s (else ``0``): each is
    such a return, so above ``d``'s cards of its suit, and there are at least that many gives of its suit."""
    k = sum(1 for g in gives if g.other == d)
    need_t = gives[-1].card < 0 and gives[-1].other == d
    if need_t and not cand >> t & 1:
        return False
    least = most = 0
    for suit in range(4):
        top = (d_cards >> (13 * suit) & 0x1FFF).bit_length()
        above = u_cards >> (13 * suit + top) & (0x1FFF >> top)
        came = u_low >> (13 * suit) & 0x1FFF
        if came & ~(above << top):
            return False  # a low card of his that is no return of d's
        hi = min(above.bit_count(), (cand & SUIT_MASKS[suit]).bit_count())
        lo = max(came.bit_count(), 1 if need_t and t // 13 == suit else 0)
        if lo > hi:
            return False
        least += lo
        most += hi
    return least <= k <= most


def _complete(plan: _Plan, world: list[int], thresholds: dict[int, int], rng: random.Random,
              budget: Budget | None = None) -> Deal | None:
    """Build one history for ``world`` backwards, replay it forwards; ``None`` when it breaks a rule."""
    view = plan.view
    r = view.rules
    n = view.players
    v = view.seat
    decl = view.declarer
    hands = [0] * n
    hands[v] = plan.own
    middle = 0
    out = 0
    rest = 0
    for (kind, s), m in zip(plan.bins, world, strict=True):
        if kind in ("low", "outlow"):
            kind, s = plan.bins[s]
        if kind in ("seat", "late"):
            hands[s] |= m
        elif kind == "kitty":
            middle |= m
        elif kind == "out":
            out |= m
        else:
            rest |= m
    if plan.hidden_own:
        hands[v] |= rest
    if v == decl and view.discards is not None:
        out = mask_of(view.discards)
    for s, c in plan.plays:
        hands[s] |= 1 << c
    slots = plan.slots
    chosen = [sl.card for sl in slots]
    # pinned[s]: cards in s's hand that the viewer knows came from elsewhere (its own gifts)
    from_viewer = plan.from_viewer
    kitty_taken = 0
    out_cards = _bits(out)
    rng.shuffle(out_cards)
    # hidden give -> chosen card, filled when its return is walked back
    planned: set[int] = set()
    walked: set[int] = set()  # unseen returns already walked back by _walk_returns
    for idx in range(len(slots) - 1, -1, -1):
        sl = slots[idx]
        k = sl.kind
        if plan.rounds and k in ("give", "return"):
            up = sl.seat if k == "give" else sl.other
            if up in plan.rounds and up not in planned:
                planned.add(up)
                if not _plan_round(plan, up, thresholds[up], hands, chosen, rng, budget):
                    return None
        if k == "discard":
            if v == decl:
                c = chosen[idx]
                if c < 0:
                    c = out_cards.pop(0) if out_cards else -1
            else:
                c = out_cards.pop() if out_cards else -1
            if c < 0:
                return None
            chosen[idx] = c
            hands[decl] |= 1 << c
        elif k == "kitty":
            if v == decl and view.kitty is not None:
                km = mask_of(view.kitty)
            else:
                cand = [c for c in _bits(hands[decl]) if from_viewer.get(c) != decl]
                # cards a return the viewer saw says the declarer did not hold then: usually from the kitty
                seen_forbidden = _memo(plan, "seen_forbidden", idx)
                need = [c for c in cand if seen_forbidden >> c & 1]
                if decl in plan.rounds and decl in thresholds and plan.rounds[decl][0] < idx:
                    # give=lowest: cards at or below his threshold came back by a return or from the kitty
                    idxs = plan.rounds[decl]
                    tg = slots[idxs[0]].trump
                    tk = _key(thresholds[decl], tg)
                    low = [c for c in cand if _key(c, tg) <= tk and c not in need]
                    n_ret = sum(1 for i in idxs if slots[i].kind == "return" and (slots[i].card < 0 or _key(slots[i].card, tg) <= tk))
                    if len(low) > n_ret:
                        need += rng.sample(low, len(low) - n_ret)
                if len(cand) < r.kitty_size or len(need) > r.kitty_size:
                    return None
                if need and rng.random() < 0.9:
                    rest_c = [c for c in cand if c not in need]
                    pick = need + rng.sample(rest_c, r.kitty_size - len(need))
                else:
                    pick = rng.sample(cand, r.kitty_size)
                km = mask_of(CARDS[c] for c in pick)
            if hands[decl] & km != km:
                return None
            hands[decl] &= ~km
            kitty_taken = km
        elif k == "return":
            d, u = sl.seat, sl.other
            gi = _memo(plan, "answered", idx)
            if idx in walked:
                continue
            if chosen[idx] >= 0:
                c = chosen[idx]
            elif not plan.rounds and plan.view.rules.return_rule == "suit":
                # the unseen returns from here back, chosen together with backtracking (_walk_returns)
                run = [idx]
                while run[-1] > 0 and slots[run[-1] - 1].kind == "return" and chosen[run[-1] - 1] < 0:
                    run.append(run[-1] - 1)
                if not _walk_returns(plan, hands, chosen, run, rng, budget):
                    return None
                walked.update(run)
                continue
            else:
                pair = _hidden_return(plan, hands, d, u, idx, chosen, plan.seen_f.get(d, 0), rng)
                if pair is None:
                    return None
                c, g = pair
                chosen[idx] = c
                if gi >= 0:
                    chosen[gi] = g
            if not hands[u] >> c & 1:
                return None
            hands[u] &= ~(1 << c)
            hands[d] |= 1 << c
        elif k == "give":
            u, d = sl.seat, sl.other
            c = chosen[idx]
            if c < 0:  # a give whose return is still to come: any card the receiver holds from the giver
                cand = [x for x in _bits(hands[d]) if x not in from_viewer and x not in chosen]
                if not cand:
                    return None
                c = rng.choice(cand)
                chosen[idx] = c
            if not hands[d] >> c & 1:
                return None
            hands[d] &= ~(1 << c)
            hands[u] |= 1 << c
            if r.give == "lowest" and min(_bits(hands[u]), key=lambda x: _key(x, sl.trump)) != c:
                return None  # not his lowest card then
    kitty = middle | kitty_taken
    hs = r.hand_size
    if any(h.bit_count() != hs for h in hands) or kitty.bit_count() != r.kitty_size:
        return None
    dealt: list[list[Card]] = []
    for s in range(n):
        ids = _bits(hands[s])
        if s == v and plan.hidden_own:
            first = mask_of(view.hand)
            ids = [c for c in ids if first >> c & 1] + [c for c in ids if not first >> c & 1]
        elif plan.hidden_own or r.contract_after:
            rng.shuffle(ids)
        dealt.append([CARDS[c] for c in ids])
    allowed = view.contracts_left[decl] if view.contracts_left else None
    try:
        kitty_cards = list(view.kitty) if view.kitty is not None else [CARDS[c] for c in _bits(kitty)]
        deal = Deal(r, view.dealer, dealt, kitty_cards, view.prev_diffs, allowed, view.deal_number)
        for idx, sl in enumerate(slots):
            deal.apply(_slot_action(sl, chosen[idx]))
        for s, c in plan.plays:
            deal.apply(Play(s, CARDS[c]))
    except IllegalActionError:
        return None
    if build_view(deal, v, view.names, view.totals, view.results, view.contracts_left) != view:
        return None
    return deal


def _seen_return_forbidden(plan: _Plan, before: int) -> int:
    """Cards the declarer cannot have held at the returns he made to the viewer before slot ``before``."""
    r = plan.view.rules
    x = 0
    for idx, sl in enumerate(plan.slots[:before]):
        if sl.kind == "return" and sl.seat == plan.view.declarer and sl.other == plan.view.seat and sl.card >= 0:
            x |= _return_forbidden(sl.card, _received_for(plan.slots, idx, r.trump_return), sl.trump, r.return_rule, r.trump_return)
    return x


def _slot_action(sl: _Slot, card: int) -> Action:
    if sl.action is not None:
        return sl.action
    c = CARDS[card]
    if sl.kind == "discard":
        return Discard(sl.seat, c)
    if sl.kind == "give":
        return Give(sl.seat, c, sl.other)
    return Return(sl.seat, c, sl.other)


def _memo(plan: _Plan, what: str, idx: int) -> int:
    """A fact of the public history at slot ``idx``, computed once per plan: ``"answered"`` (the give the
    return answers, :func:`_answered`), ``"seen_forbidden"`` (:func:`_seen_return_forbidden`), ``"banned"``
    (cards the returner of slot ``idx`` cannot have held, from its returns to the viewer since it last
    received a card), ``"passed"`` (cards the returner of slot ``idx`` passed on to the viewer after the give
    that return answers: that give may have been one of them) and ``"left"`` (1 + the unseen returns between
    the same two seats before ``idx``)."""
    key = (what, idx)
    got = plan.memo.get(key)
    if got is not None:
        return got
    slots = plan.slots
    r = plan.view.rules
    if what == "answered":
        val = _answered(slots, idx, r.trump_return)
    elif what == "seen_forbidden":
        val = _seen_return_forbidden(plan, idx)
    elif what == "banned":
        d = slots[idx].seat
        val = 0
        for j in range(idx - 1, -1, -1):
            sj = slots[j]
            if sj.kind == "give" and sj.other == d:
                break
            if sj.kind == "return" and sj.seat == d and sj.card >= 0:
                got_card = _received_for(slots, j, r.trump_return)
                val |= _return_forbidden(sj.card, got_card, sj.trump, r.return_rule, r.trump_return)
    elif what == "passed":  # cards the returner passed on to the viewer after the give this return answers
        d = slots[idx].seat
        gi = _memo(plan, "answered", idx)
        val = 0
        if gi >= 0:
            for sj in slots[gi + 1:idx]:
                if sj.kind in ("give", "return") and sj.seat == d and sj.card >= 0:
                    val |= 1 << sj.card
    elif what == "gives_first":  # every give of the returner's partner to him came before this return
        d, u = slots[idx].seat, slots[idx].other
        first_return = min(j for j, sl in enumerate(slots) if sl.kind == "return" and sl.seat == d and sl.other == u)
        val = int(all(j < first_return for j, sl in enumerate(slots) if sl.kind == "give" and sl.seat == u and sl.other == d))
    elif what == "early_f":
        d, u = slots[idx].seat, slots[idx].other
        val = 0
        for j in range(idx - 1, -1, -1):
            sj = slots[j]
            if (sj.kind in ("give", "return") and sj.other == d and sj.seat != u) or (sj.kind == "kitty" and sj.seat == d):
                break  # something reached d from elsewhere: a card above an earlier return may have come with it
            if sj.kind == "return" and sj.seat == d and sj.other == plan.view.seat and sj.card >= 0:
                got_card = _received_for(slots, j, r.trump_return)
                val |= _return_forbidden(sj.card, got_card, sj.trump, r.return_rule, r.trump_return)
    else:
        d, u = slots[idx].seat, slots[idx].other
        val = 1 + sum(1 for sl in slots[:idx] if sl.kind == "return" and sl.seat == d and sl.other == u and sl.card < 0)
    plan.memo[key] = val
    return val


def _walk_returns(plan: _Plan, hands: list[int], chosen: list[int], run: list[int], rng: random.Random,
                  budget: Budget | None = None) -> bool:
    """Walk back the unseen returns at slots ``run`` (descending, consecutive): choose each one's card and the
    card it answered (:func:`_hidden_return`), moving the card from the receiver's hand back to the returner's.
    A dead end (no allowed pair for a return) undoes the return walked just before it and tries another card for
    it, with a card it answered drawn again (depth first, at most :data:`RETURN_STEPS` choices; the cards answered
    are not searched), instead of failing the whole completion: after a large unseen exchange most first choices
    lead to one. The first choice at every step is the one a single
    random walk would make. ``False`` (``hands`` and ``chosen`` restored) when no history was found."""
    slots = plan.slots
    tried: list[set[int]] = [set() for _ in run]  # the returned cards tried at each step
    placed: list[tuple[int, int, int]] = [(0, 0, 0)] * len(run)  # (card, answered give, its previous card)
    steps = 0
    level = 0
    while level < len(run):
        idx = run[level]
        sl = slots[idx]
        d, u = sl.seat, sl.other
        pair = None
        if steps < RETURN_STEPS:
            steps += 1
            if budget is not None:
                budget._take()
            pair = _hidden_return(plan, hands, d, u, idx, chosen, plan.seen_f.get(d, 0), rng, tried[level])
        if pair is None:
            tried[level] = set()
            level -= 1
            if level < 0:
                return False
            c, gi, before = placed[level]
            pidx = run[level]
            hands[slots[pidx].seat] &= ~(1 << c)
            hands[slots[pidx].other] |= 1 << c
            chosen[pidx] = -1
            if gi >= 0:
                chosen[gi] = before
            continue
        c, g = pair
        tried[level].add(c)
        gi = _memo(plan, "answered", idx)
        placed[level] = (c, gi, chosen[gi] if gi >= 0 else -1)
        chosen[idx] = c
        if gi >= 0:
            chosen[gi] = g
        hands[u] &= ~(1 << c)
        hands[d] |= 1 << c
        level += 1
    return True


def _hidden_return(plan: _Plan, hands: list[int], d: int, u: int, idx: int, chosen: list[int], prefer: int,
                   rng: random.Random, exclude: set[int] | None = None) -> tuple[int, int] | None:
    """Choose an unseen return ``r`` (now in ``u``'s hand) and the unseen card ``g`` it answered, so that
    ``r`` obeys the return rule in ``d``'s hand of that moment: at random among the allowed pairs whose ``r`` is
    not in ``exclude``, mostly among those whose ``g`` is in ``prefer`` (cards ``d`` cannot have held at an earlier
    return)."""
    slots = plan.slots
    from_viewer = plan.from_viewer
    rules = plan.view.rules
    rule = rules.return_rule
    trump_return = rules.trump_return
    trump = slots[idx].trump
    # unseen gives already matched to a later return: each card is given once
    used = {chosen[j] for j, sl in enumerate(slots) if sl.kind == "give" and sl.card < 0 and chosen[j] >= 0}
    # d returned a card to the viewer before, with nothing received since: it held no card above that
    # return then, so neither the card it returns now nor the card it answers can be such a card
    banned = _memo(plan, "banned", idx)
    early = _memo(plan, "early_f", idx) if rule == "suit" else 0
    # a card the viewer gave d that u now holds can only have come back with one of these returns
    in_u = _bits(hands[u])
    must = [c for c in in_u if from_viewer.get(c) == d]
    left = _memo(plan, "left", idx)
    if len(must) > left:
        return None
    if len(must) < left:
        must = []  # this return may or may not be one of them: an earlier unseen return can take it back
    # the same pairs, in the same order, as testing every (rc, g): g ascending among the cards d held, not
    # given twice, not the viewer's gifts, not banned; a received trump (trump-return=free) answers anything,
    # any other g needs rc to be d's highest card (of g's suit with return=suit, overall otherwise)
    free_trumps = SUIT_MASKS[trump] if trump_return == "free" and 0 <= trump < 4 else 0
    gifts = 0  # the cards the viewer gave
    for c in from_viewer:
        gifts |= 1 << c
    # the card answered need not be in d's hand now: d may have passed it on to the viewer since (a card u gave
    # d that d returned to the viewer before answering u); d held it then, so "banned" does not apply to it
    passed = _memo(plan, "passed", idx) & ~gifts
    never = (banned | gifts) & ~passed  # never a g: banned, or a card the viewer gave
    used_m = 0  # not a g unless it is rc itself
    for c in used:
        used_m |= 1 << c
    if free_trumps and _memo(plan, "gives_first", idx) and _later_non_trump(plan, idx, chosen, trump):
        # with trump-return=free the non-trumps received are answered before the trumps (deal.py
        # _receipt_index): when every give of u to d came before this return and a later return answers a
        # non-trump, this one answers a non-trump too (the replay would refuse the history otherwise)
        never |= free_trumps
        free_trumps = 0
    rows: list[tuple[int, int]] = []  # (rc, mask of its g), rc in order
    for rc in must or in_u:
        if from_viewer.get(rc) == u or banned >> rc & 1:
            continue
        dt = hands[d] | 1 << rc
        ok = (dt | passed) & ~never & ~(used_m & ~(1 << rc))
        if rule == "overall":
            best = max(_bits(dt), key=lambda c: _key(c, trump))
            ok &= -1 if best == rc else free_trumps
        else:
            suit = SUIT_MASKS[rc // 13]
            ok &= (suit if (dt & suit).bit_length() - 1 == rc else 0) | free_trumps
        if exclude and rc in exclude:
            continue
        if early >> rc & 1:
            # d held no such card before u's gives: rc is one of them, and (returns of a suit answer its gives
            # in any order) the one it answers can be taken to be rc itself
            ok &= 1 << rc
        if ok:
            rows.append((rc, ok))
    if not rows:
        return None
    if rule == "overall":
        pairs = [(rc, g) for rc, ok in rows for g in _bits(ok)]
        if rng.random() < 0.8:
            # walking back, the returns rise: an earlier one was above this one, so keep the high cards for it
            low = min(_key(p[0], trump) for p in pairs)
            pairs = [p for p in pairs if _key(p[0], trump) == low]
        good = [p for p in pairs if prefer >> p[1] & 1]
        if good and rng.random() < 0.9:
            return rng.choice(good)
        return rng.choice(pairs)
    # the pairs are not listed: the k-th pair of the rows (or of the rows' g in ``prefer``) is drawn with
    # ``rng.choice(range(count))``, which draws as ``rng.choice`` of the listed pairs would
    n_good = sum((ok & prefer).bit_count() for _, ok in rows)
    if n_good and rng.random() < 0.9:
        return _kth_pair([(rc, ok & prefer) for rc, ok in rows], rng.choice(range(n_good)))
    return _kth_pair(rows, rng.choice(range(sum(ok.bit_count() for _, ok in rows))))


def _later_non_trump(plan: _Plan, idx: int, chosen: list[int], trump: int) -> bool:
    """Whether an unseen return after slot ``idx`` between the same two seats answers a non-trump (as chosen
    so far, walking back)."""
    slots = plan.slots
    d, u = slots[idx].seat, slots[idx].other
    for j in range(idx + 1, len(slots)):
        sl = slots[j]
        if sl.kind == "return" and sl.seat == d and sl.other == u and sl.card < 0:
            gi = _memo(plan, "answered", j)
            if gi >= 0 and chosen[gi] >= 0 and chosen[gi] // 13 != trump:
                return True
    return False


def _kth_pair(rows: list[tuple[int, int]], k: int) -> tuple[int, int]:
    """The ``k``-th (from 0) pair ``(rc, g)`` of ``rows`` listed in order, each row's ``g`` rising."""
    for rc, ok in rows:
        n = ok.bit_count()
        if k < n:
            while k:
                ok &= ok - 1
                k -= 1
            return rc, (ok & -ok).bit_length() - 1
        k -= n
    raise AssertionError("k is below the number of pairs")


def _plan_round(plan: _Plan, u: int, t: int, hands: list[int], chosen: list[int], rng: random.Random,
                budget: Budget | None = None) -> bool:
    """``give=lowest``: choose the cards of up player ``u``'s exchange that the viewer did not see, from the
    hands right after it (``hands``, walked back so far), and write them into ``chosen``.

    The gives are ``u``'s lowest cards, so they rise in order of giving, the highest is the threshold ``t``
    drawn with the world, and every card he kept is above it: a card at or below ``t`` that he holds now
    came back as a return. The gives are drawn uniformly among the rising sequences of cards at or below
    ``t`` that the receiver (or ``u``, for one that came back) holds; the returns are then walked back from
    the last, each the card the return rule forces in the down player's hand of that moment, preferring
    cards that must have come back. Returns ``False`` when this draw finds no consistent exchange."""
    slots = plan.slots
    idxs = plan.rounds[u]
    gives = [i for i in idxs if slots[i].kind == "give"]
    tg = slots[gives[0]].trump
    tk = _key(t, tg)
    fv = plan.from_viewer
    pu = hands[u]
    # candidates per give, in the order of giving; the last give is the threshold itself. A card the viewer saw in
    # another exchange may be one of them: a card the down player later passed on to the viewer (a return of the
    # viewer's exchange with him) can have come from u's give; the cards the viewer gave are never u's (fv), and the
    # hands walked back to this point hold every card where it lay then
    cands: list[list[int]] = []
    for j, gi in enumerate(gives):
        if chosen[gi] >= 0:
            cands.append([chosen[gi]])
            continue
        pool = hands[slots[gi].other] | pu
        if j == len(gives) - 1:
            cands.append([t] if pool >> t & 1 and t not in fv else [])
        else:
            cands.append([c for c in _bits(pool) if _key(c, tg) < tk and c not in fv])
        cands[-1].sort(key=lambda c: _key(c, tg))
    # count the rising sequences from the back, then draw one from the front
    ways: list[dict[int, int]] = [{} for _ in gives]
    for j in range(len(gives) - 1, -1, -1):
        for c in cands[j]:
            if j == len(gives) - 1:
                ways[j][c] = 1
            else:
                kc = _key(c, tg)
                ways[j][c] = sum(w for c2, w in ways[j + 1].items() if _key(c2, tg) > kc)
    if not any(ways[0].values()):
        return False
    # how many forced returns each down player can make to u, per suit (return=suit) or in all (overall)
    r = plan.view.rules
    room: dict[tuple[int, int], int] = {}
    for d in {slots[i].other for i in gives}:
        tr = next((slots[i].trump for i in idxs if slots[i].kind == "return" and slots[i].seat == d), tg)
        if r.return_rule == "overall":
            top = max(_bits(hands[d]), key=lambda c: _key(c, tr), default=-1)
            tops = _key(top, tr) if top >= 0 else (-1, -1, -1)
            room[d, -1] = sum(1 for c in _bits(hands[u]) if _key(c, tr) > tops)
        else:
            for s_ in range(4):
                hi = (hands[d] & SUIT_MASKS[s_]).bit_length() - 1
                room[d, s_] = sum(1 for c in _bits(hands[u] & SUIT_MASKS[s_]) if c > hi)
    capped = None
    downs = {slots[i].other for i in gives}
    if r.trump_return != "free" and len(downs) == 1 and all(chosen[i] < 0 for i in idxs):
        capped = _capped_gives(cands, gives, room, downs.pop(), r.return_rule == "overall")
        if capped is None:
            return False
    for _ in range(PLAN_TRIES):
        if budget is not None:
            budget._take()
        got = _try_round(plan, u, tk, tg, gives, idxs, cands, ways, room, hands, chosen, rng, capped)
        if got is not None:
            for i, c in got.items():
                chosen[i] = c
            return True
    return False


_Capped = tuple[list[tuple[int, ...]], list[int], list[list[int]]]


def _capped_gives(cands: list[list[int]], gives: list[int], room: dict[tuple[int, int], int], d: int,
                  overall: bool) -> _Capped | None:
    """The unseen gives of one up player to one down player ``d`` (no free trump returns, the viewer saw none of the
    round), drawn directly among those that pass the room check of :func:`_try_round`: each give is answered by a
    forced return, ``d``'s highest card of its suit (or overall), so at most ``room[d, suit]`` (``room[d, -1]``) of
    them can be of a suit. The gives are the threshold and a set of ``len(gives) - 1`` cards of the pool below it
    (a rising sequence is a set): returns the vectors of cards per suit of that set allowed by the room, their
    numbers of sets, and the pool per suit; ``None`` when no set is allowed. Drawing a vector by its number, then
    the cards of each suit uniformly, is drawing uniformly among the rising sequences that pass the room check -
    what rejecting the others does, without the rejections."""
    t = cands[-1][0] if cands[-1] else -1
    if t < 0:
        return None
    pool = cands[0] if len(gives) > 1 else []
    per_suit = [[c for c in pool if c // 13 == s_] for s_ in range(4)]
    k1 = len(gives) - 1
    if overall:
        if len(gives) > room.get((d, -1), 0):
            return None
        caps = [len(p) for p in per_suit]
    else:
        caps = [min(len(per_suit[s_]), room.get((d, s_), 0) - (1 if t // 13 == s_ else 0)) for s_ in range(4)]
        if caps[t // 13] < 0:  # no room for the threshold itself
            return None
    vectors: list[tuple[int, ...]] = []
    counts: list[int] = []
    for n0 in range(max(0, caps[0]) + 1):
        for n1 in range(max(0, caps[1]) + 1):
            for n2 in range(max(0, caps[2]) + 1):
                n3 = k1 - n0 - n1 - n2
                if 0 <= n3 <= caps[3]:
                    vec = (n0, n1, n2, n3)
                    vectors.append(vec)
                    counts.append(_multinomial_sets(per_suit, vec))
    if not any(counts):
        return None
    return vectors, counts, per_suit


def _multinomial_sets(per_suit: list[list[int]], vec: tuple[int, ...]) -> int:
    out = 1
    for p, n in zip(per_suit, vec, strict=True):
        out *= comb(len(p), n)
    return out


PLAN_TRIES = 100
"""Draws of the unseen gives per :func:`_plan_round` call before the completion is retried."""


def _try_round(plan: _Plan, u: int, tk: tuple[int, int, int], tg: int, gives: list[int], idxs: list[int],
               cands: list[list[int]], ways: list[dict[int, int]], room: dict[tuple[int, int], int],
               hands: list[int], chosen: list[int], rng: random.Random, capped: _Capped | None = None,
               ) -> dict[int, int] | None:
    """One draw for :func:`_plan_round`: the gives (a rising sequence, uniformly; with ``capped`` uniformly among
    those that pass the room check, :func:`_capped_gives`), then the returns, walked back from the last. Returns the
    chosen card per slot, or ``None``."""
    r = plan.view.rules
    slots = plan.slots
    fv = plan.from_viewer
    g_cards: list[int] = []
    prev: tuple[int, int, int] | None = None
    if capped is not None:
        vectors, counts, per_suit = capped
        pick = rng.randrange(sum(counts))
        x = 0
        while pick >= counts[x]:
            pick -= counts[x]
            x += 1
        for p, n in zip(per_suit, vectors[x], strict=True):
            g_cards += rng.sample(p, n)
        g_cards.sort(key=lambda c: _key(c, tg))
        g_cards.append(cands[-1][0])
    for j in range(len(gives) if capped is None else 0):
        opts = [(c, w) for c, w in ways[j].items() if w and (prev is None or _key(c, tg) > prev)]
        total = sum(w for _, w in opts)
        if not total:
            return None
        pick = rng.randrange(total)
        x = 0
        while pick >= opts[x][1]:
            pick -= opts[x][1]
            x += 1
        g_cards.append(opts[x][0])
        prev = _key(opts[x][0], tg)
    gmap = dict(zip(gives, g_cards, strict=True))
    # which give each return answers (deal.py _receipt_index), simulated forwards
    queues: dict[int, list[int]] = {}
    answers: dict[int, int] = {}
    for i in idxs:
        sl = slots[i]
        if sl.kind == "give":
            queues.setdefault(sl.other, []).append(gmap[i])
            continue
        q = queues.get(sl.seat, [])
        if not q:
            return None
        k = 0
        if r.trump_return == "free" and sl.trump >= 0:
            k = next((x for x, c in enumerate(q) if c // 13 != sl.trump), 0)
        answers[i] = q.pop(k)
    # a quick check before the walk: each down player holds fewer cards of a suit than u above his
    use: dict[tuple[int, int], int] = {}
    for i, g in answers.items():
        sl = slots[i]
        if chosen[i] < 0 and not (r.trump_return == "free" and sl.trump >= 0 and g // 13 == sl.trump):
            key = (sl.seat, -1 if r.return_rule == "overall" else g // 13)
            use[key] = use.get(key, 0) + 1
            if use[key] > room.get(key, 0):
                return None
    hs = list(hands)
    rets = [i for i in idxs if slots[i].kind == "return"]
    for i in rets:  # the returns the viewer made
        if chosen[i] >= 0:
            c, d = chosen[i], slots[i].seat
            if not hs[u] >> c & 1:
                return None
            hs[u] &= ~(1 << c)
            hs[d] |= 1 << c
    must = [c for c in _bits(hs[u]) if _key(c, tg) <= tk]  # he kept only cards above t: these came back
    got: dict[int, int] = dict(gmap)
    # returns the viewer made are fixed; free returns (a trump received, trump-return=free) come last for
    # each down player and may be any card; the others are forced: walk back the free ones first, then
    # choose each down player's forced returns as a set and hand them out highest first
    forced: dict[int, list[int]] = {}
    for i in reversed(rets):
        sl = slots[i]
        d, g, tr = sl.seat, answers[i], sl.trump
        if chosen[i] >= 0:
            continue
        if r.trump_return == "free" and tr >= 0 and g // 13 == tr:
            opts2 = [c for c in _bits(hs[u]) if fv.get(c) != u and (hs[d] | 1 << c) >> g & 1]
            if not opts2:
                return None
            pref = [c for c in opts2 if c in must]
            rc = rng.choice(pref or opts2)
            got[i] = rc
            hs[u] &= ~(1 << rc)
            hs[d] |= 1 << rc
        else:
            forced.setdefault(d, []).append(i)
    todo = [c for c in must if not any(got.get(i) == c for i in rets)]
    rng.shuffle(todo)
    for d, lst in forced.items():
        lst.reverse()  # in the order of time
        tr = slots[lst[0]].trump
        if r.return_rule == "overall":
            top = max(_bits(hs[d]), key=lambda c: _key(c, tr), default=-1)
            tops = _key(top, tr) if top >= 0 else (-1, -1, -1)
            classes = {-1: lst}
            avail = {-1: [c for c in _bits(hs[u]) if _key(c, tr) > tops and fv.get(c) != u]}
        else:
            classes = {}
            for i in lst:
                classes.setdefault(answers[i] // 13, []).append(i)
            avail = {}
            for s_ in classes:
                hi = (hs[d] & SUIT_MASKS[s_]).bit_length() - 1
                avail[s_] = [c for c in _bits(hs[u] & SUIT_MASKS[s_]) if c > hi and fv.get(c) != u]
        for cls, li in classes.items():
            pool = avail[cls]
            if len(pool) < len(li):
                return None
            need = [c for c in todo if c in pool]
            # cards this down player was given and holds no more must be among his returns
            need += [answers[i] for i in li if not hs[d] >> answers[i] & 1 and answers[i] not in need]
            if len(need) > len(li) or any(c not in pool for c in need):
                return None
            rest = [c for c in pool if c not in need]
            picked = need + rng.sample(rest, len(li) - len(need))
            todo = [c for c in todo if c not in picked]
            key_tr = slots[li[0]].trump
            picked.sort(key=lambda c: _key(c, key_tr), reverse=True)
            for i, c in zip(li, picked, strict=True):
                got[i] = c
                hs[u] &= ~(1 << c)
                hs[d] |= 1 << c
    if any(_key(c, tg) <= tk for c in _bits(hs[u])):
        return None  # he kept a card at or below his threshold
    for gi, g in gmap.items():
        if not hs[slots[gi].other] >> g & 1:
            return None
    return got
