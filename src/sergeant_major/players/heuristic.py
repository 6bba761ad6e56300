"""The ``heuristic`` level: plays by the tips of the rules texts, deterministically (no random choice)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from sergeant_major.core.actions import Action, AssignTargets, Contract, Discard, EndGive, Give, NameContract, Play, Return
from sergeant_major.core.cards import FULL_DECK, SUIT_MASKS, Card, id_list, mask_of
from sergeant_major.core.deal import Deal
from sergeant_major.core.view import View, hand_seen
from sergeant_major.players.protocol import check_decision

__all__ = ["HeuristicPlayer", "beats", "play_card", "discard_card", "give_card", "return_card", "contract_score",
           "contract_choice", "choice_in_deal"]


class HeuristicPlayer:
    """Plays by the rules texts' tips (seeds 000/004 "Tips for beginners", 002 "Tipps und Strategien"):

    - as declarer it names its longest strong suit and discards to make voids;
    - following, it wins as cheaply as it can or throws its lowest card;
    - the non-declarers work together against the declarer (no over-taking a partner's winning card);
    - when up, it gives away its lowest unwanted cards (short suits first, to make voids);
    - in minimum tricks (3-5-8) it ducks whenever it can.
    """

    def __init__(self, name: str = "heuristic") -> None:
        self.name = name

    # -------------------------------------------------------------- dispatch
    def choose(self, view: View, rng: random.Random) -> Action:
        """The heuristic's choice among ``view.legal`` (``rng`` is not used).

        Raises:
            SergeantMajorError: when the seat is not to act (``view.legal`` is empty).
        """
        check_decision(view)
        legal = view.legal
        first = legal[0]
        if isinstance(first, Play):
            return self._play(view, [a for a in legal if isinstance(a, Play)])
        if isinstance(first, NameContract):
            return self._contract(view, [a for a in legal if isinstance(a, NameContract)])
        if isinstance(first, Discard):
            return self._discard(view, [a for a in legal if isinstance(a, Discard)])
        if isinstance(first, (Give, EndGive)):
            gives = [a for a in legal if isinstance(a, Give)]
            return self._give(view, gives) if gives else first
        if isinstance(first, Return):
            returns = [a for a in legal if isinstance(a, Return)]
            cid = return_card(mask_of(a.card for a in returns))
            return next(a for a in returns if a.card.id == cid)
        if isinstance(first, AssignTargets):
            return self._assign(view, [a for a in legal if isinstance(a, AssignTargets)])
        return first

    # -------------------------------------------------------------- decisions before the play
    def _contract(self, view: View, legal: list[NameContract]) -> Action:
        c = contract_choice(mask_of(view.hand), [a.contract for a in legal])
        return next(a for a in legal if a.contract is c)

    def _discard(self, view: View, legal: list[Discard]) -> Action:
        cid = discard_card(mask_of(a.card for a in legal), view.trump)
        return next(a for a in legal if a.card.id == cid)

    def _give(self, view: View, legal: list[Give]) -> Action:
        cid = give_card(mask_of(a.card for a in legal), mask_of(view.hand), view.trump)
        return next(a for a in legal if a.card.id == cid)

    def _assign(self, view: View, legal: list[AssignTargets]) -> Action:
        me = view.seat
        return max(legal, key=lambda a: (-a.targets[me], a.targets))  # take the lowest target himself

    # -------------------------------------------------------------- card play
    def _play(self, view: View, legal: list[Play]) -> Action:
        unseen = FULL_DECK & ~mask_of(view.played_cards()) & ~mask_of(view.hand)
        if view.discards:
            unseen &= ~mask_of(view.discards)
        cid = play_card(mask_of(a.card for a in legal), [(s, c.id) for s, c in view.trick], view.leader, view.trump,
                        view.contract is Contract.MINIMUM, unseen, view.declarer, view.seat, view.players)
        return next(a for a in legal if a.card.id == cid)


def beats(card: Card, best: Card, trump: int) -> bool:
    """Whether ``card``, played to a trick, beats ``best``, the card winning the trick so far (of the suit led or a
    trump): a higher card of ``best``'s suit, or a trump over a card of another suit (``trump``: the trump suit
    0..3, or -1 when there is none)."""
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == trump


def play_card(legal: int, trick: Sequence[tuple[int, int]], leader: int, trump: int, minimum: bool, unseen: int,
              declarer: int, seat: int, players: int) -> int:
    """The heuristic's card, as a card id, from masks (what :meth:`HeuristicPlayer.choose` plays; the likelihood of
    a play in :mod:`sergeant_major.players.inference` asks it for many sampled hands, so it builds no view).

    Args:
        legal: mask of the cards ``seat`` may play (not 0).
        trick: the trick so far, ``(seat, card id)`` in play order; ``leader`` led it.
        trump: the trump suit 0..3, or -1; ``minimum``: the contract is minimum tricks.
        unseen: mask of the cards ``seat`` cannot see (not played, not in its hand, not its own discards).
    """
    ids = id_list(legal)

    def is_top(c: int) -> bool:
        return not (unseen & SUIT_MASKS[c // 13] & ~((1 << (c + 1)) - 1))

    if not trick:
        return _lead_card(ids, trump, minimum, unseen, is_top, seat == declarer)
    led = trick[0][1] // 13
    win_seat, win = trick[0]
    for s, c in trick[1:]:
        if c // 13 == win // 13 and c > win or c // 13 != win // 13 and c // 13 == trump:
            win_seat, win = s, c
    win_suit = win // 13
    winners = [c for c in ids if (c > win if c // 13 == win_suit else c // 13 == trump)]
    last = len(trick) == players - 1
    if minimum:  # duck: highest card that still loses, else lowest winner
        losers = [c for c in ids if c not in winners]
        if losers:
            return max(losers, key=lambda c: c % 13)
        return min(winners, key=lambda c: c % 13)
    if seat != declarer and win_seat != declarer:
        # the declarer still to play after me can overtake; else my partner's card stands
        decl_after = any((leader + k) % players == declarer for k in range(len(trick) + 1, players))
        if not decl_after or win_suit == trump or is_top(win):
            return _lowest(ids, trump)
    if winners:
        cheap = _lowest(winners, trump)
        if last or is_top(cheap) or cheap // 13 == trump and trump != led:
            return cheap
        top = [c for c in winners if is_top(c)]
        if top:
            return min(top, key=lambda c: c % 13)
    return _lowest(ids, trump)


def _lowest(ids: list[int], trump: int) -> int:
    """The lowest of the card ids ``ids`` (ascending, not empty): the lowest rank, a non-trump before a trump, the
    first of equals. Cards of one suit (following suit, most often) are already in rank order."""
    if ids[0] // 13 == ids[-1] // 13:
        return ids[0]
    return min(ids, key=lambda c: (c // 13 == trump, c % 13))


def contract_score(hand: int, contract: Contract) -> float:
    """How much the heuristic likes ``contract`` with the cards of mask ``hand`` (those its view shows): a trump suit
    by its length and high cards, no-trump by the high cards, minimum tricks by the low cards."""
    if contract < 4:
        suit = hand & SUIT_MASKS[contract]
        return suit.bit_count() * 2.0 + sum(max(0, c % 13 - 8) for c in id_list(suit)) * 0.8
    if contract is Contract.NO_TRUMP:
        return sum(max(0, c % 13 - 9) for c in id_list(hand)) * 1.2 + 1
    return sum(max(0, 7 - c % 13) for c in id_list(hand)) * 0.6  # minimum tricks: good with low cards


def contract_choice(hand: int, contracts: Sequence[Contract]) -> Contract:
    """The heuristic's contract among ``contracts`` (not empty) with the cards of mask ``hand`` (those its view
    shows): the best :func:`contract_score`, the first of equals."""
    best = contracts[0]
    top = contract_score(hand, best)
    for c in contracts[1:]:
        score = contract_score(hand, c)
        if score > top:
            best, top = c, score
    return best


def give_card(legal: int, hand: int, trump: int) -> int:
    """The heuristic's give, as a card id, from the mask of the cards it may give (not 0), the mask of its hand (as
    its view shows it) and the trump suit (0..3, or -1): its lowest non-trump card, of its shortest suit among equal
    ranks (to make voids); a trump only when it may give nothing else."""
    counts = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    return min(id_list(legal), key=lambda c: (c // 13 == trump, c % 13, counts[c // 13]))


def return_card(legal: int) -> int:
    """The heuristic's return, as a card id, from the mask of the cards it may return (not 0; a choice only with
    ``trump-return=free``): the lowest rank, the lowest suit of equals."""
    return min(id_list(legal), key=lambda c: c % 13)


def choice_in_deal(deal: Deal, legal: Sequence[Action], view: Callable[[], View]) -> Action:
    """The heuristic's choice among ``legal`` (the legal actions of the seat to act in ``deal``, not empty), as
    :meth:`HeuristicPlayer.choose` makes it from that seat's view: from the deal's masks for a discard, a give, a
    return or the contract (search asks it in many sampled deals, where building a view cost more than the choice),
    else from ``view()``, the seat's view. Reads only what the seat's view shows."""
    first = legal[0]
    if isinstance(first, Discard):
        cid = discard_card(mask_of(a.card for a in legal if isinstance(a, Discard)), deal.trump)
        return next(a for a in legal if isinstance(a, Discard) and a.card.id == cid)
    if isinstance(first, Give):
        cid = give_card(mask_of(a.card for a in legal if isinstance(a, Give)), hand_seen(deal, first.seat), deal.trump)
        return next(a for a in legal if isinstance(a, Give) and a.card.id == cid)
    if isinstance(first, Return):
        cid = return_card(mask_of(a.card for a in legal if isinstance(a, Return)))
        return next(a for a in legal if isinstance(a, Return) and a.card.id == cid)
    if isinstance(first, NameContract):
        c = contract_choice(hand_seen(deal, first.seat), [a.contract for a in legal if isinstance(a, NameContract)])
        return next(a for a in legal if isinstance(a, NameContract) and a.contract is c)
    return _HEURISTIC.choose(view(), _NO_RNG)


def _lead_card(ids: list[int], trump: int, minimum: bool, unseen: int, is_top: Callable[[int], bool],
               declaring: bool) -> int:
    if minimum:
        return min(ids, key=lambda c: c % 13)
    tops = [c for c in ids if c // 13 != trump and is_top(c)]
    my_trumps = [c for c in ids if c // 13 == trump]
    if declaring and trump >= 0 and my_trumps and unseen & SUIT_MASKS[trump]:
        # draw trumps with a sure winner, or when long in them
        top_tr = [c for c in my_trumps if is_top(c)]
        if top_tr:
            return max(top_tr, key=lambda c: c % 13)
        if len(my_trumps) >= 5:
            return min(my_trumps, key=lambda c: c % 13)
    if tops:
        return max(tops, key=lambda c: c % 13)
    side = [c for c in ids if c // 13 != trump] or ids
    counts = [0, 0, 0, 0]
    for c in side:
        counts[c // 13] += 1
    return min(side, key=lambda c: (-counts[c // 13], c % 13))


def discard_card(hand: int, trump: int) -> int:
    """The heuristic's discard, as a card id, from the mask of the cards it may discard (its hand; not 0) and the
    trump suit (0..3, or -1): it keeps trumps and aces and empties its shortest side suits first (to make voids),
    lowest cards first."""
    counts = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    return min(id_list(hand),
               key=lambda c: (c // 13 == trump, c % 13 == 12, counts[c // 13] * 16 + c % 13))


_HEURISTIC = HeuristicPlayer()
_NO_RNG = random.Random(0)  # the heuristic draws nothing from its generator
