"""sergeant-major: the Sergeant Major family of three-player trick-taking games (9-5-2, 8-5-3, 9-2-5, 3-5-8).

The core (cards, rules, deal, match, views, players' interface) has no third-party dependency.
"""

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
    action_text,
)
from .cards import CARDS, Card, Suit, format_cards, parse_card, parse_cards
from .deal import Deal, DealResult, ExchangeEvent, Phase, Trick
from .errors import CardParseError, IllegalActionError, RecordError, RulesError, SergeantMajorError
from .match import Match, MatchEnd
from .players import HeuristicPlayer, Player, RandomPlayer, drive, make_player, play_match
from .rules import PRESETS, Rules
from .view import View

__version__ = "0.1.0"

__all__ = [
    "Action", "AssignTargets", "Contract", "Discard", "EndGive", "Give", "NameContract", "Play", "Return",
    "TakeKitty", "action_text", "CARDS", "Card", "Suit", "format_cards", "parse_card", "parse_cards", "Deal",
    "DealResult", "ExchangeEvent", "Phase", "Trick", "CardParseError", "IllegalActionError", "RecordError",
    "RulesError", "SergeantMajorError", "Match", "MatchEnd", "HeuristicPlayer", "Player", "RandomPlayer",
    "drive", "make_player", "play_match", "PRESETS", "Rules", "View", "__version__",
]
