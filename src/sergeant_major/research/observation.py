"""Observation and information-state encodings of a seat's :class:`~sergeant_major.core.view.View`.

Every number here is computed from a :class:`View` and nothing else, so an encoding can hold no hidden
card by construction (seeds 000/004 and docs/rules.md reference decision 4 say who may see the kitty, the discards and
the exchanged cards; :func:`~sergeant_major.core.view.build_view` applies them).

Two tensors, both flat lists of floats in ``[0, 1]`` and of a fixed size for a given :class:`Rules`:

- :func:`encode_observation` (size :func:`observation_size`): what the seat sees *now* (its hand, the
  cards played this deal, the trick in progress, contract, targets, tricks, its kitty/discards/exchange
  cards, known voids, match totals...).
- :func:`encode_information_state` (size :func:`information_state_size`): the observation followed by the
  deal's history with perfect recall: the seat's cards as dealt, every exchange event in order (the card
  only where this seat gave or received it) and every completed trick in order.

Other seats are encoded *relative to the viewer*: slot 0 is the viewer, slot 1 the player on its left
(who plays after it), slot 2 the next one, ... so the encoding is seat-symmetric. The layout (block,
offset, size, meaning) comes from one definition, :data:`OBS_BLOCKS` / :data:`INFO_BLOCKS`; the table in
``docs/research.md`` is generated from it (:func:`layout_table`) and a test compares the two. The layout's
digest (:func:`layout_hash`) is pinned next to :data:`OBSERVATION_VERSION` in :data:`LAYOUT_HASHES`: any
change of the layout must come with a new version name.

The matching strings, :func:`observation_string` and :func:`information_state_string`, carry the same
information as text (one line per block), for logs and as OpenSpiel-style keys.

This module has no third-party dependency (plain lists); the environments turn them into numpy arrays.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from sergeant_major.core.actions import Contract, EndGive, Give, Return
from sergeant_major.core.cards import Card, format_cards
from sergeant_major.core.deal import ExchangeKind, Phase
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import visible
from sergeant_major.core.view import View

__all__ = [
    "OBSERVATION_VERSION",
    "LAYOUT_HASHES",
    "Block",
    "OBS_BLOCKS",
    "INFO_BLOCKS",
    "observation_size",
    "information_state_size",
    "observation_layout",
    "information_state_layout",
    "encode_observation",
    "encode_information_state",
    "observation_string",
    "information_state_string",
    "layout_hash",
    "layout_table",
    "relative_names",
]

OBSERVATION_VERSION: Final = "smobs-v1"

PHASES: Final = (Phase.ASSIGN, Phase.EXCHANGE, Phase.CONTRACT, Phase.KITTY, Phase.DISCARD, Phase.PLAY, Phase.SCORED)
_PHASE_INDEX: Final = {p: i for i, p in enumerate(PHASES)}
_DEAL_CAP: Final = 50  # deal number scale when the rules set no fixed number of deals


@dataclass(frozen=True)
class Block:
    """One block of an encoding.

    Attributes:
        name: the block's name (also the label of its line in the strings).
        size: the size as a formula in ``n`` (players), ``T`` (tricks per deal), ``K`` (kitty size) and
            ``E`` (most exchange events in a deal: ``2 * min(T, sum of targets)``).
        meaning: what the numbers mean, with their scale.
    """

    name: str
    size: str
    meaning: str

    def length(self, rules: Rules) -> int:
        """The block's size under ``rules``."""
        return _eval_size(self.size, rules)


def _dims(rules: Rules) -> dict[str, int]:
    return {
        "n": rules.players,
        "T": rules.tricks,
        "K": rules.kitty_size,
        "E": 2 * min(rules.tricks, sum(rules.targets)),
    }


def _eval_size(formula: str, rules: Rules) -> int:
    value = eval(formula, {"__builtins__": {}}, _dims(rules))  # noqa: S307 - formulas are the constants below
    assert isinstance(value, int)
    return value


# The ONE layout definition. Slots "by relative seat" are: 0 the viewer, 1 its left (next to play), ...
OBS_BLOCKS: Final[tuple[Block, ...]] = (
    Block("hand", "52", "1 for each card (id suit*13+rank) in the viewer's hand now (3-5-8 before the contract: the cards seen so far)"),
    Block("played", "n*52", "cards played this deal (completed tricks and the trick in progress), 52 per relative seat"),
    Block("trick", "n*52", "the trick in progress, 52 per play position (0 = the card led)"),
    Block("leader", "n", "one-hot relative seat that leads (or led) the trick in progress"),
    Block("to_act", "n", "one-hot relative seat to act (all 0 once the deal is scored)"),
    Block("exchange_with", "n", "one-hot relative seat the viewer gives to or returns to, when it is to act in the exchange; else 0"),
    Block("phase", "7", "one-hot phase: assign, exchange, contract, kitty, discard, play, scored"),
    Block("contract", "7", "one-hot contract: none yet, clubs, diamonds, hearts, spades, no-trump, minimum tricks"),
    Block("role", "n", "one-hot role of the viewer this deal: dealer, eldest, third (, fourth)"),
    Block("declarer", "n", "one-hot relative seat of the declarer (names trump, uses the kitty)"),
    Block("targets", "n", "target per relative seat / T"),
    Block("tricks_won", "n", "tricks taken this deal per relative seat / T"),
    Block("hand_sizes", "n", "cards held per relative seat / 52"),
    Block("kitty_count", "1", "cards still face down in the kitty / 4"),
    Block("kitty", "52", "the kitty's cards: the declarer only, once taken or seen; else 0"),
    Block("discards", "52", "the declarer's discards: the declarer only; else 0"),
    Block("gave", "52", "cards the viewer gave or returned in this deal's exchange"),
    Block("received", "52", "cards the viewer received in this deal's exchange"),
    Block("passed", "n*n", "cards passed this deal from relative seat i (row) to relative seat j (column) / T"),
    Block("prev_over", "n", "previous deal's over-tricks per relative seat / T (they give in the exchange)"),
    Block("prev_under", "n", "previous deal's under-tricks per relative seat / T (they return in the exchange)"),
    Block("voids", "n*4", "relative seat has shown out of a suit this deal (failed to follow suit), 4 suits C D H S per seat"),
    Block("deal_number", "1", "deal number / the rules' number of deals (or / 50, capped at 1)"),
    Block("totals", "n", "match total per relative seat as 0.5 + total / (2 S), clipped to 0..1; S = to, else bound, else 2 T"),
    Block("contracts_left", "n*6", "contracts each relative seat may still choose (C D H S NT MT); all allowed ones without contract-once"),
)

INFO_BLOCKS: Final[tuple[Block, ...]] = (
    Block("observation", "OBS", "the observation above"),
    Block("dealt", "52", "the viewer's cards as dealt (3-5-8 before the contract: the cards seen so far)"),
    Block("exchange_seq", "E*(2+2*n+52)", "exchange events in order: kind (give, return), giver and receiver relative seats, "
          "the card when the viewer gave or received it (else 0)"),
    Block("trick_seq", "T*(n+n*52)", "completed tricks in order: relative seat that led, then the card of each play position"),
)

# Digest of the layout per version: a test recomputes it. Changing a block means a new version name.
LAYOUT_HASHES: Final[dict[str, str]] = {
    "smobs-v1": "c5e46f25f583d463",
}


def _info_size_formula(block: Block, rules: Rules) -> int:
    return observation_size(rules) if block.size == "OBS" else block.length(rules)


@functools.lru_cache(maxsize=64)
def observation_layout(rules: Rules) -> tuple[tuple[str, int, int, str], ...]:
    """``(block, offset, size, meaning)`` rows of the observation under ``rules``."""
    out: list[tuple[str, int, int, str]] = []
    off = 0
    for b in OBS_BLOCKS:
        k = b.length(rules)
        out.append((b.name, off, k, b.meaning))
        off += k
    return tuple(out)


@functools.lru_cache(maxsize=64)
def information_state_layout(rules: Rules) -> tuple[tuple[str, int, int, str], ...]:
    """``(block, offset, size, meaning)`` rows of the information state under ``rules``."""
    out: list[tuple[str, int, int, str]] = []
    off = 0
    for b in INFO_BLOCKS:
        k = _info_size_formula(b, rules)
        out.append((b.name, off, k, b.meaning))
        off += k
    return tuple(out)


def _as_rules(rules: Rules | str, who: str) -> Rules:
    """``rules``, or the rules its string form names (as ``env(rules=...)`` takes them).

    Raises:
        RulesError: quoting a bad rules string; SergeantMajorError: quoting anything else than rules.
    """
    if isinstance(rules, str):
        return Rules.parse(rules)
    if not isinstance(rules, Rules):
        raise SergeantMajorError(f"{who} takes rules (Rules.parse('9-5-2') or '9-5-2'), not {visible(repr(rules))[:60]}")
    return rules


def observation_size(rules: Rules | str) -> int:
    """Length of :func:`encode_observation` under ``rules`` (660 for the 3-player presets, 792 with 4 players).

    Raises:
        SergeantMajorError: quoting ``rules`` that are neither :class:`Rules` nor a valid rules string.
    """
    last = observation_layout(_as_rules(rules, "observation_size"))[-1]
    return last[1] + last[2]


def information_state_size(rules: Rules | str) -> int:
    """Length of :func:`encode_information_state` under ``rules``.

    Raises:
        SergeantMajorError: quoting ``rules`` that are neither :class:`Rules` nor a valid rules string.
    """
    last = information_state_layout(_as_rules(rules, "information_state_size"))[-1]
    return last[1] + last[2]


def layout_hash() -> str:
    """A 16-hex-digit digest of the layout definition (block names, size formulas and meanings, in order)."""
    text = "\n".join(f"{b.name}|{b.size}|{b.meaning}" for b in (*OBS_BLOCKS, *INFO_BLOCKS))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def layout_table(rules: Rules | str | None = None, info: bool = False) -> str:
    """The layout as a Markdown table (block, offset, size, formula, meaning) under ``rules`` (default 9-5-2).

    ``docs/research.md`` holds these tables for the observation and the information state.
    """
    r = Rules.preset() if rules is None else _as_rules(rules, "layout_table")
    blocks = INFO_BLOCKS if info else OBS_BLOCKS
    rows = information_state_layout(r) if info else observation_layout(r)
    lines = ["| block | offset | size | formula | meaning |", "|---|---|---|---|---|"]
    for b, (name, off, k, meaning) in zip(blocks, rows, strict=True):
        lines.append(f"| `{name}` | {off} | {k} | `{b.size}` | {meaning} |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------- helpers
def relative_names(players: int) -> tuple[str, ...]:
    """Names of the relative seats: ``me left right`` (3 players), ``me left across right`` (4)."""
    return ("me", "left", "right") if players == 3 else ("me", "left", "across", "right")


def _rel(view: View, seat: int) -> int:
    return (seat - view.seat) % view.players


def _total_scale(rules: Rules) -> int:
    if rules.target_total is not None:
        return rules.target_total
    if rules.bound is not None:
        return rules.bound
    return 2 * rules.tricks


def _voids(view: View) -> list[set[int]]:
    """Suits each seat (absolute) has shown out of this deal: it did not follow the suit led."""
    out: list[set[int]] = [set() for _ in range(view.players)]
    tricks = [t.cards for t in view.completed] + ([view.trick] if view.trick else [])
    for cards in tricks:
        led = cards[0][1].suit
        for s, c in cards[1:]:
            if c.suit != led:
                out[s].add(int(led))
    return out


def _passed(view: View) -> list[list[int]]:
    n = view.players
    m = [[0] * n for _ in range(n)]
    for e in view.exchange:
        m[_rel(view, e.giver)][_rel(view, e.receiver)] += 1
    return m


def _contracts_left(view: View) -> list[tuple[Contract, ...]]:
    if view.contracts_left:
        return [view.contracts_left[(view.seat + i) % view.players] for i in range(view.players)]
    every = tuple(Contract) if view.rules.has_nt_mt else tuple(Contract)[:4]
    return [every] * view.players


def _exchange_with(view: View) -> int | None:
    """The seat the viewer gives to or returns to now, when it is to act in the exchange."""
    if view.legal and isinstance(view.legal[0], (Give, Return, EndGive)):
        return view.legal[0].to
    return None


def _dealt(view: View) -> list[int]:
    """Per card id: 1 when the viewer was dealt it (rebuilt from its hand and what it did and saw)."""
    count = [0] * 52
    for c in view.hand:
        count[c.id] += 1
    for c in view.received:
        count[c.id] -= 1
    for c in view.gave:
        count[c.id] += 1
    if view.kitty is not None:
        for c in view.kitty:
            count[c.id] -= 1
    if view.discards:
        for c in view.discards:
            count[c.id] += 1
    for t in view.completed:
        for s, c in t.cards:
            if s == view.seat:
                count[c.id] += 1
    for s, c in view.trick:
        if s == view.seat:
            count[c.id] += 1
    return [1 if x > 0 else 0 for x in count]


def _set_cards(out: list[float], base: int, cards: Iterable[Card]) -> None:
    for c in cards:
        out[base + c.id] = 1.0


# ---------------------------------------------------------------------------------------- tensors
@functools.lru_cache(maxsize=64)
def _offsets(rules: Rules) -> dict[str, int]:
    return {name: off for name, off, _, _ in observation_layout(rules)}


def _check_view(view: object, what: str) -> None:
    """Refuse anything but a :class:`View` (an AttributeError deep inside said nothing useful)."""
    if not isinstance(view, View):
        raise SergeantMajorError(f"{what} takes a View (match.view(seat)), not {view!r}")


def encode_observation(view: View) -> list[float]:
    """The observation tensor of ``view``: ``observation_size(view.rules)`` floats in ``[0, 1]``.

    Layout: :data:`OBS_BLOCKS` (see :func:`layout_table`); version :data:`OBSERVATION_VERSION`.

    Raises:
        SergeantMajorError: quoting ``view`` when it is not a View.
    """
    _check_view(view, "encode_observation")
    r = view.rules
    n = len(view.names)
    me = view.seat
    rel = [(s - me) % n for s in range(n)]
    T = r.tricks
    off = _offsets(r)
    out = [0.0] * observation_size(r)

    b = off["hand"]
    for c in view.hand:
        out[b + c.id] = 1.0
    b = off["played"]
    for t in view.completed:
        for s, c in t.cards:
            out[b + 52 * rel[s] + c.id] = 1.0
    for s, c in view.trick:
        out[b + 52 * rel[s] + c.id] = 1.0
    b = off["trick"]
    for i, (_, c) in enumerate(view.trick):
        out[b + 52 * i + c.id] = 1.0
    out[off["leader"] + rel[view.leader]] = 1.0
    if view.to_act is not None:
        out[off["to_act"] + rel[view.to_act]] = 1.0
    w = _exchange_with(view)
    if w is not None:
        out[off["exchange_with"] + rel[w]] = 1.0
    out[off["phase"] + _PHASE_INDEX[view.phase]] = 1.0
    out[off["contract"] + (0 if view.contract is None else 1 + int(view.contract))] = 1.0
    out[off["role"] + (me - view.dealer) % n] = 1.0
    out[off["declarer"] + rel[view.declarer]] = 1.0
    prev = view.prev_diffs or (0,) * n
    scale = 2 * _total_scale(r)
    bt, bw, bh = off["targets"], off["tricks_won"], off["hand_sizes"]
    bo, bu, bs = off["prev_over"], off["prev_under"], off["totals"]
    for s in range(n):
        k = rel[s]
        out[bt + k] = min(1.0, view.targets[s] / T)
        out[bw + k] = min(1.0, view.tricks_won[s] / T)
        out[bh + k] = min(1.0, view.hand_sizes[s] / 52)
        out[bo + k] = min(1.0, max(0, prev[s]) / T)
        out[bu + k] = min(1.0, max(0, -prev[s]) / T)
        out[bs + k] = min(1.0, max(0.0, 0.5 + view.totals[s] / scale))
    out[off["kitty_count"]] = view.kitty_count / 4
    if view.kitty is not None:
        b = off["kitty"]
        for c in view.kitty:
            out[b + c.id] = 1.0
    if view.discards is not None:
        b = off["discards"]
        for c in view.discards:
            out[b + c.id] = 1.0
    bg, br, bp = off["gave"], off["received"], off["passed"]
    passed = [0] * (n * n)
    for e in view.exchange:
        passed[rel[e.giver] * n + rel[e.receiver]] += 1
        if e.card is not None:
            if e.giver == me:
                out[bg + e.card.id] = 1.0
            if e.receiver == me:
                out[br + e.card.id] = 1.0
    for i, k in enumerate(passed):
        out[bp + i] = min(1.0, k / T)
    b = off["voids"]
    for s, suits in enumerate(_voids(view)):
        for u in suits:
            out[b + 4 * rel[s] + u] = 1.0
    out[off["deal_number"]] = min(1.0, view.deal_number / (r.deals or _DEAL_CAP))
    b = off["contracts_left"]
    for i, cs in enumerate(_contracts_left(view)):
        for contract in cs:
            out[b + 6 * i + int(contract)] = 1.0
    return out


def encode_information_state(view: View) -> list[float]:
    """The information-state tensor of ``view`` (perfect recall within the deal):
    ``information_state_size(view.rules)`` floats in ``[0, 1]``.

    The observation, then the cards as dealt, the exchange events in order and the completed tricks in
    order (:data:`INFO_BLOCKS`). The order of the declarer's discards is not kept (the rules give it no
    meaning); the match before this deal is summed up by the observation's totals, previous over- and
    under-tricks and contracts left.

    Raises:
        SergeantMajorError: quoting ``view`` when it is not a View.
    """
    _check_view(view, "encode_information_state")
    r = view.rules
    n = view.players
    out = [0.0] * information_state_size(r)
    layout = {name: off for name, off, _, _ in information_state_layout(r)}
    limit = layout["trick_seq"] - layout["exchange_seq"]
    obs = encode_observation(view)
    out[: len(obs)] = obs
    b = layout["dealt"]
    for i, x in enumerate(_dealt(view)):
        out[b + i] = float(x)
    b = layout["exchange_seq"]
    width = 2 + 2 * n + 52
    for k, e in enumerate(view.exchange[: limit // width]):
        base = b + k * width
        out[base + (0 if e.kind is ExchangeKind.GIVE else 1)] = 1.0
        out[base + 2 + _rel(view, e.giver)] = 1.0
        out[base + 2 + n + _rel(view, e.receiver)] = 1.0
        if e.card is not None:
            out[base + 2 + 2 * n + e.card.id] = 1.0
    b = layout["trick_seq"]
    width = n + n * 52
    for k, t in enumerate(view.completed):
        base = b + k * width
        out[base + _rel(view, t.leader)] = 1.0
        for i, (_, c) in enumerate(t.cards):
            out[base + n + 52 * i + c.id] = 1.0
    return out


# ---------------------------------------------------------------------------------------- strings
def _cards_text(cards: Iterable[Card]) -> str:
    text = format_cards(sorted(cards, key=lambda c: c.id))
    return text or "-"


def observation_string(view: View) -> str:
    """The observation as text, one ``block: value`` line per fact; seats named relative to the viewer
    (``me``, ``left``, ``right``; ``across`` with 4 players). Same information as :func:`encode_observation`.

    Raises:
        SergeantMajorError: quoting ``view`` when it is not a View.
    """
    _check_view(view, "observation_string")
    n = view.players
    names = relative_names(n)

    def by_seat(values: Iterable[object]) -> str:
        return " ".join(f"{names[i]}={v}" for i, v in enumerate(values))

    def rel_values(values: tuple[int, ...]) -> list[int]:
        return [values[(view.seat + i) % n] for i in range(n)]

    played: list[list[Card]] = [[] for _ in range(n)]
    for t in view.completed:
        for s, c in t.cards:
            played[_rel(view, s)].append(c)
    for s, c in view.trick:
        played[_rel(view, s)].append(c)
    voids = _voids(view)
    prev = view.prev_diffs
    lines = [
        f"{OBSERVATION_VERSION} rules: {view.rules}",
        f"deal: {view.deal_number}" + (f"/{view.rules.deals}" if view.rules.deals else ""),
        f"phase: {view.phase.value}",
        f"to_act: {'-' if view.to_act is None else names[_rel(view, view.to_act)]}",
        f"exchange_with: {'-' if (w := _exchange_with(view)) is None else names[_rel(view, w)]}",
        f"role: {('dealer', 'eldest', 'third', 'fourth')[view.role(view.seat)]}",
        f"declarer: {names[_rel(view, view.declarer)]}",
        f"contract: {'-' if view.contract is None else view.contract.word}",
        f"hand: {_cards_text(view.hand)}",
        f"trick: {names[_rel(view, view.leader)]} leads: {' '.join(str(c) for _, c in view.trick) or '-'}",
        f"played: {by_seat(_cards_text(p) for p in played)}",
        f"targets: {by_seat(rel_values(view.targets))}",
        f"tricks_won: {by_seat(rel_values(view.tricks_won))}",
        f"hand_sizes: {by_seat(rel_values(view.hand_sizes))}",
        f"kitty_count: {view.kitty_count}",
        f"kitty: {'?' if view.kitty is None else _cards_text(view.kitty)}",
        f"discards: {'?' if view.discards is None else _cards_text(view.discards)}",
        f"gave: {_cards_text(view.gave)}",
        f"received: {_cards_text(view.received)}",
        "passed: " + (" ".join(f"{names[i]}>{names[j]}={k}" for i, row in enumerate(_passed(view)) for j, k in enumerate(row) if k) or "-"),
        "previous: " + ("-" if prev is None else by_seat(f"{d:+d}" for d in rel_values(prev))),
        "voids: " + by_seat("".join("CDHS"[u] for u in sorted(voids[(view.seat + i) % n])) or "-" for i in range(n)),
        f"totals: {by_seat(rel_values(view.totals))}",
        "contracts_left: " + by_seat(",".join(c.code for c in cs) for cs in _contracts_left(view)),
    ]
    return "\n".join(lines)


def information_state_string(view: View) -> str:
    """The information state as text: :func:`observation_string`, then the cards as dealt, the exchange
    events in order (``??`` for a card this seat did not see) and the completed tricks in order."""
    names = relative_names(view.players)
    dealt = [i for i, x in enumerate(_dealt(view)) if x]
    lines = [observation_string(view), f"dealt: {format_cards(Card(i) for i in dealt) or '-'}"]
    for e in view.exchange:
        card = "??" if e.card is None else str(e.card)
        lines.append(f"exchange: {names[_rel(view, e.giver)]} {'gives' if e.kind is ExchangeKind.GIVE else 'returns'} {card} to {names[_rel(view, e.receiver)]}")
    for k, t in enumerate(view.completed, 1):
        cards = " ".join(str(c) for _, c in t.cards)
        lines.append(f"trick {k}: {names[_rel(view, t.leader)]} leads: {cards}; won by {names[_rel(view, t.winner)]}")
    return "\n".join(lines)
