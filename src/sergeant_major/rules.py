"""Rules: one frozen, validated configuration with named presets and a string form.

Source for every preset, option and default: ../shared/rules/RULES.md ("Presets", "Options",
"Decisions on ambiguities"), which fixes how the engine reads the seeds 000/004 (9-5-2 with an 8-5-3
section), 002 (8-5-3 and its house variants) and 003 (the online 3-5-8).

String form (used on the command line and carried by every record)::

    PRESET [option=value ...]
    "8-5-3 kitty=see-then-trump must-trump=on"
    "9-5-2 to=20"

``str(rules)`` gives the preset followed by every option that differs from it, and
``Rules.parse(str(rules)) == rules``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from .errors import RulesError

__all__ = ["Rules", "PRESETS", "OPTIONS", "Option", "DEFAULT_PRESET"]

DEFAULT_PRESET: Final = "9-5-2"

KITTY_PROCEDURES: Final = ("take-then-discard", "discard-then-take", "see-then-trump", "blind-trump", "none")


@dataclass(frozen=True)
class Option:
    """Documentation of one option: its key in the string form, field, values and source."""

    key: str
    field: str
    values: tuple[str, ...]
    meaning: str
    source: str


OPTIONS: Final[tuple[Option, ...]] = (
    Option("players", "players", ("3", "4"), "number of players; 4 deals 12 each and a 4-card kitty", "002"),
    Option("targets", "targets", ("D-E-M[-4th]",), "targets by seat role: dealer, eldest, third (fourth)", "000, 004, 002, 003"),
    Option("unbalanced-targets", "unbalanced_targets", ("off", "on"), "allow targets that do not add up to the tricks (RULES.md decision 5)", "002, RULES.md"),
    Option("declarer", "declarer", ("dealer", "eldest"), "who names trump/contract and uses the kitty", "000, 003"),
    Option("contracts", "contracts", ("suits", "suits-nt-mt"), "the four trump suits; or also no-trump and minimum tricks", "000, 003"),
    Option("contract-once", "contract_once", ("off", "on"), "each player chooses each contract exactly once (needs deals = 6 x players)", "003, RULES.md"),
    Option("contract-after", "contract_after", ("0", "6"), "the declarer chooses after seeing only this many cards (0: the whole hand)", "003"),
    Option("kitty", "kitty", KITTY_PROCEDURES, "the kitty procedure", "004, 002"),
    Option("kitty-timing", "kitty_timing", ("after-exchange", "before-exchange"), "when the declarer takes the kitty and discards", "000, 004 (reversed targets)"),
    Option("exchange", "exchange", ("on", "off"), "the exchange between deals", "000, 004, 002"),
    Option("give", "give", ("chosen", "lowest"), "what the up player gives: cards he chooses, or his lowest", "004, 002"),
    Option("return", "return_rule", ("suit", "overall"), "what the down player returns: highest of the suit received, or highest overall", "004, 002"),
    Option("trump-return", "trump_return", ("highest", "free"), "a trump received must be answered by the highest trump, or by any card", "003"),
    Option("exchange-count", "exchange_count", ("exact", "at-most"), "exactly one card per over-trick, or at most that many", "004"),
    Option("two-up", "two_up", ("higher-target", "most-up"), "with two players up, who exchanges first", "004, 003"),
    Option("trump", "trump_timing", ("after-exchange", "before-exchange", "mid-exchange"), "when trump is named: after the exchange, before it, or between gives and returns", "000, 002, 004"),
    Option("must-trump", "must_trump", ("off", "on"), "void in the suit led: must trump if able", "003"),
    Option("must-overtrump", "must_overtrump", ("off", "on"), "a trump played must beat the trumps already in the trick if able", "online 8-5-3 rooms"),
    Option("dealer-assigns-targets", "dealer_assigns", ("off", "on"), "the dealer assigns the preset's targets to the seats", "002"),
    Option("scoring", "scoring", ("running", "counters", "chips"), "running +-1 per trick, counters, or chips", "004, 002"),
    Option("to", "target_total", ("10", "20", "off"), "the game ends when a total reaches this", "000, 004"),
    Option("instant-win", "instant_win", ("12", "off"), "taking this many tricks in one deal wins at once", "000, 004"),
    Option("bound", "bound", ("off", "15"), "the game ends when a total reaches +bound or -bound", "000, 004 (reversed targets)"),
    Option("deals", "deals", ("off", "9", "12", "18", "N"), "a fixed number of deals; highest total wins", "002, 003"),
    Option("traditional", "traditional", ("off", "on", "strict"), "after one full rotation the first dealer who makes (strict: beats) his target wins", "002"),
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
    declarer: str = "dealer"
    contracts: str = "suits"
    contract_once: bool = False
    contract_after: int = 0
    kitty: str = "take-then-discard"
    kitty_timing: str = "after-exchange"
    exchange: bool = True
    give: str = "chosen"
    return_rule: str = "suit"
    trump_return: str = "highest"
    exchange_count: str = "exact"
    two_up: str = "higher-target"
    trump_timing: str = "after-exchange"
    must_trump: bool = False
    must_overtrump: bool = False
    dealer_assigns: bool = False
    scoring: str = "running"
    target_total: int | None = 10
    instant_win: int | None = 12
    bound: int | None = None
    deals: int | None = None
    traditional: str = "off"

    def __post_init__(self) -> None:
        self._validate()

    # ------------------------------------------------------------------ derived
    @property
    def tricks(self) -> int:
        """Tricks per deal: 16 (3 players with kitty), 17 (3 players, no kitty), 12 (4 players)."""
        if self.players == 4:
            return 12
        return 17 if self.kitty == "none" else 16

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player (equal to :attr:`tricks`)."""
        return self.tricks

    @property
    def kitty_size(self) -> int:
        """Cards in the kitty: 4, or 0 with ``kitty=none``."""
        return 0 if self.kitty == "none" else 4

    @property
    def declarer_role(self) -> int:
        """Role index of the declarer: 0 (dealer) or 1 (eldest, the 3-5-8 playmaker)."""
        return 0 if self.declarer == "dealer" else 1

    @property
    def has_nt_mt(self) -> bool:
        """Whether no-trump and minimum-tricks contracts exist (seed 003)."""
        return self.contracts == "suits-nt-mt"

    # ------------------------------------------------------------------ validation
    def _validate(self) -> None:
        def bad(msg: str) -> RulesError:
            return RulesError(f"rules {self.short()!r}: {msg}")

        if self.players not in (3, 4):
            raise bad(f"players={self.players} (3 or 4)")
        if len(self.targets) != self.players:
            raise bad(f"targets {'-'.join(map(str, self.targets))} name {len(self.targets)} seats for {self.players} players")
        if any(t < 0 or t > self.tricks for t in self.targets):
            raise bad(f"a target outside 0..{self.tricks}")
        if sum(self.targets) != self.tricks and not self.unbalanced_targets:
            raise bad(
                f"targets {'-'.join(map(str, self.targets))} add up to {sum(self.targets)}, not the {self.tricks} tricks; "
                "set unbalanced-targets=on to play them anyway (RULES.md decision 5)"
            )
        for key in ("declarer", "contracts", "kitty", "kitty_timing", "give", "return_rule", "trump_return",
                    "exchange_count", "two_up", "trump_timing", "scoring", "traditional"):
            opt = next(o for o in OPTIONS if o.field == key)
            if getattr(self, key) not in opt.values:
                raise bad(f"{opt.key}={getattr(self, key)!r} is not one of {', '.join(opt.values)}")
        if self.players == 4 and self.kitty == "none":
            raise bad("kitty=none removes one card for 3 players (51 cards); with 4 players it makes no sense")
        if self.contract_after not in (0,) and not 1 <= self.contract_after <= self.hand_size:
            raise bad(f"contract-after={self.contract_after} outside 0..{self.hand_size}")
        if self.contract_after and self.trump_timing != "before-exchange":
            raise bad("contract-after needs trump=before-exchange (the contract is chosen before the rest is dealt)")
        if self.contract_after and self.kitty == "see-then-trump":
            raise bad("contract-after and kitty=see-then-trump contradict each other")
        if self.trump_return == "free" and self.trump_timing == "after-exchange":
            raise bad("trump-return=free needs trump named before the returns (trump=before-exchange or mid-exchange)")
        if self.trump_timing == "mid-exchange" and self.kitty_timing != "before-exchange" and self.kitty != "none":
            raise bad("trump=mid-exchange needs kitty-timing=before-exchange (seeds 000/004, reversed targets)")
        if self.kitty == "blind-trump" and self.kitty_timing == "before-exchange" and self.trump_timing != "before-exchange":
            raise bad("kitty=blind-trump names trump before the kitty, but kitty-timing=before-exchange takes the kitty before trump is named")
        if self.kitty == "see-then-trump" and self.trump_timing == "before-exchange" and self.kitty_timing == "after-exchange":
            raise bad("kitty=see-then-trump needs the kitty before trump, but trump=before-exchange names it before the kitty is taken")
        if self.contract_once:
            if not self.has_nt_mt:
                raise bad("contract-once needs contracts=suits-nt-mt (six contracts)")
            if self.deals != 6 * self.players:
                raise bad(f"contract-once needs deals={6 * self.players} (each player declares 6 times)")
        if self.declarer == "eldest" and self.dealer_assigns:
            raise bad("dealer-assigns-targets with declarer=eldest is not described by any rules text")
        if self.target_total is not None and self.target_total <= 0:
            raise bad(f"to={self.target_total} must be positive")
        if self.bound is not None and self.bound <= 0:
            raise bad(f"bound={self.bound} must be positive")
        if self.deals is not None and self.deals <= 0:
            raise bad(f"deals={self.deals} must be positive")
        if self.instant_win is not None and not 1 <= self.instant_win <= self.tricks:
            raise bad(f"instant-win={self.instant_win} outside 1..{self.tricks}")
        if (self.target_total is None and self.instant_win is None and self.bound is None
                and self.deals is None and self.traditional == "off"):
            raise bad("no game end is set (to, instant-win, bound, deals or traditional): the game would never end")

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
    def parse(cls, text: str) -> Rules:
        """Parse the string form ``'PRESET [key=value ...]'``; an empty string means the default preset.

        Raises:
            RulesError: quoting the unknown preset, key or value, or saying why a combination is refused.
        """
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
        if "players" in kwargs and "targets" not in kwargs and kwargs["players"] != self.players:
            kwargs["targets"] = (5, 3, 2, 2) if kwargs["players"] == 4 else PRESETS[self.name]["targets"]
        if kwargs.get("kitty") == "none" and "targets" not in kwargs and self.players == 3 and sum(self.targets) == 16:
            kwargs["targets"] = _NO_KITTY_TARGETS.get(tuple(self.targets), (9, 5, 3))
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


def _to_text(v: object) -> str:
    if v is None:
        return "off"
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, tuple):
        return "-".join(map(str, v))
    return str(v)


def _convert(opt: Option, value: str) -> Any:
    f = opt.field
    if f in ("unbalanced_targets", "exchange", "must_trump", "must_overtrump", "dealer_assigns", "contract_once"):
        if value not in ("on", "off"):
            raise RulesError(f"{opt.key}={value!r}: use on or off")
        return value == "on"
    if f == "targets":
        try:
            return tuple(int(x) for x in value.split("-"))
        except ValueError:
            raise RulesError(f"targets={value!r}: write them dealer-eldest-third, e.g. 9-5-2") from None
    if f in ("players", "contract_after"):
        try:
            return int(value)
        except ValueError:
            raise RulesError(f"{opt.key}={value!r} is not a number") from None
    if f in ("target_total", "instant_win", "bound", "deals"):
        if value == "off":
            return None
        try:
            return int(value)
        except ValueError:
            raise RulesError(f"{opt.key}={value!r}: a number or off") from None
    if value not in opt.values:
        raise RulesError(f"{opt.key}={value!r} is not one of {', '.join(opt.values)}")
    return value


_NO_KITTY_TARGETS: Final[dict[tuple[int, ...], tuple[int, ...]]] = {(9, 5, 2): (9, 5, 3), (8, 5, 3): (9, 5, 3), (9, 2, 5): (9, 3, 5), (3, 8, 5): (3, 9, 5)}

PRESETS: Final[dict[str, dict[str, Any]]] = {
    # 000/004: the Canadian 9-5-2. RULES.md: trump named -> D takes kitty -> D discards 4; to 10; 12+ wins.
    "9-5-2": dict(targets=(9, 5, 2), kitty="take-then-discard", scoring="running", target_total=10, instant_win=12),
    # 004 Variants / 002: the British original; discard first, then the kitty; counters; ends at 12+ tricks.
    "8-5-3": dict(targets=(8, 5, 3), kitty="discard-then-take", scoring="counters", target_total=None, instant_win=12),
    # 000/004 Variants, reversed targets: kitty and discard before the exchange; gives, trump, returns; +-15.
    "9-2-5": dict(targets=(9, 2, 5), kitty="take-then-discard", kitty_timing="before-exchange",
                  trump_timing="mid-exchange", scoring="running", target_total=None, instant_win=None, bound=15),
    # 003 (online): playmaker E chooses after 6 cards; six contracts once each over 18 deals; must trump;
    # a trump received may be answered with any card.
    "3-5-8": dict(targets=(3, 8, 5), declarer="eldest", contracts="suits-nt-mt", contract_once=True, contract_after=6,
                  kitty="take-then-discard", trump_timing="before-exchange", must_trump=True, trump_return="free",
                  two_up="higher-target", scoring="running", target_total=None, instant_win=None, deals=18),
}
