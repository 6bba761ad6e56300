"""A seat's view: everything that seat may know, and nothing else.

Built only from what the seat may see (seeds 000/004: the kitty and discards are the dealer's;
exchanged cards are known to the giver and the receiver; docs/rules.md reference decision 4): its own hand, every
card played, the contract, the counts of the other hands, the cards it gave and received in the
exchange, and, for the declarer only, the kitty (once taken or seen) and its discards. Players, front
ends and the web receive views, never the state: nothing reachable from a view leads back to it.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from sergeant_major.core.actions import Action, Contract, EndGive
from sergeant_major.core.cards import CARDS, Card, cards_of, mask_of, sort_hand
from sergeant_major.core.deal import Deal, DealResult, ExchangeEvent, Phase, Trick
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.rules import Rules

__all__ = ["View", "build_view", "hand_seen"]


@dataclass(frozen=True)
class View:
    """What seat :attr:`seat` knows at one moment of the match.

    Attributes:
        seat: the viewing seat, ``0..players-1``.
        rules: the rules in force.
        names: the players' names by seat.
        deal_number: 1-based number of the current deal.
        dealer: the dealer's seat; :attr:`declarer` names trump and uses the kitty.
        phase: the deal's :class:`Phase`.
        to_act: the seat whose turn it is (``None`` once scored).
        targets: each seat's target this deal.
        contract: the contract once named, else ``None``.
        hand: this seat's cards, sorted by suit (trump first) and rank. In 3-5-8 before the contract,
            only the first ``contract-after`` cards dealt.
        hand_sizes: how many cards each seat holds.
        kitty_count: cards still face down in the middle.
        kitty: the kitty's cards, for the declarer once he has taken or seen it; else ``None``.
        discards: the declarer's discards (declarer only), else ``None``.
        trick: the trick in progress, ``(seat, card)`` in play order; :attr:`leader` led it.
        tricks_won: tricks taken by each seat this deal.
        completed: completed tricks of this deal.
        exchange: exchange events of this deal; ``card`` is ``None`` where this seat neither gave nor received it.
        legal: this seat's legal actions when it is to act, else empty.
        totals: running match totals by seat.
        results: results of the completed deals of the match.
        contracts_left: per seat, the contracts it may still choose (3-5-8 ``contract-once``), else empty.
        prev_diffs: the previous deal's over/under-tricks by seat (``None`` on the first deal).
        ended_gives: ``(giver, receiver)`` pairs where the up player said he gives no more cards
            (``exchange-count=at-most``; public, like the number of cards passed).
    """

    seat: int
    rules: Rules
    names: tuple[str, ...]
    deal_number: int
    dealer: int
    declarer: int
    phase: Phase
    to_act: int | None
    targets: tuple[int, ...]
    contract: Contract | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    kitty_count: int
    kitty: tuple[Card, ...] | None
    discards: tuple[Card, ...] | None
    trick: tuple[tuple[int, Card], ...]
    leader: int
    tricks_won: tuple[int, ...]
    completed: tuple[Trick, ...]
    exchange: tuple[ExchangeEvent, ...]
    legal: tuple[Action, ...]
    totals: tuple[int, ...]
    results: tuple[DealResult, ...]
    contracts_left: tuple[tuple[Contract, ...], ...]
    prev_diffs: tuple[int, ...] | None
    ended_gives: tuple[tuple[int, int], ...] = ()

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.names)

    @property
    def trump(self) -> int:
        """Trump suit number 0..3, or -1."""
        if self.contract is None or self.contract.trump is None:
            return -1
        return int(self.contract.trump)

    def role(self, seat: int) -> int:
        """Role index of ``seat`` this deal: 0 dealer, 1 eldest, 2 third, 3 fourth."""
        return (seat - self.dealer) % self.players

    @property
    def gave(self) -> tuple[Card, ...]:
        """Cards this seat gave or returned in this deal's exchange."""
        return tuple(e.card for e in self.exchange if e.giver == self.seat and e.card is not None)

    @property
    def received(self) -> tuple[Card, ...]:
        """Cards this seat received in this deal's exchange."""
        return tuple(e.card for e in self.exchange if e.receiver == self.seat and e.card is not None)

    def played_cards(self) -> list[Card]:
        """Every card played so far this deal (completed tricks and the trick in progress)."""
        out = [c for t in self.completed for _, c in t.cards]
        out += [c for _, c in self.trick]
        return out


def hand_seen(deal: Deal, seat: int) -> int:
    """The mask of the cards ``seat``'s view shows as its hand: its hand now, but before the contract with
    ``contract-after`` (3-5-8) only the first cards dealt to it (the rest is picked up after the contract)."""
    r = deal.rules
    if r.contract_after and deal.contract is None:
        return mask_of(deal.dealt[seat][: r.contract_after])
    return deal.hands[seat]


def build_view(
    deal: Deal,
    seat: int,
    names: tuple[str, ...],
    totals: tuple[int, ...],
    results: tuple[DealResult, ...],
    contracts_left: tuple[tuple[Contract, ...], ...] = (),
) -> View:
    """Build ``seat``'s :class:`View` of ``deal`` (and the match context given).

    Raises:
        SergeantMajorError: quoting a ``seat`` that is not a seat ``0..n-1`` of the deal (``-1`` used to give the
            last seat's hand under seat -1, ``3`` an ``IndexError``).
    """
    # bool is an int, and a negative int indexes the hands from the end: both are refused, as a seat out of range
    if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < deal.n:
        raise SergeantMajorError(f"seat {seat!r} is not a seat of this deal: give an int in 0..{deal.n - 1}")
    r: Rules = deal.rules
    trump = deal.trump if deal.trump >= 0 else None
    phase = deal.phase
    hand_cards = cards_of(hand_seen(deal, seat))
    if r.contract_after and deal.contract is None:
        sizes = tuple(r.contract_after for _ in range(deal.n))
    else:
        sizes = tuple(h.bit_count() for h in deal.hands)
    is_decl = seat == deal.declarer
    kitty = tuple(deal.kitty_dealt) if (is_decl and deal.kitty_seen) else None
    discards = tuple(cards_of(deal.discards)) if is_decl else None
    exchange = tuple(
        e if seat in (e.giver, e.receiver) else ExchangeEvent(e.kind, e.giver, e.receiver, None)
        for e in deal.exchange_log
    )
    to_act = deal.to_act
    legal = tuple(deal.legal_actions()) if to_act == seat else ()
    return View(
        seat=seat,
        rules=r,
        names=names,
        deal_number=deal.number,
        dealer=deal.dealer,
        declarer=deal.declarer,
        phase=phase,
        to_act=to_act,
        targets=deal.targets,
        contract=deal.contract,
        hand=tuple(sort_hand(hand_cards, None if trump is None else CARDS[trump * 13].suit)),
        hand_sizes=sizes,
        kitty_count=deal.kitty.bit_count(),
        kitty=kitty,
        discards=discards,
        trick=tuple(deal.current_trick()),
        leader=deal.leader,
        tricks_won=tuple(deal.tricks_won),
        completed=tuple(deal.completed),
        exchange=exchange,
        legal=legal,
        totals=totals,
        results=results,
        contracts_left=contracts_left,
        prev_diffs=deal.prev_diffs,
        ended_gives=tuple((a.seat, a.to) for a in deal.history if isinstance(a, EndGive)),
    )
