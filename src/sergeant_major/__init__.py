"""sergeant-major: the Sergeant Major family of three-player trick-taking games (9-5-2, 8-5-3, 9-2-5, 3-5-8).

The core (cards, rules, deal, match, views, players' interface) has no third-party dependency.

The names below are loaded on first use (PEP 562 ``__getattr__``): ``from sergeant_major import Match`` and
``sergeant_major.Match`` work as ever, while ``import sergeant_major.cli.app`` does not load the engine before the
command line program has set up its Ctrl-C handling (cli.py, ``main``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from sergeant_major.core.cards import CARDS, Card, Suit, format_cards, parse_card, parse_cards
    from sergeant_major.core.deal import Deal, DealResult, ExchangeEvent, Phase, Trick
    from sergeant_major.core.errors import CardParseError, IllegalActionError, RecordError, RulesError, SergeantMajorError
    from sergeant_major.core.match import Match, MatchEnd
    from sergeant_major.core.rules import PRESETS, Rules
    from sergeant_major.core.view import View
    from sergeant_major.eval.levels import make_player
    from sergeant_major.players import HeuristicPlayer, Player, RandomPlayer, drive, play_match

__version__ = "0.1.0"

__all__ = [
    "Action", "AssignTargets", "Contract", "Discard", "EndGive", "Give", "NameContract", "Play", "Return",
    "TakeKitty", "action_text", "CARDS", "Card", "Suit", "format_cards", "parse_card", "parse_cards", "Deal",
    "DealResult", "ExchangeEvent", "Phase", "Trick", "CardParseError", "IllegalActionError", "RecordError",
    "RulesError", "SergeantMajorError", "Match", "MatchEnd", "HeuristicPlayer", "Player", "RandomPlayer",
    "drive", "make_player", "play_match", "PRESETS", "Rules", "View", "__version__",
]

_SOURCES: dict[str, str] = {
    **dict.fromkeys(("Action", "AssignTargets", "Contract", "Discard", "EndGive", "Give", "NameContract", "Play", "Return",
                     "TakeKitty", "action_text"), "core.actions"),
    **dict.fromkeys(("CARDS", "Card", "Suit", "format_cards", "parse_card", "parse_cards"), "core.cards"),
    **dict.fromkeys(("Deal", "DealResult", "ExchangeEvent", "Phase", "Trick"), "core.deal"),
    **dict.fromkeys(("CardParseError", "IllegalActionError", "RecordError", "RulesError", "SergeantMajorError"), "core.errors"),
    **dict.fromkeys(("Match", "MatchEnd"), "core.match"),
    **dict.fromkeys(("HeuristicPlayer", "Player", "RandomPlayer", "drive", "play_match"), "players"),
    "make_player": "eval.levels",  # every level, ismcts too
    **dict.fromkeys(("PRESETS", "Rules"), "core.rules"),
    "View": "core.view",
}
"""The module of each public name (all of ``__all__`` but ``__version__``)."""


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (then cached in the package's namespace).

    Raises:
        AttributeError: for a name the package does not export.
    """
    module = _SOURCES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SOURCES))
