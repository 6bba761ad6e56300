"""Rules: one frozen, validated configuration with named presets and a string form.

Source for every preset, option and default: docs/rules.md ("Reference presets", "Reference options",
"Reference decisions"), which fixes how the engine reads the seeds 000/004 (9-5-2 with an 8-5-3
section), 002 (8-5-3 and its house variants) and 003 (the online 3-5-8).

String form (used on the command line and carried by every record)::

    PRESET [option=value ...]
    "8-5-3 kitty=see-then-trump must-trump=on"
    "9-5-2 to=20"

``str(rules)`` gives the preset followed by every option that differs from it, and
``Rules.parse(str(rules)) == rules``.

Decisions taken where the texts leave a choice (all listed in docs/rules.md, "Decisions the engine takes"):
MT ceilings are the targets mirrored by size (:func:`minimum_ceilings`, seed 003); targets left to the rules
follow ``players`` and ``kitty`` (:func:`default_targets`, docs/rules.md reference decision 5), while
``unbalanced-targets=on`` keeps the preset's; ``blind-trump`` is ``take-then-discard`` that is never moved
behind the kitty (so with ``kitty-timing=before-exchange`` it needs ``trump=before-exchange``);
``instant-win`` must be more than half the tricks; with ``exchange=off`` the exchange options may not be
changed (they would do nothing); a rule set whose only game ends can practically never come is refused
(:meth:`Rules.unreachable_end`, docs/rules.md decision 13), except when read with ``check_end=False`` (rules
already played: records, stored tables). Scores add up to :meth:`Rules.score_sum`.
"""

from __future__ import annotations

import contextvars
import dataclasses
import enum
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

from sergeant_major.core.errors import RulesError
from sergeant_major.core.rule_options import (
    ContractSet,
    Declarer,
    ExchangeCount,
    GiveRule,
    KittyProcedure,
    KittyTiming,
    ReturnRule,
    Scoring,
    Traditional,
    TrumpReturn,
    TrumpTiming,
    TwoUp,
)
from sergeant_major.core.steps import Step, step_plan

__all__ = ["Rules", "EarlyEnd", "PRESETS", "PRESET_SOURCES", "OPTIONS", "Option", "DEFAULT_PRESET", "minimum_ceilings", "default_targets",
           "Declarer", "ContractSet", "KittyProcedure", "KittyTiming", "GiveRule", "ReturnRule", "TrumpReturn", "ExchangeCount",
           "TwoUp", "TrumpTiming", "Scoring", "Traditional"]

DEFAULT_PRESET: Final = "9-5-2"

def _values(kind: type[enum.StrEnum]) -> tuple[str, ...]:
    return tuple(k.value for k in kind)


KITTY_PROCEDURES: Final = _values(KittyProcedure)


class EarlyEnd(enum.StrEnum):
    """What may end a match before its last deal (:attr:`Rules.early_end`): a total reaching the target total
    (``to=N``), or a total reaching the bound either way (``bound=N``, 9-2-5)."""

    TARGET = "to"
    BOUND = "bound"


@dataclass(frozen=True)
class Option:
    """Documentation of one option: its key in the string form, field, values and source."""

    key: str
    field: str
    values: tuple[str, ...]
    meaning: str
    source: str


OPTIONS: Final[tuple[Option, ...]] = (
    Option("players", "players", ("3", "4"),
           "number of players; 4 deals 12 cards each and a 4-card kitty (12 tricks, targets 5-3-2-2)", "002 (4 players); docs/rules.md"),
    Option("targets", "targets", ("D-E-M[-4th]",),
           "targets by seat role: dealer, eldest hand, third hand (fourth hand)", "000, 004, 002, 003"),
    Option("unbalanced-targets", "unbalanced_targets", ("off", "on"),
           "allow targets that do not add up to the tricks; scores then do not sum to 0", "002; docs/rules.md reference decision 5"),
    Option("declarer", "declarer", _values(Declarer),
           "who names trump (or the contract) and uses the kitty: the dealer, or the eldest hand (3-5-8 playmaker)", "000, 004; 003"),
    Option("contracts", "contracts", _values(ContractSet),
           "what may be named: one of the four trump suits; or also no-trump (NT) and minimum tricks (MT)", "000, 004; 003"),
    Option("contract-once", "contract_once", ("off", "on"),
           "each player chooses each of the six contracts exactly once (needs deals = 6 x players)", "003; docs/rules.md reference presets, notes on 3-5-8"),
    Option("contract-after", "contract_after", ("0", "6"),
           "the declarer chooses after seeing only this many of his cards (0: his whole hand)", "003"),
    Option("kitty", "kitty", KITTY_PROCEDURES,
           "the kitty procedure: take-then-discard (name trump, take the kitty, discard 4), discard-then-take "
           "(name trump, discard 4 blind, take the kitty), see-then-trump (look at and take the kitty, then name trump, "
           "discard 4), blind-trump (trump named before the kitty is seen, even when the kitty comes before the exchange), "
           "none (51 cards without the 2C, 17 each, no kitty)", "004, 002"),
    Option("kitty-timing", "kitty_timing", _values(KittyTiming),
           "whether the declarer takes the kitty and discards after the exchange or before it", "000, 004 (Variants: reversed targets)"),
    Option("exchange", "exchange", ("on", "off"),
           "the exchange of cards from the second deal on, by the previous deal's over- and under-tricks", "000, 004, 002"),
    Option("give", "give", _values(GiveRule),
           "what the up player gives: any cards he chooses, or his lowest cards", "004 (chosen); 002 (lowest)"),
    Option("return", "return_rule", _values(ReturnRule),
           "what the down player returns: his highest card of the suit received (it may be the card received), "
           "or his highest cards overall", "004 (suit); 002 (overall); docs/rules.md reference decision 1"),
    Option("trump-return", "trump_return", _values(TrumpReturn),
           "a trump received is answered like any card (highest), or by any card the receiver likes (free)", "003"),
    Option("exchange-count", "exchange_count", _values(ExchangeCount),
           "exactly one card per over-trick, or at most that many (the up player may stop early)", "004"),
    Option("two-up", "two_up", _values(TwoUp),
           "with two players up, who exchanges first: the higher target in the coming deal, or the most up",
           "004, 003 (higher-target); docs/rules.md reference decision 2"),
    Option("trump", "trump_timing", _values(TrumpTiming),
           "when trump is named: after the exchange; before it (by the coming declarer); or between the gives and the returns",
           "000, 004; 002, 003; 004 (reversed targets)"),
    Option("must-trump", "must_trump", ("off", "on"), "void in the suit led, a player must trump if he can", "003"),
    Option("must-overtrump", "must_overtrump", ("off", "on"),
           "a trump played to a trick that holds a trump must beat it if the player can; void and unable to beat it, "
           "he discards a side card, and plays a lower trump only when he holds nothing else (with must-trump: any trump)",
           "online 8-5-3 rooms (docs/rules.md reference options)"),
    Option("dealer-assigns-targets", "dealer_assigns", ("off", "on"),
           "before each deal the dealer assigns the preset's targets to the seats (double dealer right)", "002"),
    Option("scoring", "scoring", _values(Scoring),
           "running: +1 per over-trick, -1 per under-trick; counters: each down player pays one counter per under-trick, "
           "each up player receives one per over-trick; chips: each over-trick earns one chip from every player who was down",
           "000, 004; 004 (8-5-3); 002"),
    Option("to", "target_total", ("10", "20", "off"), "the game ends when a total reaches this number", "000, 004"),
    Option("instant-win", "instant_win", ("12", "off"),
           "taking this many tricks in one deal wins at once (not in minimum-tricks deals)", "000, 004"),
    Option("bound", "bound", ("off", "15"),
           "the game ends when a total reaches +bound or -bound; the highest total wins", "004 (Variants: reversed targets)"),
    Option("deals", "deals", ("off", "9", "12", "18", "N"),
           "a fixed number of deals; the highest total wins, equal totals share the win", "000 (Feste Länge), 002, 003"),
    Option("traditional", "traditional", _values(Traditional),
           "once the deal has gone round the table, the first dealer who made (strict: beat) his target wins", "002"),
)
_BY_KEY: Final = {o.key: o for o in OPTIONS}


@dataclass(frozen=True)
class Rules:
    """A complete, validated rule set. Build with :meth:`preset` or :meth:`parse`; derive with :meth:`with_options`.

    Every field is documented in :data:`OPTIONS`. ``targets`` are by seat role: dealer, eldest hand,
    third seat (and fourth with 4 players). Derived: :attr:`tricks` (16, 17 with no kitty, 12 with 4
    players) and :attr:`hand_size`.

    Raises:
        RulesError: from the constructor when the combination makes no sense; the message says why.
    """

    name: str = DEFAULT_PRESET
    players: int = 3
    targets: tuple[int, ...] = (9, 5, 2)
    unbalanced_targets: bool = False
    declarer: Declarer = Declarer.DEALER
    contracts: ContractSet = ContractSet.SUITS
    contract_once: bool = False
    contract_after: int = 0
    kitty: KittyProcedure = KittyProcedure.TAKE_THEN_DISCARD
    kitty_timing: KittyTiming = KittyTiming.AFTER_EXCHANGE
    exchange: bool = True
    give: GiveRule = GiveRule.CHOSEN
    return_rule: ReturnRule = ReturnRule.SUIT
    trump_return: TrumpReturn = TrumpReturn.HIGHEST
    exchange_count: ExchangeCount = ExchangeCount.EXACT
    two_up: TwoUp = TwoUp.HIGHER_TARGET
    trump_timing: TrumpTiming = TrumpTiming.AFTER_EXCHANGE
    must_trump: bool = False
    must_overtrump: bool = False
    dealer_assigns: bool = False
    scoring: Scoring = Scoring.RUNNING
    target_total: int | None = 10
    instant_win: int | None = 12
    bound: int | None = None
    deals: int | None = None
    traditional: Traditional = Traditional.OFF

    def __post_init__(self) -> None:
        for field, kind in _ENUM_FIELDS.items():
            value = getattr(self, field)
            if not isinstance(value, kind):
                # a plain text (dataclasses.replace, a caller's keyword) becomes its enum member; anything else is refused
                try:
                    member = kind(value) if isinstance(value, str) else None
                except ValueError:
                    member = None
                if member is None:
                    opt = next(o for o in OPTIONS if o.field == field)
                    raise RulesError(f"rules {self.name!r}: {opt.key}={value!r} is not one of {', '.join(opt.values)}")
                object.__setattr__(self, field, member)
        self._validate()

    # ------------------------------------------------------------------ derived
    @property
    def tricks(self) -> int:
        """Tricks per deal: 16 (3 players with kitty), 17 (3 players, no kitty), 12 (4 players)."""
        if self.players == 4:
            return 12
        return 17 if self.kitty is KittyProcedure.NONE else 16

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player (equal to :attr:`tricks`)."""
        return self.tricks

    @property
    def kitty_size(self) -> int:
        """Cards in the kitty: 4, or 0 with ``kitty=none``."""
        return 0 if self.kitty is KittyProcedure.NONE else 4

    @property
    def declarer_role(self) -> int:
        """Role index of the declarer: 0 (dealer) or 1 (eldest, the 3-5-8 playmaker)."""
        return 0 if self.declarer is Declarer.DEALER else 1

    @property
    def early_end(self) -> tuple[EarlyEnd, int] | None:
        """The total that may end the match before its last deal, as the players are told it: ``(EarlyEnd.TARGET, 10)``
        (a total reaching 10), ``(EarlyEnd.BOUND, 15)`` (a total reaching +15 or -15), else ``None``. Also ``None`` in a match of one
        deal (``deals=1``): whoever reaches the target or the bound in it has the highest total, who wins after that
        deal anyway, so "to 10" would only be read as the match's length. The terminal's top line
        (``cli.tui.match_end_words``) and the web pages (``web.tables.match_length``) say it."""
        if self.deals == 1:
            return None
        if self.target_total:
            return (EarlyEnd.TARGET, self.target_total)
        return (EarlyEnd.BOUND, self.bound) if self.bound else None

    @property
    def has_nt_mt(self) -> bool:
        """Whether no-trump and minimum-tricks contracts exist (seed 003)."""
        return self.contracts is ContractSet.SUITS_NT_MT

    # ------------------------------------------------------------------ validation
    def _validate(self) -> None:
        def bad(msg: str) -> RulesError:
            # the rules as given (preset and options), not only the preset: "rules '3-5-8 deals=7': ..."
            return RulesError(f"rules {str(self)!r}: {msg}")

        if self.players not in (3, 4):
            raise bad(f"players={self.players} (3 or 4)")
        if len(self.targets) != self.players:
            raise bad(f"targets {'-'.join(map(str, self.targets))} name {len(self.targets)} seats for {self.players} players")
        if any(t < 0 or t > self.tricks for t in self.targets):
            raise bad(f"a target outside 0..{self.tricks}")
        if sum(self.targets) != self.tricks and not self.unbalanced_targets:
            raise bad(
                f"targets {'-'.join(map(str, self.targets))} add up to {sum(self.targets)}, not the {self.tricks} tricks; "
                "set unbalanced-targets=on to play them anyway (docs/rules.md reference decision 5)"
            )
        if self.players == 4 and self.kitty is KittyProcedure.NONE:
            raise bad("kitty=none removes one card for 3 players (51 cards); with 4 players it makes no sense")
        if self.contract_after not in (0,) and not 1 <= self.contract_after <= self.hand_size:
            raise bad(f"contract-after={self.contract_after} outside 0..{self.hand_size}")
        if self.contract_after and self.trump_timing is not TrumpTiming.BEFORE_EXCHANGE:
            raise bad("contract-after needs trump=before-exchange (the contract is chosen before the rest is dealt)")
        if self.contract_after and self.kitty is KittyProcedure.SEE_THEN_TRUMP:
            raise bad("contract-after and kitty=see-then-trump contradict each other")
        if self.trump_return is TrumpReturn.FREE and self.trump_timing is TrumpTiming.AFTER_EXCHANGE:
            raise bad("trump-return=free needs trump named before the returns (trump=before-exchange or mid-exchange)")
        if self.trump_timing is TrumpTiming.MID_EXCHANGE and self.kitty_timing is not KittyTiming.BEFORE_EXCHANGE and self.kitty is not KittyProcedure.NONE:
            raise bad("trump=mid-exchange needs kitty-timing=before-exchange (seeds 000/004, reversed targets)")
        if self.kitty is KittyProcedure.BLIND_TRUMP and self.kitty_timing is KittyTiming.BEFORE_EXCHANGE and self.trump_timing is not TrumpTiming.BEFORE_EXCHANGE:
            raise bad("kitty=blind-trump names trump before the kitty, but kitty-timing=before-exchange takes the kitty before trump is named")
        if self.kitty is KittyProcedure.SEE_THEN_TRUMP and self.trump_timing is TrumpTiming.BEFORE_EXCHANGE and self.kitty_timing is KittyTiming.AFTER_EXCHANGE:
            raise bad("kitty=see-then-trump needs the kitty before trump, but trump=before-exchange names it before the kitty is taken")
        if self.contract_once:
            if not self.has_nt_mt:
                raise bad("contract-once needs contracts=suits-nt-mt (six contracts)")
            if self.deals != 6 * self.players:
                raise bad(f"contract-once needs deals={6 * self.players} (each player declares 6 times)")
        if self.declarer is Declarer.ELDEST and self.dealer_assigns:
            raise bad("dealer-assigns-targets with declarer=eldest is not described by any rules text")
        if self.target_total is not None and self.target_total <= 0:
            raise bad(f"to={self.target_total} must be positive")
        if self.bound is not None and self.bound <= 0:
            raise bad(f"bound={self.bound} must be positive")
        if self.deals is not None and self.deals <= 0:
            raise bad(f"deals={self.deals} must be positive")
        if self.instant_win is not None and not self.tricks // 2 < self.instant_win <= self.tricks:
            raise bad(f"instant-win={self.instant_win} outside {self.tricks // 2 + 1}..{self.tricks} "
                      "(more than half the tricks, so that only one player can reach it)")
        if (self.target_total is None and self.instant_win is None and self.bound is None
                and self.deals is None and self.traditional is Traditional.OFF):
            raise bad("no game end is set (to, instant-win, bound, deals or traditional): the game would never end")
        if _CHECK_REACHABLE_END.get():
            why = self.unreachable_end()
            if why is not None:
                raise RulesError(why)
        if not self.exchange and self.name in PRESETS:
            preset = PRESETS[self.name]
            for o in OPTIONS:
                if o.key in ("give", "return", "trump-return", "exchange-count", "two-up"):
                    value = getattr(self, o.field)
                    if value != preset.get(o.field, _FIELD_DEFAULTS[o.field]):
                        raise bad(f"{o.key}={_to_text(value)} has no effect with exchange=off")

    def unreachable_end(self) -> str | None:
        """Why no game end of these rules can be counted on, or ``None`` when one can (docs/rules.md decision 13).

        Ends that are refused: an ``instant-win`` that needs every trick of a deal (the 8-5-3 preset's "12 or
        more tricks in one deal" (004 Variants; docs/rules.md reference presets) with ``players=4``, 12 tricks a deal, or
        ``instant-win=16`` with 16 tricks); a target total ``to`` when the scores of a deal add up to less than 0
        in every contract (``unbalanced-targets=on`` with targets above the tricks, docs/rules.md reference decision 5): the
        totals drift down, so no total may ever reach it. ``bound``, ``deals`` and ``traditional`` always count.
        The message quotes the rules and names the end options to add.
        """
        if self.bound is not None or self.deals is not None or self.traditional is not Traditional.OFF:
            return None
        reasons: list[str] = []
        if self.instant_win is not None:
            if self.instant_win < self.tricks:
                return None
            reasons.append(f"instant-win={self.instant_win} needs all {self.tricks} tricks of a deal")
        sums = (self.score_sum(), self.score_sum(True)) if self.has_nt_mt else (self.score_sum(),)
        drifts = max(sums) < 0  # the totals drift down: a target total is no end to count on
        if self.target_total is not None:
            if not drifts:
                return None
            reasons.append(f"to={self.target_total} may never be reached: the scores of a deal add up to "
                           f"{self.score_sum()} (unbalanced targets), so the totals drift down")
        if not reasons:  # no end at all: refused by _validate with its own message
            return None
        add = ("deals=N (e.g. deals=12), traditional=on or bound=15" if drifts
               else "to=10, deals=N (e.g. deals=12), traditional=on or bound=15")
        return (f"rules {str(self)!r}: the game would practically never end: {'; '.join(reasons)}; "
                f"add a game end that can be reached: {add} (docs/rules.md decision 13)")

    # ------------------------------------------------------------------ construction
    @staticmethod
    def preset_names() -> tuple[str, ...]:
        """The preset names, default first."""
        return tuple(PRESETS)

    @classmethod
    def preset(cls, name: str = DEFAULT_PRESET) -> Rules:
        """The named preset (``9-5-2``, ``8-5-3``, ``9-2-5``, ``3-5-8``).

        Raises:
            RulesError: quoting ``name`` when it is unknown.
        """
        try:
            return cls(name=name, **PRESETS[name])
        except KeyError:
            raise RulesError(f"unknown preset {name!r} (one of {', '.join(PRESETS)})") from None

    @classmethod
    def parse(cls, text: str, *, check_end: bool = True) -> Rules:
        """Parse the string form ``'PRESET [key=value ...]'``; an empty string means the default preset.

        ``check_end=False`` reads rules even when no game end of them can be counted on
        (:meth:`unreachable_end`); every other check applies. For rules of a match already begun (a record, a
        stored web table), so that one begun before such rule sets were refused still loads, and for a single
        deal's position, where the game end plays no part (docs/rules.md decision 13).

        Raises:
            RulesError: quoting the unknown preset, key or value, or saying why a combination is refused.
        """
        if not check_end:
            with _no_end_check():
                return cls.parse(text)
        words = text.split()
        if not words:
            return cls.preset()
        name, *opts = words
        if "=" in name:
            name, opts = DEFAULT_PRESET, words
        base = cls.preset(name)
        changes: dict[str, str] = {}
        for w in opts:
            key, sep, value = w.partition("=")
            if not sep or not value:
                raise RulesError(f"{w!r} is not key=value (in rules {text!r})")
            if key in changes:
                raise RulesError(f"option {key!r} is given twice (in rules {text!r})")
            changes[key] = value
        return base.with_options(**changes)

    def with_options(self, **options: str) -> Rules:
        """A copy with options changed, given as option keys (``must_trump='on'`` or ``**{'must-trump': 'on'}``).

        Raises:
            RulesError: quoting an unknown key or value, or saying why the combination is refused.
        """
        kwargs: dict[str, Any] = {}
        for raw_key, value in options.items():
            key = raw_key.replace("_", "-")
            opt = _BY_KEY.get(key)
            if opt is None:
                raise RulesError(f"unknown option {raw_key!r} (options: {', '.join(_BY_KEY)})")
            kwargs[opt.field] = _convert(opt, value)
        if "targets" not in kwargs and self.name in PRESETS:
            # Targets left to the rules follow the player count and the kitty (docs/rules.md reference decision 5): the balanced
            # defaults 9-5-3 (17 tricks) and 5-3-2-2 (4 players); with unbalanced-targets=on and 3 players the
            # preset's own targets stay (seed 002 plays 8-5-3 with 17 tricks).
            preset_targets: tuple[int, ...] = PRESETS[self.name]["targets"]
            if tuple(self.targets) in (preset_targets, default_targets(self.name, self.players, self.kitty)):
                players = kwargs.get("players", self.players)
                kitty = kwargs.get("kitty", self.kitty)
                if kwargs.get("unbalanced_targets", self.unbalanced_targets) and players == 3:
                    kwargs["targets"] = preset_targets
                else:
                    kwargs["targets"] = default_targets(self.name, players, kitty)
        return dataclasses.replace(self, **kwargs)

    # ------------------------------------------------------------------ text
    def options_dict(self) -> dict[str, str]:
        """Every option as ``{key: value text}``."""
        return {o.key: _to_text(getattr(self, o.field)) for o in OPTIONS}

    def short(self) -> str:
        """Preset name (no validation needed)."""
        return self.name

    def __str__(self) -> str:
        try:
            base = Rules.preset(self.name).options_dict()
        except RulesError:
            base = {}
        mine = self.options_dict()
        diffs = [f"{k}={v}" for k, v in mine.items() if base.get(k) != v]
        return " ".join([self.name, *diffs])

    def target_of_role(self, role: int) -> int:
        """Target of seat role ``role`` (0 dealer, 1 eldest, 2 third, 3 fourth)."""
        return self.targets[role]

    def score_sum(self, minimum: bool = False) -> int:
        """What the scores of one deal add up to under these rules (``minimum``: a minimum-tricks deal).

        Running scores and counters add up to ``tricks - sum(targets)`` (negated in minimum tricks): 0 with
        balanced targets, not 0 with ``unbalanced-targets=on`` (docs/rules.md reference decision 5; seeds 000/004
        "Scoring": "the three scores of a deal always add up to 0" holds only for balanced targets).
        Chips always add up to 0: every chip won is paid by a down player (002 chip variant).
        """
        if self.scoring is Scoring.CHIPS:
            return 0
        s = self.tricks - sum(self.targets)
        return -s if minimum else s

    def explain(self) -> list[str]:
        """The rule set in plain words, one sentence per line (``sergeant-major rules``), with sources."""
        return _explain(self)


_CHECK_REACHABLE_END: Final[contextvars.ContextVar[bool]] = contextvars.ContextVar("check_reachable_end", default=True)
"""Whether :meth:`Rules._validate` refuses rules whose game ends can practically never come (off while
:meth:`Rules.parse` reads with ``check_end=False``)."""


@contextmanager
def _no_end_check() -> Iterator[None]:
    token = _CHECK_REACHABLE_END.set(False)
    try:
        yield
    finally:
        _CHECK_REACHABLE_END.reset(token)


def _to_text(v: object) -> str:
    if v is None:
        return "off"
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, tuple):
        return "-".join(map(str, v))
    return str(v)


_DIGITS: Final = re.compile(r"[0-9]+")
_NUMBER: Final = re.compile(r"-?[0-9]+")  # plain ASCII digits: not int()'s "+20", "2_0", " 20" or other scripts' digits


def _convert(opt: Option, value: str) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):  # with_options(to=20) from Python
        value = str(value)
    if not isinstance(value, str):
        raise RulesError(f"{opt.key}={value!r}: an option's value is a text such as {opt.values[0]!r}")
    f = opt.field
    if f in ("unbalanced_targets", "exchange", "must_trump", "must_overtrump", "dealer_assigns", "contract_once"):
        if value not in ("on", "off"):
            raise RulesError(f"{opt.key}={value!r}: use on or off")
        return value == "on"
    if f == "targets":
        parts = value.split("-")
        if not all(_DIGITS.fullmatch(x) for x in parts):
            raise RulesError(f"targets={value!r}: write them dealer-eldest-third in digits 0-9, e.g. 9-5-2")
        return tuple(int(x) for x in parts)
    if f in ("players", "contract_after"):
        if not _NUMBER.fullmatch(value):
            raise RulesError(f"{opt.key}={value!r} is not a number (digits 0-9)")
        return int(value)
    if f in ("target_total", "instant_win", "bound", "deals"):
        if value == "off":
            return None
        if not _NUMBER.fullmatch(value):
            raise RulesError(f"{opt.key}={value!r}: a number (digits 0-9) or off")
        return int(value)
    if value not in opt.values:
        raise RulesError(f"{opt.key}={value!r} is not one of {', '.join(opt.values)}")
    return _ENUM_FIELDS[f](value)


def minimum_ceilings(targets: tuple[int, ...]) -> tuple[int, ...]:
    """The ceilings of a minimum-tricks (MT) deal, by seat, for the deal's ``targets`` by seat.

    Seed 003 ("Nur bei MT ..."): with targets dealer 3, playmaker 8, third 5, in MT the playmaker may take
    at most 3, the third at most 5 and the dealer at most 8 (docs/rules.md reference presets, notes on 3-5-8). The engine reads this
    as the targets mirrored by size: the seat with the largest target gets the smallest ceiling, the second
    largest the second smallest, and so on (ties in seat order). The ceilings add up to the same number.
    """
    order = sorted(range(len(targets)), key=lambda i: (-targets[i], i))
    asc = sorted(targets)
    out = [0] * len(targets)
    for k, i in enumerate(order):
        out[i] = asc[k]
    return tuple(out)


def default_targets(preset: str, players: int, kitty: KittyProcedure) -> tuple[int, ...]:
    """The balanced targets of ``preset`` for ``players`` and ``kitty`` (docs/rules.md reference decision 5): the preset's own
    with 3 players and a kitty; 9-5-3 in the preset's order for 17 tricks (no kitty); 5-3-2-2 for 4 players.

    Raises:
        KeyError: for an unknown preset name.
    """
    base: tuple[int, ...] = PRESETS[preset]["targets"]
    if players == 4:
        return (5, 3, 2, 2)
    if kitty is KittyProcedure.NONE:
        return _NO_KITTY_TARGETS.get(base, (9, 5, 3))
    return base


_ENUM_FIELDS: Final[dict[str, type[enum.StrEnum]]] = {
    "declarer": Declarer, "contracts": ContractSet, "kitty": KittyProcedure, "kitty_timing": KittyTiming, "give": GiveRule,
    "return_rule": ReturnRule, "trump_return": TrumpReturn, "exchange_count": ExchangeCount, "two_up": TwoUp,
    "trump_timing": TrumpTiming, "scoring": Scoring, "traditional": Traditional,
}
"""The options whose values are a kind: each field's enum."""

_FIELD_DEFAULTS: Final[dict[str, Any]] = {f.name: f.default for f in dataclasses.fields(Rules)}

_NO_KITTY_TARGETS: Final[dict[tuple[int, ...], tuple[int, ...]]] = {(9, 5, 2): (9, 5, 3), (8, 5, 3): (9, 5, 3), (9, 2, 5): (9, 3, 5), (3, 8, 5): (3, 9, 5)}

PRESETS: Final[dict[str, dict[str, Any]]] = {
    # 000/004: the Canadian 9-5-2. docs/rules.md: trump named -> D takes kitty -> D discards 4; to 10; 12+ wins.
    "9-5-2": dict(targets=(9, 5, 2), kitty=KittyProcedure.TAKE_THEN_DISCARD, scoring=Scoring.RUNNING, target_total=10, instant_win=12),
    # 004 Variants / 002: the British original; discard first, then the kitty; counters; ends at 12+ tricks.
    "8-5-3": dict(targets=(8, 5, 3), kitty=KittyProcedure.DISCARD_THEN_TAKE, scoring=Scoring.COUNTERS, target_total=None, instant_win=12),
    # 000/004 Variants, reversed targets: kitty and discard before the exchange; gives, trump, returns; +-15.
    "9-2-5": dict(targets=(9, 2, 5), kitty=KittyProcedure.TAKE_THEN_DISCARD, kitty_timing=KittyTiming.BEFORE_EXCHANGE,
                  trump_timing=TrumpTiming.MID_EXCHANGE, scoring=Scoring.RUNNING, target_total=None, instant_win=None, bound=15),
    # 003 (online): playmaker E chooses after 6 cards; six contracts once each over 18 deals; must trump;
    # a trump received may be answered with any card.
    "3-5-8": dict(targets=(3, 8, 5), declarer=Declarer.ELDEST, contracts=ContractSet.SUITS_NT_MT, contract_once=True, contract_after=6,
                  kitty=KittyProcedure.TAKE_THEN_DISCARD, trump_timing=TrumpTiming.BEFORE_EXCHANGE, must_trump=True, trump_return=TrumpReturn.FREE,
                  two_up=TwoUp.HIGHER_TARGET, scoring=Scoring.RUNNING, target_total=None, instant_win=None, deals=18),
}

PRESET_SOURCES: Final[dict[str, str]] = {
    "9-5-2": "the Canadian 9-5-2 (seeds 000, 004; docs/rules.md reference presets)",
    "8-5-3": "the British original Sergeant Major (seed 004 Variants, seed 002; docs/rules.md reference presets)",
    "9-2-5": "reversed targets (seed 000/004 Variants; docs/rules.md reference presets)",
    "3-5-8": "the online 3-5-8 with a playmaker and six contracts (seed 003; docs/rules.md reference presets, notes on 3-5-8)",
}
_ROLE_WORDS: Final = ("dealer", "eldest hand", "third hand", "fourth hand")


def deal_order(r: Rules, plan: list[Step] | None = None, exchange: bool = True, short: bool = False) -> list[str]:
    """The steps before the play of a deal under ``r``, in words (``short``: one or two words each).

    ``plan`` is a step plan from :func:`sergeant_major.core.steps.step_plan`; by default the plan of a deal with
    (``exchange``) or without an exchange.
    """
    if plan is None:
        plan = step_plan(r, exchange)
    who = "" if short else _ROLE_WORDS[r.declarer_role] + " "
    parts: list[str] = []
    for k in plan:
        if k == Step.DISCARD:
            if parts and "discard" in parts[-1]:
                continue
            parts.append(f"{who}discards 4" + ("" if short else " face down"))
        elif k == Step.KITTY:
            parts.append(f"{who}{'looks at and ' if r.kitty is KittyProcedure.SEE_THEN_TRUMP and not short else ''}takes the kitty")
        elif k == Step.CONTRACT:
            parts.append(f"{who}{'chooses the contract' if r.has_nt_mt else 'names trump'}")
        elif k == Step.ASSIGN:
            parts.append("dealer assigns the targets")
        elif k == Step.EXCHANGE:
            parts.append("exchange" if short else "the exchange (gives, then returns)")
        elif k == Step.GIVES:
            parts.append("up players give")
        elif k == Step.RETURNS:
            parts.append("down players return")
    return parts


def _explain(r: Rules) -> list[str]:
    """The lines of :meth:`Rules.explain`."""
    out: list[str] = []
    src = PRESET_SOURCES.get(r.name, "")
    out.append(f"Rules {str(r)!r}: preset {r.name}, {src}." if src else f"Rules {str(r)!r}.")
    if r.players == 4:
        out.append("4 players, 52 cards: 12 each and a 4-card kitty; 12 tricks a deal (seed 002, 4 players).")
    elif r.kitty is KittyProcedure.NONE:
        out.append("3 players, 51 cards (the 2C is removed): 17 each, no kitty; 17 tricks a deal (seed 002, Strikt 51).")
    else:
        out.append("3 players, 52 cards: 16 each and a 4-card kitty; 16 tricks a deal (seeds 000/004 Setup).")
    tg = ", ".join(f"{_ROLE_WORDS[i]} {t}" for i, t in enumerate(r.targets))
    if sum(r.targets) == r.tricks:
        out.append(f"Targets: {tg}; they add up to the {r.tricks} tricks.")
    else:
        out.append(f"Targets: {tg}; they add up to {sum(r.targets)}, not the {r.tricks} tricks "
                   f"(unbalanced-targets=on, docs/rules.md reference decision 5).")
    out.append("The deal passes to the left (to the eldest hand) after every deal; the targets move with it (docs/rules.md reference decision 7).")
    if r.dealer_assigns:
        out.append("Before each deal the dealer assigns these targets to the seats as he likes (double dealer right, seed 002).")
    decl = _ROLE_WORDS[r.declarer_role] + (" (the playmaker)" if r.declarer is Declarer.ELDEST else "")
    if r.has_nt_mt:
        out.append(f"The {decl} chooses the contract: spades, hearts, diamonds, clubs, no-trump (NT) or minimum tricks (MT) (seed 003).")
    else:
        out.append(f"The {decl} names trump: one of the four suits; no-trump is not allowed (seeds 000/004).")
    if r.contract_after:
        out.append(f"He chooses after seeing only the first {r.contract_after} cards dealt to him (seed 003).")
    if r.contract_once:
        out.append(f"Over the {r.deals} deals each player declares {r.deals // r.players if r.deals else 0} times and chooses each "
                   "of the six contracts exactly once; a contract already chosen is refused (seed 003, docs/rules.md).")
    if r.has_nt_mt:
        ceil = minimum_ceilings(r.targets)
        cw = ", ".join(f"{_ROLE_WORDS[i]} at most {t}" for i, t in enumerate(ceil))
        out.append(f"In MT there is no trump, the targets become ceilings ({cw}) and scoring is inverted: "
                   "+1 per trick under the ceiling, -1 per trick over it (seed 003 Wertung). NT has no trump.")

    def words(plan: list[Step]) -> str:
        return " -> ".join(deal_order(r, plan))

    first = words(step_plan(r, False)) + " -> the eldest hand leads to the first trick"
    if r.exchange:
        later = words(step_plan(r, True)) + " -> the eldest hand leads to the first trick"
        if later == first:
            out.append(f"Order of a deal: {first}.")
        else:
            out.append(f"Order of a deal without exchange (the first deal): {first}.")
            out.append(f"Order of a deal with an exchange: {later}.")
    else:
        out.append(f"Order of a deal: {first}.")
    if r.kitty is KittyProcedure.BLIND_TRUMP:
        out.append("Blind kitty: trump is named before the kitty is seen (seed 002 Blinder Skat).")
    if r.kitty is not KittyProcedure.NONE:
        out.append("Nobody else sees the kitty or the discards; discards may hold trumps and never count as tricks (docs/rules.md reference decision 4).")

    if not r.exchange:
        out.append("No exchange: every deal stands alone (seed 002, Kein Tausch).")
    else:
        count = "exactly one card" if r.exchange_count is ExchangeCount.EXACT else "at most one card (he may stop early)"
        what = "cards he chooses" if r.give is GiveRule.CHOSEN else "his lowest cards"
        back = ("his highest card of the suit received; if that is the card just received, it goes back (docs/rules.md reference decision 1)"
                if r.return_rule is ReturnRule.SUIT else "his highest card overall")
        out.append(f"Exchange, from the second deal on: each player who was up in the previous deal gives {count} per over-trick "
                   f"({what}) face down to the players who were down; for each card received the down player returns {back}. "
                   "A player who made his target exactly takes no part (seeds 000/004 Exchanging cards).")
        if r.trump_return is TrumpReturn.FREE:
            out.append("A trump received need not be answered with the highest trump: any card may go back (seed 003).")
        first_up = ("the one with the higher target in the coming deal" if r.two_up is TwoUp.HIGHER_TARGET else "the one most up")
        if Step.GIVES in step_plan(r, True):  # trump named between the gives and the returns (9-2-5)
            order = (f"every up player gives before any card comes back; with two players up, {first_up} gives first "
                     "and is answered first")
        else:
            order = (f"with two players up, {first_up} exchanges first; with one up and two down, the up player gives "
                     "all his cards before any comes back")
        out.append(f"{order[0].upper()}{order[1:]}; counts come from the previous deal's results whatever seats the players "
                   "hold now (docs/rules.md reference decisions 2, 3).")
        if r.has_nt_mt:
            plan = step_plan(r, True)
            first_pass = min(plan.index(k) for k in (Step.EXCHANGE, Step.GIVES) if k in plan)
            if plan.index(Step.CONTRACT) < first_pass:
                out.append("No exchange in NT and MT deals (seed 003).")
            elif Step.GIVES in plan:
                out.append("The cards are given before the contract is chosen, so in NT and MT deals too the cards given "
                           "are returned (seed 003's no exchange in NT and MT needs the contract first; docs/rules.md reference decision 1).")
            else:
                out.append("The exchange comes before the contract is chosen, so it takes place in NT and MT deals too "
                           "(seed 003's no exchange in NT and MT needs the contract first).")
        if sum(r.targets) != r.tricks:
            out.append("With unbalanced targets each up player gives his over-tricks to down players, highest coming target first, "
                       "each down player receiving at most his under-tricks (docs/rules.md reference decision 5).")

    play = "Follow suit if you can; if you cannot, "
    play += "you must trump if you can (seed 003)." if r.must_trump else "play any card, a trump or any other (seeds 000/004)."
    out.append(play + " The highest trump wins the trick, else the highest card of the suit led; the winner leads next.")
    if r.must_overtrump:
        out.append("Must over-trump: a trump played to a trick that already holds a trump must beat it if you hold a higher trump "
                   "(also when trumps are led). Void in the suit led and unable to beat it, you discard a side card and play a "
                   "lower trump only when you hold nothing else" + (" (with must-trump: any trump)." if r.must_trump else "."))

    if r.scoring is Scoring.RUNNING:
        out.append("Scoring: +1 per over-trick, -1 per under-trick, 0 for the target exactly; running totals (seeds 000/004 Scoring).")
    elif r.scoring is Scoring.COUNTERS:
        out.append("Scoring in counters: each down player pays one counter per under-trick, each up player receives one per "
                   "over-trick (seed 004, 8-5-3).")
    else:
        out.append("Scoring in chips: each over-trick earns one chip from every player who was down (seed 002, chip variant).")
        if r.exchange:
            out.append("The exchange still counts over- and under-tricks, not chips (seed 002 Kartentausch; docs/rules.md decision 15).")
    ss = r.score_sum()
    if ss == 0 and (not r.has_nt_mt or r.score_sum(True) == 0):
        out.append("The scores of a deal add up to 0.")
    else:
        mt = f" ({r.score_sum(True)} in MT)" if r.has_nt_mt else ""
        out.append(f"The scores of a deal add up to {ss}{mt} (unbalanced targets).")

    ends: list[str] = []
    if r.instant_win is not None:
        # only what applies to this rule set: MT exists only with no-trump/minimum contracts, a target total only with to=
        not_mt = " (not in MT)" if r.has_nt_mt else ""
        beats = ", and beats a total reaching the target in the same deal" if r.target_total is not None else ""
        ends.append(f"taking {r.instant_win} or more tricks in one deal wins at once{not_mt}{beats} "
                    "(seeds 000/004; docs/rules.md reference decision 6)")
    if r.traditional is not Traditional.OFF:
        verb = "beat (strict: took more than)" if r.traditional is Traditional.STRICT else "made (took at least)"
        ends.append(f"once the deal has gone round the table, the first dealer who {verb} his target wins (seed 002, traditional)")
    if r.target_total is not None:
        ends.append(f"the first total to reach {r.target_total} wins; two there in the same deal: the higher wins, "
                    "equal: play another deal (seeds 000/004; docs/rules.md reference decision 6)")
    if r.bound is not None:
        ends.append(f"when a total reaches +{r.bound} or -{r.bound} the game ends and the highest total wins, equal highest totals "
                    "share the win (seed 004 reversed targets)")
    if r.deals is not None:
        ends.append(f"after {r.deals} deal{'' if r.deals == 1 else 's'} the highest total wins; equal totals share the win (docs/rules.md reference decision 6)")
    out.append("Game end: " + "; ".join(ends) + ".")
    if len(ends) > 1:  # docs/rules.md decision 14: Match._check_end's order
        out.append("After each deal these ends are checked in the order given; the first that ends the game decides the "
                   "winners (docs/rules.md decision 14).")
    return out
