"""Terminal rendering and input parsing for ``sergeant-major play`` (the ``cli`` extra: rich).

Everything here works on a seat's :class:`~sergeant_major.core.view.View` or on actions already public to
that seat, so nothing hidden (other hands, the kitty, discards, cards exchanged between two other
players) can reach the screen. The functions are pure (text in, text or rich renderables out) so they
are unit-tested without a terminal; :mod:`sergeant_major.cli.play` drives the match and the prompts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from rich import box
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

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
from sergeant_major.core.cards import Card, Suit, parse_card, sort_hand
from sergeant_major.core.deal import Deal, DealResult, Phase, Trick, role_name
from sergeant_major.core.errors import CardParseError, SergeantMajorError
from sergeant_major.core.match import EndKind, MatchEnd
from sergeant_major.core.rule_options import ExchangeCount
from sergeant_major.core.rules import PRESETS, EarlyEnd, Rules
from sergeant_major.core.safetext import quote
from sergeant_major.core.steps import exchange_rounds
from sergeant_major.core.view import View

__all__ = [
    "InputError",
    "COMMANDS",
    "is_you",
    "card_text",
    "hand_text",
    "who",
    "legal_tokens",
    "prompt_word",
    "decision_help",
    "parse_line",
    "parse_contract",
    "parse_card_list",
    "describe_public",
    "trick_text",
    "status",
    "game_title",
    "deal_words",
    "match_end_words",
    "bound_words",
    "end_words",
    "deal_summary",
    "exchange_plan",
    "refusal",
    "signed",
    "role_text",
    "is_minimum",
    "target_text",
    "MINIMUM_NOTE",
    "contracts_left_text",
    "wrap_note",
    "break_long_words",
    "home_short",
    "score_sheet",
]

COMMANDS = {
    "help": "this list",
    "hand": "show your hand again",
    "last": "show the last completed trick",
    "table": "show the whole table again",
    "scores": "show the score sheet: every deal's scores and the totals",
    "hint": "what the expert would do, with its estimate for each choice (tricks, points)",
    "save": "save the match now and go on (it is also saved before each of your decisions)",
    "forced": "play every forced card (your only legal card) for you, or stop doing so (remembered)",
    "quit": "save the match and leave (Ctrl-C, Ctrl-D and closing the terminal do the same)",
}

_RED = (Suit.HEARTS, Suit.DIAMONDS)


class InputError(SergeantMajorError):
    """A line typed at a prompt that is not a move of the decision asked for. The message quotes it.

    Attributes:
        rule: short name of what is wrong (``"not a card"``, ``"one card at a time"``, ...).
    """

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


# ---------------------------------------------------------------------------- small texts
def card_text(card: Card) -> Text:
    """The card's canonical text (``QS``), red for hearts and diamonds."""
    return Text(str(card), style="red" if card.suit in _RED else "")


def hand_text(cards: Sequence[Card]) -> Text:
    """A hand as canonical card texts, suits separated by ``|`` in the order given (``View.hand`` is sorted)."""
    out = Text()
    prev: Suit | None = None
    for c in cards:
        if out:
            out.append(" | " if c.suit != prev else " ")
        out.append_text(card_text(c))
        prev = c.suit
    return out


def who(view_or_names: View | tuple[str, ...], seat: int, dealer: int, declarer: int | None = None) -> str:
    """``'Bob (dealer)'``: the seat's name and role this deal; ``declarer`` adds ``playmaker`` (the word of
    docs/rules.md for the seat that names trump and takes the kitty) when not the dealer."""
    names = view_or_names.names if isinstance(view_or_names, View) else view_or_names
    return f"{names[seat]} ({role_text(len(names), seat, dealer, declarer)})"


def role_text(players: int, seat: int, dealer: int, declarer: int | None = None) -> str:
    """The seat's role this deal in words: ``'dealer'``, ``'eldest, playmaker'``, ``'third'``."""
    role = role_name((seat - dealer) % players)
    if declarer is not None and seat == declarer and declarer != dealer:
        role += ", playmaker"
    return role


def is_minimum(contract: Contract | None) -> bool:
    """Whether ``contract`` is minimum tricks (MT), where each target is a ceiling and fewer tricks is better."""
    return contract is Contract.MINIMUM


def target_text(target: int, contract: Contract | None) -> str:
    """A target as the screen shows it: ``'5'``, or ``'at most 5'`` in a minimum-tricks deal (a ceiling)."""
    return f"at most {target}" if is_minimum(contract) else str(target)


MINIMUM_NOTE = ("Minimum tricks: no trump; each target is a ceiling - take at most that many tricks. Fewer is better: "
                "each trick under your ceiling scores +1, each one over it -1.")
"""What the screen says in a minimum-tricks deal (docs/rules.md, 3-5-8 MT)."""


def contracts_left_text(view: View, seat: int) -> str:
    """The 3-5-8 contracts ``seat`` may still choose (public): ``'S H NT MT'``, ``'-'`` when none; ``''`` outside
    ``contract-once``."""
    if not view.contracts_left:
        return ""
    left = view.contracts_left[seat]
    if seat == view.declarer and view.contract is not None:  # the contract named this deal is used up already
        left = tuple(c for c in left if c is not view.contract)
    return " ".join(c.code for c in left) if left else "-"


def is_you(name: str) -> bool:
    """Whether ``name`` addresses the person at the terminal: ``You``, the default name, in any letter case (the
    verbs after it are in the second person: ``You deal``, ``YOU win``)."""
    return name.strip().casefold() == "you"


def _verb(name: str, plain: str, third: str) -> str:
    return plain if is_you(name) else third


def trick_text(trick: Trick | Sequence[tuple[int, Card]], names: tuple[str, ...]) -> str:
    """``'Bob QS, Cleo 4S, You AS'`` (and ``' -> You'`` for a completed :class:`Trick`)."""
    cards = trick.cards if isinstance(trick, Trick) else trick
    s = ", ".join(f"{names[seat]} {c}" for seat, c in cards)
    if isinstance(trick, Trick):
        s += f" -> {names[trick.winner]}"
    return s


# ---------------------------------------------------------------------------- the decision asked
def prompt_word(view: View) -> str:
    """The prompt's word for the decision ``view`` asks: ``play``, ``trump``, ``contract``, ``discard``,
    ``give``, ``return`` or ``targets`` (the prompt is ``word> ``)."""
    first = view.legal[0]
    if isinstance(first, Play):
        return "play"
    if isinstance(first, NameContract):
        return "contract" if view.rules.has_nt_mt else "trump"
    if isinstance(first, Discard):
        return "discard"
    if isinstance(first, (Give, EndGive)):
        return "give"
    if isinstance(first, Return):
        return "return"
    if isinstance(first, AssignTargets):
        return "targets"
    return "kitty"


def legal_tokens(view: View) -> list[str]:
    """What may be typed now, one token each: cards (``QS``), contract codes (``S``, ``NT``), ``done``
    (with ``exchange-count=at-most``) or the numbers of the target assignments."""
    out: list[str] = []
    for i, a in enumerate(view.legal, 1):
        if isinstance(a, (Play, Discard, Give, Return)):
            out.append(str(a.card))
        elif isinstance(a, NameContract):
            out.append(a.contract.code)
        elif isinstance(a, EndGive):
            out.append("done")
        elif isinstance(a, AssignTargets):
            out.append(str(i))
    if view.legal and isinstance(view.legal[0], (Play, Discard, Give, Return, EndGive)):
        order = {c: i for i, c in enumerate(view.hand)}  # in hand order, trump first
        cards = [t for t in out if t != "done"]
        cards.sort(key=lambda t: order.get(parse_card(t), 99))
        out = cards + (["done"] if "done" in out else [])
    return out


def _gives_left(view: View, to: int) -> int:
    if view.prev_diffs is None:
        return 0
    for up, parts in exchange_rounds(view.rules, view.prev_diffs, view.targets):
        if up == view.seat:
            for d, k in parts:
                if d == to:
                    done = sum(1 for e in view.exchange if e.kind == "give" and e.giver == view.seat and e.receiver == to)
                    return k - done
    return 0


def decision_help(view: View) -> str:
    """One line saying what the decision is (``'Name trump: S H D C'``, ``'Discard 4 cards face down ...'``)."""
    first = view.legal[0]
    names = view.names
    if isinstance(first, Play):
        return ""
    if isinstance(first, NameContract):
        words = ", ".join(f"{a.contract.code}={a.contract.word}" for a in view.legal if isinstance(a, NameContract))
        line = ("Choose the contract: " if view.rules.has_nt_mt else "Name trump: ") + words
        if view.rules.contract_after and len(view.hand) < view.rules.hand_size:
            line += f" (you know only your first {len(view.hand)} cards)"
        return line
    if isinstance(first, Discard):
        left = view.rules.kitty_size - len(view.discards or ())
        example = " ".join(str(a.card) for a in view.legal[:2] if isinstance(a, Discard))
        return f"Discard {left} card{'s' if left != 1 else ''} face down (one at a time, or several: {example})."
    if isinstance(first, (Give, EndGive)):
        to = first.to
        k = _gives_left(view, to)
        up_to = "up to " if view.rules.exchange_count is ExchangeCount.AT_MOST else ""
        done = "; type done to stop" if isinstance(view.legal[-1], EndGive) else ""
        return f"You are up: give {up_to}{k} card{'s' if k != 1 else ''} to {names[to]} (one at a time, or several){done}."
    if isinstance(first, Return):
        return f"Return a card to {names[first.to]} for the card received."
    if isinstance(first, AssignTargets):
        return "Assign the targets (type the number):"
    return ""


def assign_choices(view: View) -> list[str]:
    """The target assignments, numbered from 1: ``'1: You 9, Bob 5, Cleo 2'``."""
    return [
        f"{i}: " + ", ".join(f"{view.names[s]} {t}" for s, t in enumerate(a.targets))
        for i, a in enumerate(view.legal, 1) if isinstance(a, AssignTargets)
    ]


_WORD_MAX = 12
"""A typed word longer than this is quoted by its start in a refusal (the longest card, ``10♠️``, has 4 characters)."""


def parse_card_list(line: str) -> list[Card]:
    """Cards typed on one line, separated by spaces or commas (``'2c 3d, 10h'``).

    Raises:
        InputError: quoting the line and the word that is not a card (rule ``not a card``).
    """
    out: list[Card] = []
    for w in line.replace(",", " ").split():
        try:
            out.append(parse_card(w))
        except CardParseError as e:
            why = _card_error(w, str(e))
            if len(w) > _WORD_MAX:  # no card is that long: quoted by its start (its rank was quoted in full, 500 'A's)
                why = f"{quote(w) if len(line.split()) == 1 else quote(w[:_WORD_MAX] + '...')} is not a card " \
                      "(write rank then suit, e.g. QS, 10H, TD)"
            elif w.isascii() and w.isalpha() and len(w) >= 3:  # a word ('done', 'pass'): no card is spelt so
                why = f"{quote(w)} is not a card or a command here (write rank then suit, e.g. QS, 10H, TD; " \
                      "'help' lists the commands)"
            msg = why if len(line.split()) == 1 else f"in {quote(line.strip())}: {why}"
            raise InputError(msg, "not a card") from None
    if not out:
        raise InputError(f"{quote(line)} names no card", "not a card")
    return out


_HOW = "write rank then suit, e.g. QS, 10H, TD"


def _is_rank(word: str) -> bool:
    try:
        parse_card(word + "S")
    except CardParseError:
        return False
    return True


def _card_error(word: str, parsed: str) -> str:
    """One form for every word that is not a card: ``'X' is not a card: <what is wrong>; write rank then suit``.
    ``10`` was refused as "'0' is not a suit" and ``1D`` as "'1' is not a rank": both now say what the word lacks
    in the same form (``'10' is a rank without a suit``, ``'1' is not a rank (2-10, ...)``)."""
    head = f"{quote(word)} is not a card"
    if _is_rank(word.strip()):
        return f"{head}: {quote(word.strip())} is a rank without a suit; {_HOW}"
    detail = parsed.partition(": ")[2] if parsed.startswith(head + ": ") else ""
    if detail.startswith("write the rank then the suit"):  # suit first ('S5'): the detail says the order already
        return f"{head}: {detail}"
    return f"{head}: {detail}; {_HOW}" if detail else f"{head} ({_HOW})"


def parse_contract(line: str, legal: Sequence[Action]) -> NameContract:
    """A contract typed at the ``trump>``/``contract>`` prompt (``S``, ``spades``, ``♠``, ``NT``, ``MT``).

    Raises:
        InputError: quoting the line when it names no contract, or one not offered now (rule ``contract``).
    """
    allowed = [a for a in legal if isinstance(a, NameContract)]
    seat = allowed[0].seat
    try:
        c = Contract.parse(line)
    except CardParseError:
        codes = " ".join(a.contract.code for a in allowed)
        raise InputError(f"{quote(line.strip())} is not a contract (type one of {codes})", "not a contract") from None
    if all(a.contract is not c for a in allowed):
        left = ", ".join(a.contract.word for a in allowed)
        raise InputError(f"{quote(line.strip())}: {c.word} is not allowed now; choose from: {left}", "contract")
    return NameContract(seat, c)


_ESCAPE_SEQUENCE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|O[@-~]|[^\x1b])?", re.DOTALL)
"""A key's escape sequence as a terminal sends it (ECMA-48: CSI ``ESC [`` parameters and a final byte, SS3 ``ESC O``
and a letter, or ESC and one character), or a lone ESC."""

_KEY_NAMES = {"A": "Up arrow", "B": "Down arrow", "C": "Right arrow", "D": "Left arrow", "H": "Home", "F": "End",
              "1~": "Home", "7~": "Home", "4~": "End", "8~": "End", "2~": "Insert", "3~": "Delete",
              "5~": "Page Up", "6~": "Page Down"}


def _key_name(seq: str) -> str | None:
    """The key whose escape sequence ``seq`` is (``'\x1b[A'``, ``'\x1bOA'``, ``'\x1b[1;5C'``: ``'Up arrow'``,
    ``'Up arrow'``, ``'Right arrow'``), or ``None`` for another sequence."""
    if seq == "\x1b":
        return "Esc"
    body = seq[2:] if seq[1:2] in ("[", "O") else ""
    if body.endswith("~"):  # ESC [ 3 ~ (Delete), ESC [ 3 ; 5 ~ (Ctrl-Delete)
        return _KEY_NAMES.get(body[:-1].split(";")[0] + "~")
    final, params = body[-1:], body[:-1]
    if final in ("A", "B", "C", "D", "H", "F") and all(ch.isdigit() or ch == ";" for ch in params):
        return _KEY_NAMES[final]  # ESC [ 1 ; 5 C: Ctrl-Right, still the Right arrow key
    return None


def _refuse_escape_sequence(view: View, line: str) -> None:
    """Refuse a line holding a terminal's escape sequence: an arrow or other editing key typed where the line
    is not edited (no ``readline``: a pipe, a Windows console), which arrived as its sequence, ``'\x1b[A'`` for Up.
    Without this the sequence was read as a card and refused as "'A' is not a suit".

    Raises:
        InputError: quoting the line and the sequence in its escape form (rule ``escape sequence``).
    """
    m = _ESCAPE_SEQUENCE.search(line)
    if m is None:
        return
    seq = m.group()
    key = _key_name(seq)
    what = {"trump": "a suit", "contract": "a contract", "targets": "a number"}.get(prompt_word(view), "a card")
    said = (f"{quote(seq)} is what the {key} key sends" if key else f"{quote(seq)} is a terminal's escape sequence "
            "(what an editing key sends)")
    where = "" if seq == line.strip() else f"in {quote(line.strip())}: "
    raise InputError(f"{where}{said}, not {what}; keys do not edit the line here: type it again", "escape sequence")


def parse_line(view: View, line: str) -> list[Action | Card]:
    """Turn a line typed for ``view``'s decision into what to do.

    Returns a list of complete actions (a play, a contract, a target assignment, ``done``) or of cards
    (discards, gives, returns: several may be typed on one line; the driver builds each action as its
    turn comes). It checks the form only; the rules are checked when the actions are applied.

    Raises:
        InputError: quoting the line (not a card, several cards where one is asked, a bad number, a key's escape
            sequence...).
    """
    first = view.legal[0]
    _refuse_escape_sequence(view, line)
    text = line.strip()
    if isinstance(first, Play):
        cards = parse_card_list(text)
        if len(cards) > 1:
            raise InputError(f"{quote(text)}: play one card at a time", "one card at a time")
        return [Play(first.seat, cards[0])]
    if isinstance(first, NameContract):
        return [parse_contract(text, view.legal)]
    if isinstance(first, AssignTargets):
        n = len(view.legal)
        # ASCII digits only: str.isdigit() also takes '²' (which int() refuses) and other scripts' digits
        if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= n:
            raise InputError(f"{quote(text)} is not one of the numbers 1..{n}", "not a choice")
        return [view.legal[int(text) - 1]]
    if isinstance(first, (Give, EndGive)) and text.lower() in ("done", "stop", "end", "0"):
        end = [a for a in view.legal if isinstance(a, EndGive)]
        if not end:
            raise InputError(f"{quote(text)}: every over-trick gives exactly one card (exchange-count=exact)", "exchange count")
        return [end[0]]
    cards = parse_card_list(text)
    if len(set(cards)) != len(cards):
        twice = next(c for i, c in enumerate(cards) if c in cards[:i])  # in a line of 4 to 8 cards, say which
        raise InputError(f"{quote(text)} names {twice} twice", "card twice")
    return list(cards)


_QUOTE_MAX = 60
"""The longest typed line a refusal quotes in full."""


def refusal(line: str, err: SergeantMajorError) -> str:
    """The one line shown when a typed line is refused: the rule's name, the input quoted, the reason."""
    rule = getattr(err, "rule", "input")
    msg = str(err)
    text = line.strip()
    quoted = quote(text)
    if len(text) > _QUOTE_MAX:  # a long paste is quoted by its start, not echoed in full
        short = quote(text[:_QUOTE_MAX] + "...")
        msg = msg.replace(quoted, short)
        quoted = short
    if quoted not in msg:
        msg = f"{quoted}: {msg}"
    return f"Refused [{rule}]: {msg}"


# ---------------------------------------------------------------------------- what happened
def describe_public(action: Action, deal: Deal, names: tuple[str, ...], seat: int) -> str | None:
    """What seat ``seat`` may be told about ``action`` just applied to ``deal``, or ``None`` when the action
    is hidden from that seat (a discard, a card passed between the two other players; the caller counts
    those). Hidden cards never appear in the text (seeds 000/004: the kitty and discards are the
    dealer's; exchanged cards are known to the giver and the receiver only)."""
    s = action.seat
    name = names[s]
    w = who(names, s, deal.dealer, deal.declarer)
    if isinstance(action, Play):
        return f"{w} {_verb(name, 'play', 'plays')} {action.card}"
    if isinstance(action, NameContract):
        c = action.contract
        what = f"{c.word} as trump" if c.trump is not None else c.word
        return f"{w} {_verb(name, 'name', 'names')} {what}"
    if isinstance(action, TakeKitty):
        if s == seat:
            return f"{w} {_verb(name, 'take', 'takes')} the kitty: {' '.join(str(c) for c in deal.kitty_dealt)}"
        return f"{w} {_verb(name, 'take', 'takes')} the kitty ({len(deal.kitty_dealt)} cards)"
    if isinstance(action, Discard):
        return f"{w} {_verb(name, 'discard', 'discards')} {action.card}" if s == seat else None
    if isinstance(action, (Give, Return)):
        if seat not in (s, action.to):
            return None
        verb = ("give", "gives") if isinstance(action, Give) else ("return", "returns")
        return f"{w} {_verb(name, *verb)} {action.card} to {names[action.to]}"
    if isinstance(action, EndGive):
        return f"{w} {_verb(name, 'give', 'gives')} no more cards to {names[action.to]}"
    if isinstance(action, AssignTargets):
        return f"{w} {_verb(name, 'assign', 'assigns')} the targets: " + ", ".join(
            f"{names[t]} {x}" for t, x in enumerate(action.targets))
    return None


def passed_text(kind: str, giver: str, name: str, receiver: str, cards: Sequence[Card]) -> str:
    """Several cards one seat saw pass: ``'Bob (dealer) gives 2D 3D to You'``, ``'You (dealer) discard 7D 2C'``.

    ``giver`` is the giver with role, ``name`` his bare name (for the verb), ``receiver`` the receiver's name."""
    text = " ".join(str(c) for c in cards)
    if kind == "discard":
        return f"{giver} {_verb(name, 'discard', 'discards')} {text}"
    verb = ("give", "gives") if kind == "give" else ("return", "returns")
    return f"{giver} {_verb(name, *verb)} {text} to {receiver}"


def hidden_text(kind: str, giver: int, receiver: int, count: int, names: tuple[str, ...]) -> str:
    """The count-only text of hidden actions: ``'Bob gives Cleo 2 cards'``, ``'Bob discards 4 cards face down'``."""
    cards = f"{count} card{'s' if count != 1 else ''}"
    if kind == "discard":
        return f"{names[giver]} {_verb(names[giver], 'discard', 'discards')} {cards} face down"
    verb = ("give", "gives") if kind == "give" else ("return", "returns")
    return f"{names[giver]} {_verb(names[giver], *verb)} {names[receiver]} {cards}"


# ---------------------------------------------------------------------------- the screen
def signed(x: int) -> str:
    """A score or running total as the terminal shows it everywhere (``play``'s screens and match end, ``replay``,
    ``check``): with its sign, ``'+4'``, ``'-2'``, and ``'0'`` without one."""
    return f"{x:+d}" if x else "0"


_signed = signed


def _contract_line(view: View) -> str:
    if view.contract is None:
        word = "Contract" if view.rules.has_nt_mt else "Trump"
        d = view.names[view.declarer]
        return f"{word}: not named yet ({d} {_verb(d, 'name', 'names')} it)"
    c = view.contract
    if c.trump is not None:
        return f"Trump: {Suit(c.trump).symbol} {c.word} (named by {view.names[view.declarer]})"
    return f"Contract: {c.word} (chosen by {view.names[view.declarer]})"


def exchange_text(view: View) -> str:
    """This seat's part of the exchange, grouped: ``'Exchange: got 2D 3D from Bob, returned 9D 7D; got 2C from Cleo,
    returned 6C'`` (empty when the seat took no part)."""
    groups: list[tuple[str, int, list[Card]]] = []
    for e in view.exchange:
        if e.card is None:
            continue
        me_gave = e.giver == view.seat
        key = ("gave" if e.kind == "give" else "returned") if me_gave else ("got" if e.kind == "give" else "got back")
        other = e.receiver if me_gave else e.giver
        if groups and groups[-1][0] == key and groups[-1][1] == other:
            groups[-1][2].append(e.card)
        else:
            groups.append((key, other, [e.card]))
    if not groups:
        return ""
    words = []
    for key, other, cards in groups:
        prep = "to" if key in ("gave", "returned") else "from"
        words.append(f"{key} {' '.join(map(str, cards))} {prep} {view.names[other]}")
    return "Exchange: " + ", ".join(words)


def player_table(view: View) -> Table:
    """The small table: each player with role, target (``?`` until the dealer assigns the targets), tricks this
    deal, cards held and running total."""
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), show_edge=False)
    cols = [("Player", "left"), ("Role", "left"), ("Target", "right"), ("Tricks", "right"), ("Cards", "right"),
            ("Total", "right")]
    if view.contracts_left:  # 3-5-8: every player's contracts left are public
        cols.append(("Contracts left", "left"))
    for col, just in cols:
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    unassigned = view.phase is Phase.ASSIGN  # dealer-assigns-targets: the dealer has not chosen them yet
    for s in range(view.players):
        role = role_text(view.players, s, view.dealer, view.declarer)
        mark = " <" if view.to_act == s else ""
        row: list[str | Text] = [Text(view.names[s] + mark), role,  # Text: a name is plain text, never markup
               "?" if unassigned else target_text(view.targets[s], view.contract), str(view.tricks_won[s]),
               str(view.hand_sizes[s]), _signed(view.totals[s])]
        if view.contracts_left:
            row.append(contracts_left_text(view, s))
        t.add_row(*row)
    return t


def game_title(rules: Rules) -> str:
    """The game as the screen's header names it: the preset (``'9-5-2'``) when its own targets and three players are
    played, else the targets played first, with the preset whose rules they follow and the player count:
    ``'5-3-2-2 (9-5-2 rules, 4 players)'`` (``9-5-2 players=4``, seed 002's game for 4 players; docs/rules.md
    reference decision 5), ``'9-5-3 (9-5-2 rules)'`` (``kitty=none``); a name that is no preset is said as such:
    ``'9-5-2 (house rules)'``."""
    preset = PRESETS.get(rules.name)  # a Rules built by hand may carry a name of its own (``Rules(name="house")``)
    if preset is not None and rules.targets == preset["targets"] and rules.players == 3:
        return rules.name
    return f"{'-'.join(map(str, rules.targets))} ({rules.name} rules" + (f", {rules.players} players)" if rules.players != 3 else ")")


def deal_words(view: View) -> str:
    """The deal as the top line of both modes names it: ``'Deal 3'``, or ``'Deal 3 of 18'`` in a match of a fixed
    number of deals (``deals=N``)."""
    deals = view.rules.deals
    return f"Deal {view.deal_number}" + (f" of {deals}" if deals else "")


def match_end_words(rules: Rules) -> str:
    """What the match plays to besides its number of deals (:func:`deal_words`), as the top line of both modes says
    it: ``'to 10'`` (a total reaching 10), ``'to ±15'`` (a total reaching +15 or -15), else ``''``. Also ``''`` in a
    match of one deal: whoever reaches the target or the bound in it has the highest total, who wins after that deal
    anyway, so ``'to 10'`` would only be read as the match's length (``9-5-2 deals=1``): :attr:`Rules.early_end`."""
    end = rules.early_end
    if end is None:
        return ""
    kind, total = end
    return f"to {bound_words(total)}" if kind is EarlyEnd.BOUND else f"to {total}"


def bound_words(limit: int) -> str:
    """The bound of 9-2-5 as the players read it: ``'±15'`` (a total reaching +15 or -15)."""
    return f"±{limit}"


def end_words(end: MatchEnd) -> str:
    """Why the match ended, as the terminal says it: the end's reason (:attr:`MatchEnd.reason`), but the bound in the
    words of :func:`match_end_words` (``'a total reached ±15; ...'``, where the record keeps ``'+-15'``: records and
    ``check`` compare those words, so only what is shown changes)."""
    facts = dict(end.facts)
    if end.kind is EndKind.BOUND and "limit" in facts and "total" in facts:
        return f"a total reached {bound_words(int(facts['limit']))}; the highest total ({facts['total']}) wins"
    return end.reason


def status(view: View) -> RenderableType:
    """The screen shown at each decision of ``view.seat``: deal, contract, table, exchange, kitty and
    discards (own only), last and current trick, the hand, what the decision is and the ``Legal:`` line."""
    r = view.rules
    end = match_end_words(r)
    head = Text(f"-- {deal_words(view)} -- {game_title(r)}" + (f" -- {end}" if end else "") + " -- " + _contract_line(view),
                style="bold")
    parts: list[RenderableType] = [head, player_table(view)]
    mine = exchange_text(view)
    if mine:
        parts.append(Text(mine))
    trump = None if view.trump < 0 else Suit(view.trump)
    discarded = " ".join(map(str, sort_hand(view.discards or (), trump)))
    if view.kitty is not None:
        parts.append(Text("Kitty: " + " ".join(map(str, sort_hand(view.kitty, trump)))
                          + (f"   Discarded: {discarded}" if discarded else "")))
    elif discarded:
        parts.append(Text(f"Discarded: {discarded}"))
    if view.completed:
        parts.append(Text(f"Last trick: {trick_text(view.completed[-1], view.names)}"))
    if view.phase is Phase.PLAY:
        parts.append(Text(f"Trick: {trick_text(view.trick, view.names) if view.trick else '(you lead)' if view.to_act == view.seat else '-'}"))
    if r.contract_after and view.contract is None and len(view.hand) < r.hand_size:
        parts.append(Text(f"(only your first {len(view.hand)} cards are known before the contract)"))
    if is_minimum(view.contract):
        parts.append(Text(MINIMUM_NOTE))
    if view.contracts_left and view.phase is Phase.CONTRACT and view.to_act == view.seat:
        parts.append(Text("Contracts left: " + " ".join(c.code for c in view.contracts_left[view.seat])))
    parts.append(Text("Hand: ").append_text(hand_text(view.hand)))
    if view.legal:
        what = decision_help(view)
        if what:
            parts.append(Text(what))
        if isinstance(view.legal[0], AssignTargets):
            parts.extend(Text(x) for x in assign_choices(view))
        parts.append(Text("Legal: " + " ".join(legal_tokens(view))))
    return Group(*parts)


def exchange_plan(rules: Rules, diffs: tuple[int, ...], next_dealer: int, names: tuple[str, ...]) -> list[str]:
    """The coming exchange in words: ``['Bob (up 2) gives 2 cards to You']`` (``gives up to 2 cards`` with
    ``exchange-count=at-most``), by
    :func:`~sergeant_major.core.steps.exchange_rounds` with the coming targets ``rules.targets[(s - next_dealer) % n]``."""
    n = len(diffs)
    coming = tuple(rules.targets[(s - next_dealer) % n] for s in range(n))
    out: list[str] = []
    up_to = "up to " if rules.exchange_count is ExchangeCount.AT_MOST else ""  # exchange-count=at-most: the giver may give fewer
    for up, parts in exchange_rounds(rules, diffs, coming):
        for d, k in parts:
            out.append(f"{names[up]} (up {diffs[up]}) {_verb(names[up], 'give', 'gives')} {up_to}{k} card{'s' if k != 1 else ''} "
                       f"to {names[d]} (down {-diffs[d]})")
    return out


def deal_summary(res: DealResult, number: int, totals: Sequence[int], names: tuple[str, ...], dealer: int) -> Table:
    """The table after a deal: target, tricks, over/under, score and running total per player. In minimum tricks the
    targets' column is headed ``At most`` over the bare numbers (``at most 3`` in each row broke in two at 64 columns)."""
    t = Table(title=f"Deal {number} scored ({res.contract.word})", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
              title_justify="left")
    minimum = is_minimum(res.contract)
    for col, just in (("Player", "left"), ("Role", "left"), ("At most" if minimum else "Target", "right"), ("Tricks", "right"),
                      ("Diff", "right"), ("Score", "right"), ("Total", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    n = len(names)
    for s in range(n):
        t.add_row(Text(names[s]), role_name((s - dealer) % n), str(res.targets[s]), str(res.tricks[s]),
                  _signed(res.diffs[s]),
                  _signed(res.scores[s]), _signed(totals[s]))
    return t


def wrap_note(text: str, width: int, indent: str = "  ") -> list[str]:
    """``text`` broken between words into lines of at most ``width`` characters (at least 20), each after
    ``indent``: a note is never cut mid-word by the terminal (the hint's footnote broke at 60 and 120 columns)."""
    import textwrap

    return textwrap.wrap(text.strip(), width=max(20, width), initial_indent=indent, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False) or [indent]


def _word_pieces(word: str, width: int) -> list[tuple[str, bool]]:
    """``word`` (longer than ``width``) in the pieces a row may end after, each with whether it starts a row: after
    each ``/``; a piece still too long (a file's name) on rows of its own, broken after each ``-``, and what is still
    too long every ``width`` characters."""
    out: list[tuple[str, bool]] = []
    for part in re.findall(r"[^/]*/|[^/]+", word):
        if cell_len(part) <= width:
            out.append((part, False))
            continue
        for i, piece in enumerate(re.findall(r"[^-]*-|[^-]+", part)):
            while cell_len(piece) > width:
                out.append((piece[:width], i == 0))
                piece, i = piece[width:], 1
            out.append((piece, i == 0))
    return out


def break_long_words(text: Text, width: int) -> Text:
    """``text`` broken into rows of at most ``width`` cells between words, with a word too long for a row (a save
    file's path in the deal log's 20 columns) starting a row and broken after a ``/`` (the file's name on a row of its
    own, after a ``-`` if it is too long too) rather than anywhere: ``'~/.local/share/'`` over ``'sergeant-major/'``.
    ``text`` itself when every word fits (the renderer breaks it between words as before); its styles are kept."""
    if width <= 0 or all(cell_len(w) <= width for w in text.plain.split()):
        return text
    offsets: list[int] = []
    start = 0
    for line in text.plain.split("\n"):
        col = len(line) - len(line.lstrip(" "))  # an indent stays on the first row
        used = False  # the row holds a piece: a row is never ended before its first
        for m in re.finditer(r"\S+\s*", line):
            word = m.group().rstrip()
            at = start + m.start()
            pieces = [(word, False)] if cell_len(word) <= width else [("", True), *_word_pieces(word, width)]
            for piece, own_row in pieces:  # a path starts a row of its own: read as one block
                if used and (own_row or col + cell_len(piece) > width):
                    offsets.append(at)
                    col, used = 0, False
                col += cell_len(piece)
                at += len(piece)
                used = used or bool(piece)
            col += len(m.group()) - len(word)  # the spaces after it
        start += len(line) + 1
    rows = text.divide(offsets)
    for row in rows:
        row.rstrip()
    return Text("\n").join(rows)


def home_short(path: Path) -> str:
    """``path`` with the user's home folder written ``~``, as a shell reads it (``~/.local/share/...``): a save's
    path where the table has few columns for it; ``path`` whole when it is not in the home folder."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except (ValueError, RuntimeError):  # elsewhere, or no home folder known
        return str(path)


def score_sheet(view: View, rows: int | None = None) -> Table:
    """The score sheet: one row a completed deal (its number, contract and each player's score with the running total
    in brackets) and the totals. ``rows``: at most this many rows of deals (at least 1), the earliest deals then
    summed on the first of them (``1-9``, ``earlier deals``), so a short screen keeps the latest deals and the
    totals."""
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, title="Score sheet", title_justify="left")
    t.add_column("Deal", justify="right")
    t.add_column("Contract")
    for nm in view.names:
        t.add_column(Text(nm), justify="right")
    results = view.results
    merged = len(results) - max(1, rows) + 1 if rows is not None and len(results) > max(1, rows) else 0
    run = [0] * view.players
    if merged:
        sums = [sum(res.scores[s] for res in results[:merged]) for s in range(view.players)]
        run = list(sums)
        t.add_row(f"1-{merged}", Text("earlier deals", style="italic"),
                  *(f"{signed(sums[s])} ({signed(run[s])})" for s in range(view.players)))
    for i, res in enumerate(results[merged:], merged + 1):
        for s in range(view.players):
            run[s] += res.scores[s]
        t.add_row(str(i), res.contract.word, *(f"{signed(res.scores[s])} ({signed(run[s])})" for s in range(view.players)))
    t.add_row("", Text("Total", style="bold"), *(Text(signed(x), style="bold") for x in view.totals))
    return t
