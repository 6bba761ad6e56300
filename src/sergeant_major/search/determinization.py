"""Determinization: draw a whole deal consistent with what one seat knows (for PIMC and ISMCTS search).

:func:`resample` takes a seat's :class:`~sergeant_major.core.view.View` and a generator and returns a
:class:`~sergeant_major.core.deal.Deal` - built from sampled hands as dealt and replayed action by action
through the checked engine - that equals the real deal in every public respect and in the seat's own
cards: ``build_view(sample, view.seat, ...) == view``. No third-party dependency.

The parts, one module each: :mod:`.determinization_plan` (step (1) below: what the view says, as the places of the
unseen cards and their constraints), :mod:`.determinization_worlds` (step (2): counting and drawing worlds),
:mod:`.determinization_history` (step (3): a history for a world) and :mod:`.determinization_budget` (the errors
and :class:`Budget`); this module draws worlds until one has a history.

What the seat knows and the sample honours (rules texts: seeds 000/004 "Exchanging cards", "Playing the
tricks"; 002; 003; docs/rules.md reference decisions 1-4):

- its own hand (in 3-5-8 before the contract only the first ``contract-after`` cards dealt: the rest of its
  own hand is unknown too), every card played, the hand sizes, the kitty and discards if it is the declarer
  (for the others the kitty and the discards are unknown cards that sit out);
- shown voids: a seat that did not follow suit holds no card of the suit led; with ``must-trump=on`` a seat
  that neither followed nor trumped holds no trump; with ``must-overtrump=on`` a seat that under-trumped
  holds no higher trump (and, without must-trump, no card but trumps);
- the exchange: the cards the seat gave and received; a card it gave is in the receiver's hand, unless a
  later move it cannot see (a return to another up player, a discard by the declarer) may have taken it on;
- the return rule (docs/rules.md reference decision 1): a down player who returned ``r`` for a card of suit S held no S
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
groups (multinomials, big integers; the two largest groups together in closed form,
:func:`~.determinization_worlds.count_assignments`), and the groups are split by sequential counting; inside a
group the cards are shuffled. (3) Complete the world into a history: walk the public history backwards, choosing what
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
seat saw none of, directly among those whose forced returns the up player's hand can hold,
``determinization_history._capped_gives``)
and the unseen returns as the rule forces them. A world in which ``t`` and as many cards at or below it as he
gave are not where his gives can be now is dropped before any completion
(:func:`~.determinization_worlds.gives_possible`), and so is one
whose gives to a down player he saw none of cannot be answered (``return=suit``: each give of suit S came back as
the down player's highest S card, which the up player still holds or has played, so per suit at most as many gives
as he has such cards above the down player's, and at least as many as the low cards he holds or played when only
that down player's returns reached him: :func:`~.determinization_plan.answerable_under_caps`); a threshold for
which this fails on what
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
up players' threshold choices (up to :data:`~.determinization_plan.MAX_THRESHOLD_CHOICES`), up to about 10 s;
milliseconds otherwise.
A caller that must bound the time passes a :class:`Budget` (a count of steps, shared by several calls; the
expert player's worlds of one decision share one): :func:`resample` then raises :class:`BudgetExhausted` rather
than exceed it, and draws exactly as without it while budget is left. The plan and the first count of a view
are not counted in it.
"""

from __future__ import annotations

import random

from sergeant_major.core.deal import Deal
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.seeding import check_rng
from sergeant_major.core.view import View
from sergeant_major.search.determinization_budget import Budget, BudgetExhausted, ResampleError
from sergeant_major.search.determinization_history import PLAN_TRIES, RETURN_STEPS, complete_history
from sergeant_major.search.determinization_plan import Plan, prepare_plan
from sergeant_major.search.determinization_worlds import draw_world, gives_possible, returns_possible

__all__ = ["resample", "resample_worlds", "ResampleError", "Budget", "BudgetExhausted", "COMPLETIONS", "MAX_WORLDS", "RETURN_STEPS",
           "PLAN_TRIES"]


COMPLETIONS = 12
"""Completion attempts per sampled world before it is rejected."""


MAX_WORLDS = 2000
"""Worlds drawn before :func:`resample` gives up (never reached on views of legal games in the tests)."""


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
    _check_arguments(view, rng, budget)
    plan = prepare_plan(view)
    return _sample(plan, rng, budget)


def resample_worlds(view: View, rng: random.Random, count: int, *, budget: Budget | None = None) -> list[Deal]:
    """Up to ``count`` deals drawn from ``view`` one after another: what ``count`` calls of :func:`resample` draw
    (the same generator use, the same deals), the arguments checked and the view's plan found once (its cache hashed
    the whole view at every call). Fewer when the view admits no deal or ``budget`` runs out: the deals drawn until
    then (the generator has advanced as :func:`resample` leaves it).

    Raises:
        SergeantMajorError: quoting ``view``, ``rng`` or ``budget`` as :func:`resample` does. Nothing is drawn.
    """
    _check_arguments(view, rng, budget)
    out: list[Deal] = []
    try:
        plan = prepare_plan(view)
        while len(out) < count:
            out.append(_sample(plan, rng, budget))
    except ResampleError:  # rare (give=lowest) or the budget ran out (BudgetExhausted)
        pass
    return out


def _check_arguments(view: object, rng: object, budget: object) -> None:
    """Raise :class:`SergeantMajorError` quoting ``view``, ``rng`` or ``budget`` when it is not what :func:`resample`
    takes."""
    if not isinstance(view, View):
        raise SergeantMajorError(f"resample: view={_short(view)} is not a View (Match.view(seat) or build_view gives one)")
    check_rng(rng, "resample")
    if budget is not None and not isinstance(budget, Budget):
        raise SergeantMajorError(f"resample: budget={_short(budget)} is not a Budget (or None)")


def _short(value: object) -> str:
    """``repr(value)``, cut to 60 characters for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _sample(plan: Plan, rng: random.Random, budget: Budget | None = None) -> Deal:
    """Draw worlds from ``plan`` until one has a history (:data:`COMPLETIONS` tries each), at most
    :data:`MAX_WORLDS` of them.

    Raises:
        ResampleError: when no world found a history; BudgetExhausted (a ResampleError) when ``budget`` ran out.
    """
    view = plan.view
    checks = plan.return_checks
    for _ in range(MAX_WORLDS):
        if budget is not None:
            budget.take_step()
            budget.draws += 1
        world, thresholds = draw_world(plan, rng)
        if checks and not returns_possible(plan, world, checks):
            continue
        if plan.lowest_rounds and not gives_possible(plan, world, thresholds):
            continue
        for _ in range(COMPLETIONS):
            if budget is not None:
                budget.take_step()
                budget.completions += 1
            deal = complete_history(plan, world, thresholds, rng, budget)
            if deal is not None:
                if budget is not None:
                    budget.samples += 1
                return deal
    raise ResampleError(f"no consistent deal found for the view of seat {view.seat} after {MAX_WORLDS} draws")
