"""The Sergeant Major family as a Python OpenSpiel game: ``python_sergeant_major`` (extra ``openspiel``).

Importing this module registers the game with ``pyspiel.register_game``::

    import pyspiel
    import sergeant_major.research.openspiel_game  # noqa: F401  (registers the game)
    game = pyspiel.load_game("python_sergeant_major", {"rules": "3-5-8", "deals": 1})

Parameters:

| name | default | meaning |
|---|---|---|
| ``rules`` | ``"9-5-2"`` | the rules' string form (docs/rules.md reference presets and options). In the one-line game string, where ``=`` and spaces are taken, write ``:`` for ``=`` and ``+`` for a space, and quote a bare preset: ``python_sergeant_major(rules="9-5-2")``, ``python_sergeant_major(rules=8-5-3+kitty:see-then-trump)`` (unquoted, OpenSpiel's own parser reads ``9-5-2`` as a number and fails; :func:`load_game` takes it). The game reports it in that form (:func:`format_rules_param`), so ``pyspiel.load_game(str(game))`` rebuilds the game |
| ``deals`` | ``1`` | deals per game: one game is one deal by default; more plays a match of at most that many deals (it ends earlier when the rules end it); the exchange of deal k+1 comes from deal k |

The game: players ``0..n-1`` are the seats; seat 0 deals the first deal (the deal passes to the left).
Chance deals the cards one at a time, clockwise from the eldest hand, the last cards to the kitty (seeds
000/004 "Setup"), each outcome uniform over the cards not yet dealt (``kitty=none``: 51 cards, no 2C), as
in OpenSpiel's hearts and skat; a chance action not among ``chance_outcomes()`` is refused
(``SergeantMajorError``). Actions are the stable ids of :mod:`.action_space` (cards 0..51 for give,
return, discard and play; contracts 52..57; 59 give no more; 60.. assign targets), legal actions sorted.
Forced actions (taking the kitty, a return the rule fixes, a give of the lowest card) are applied inside
``apply_action``: players see only decisions. Returns: the deal's scores (a match: the totals), as floats;
rewards: a deal's scores after the player action that finished it, kept through the chance actions that
deal the next one (reward model ``REWARDS``). A refused action (``IllegalActionError``, ``SergeantMajorError``)
changes nothing, rewards included.

Observations come from :mod:`.observation` (``encode_observation`` / ``encode_information_state`` and the
matching strings) through ``make_py_observer``: ``perfect_recall=True`` gives the information state, else
the observation. While a deal is being dealt, a player's string lists the cards it has received so far
(with ``contract-after=k``, as in 3-5-8, only its first ``k``: seed 003, docs/rules.md, every seat sees only
its first 6 cards while the contract is chosen, which is after the deal) and the tensor is all zeros. The
terminal state shows the last deal played, scored, also when ``deals`` ends the game before the match. With
several deals, the information state covers the current deal and the match so far (totals and results), not
the earlier deals' tricks.

Pickling: ``pickle`` and ``copy.deepcopy`` of a game rebuild it from ``str(game)``; a state pickles, and
``pyspiel.serialize_game_and_state`` / ``deserialize_game_and_state`` work (import this module first).

Search: ``state.resample_from_infostate(player, sampler)`` draws a state consistent with the player's
information from :func:`~sergeant_major.search.determinization.resample`, so the Python ISMCTS bot
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``) can play it. OpenSpiel's C++ ISMCTS cannot play a
Python game: it needs the game's resampling in C++.
"""

from __future__ import annotations

import copy
import operator
import random
import re
from typing import Any

from sergeant_major.core.errors import SergeantMajorError, install_hint
from sergeant_major.core.rule_options import KittyProcedure

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(f"sergeant_major.research.openspiel_game needs open-spiel and numpy ({exc}); install them with: "
                      + install_hint("openspiel")) from exc

from sergeant_major.core.actions import Contract, Play
from sergeant_major.core.cards import CARDS, Card
from sergeant_major.core.deal import Deal, Phase
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View
from sergeant_major.research.action_space import (
    ASSIGN_BASE,
    CONTRACT_BASE,
    END_GIVE,
    NUM_ACTIONS,
    TAKE_KITTY,
    action_from_id,
    legal_ids,
)
from sergeant_major.search.determinization import Budget, resample

__all__ = ["GAME_NAME", "SearchMatch", "SergeantMajorGame", "SergeantMajorState", "format_rules_param", "load_game",
           "parse_rules_param"]

GAME_NAME = "python_sergeant_major"
_DEFAULTS: dict[str, Any] = {"rules": "9-5-2", "deals": 1}


def _game_type(zero_sum: bool) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python Sergeant Major (9-5-2, 8-5-3, 9-2-5, 3-5-8)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=4,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


_GAME_TYPE = _game_type(True)


def parse_rules_param(text: str) -> Rules:
    """The rules from the ``rules`` parameter: the string form, with ``+`` or ``;`` allowed for spaces and
    ``:`` for ``=``, and surrounding quotes ignored (for OpenSpiel's one-line game strings, where a bare
    ``9-5-2`` would be read as a number: write ``rules="9-5-2"``).

    Raises:
        RulesError: quoting the bad preset, option or value.
    """
    words = str(text).strip().strip("'\"").replace("+", " ").replace(";", " ").split()
    return Rules.parse(" ".join(w.replace(":", "=") for w in words))


def format_rules_param(rules: Rules) -> str:
    """The ``rules`` parameter in the one-line form that :func:`parse_rules_param` and OpenSpiel's game-string
    parser read back: the string form with ``+`` for a space and ``:`` for ``=``, quoted when it would otherwise
    be read as a number (a bare preset: ``"9-5-2"``, quotes included). The game reports its parameters in this
    form, so ``pyspiel.load_game(str(game))`` rebuilds the game (and pickling a game works).

    Example: ``8-5-3 kitty=see-then-trump`` gives ``8-5-3+kitty:see-then-trump``; ``9-5-2`` gives ``"9-5-2"``.
    """
    text = str(rules).replace(" ", "+").replace("=", ":")
    # OpenSpiel reads a value made only of these characters as an int or a double (game_parameters.cc)
    return f'"{text}"' if not text.strip("+-0123456789.") else text


class SergeantMajorGame(pyspiel.Game):  # type: ignore[misc]
    """The game: immutable rules and number of deals (see the module docstring for the parameters).

    Raises:
        SergeantMajorError: quoting a bad ``rules`` or ``deals`` parameter.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = dict(_DEFAULTS)
        p.update(params or {})
        self.rules = parse_rules_param(p["rules"])
        # an int (or a NumPy integer), as OpenSpiel's parameter type says (pyspiel.load_game checks it; a direct
        # construction must too): int() would have read 2.5 as 2 and True as 1
        try:
            if isinstance(p["deals"], (bool, np.bool_)):
                raise TypeError
            deals = operator.index(p["deals"])
        except TypeError:
            raise SergeantMajorError(f"deals={p['deals']!r} is not a whole number") from None
        if deals < 1:
            raise SergeantMajorError(f"deals={deals} must be at least 1")
        self.deals = deals
        r = self.rules
        n = r.players
        zero = r.score_sum(False) == 0 and r.score_sum(True) == 0
        per_deal = r.tricks * (n - 1)
        length = deals * (52 + 2 + r.kitty_size + 2 * r.tricks + n * n + n * r.tricks)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=n,
            min_utility=float(-per_deal * deals),
            max_utility=float(per_deal * deals),
            utility_sum=0.0 if zero else None,
            max_game_length=length,
        )
        super().__init__(_GAME_TYPE if zero else _game_type(False), info, {"rules": format_rules_param(r), "deals": deals})

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickle and ``copy.deepcopy`` rebuild the game from its name, ``str(game)`` (pybind's own pickling
        of a Python game keeps the C++ part only and loses ``rules`` and ``deals``)."""
        return _load_game, (str(self),)

    def new_initial_state(self) -> SergeantMajorState:
        """A new game: chance deals the first card next."""
        return SergeantMajorState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer: information state with ``perfect_recall=True``, else the observation.

        Both are one player's private view (``private_info=SINGLE_PLAYER``, ``public_info=True``, OpenSpiel's
        default and information-state types).

        Raises:
            SergeantMajorError: quoting observation parameters, or an observation type this game does not
                provide: a public-only (``private_info=NONE``) or all-players observer, or one without the
                public information. Such an observer would otherwise get the player's own hand.
        """
        if params:
            raise SergeantMajorError(f"observation parameters are not supported; got {params!r}")
        if iig_obs_type is not None and (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info):
            got = (f"public_info={iig_obs_type.public_info}, perfect_recall={iig_obs_type.perfect_recall}, "
                   f"private_info={iig_obs_type.private_info.name}")
            raise SergeantMajorError(
                f"observation type ({got}) is not supported: only private_info=SINGLE_PLAYER with "
                "public_info=True (the player's own view; perfect_recall=True for the information state)")
        return _Observer(self.rules, bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


_PARAMETER = re.compile(r",(?=\s*[A-Za-z_]\w*\s*=)")
"""Where the one-line form's parameters part: a comma followed by the next parameter's ``name=``."""


def load_game(text: str) -> SergeantMajorGame:
    """The game of the one-line game string ``text``, as ``pyspiel.load_game(text)`` gives it, also for what
    OpenSpiel's own parser refuses before the game sees it: a bare preset, ``python_sergeant_major(rules=9-5-2)``
    (OpenSpiel reads ``9-5-2`` as a number and stops at ``game_parameters.cc CHECK_TRUE(success)``), and a rules
    string with its spaces and ``=`` (``rules=8-5-3 kitty=see-then-trump``). Quoted or written with ``+`` and
    ``:``, the value is read as :func:`parse_rules_param` reads it.

    Raises:
        SergeantMajorError: quoting ``text`` when it is not this game's string (another game's name, no closing
            parenthesis, an unknown parameter, a parameter given twice, ``deals`` not a whole number of 1 or
            more); ``RulesError`` quoting bad rules.
    """
    if not isinstance(text, str):
        raise SergeantMajorError(f"{text!r} is not a game string such as 'python_sergeant_major(rules=9-5-2)'")
    m = re.fullmatch(r"\s*([A-Za-z_][\w.]*)\s*(?:\((.*)\))?\s*", text, re.DOTALL)
    if m is None:
        raise SergeantMajorError(f"{text!r} is not a game string such as 'python_sergeant_major(rules=9-5-2)'")
    if m[1] != GAME_NAME:
        raise SergeantMajorError(f"{text!r}: {m[1]!r} is not this game; it is registered as {GAME_NAME!r}, e.g. "
                                 f"'{GAME_NAME}(rules=9-5-2,deals=1)'")
    params: dict[str, Any] = {}
    for part in _PARAMETER.split(m[2]) if m[2] is not None and m[2].strip() else []:
        name, eq, value = part.partition("=")
        name = name.strip()
        if not eq or name not in _DEFAULTS:
            raise SergeantMajorError(f"{text!r}: {part.strip()!r} is not a parameter of {GAME_NAME} (it takes "
                                     f"{', '.join(f'{k}=...' for k in _DEFAULTS)})")
        if name in params:
            raise SergeantMajorError(f"{text!r}: {name} is given twice")
        params[name] = value.strip()
    if "deals" in params:
        if re.fullmatch(r"[0-9]+", params["deals"]) is None or int(params["deals"]) < 1:
            raise SergeantMajorError(f"{text!r}: deals={params['deals']!r} is not a whole number of 1 or more")
        params["deals"] = int(params["deals"])
    if "rules" in params:  # its string form: OpenSpiel's dict form takes any text
        params["rules"] = str(parse_rules_param(params["rules"]))
    game = pyspiel.load_game(GAME_NAME, params)
    assert isinstance(game, SergeantMajorGame)
    return game


def _load_game(name: str) -> SergeantMajorGame:
    """``pyspiel.load_game(name)`` from a module that registers the game (so that unpickling imports it)."""
    game = pyspiel.load_game(name)
    assert isinstance(game, SergeantMajorGame)
    return game


class _Placeholder:
    """The match's ``cards`` source: a fixed placeholder deal, replaced by the cards chance deals. A class, not a
    lambda, so that a state pickles (``pyspiel.serialize_game_and_state`` pickles the state's ``__dict__``)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def __call__(self, number: int, dealer: int) -> tuple[list[list[Card]], list[Card]]:
        rules = self.rules
        deck = list(range(1, 52)) if rules.kitty is KittyProcedure.NONE else list(range(52))
        hs = rules.hand_size
        hands = [[CARDS[c] for c in deck[s * hs:(s + 1) * hs]] for s in range(rules.players)]
        return hands, [CARDS[c] for c in deck[rules.players * hs:]]


class SergeantMajorState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: a :class:`Match` plus the cards chance has dealt so far for the current deal."""

    def __init__(self, game: SergeantMajorGame, _blank: bool = False) -> None:
        super().__init__(game)
        if _blank:  # filled in by __deepcopy__
            return
        self._rules = game.rules
        self._cap = game.deals
        self._deck = tuple(range(1, 52)) if game.rules.kitty is KittyProcedure.NONE else tuple(range(52))
        self._match: Match = SearchMatch(game.rules, 0, dealer=0, cards=_Placeholder(game.rules))
        self._dealing: list[int] | None = []
        self._rewards = [0.0] * game.rules.players

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while dealing, ``TERMINAL`` at the end."""
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._dealing is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._match.to_act
        assert seat is not None
        return seat

    def _over(self) -> bool:
        return self._match.over or len(self._match.results) >= self._cap

    def _shown_deal(self) -> Deal:
        """The deal the state shows: the current one, or at the end the last deal played. A game capped by
        ``deals`` ends while the match goes on: the match has then started the next deal (placeholder cards,
        never dealt by chance), which is no part of the game."""
        m = self._match
        if not m.over and len(m.results) >= self._cap and len(m.deals) > len(m.results):
            return m.deals[len(m.results) - 1]
        return m.deal

    def is_terminal(self) -> bool:
        return self._over()

    def _legal_actions(self, player: int) -> list[int]:
        d = self._match.deal
        if d.phase == Phase.PLAY:  # the hot path: card ids straight from the legal-play mask (ascending)
            m = d.legal_play_mask()
            out = []
            while m:
                low = m & -m
                out.append(low.bit_length() - 1)
                m ^= low
            return out
        return legal_ids(d)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card not dealt yet, with equal probability.

        Raises:
            SergeantMajorError: at a player's decision or at the end (not a chance node), saying whose turn it is.
        """
        if self._dealing is None or self._over():
            who = "the game is over" if self._over() else f"player {self.current_player()} is to act"
            raise SergeantMajorError(f"chance_outcomes() at a node that is not a chance node: {who}")
        dealt = set(self._dealing)
        left = [c for c in self._deck if c not in dealt]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        """Apply a chance outcome (a card to deal) or the decision of the player to act.

        Raises:
            SergeantMajorError: quoting a chance action that is not among :meth:`chance_outcomes` (not a card
                of the deck, or a card already dealt), or any action once the game is over.
            IllegalActionError: quoting a player action that is not legal now.

        A refused action changes nothing (history, rewards and the cards dealt stay as they were).
        """
        a = int(action)
        if self._over():
            raise SergeantMajorError(f"action {a} refused: the game is over")
        if self._dealing is not None:
            self._check_chance(a)
            self._dealing.append(a)
            if len(self._dealing) == len(self._deck):
                self._start_deal()
            return
        m = self._match
        before = len(m.results)
        d = m.deal
        m.apply(Play(d.to_play, CARDS[a]) if d.phase == Phase.PLAY and 0 <= a < 52 else action_from_id(d, a))
        # only once the checked apply has accepted the action: a refused one leaves the rewards as they were
        self._rewards = [0.0] * self._rules.players
        if len(m.results) > before:
            self._rewards = [float(x) for x in m.results[-1].scores]
            if not self._over():
                self._dealing = []
            return
        self._run_forced()

    def _check_chance(self, a: int) -> None:
        assert self._dealing is not None
        deck = f"{len(self._deck)}-card deck" + (" (kitty=none: no 2C)" if len(self._deck) == 51 else "")
        if not 0 <= a < 52 or a not in self._deck:
            what = f"action {a} ({CARDS[a]})" if 0 <= a < 52 else f"action {a}"
            raise SergeantMajorError(f"chance {what} is not a card of the {deck}: the outcomes are the cards not dealt yet")
        if a in self._dealing:
            raise SergeantMajorError(f"chance action {a} ({CARDS[a]}) refused: {CARDS[a]} was already dealt "
                                     f"(card {self._dealing.index(a) + 1} of {len(self._deck)})")

    def _start_deal(self) -> None:
        assert self._dealing is not None
        r = self._rules
        n = r.players
        m = self._match
        old = m.deal
        hands: list[list[Card]] = [[] for _ in range(n)]
        cut = n * r.hand_size
        for j, c in enumerate(self._dealing[:cut]):
            hands[(old.dealer + 1 + j) % n].append(CARDS[c])
        kitty = [CARDS[c] for c in self._dealing[cut:]]
        m.deals[-1] = Deal(r, old.dealer, hands, kitty, old.prev_diffs, old.allowed_contracts, old.number)
        self._dealing = None
        self._run_forced()

    def _run_forced(self) -> None:
        m = self._match
        while not m.over:
            f = m.publicly_forced_action()
            if f is None:
                return
            m.apply(f)

    def _action_to_string(self, player: int, action: int) -> str:
        """The action in words (``Deal QS``, ``Play QS``, ``Name spades``...).

        Raises:
            SergeantMajorError: quoting an id outside the action space (a chance outcome: outside 0..51); they
                were shown as another action (``-3`` as ``Card QS``, ``99`` as ``Assign targets #39``).
        """
        a = int(action)
        chance = player == pyspiel.PlayerId.CHANCE
        top = 52 if chance else NUM_ACTIONS
        if not 0 <= a < top:
            raise SergeantMajorError(f"action {a} is not a{' chance outcome' if chance else 'n action id'} (0..{top - 1})")
        if chance:
            return f"Deal {CARDS[a]}"
        if a < 52:
            verb = {Phase.PLAY: "Play", Phase.DISCARD: "Discard", Phase.EXCHANGE: "Pass"}.get(self._match.deal.phase, "Card")
            return f"{verb} {CARDS[a]}"
        if a < TAKE_KITTY:
            return f"Name {Contract(a - CONTRACT_BASE).word}"
        if a == TAKE_KITTY:
            return "Take the kitty"
        if a == END_GIVE:
            return "Give no more"
        return f"Assign targets #{a - ASSIGN_BASE}"

    def returns(self) -> list[float]:
        """The deal's scores (a match: the totals so far), by seat."""
        return [float(t) for t in self._match.totals]

    def rewards(self) -> list[float]:
        """The scores of the deal that the last player action finished, else zeros. Chance actions (the
        next deal's cards) keep them, so that they are seen at the next decision, as OpenSpiel's
        simulation tests and ``rl_environment`` read rewards."""
        return list(self._rewards)

    def __str__(self) -> str:
        m = self._match
        if self._dealing is not None:
            return f"deal {m.deal.number}: dealing, {len(self._dealing)} of {len(self._deck)} cards out"
        d = self._shown_deal()
        hands = " | ".join(" ".join(str(c) for c in d.hand(s)) for s in range(d.n))
        return f"deal {d.number} {d.phase.value} to act {d.to_act}; tricks {d.tricks_won}; totals {m.totals}; hands {hands}"

    def __deepcopy__(self, memo: dict[int, Any]) -> SergeantMajorState:
        new = SergeantMajorState(self.get_game(), True)
        new._rules = self._rules
        new._cap = self._cap
        new._deck = self._deck
        new._dealing = None if self._dealing is None else list(self._dealing)
        new._rewards = list(self._rewards)
        new._match = _clone_match(self._match)
        return new

    # ------------------------------------------------------------------ views and search
    def _check_player(self, player: object) -> int:
        """``player`` as a seat ``0..n-1``.

        Raises:
            SergeantMajorError: quoting anything else (``-1`` read the last seat's hand, ``1.5`` and ``True`` were
                taken or a bare ``TypeError``).
        """
        n = self._rules.players
        if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)) or not 0 <= player < n:
            raise SergeantMajorError(f"player {player!r} is not a player of this game: give an int in 0..{n - 1}")
        return int(player)

    def view(self, player: int) -> View | None:
        """``player``'s :class:`View`, or ``None`` while the cards are being dealt. At the end of the game,
        the view of the last deal played, scored (also when ``deals`` ended the game before the match).

        Raises:
            SergeantMajorError: quoting a ``player`` that is not a seat ``0..n-1``.
        """
        player = self._check_player(player)
        if self._dealing is not None:
            return None
        return self._match.view(player, self._shown_deal())

    def _seen_positions(self, player: int) -> list[int]:
        """The positions in the deal order of the cards dealt so far that ``player`` may see: its own, and with
        ``contract-after=k`` (3-5-8) only its first ``k`` (seed 003, docs/rules.md: while the contract is
        chosen, every seat sees only its first 6 cards, and the contract comes after the deal)."""
        assert self._dealing is not None
        n = self._rules.players
        dealer = self._match.deal.dealer
        cut = min(len(self._dealing), n * self._rules.hand_size)
        limit = self._rules.contract_after or self._rules.hand_size
        return [j for j in range(cut) if (dealer + 1 + j) % n == player and j // n < limit]

    def dealt_so_far(self, player: int) -> list[Card]:
        """The cards ``player`` may see of those it has received so far while the current deal is being dealt
        (sorted by id): all of them, except with ``contract-after=k`` (3-5-8) only the first ``k``, as at the
        contract decision that follows the deal. Empty once the deal is dealt.

        Raises:
            SergeantMajorError: quoting a ``player`` that is not a seat ``0..n-1``.
        """
        player = self._check_player(player)
        if self._dealing is None:
            return []
        return sorted((CARDS[self._dealing[j]] for j in self._seen_positions(player)), key=lambda c: c.id)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any, *,
                                budget: Budget | None = None) -> SergeantMajorState:
        """A state drawn from those ``player_id`` cannot tell from this one (for ISMCTS).

        Uses :func:`~sergeant_major.search.determinization.resample`, seeded from ``probability_sampler()``
        (OpenSpiel's ``UniformProbabilitySampler``; any callable returning a float in ``[0, 1)``).

        Args:
            budget: optional (keyword only, not part of OpenSpiel's API): a
                :class:`~sergeant_major.search.determinization.Budget` the draw counts its steps in (the ``ismcts``
                player shares one across a decision); with budget left the same state is drawn as without it.

        Raises:
            SergeantMajorError: quoting a ``player_id`` that is not a seat ``0..n-1`` (``-1`` drew a deal for
                no seat and failed, ``1.5`` was a bare ``TypeError``).
            ResampleError: when ``resample`` gives up on the view; ``BudgetExhausted`` (one) when ``budget``
                runs out first.
        """
        player_id = self._check_player(player_id)
        try:
            seed = int(float(probability_sampler()) * (1 << 53))
        except TypeError:
            seed = random.getrandbits(53)
        rng = random.Random(seed)
        new = copy.deepcopy(self)
        if self._dealing is not None:
            mine = self._seen_positions(player_id)
            others = [j for j in range(len(self._dealing)) if j not in mine]
            unseen = [c for c in self._deck if c not in {self._dealing[j] for j in mine}]
            pick = rng.sample(unseen, len(others))
            assert new._dealing is not None
            for j, c in zip(others, pick, strict=True):
                new._dealing[j] = c
            return new
        view = self.view(player_id)
        if view is None or self._over():
            return new
        new._match.deals[-1] = resample(view, rng, budget=budget)
        return new


def _clone_deal(d: Deal) -> Deal:
    """A copy of a deal's state (lists copied, immutable values shared): much faster than deepcopy."""
    new = Deal.__new__(Deal)
    for k, v in d.__dict__.items():
        if isinstance(v, list):
            v = [list(x) if isinstance(x, list) else x for x in v]
        elif isinstance(v, dict):
            v = {a: (list(b) if isinstance(b, list) else b) for a, b in v.items()}
        new.__dict__[k] = v
    return new


def _clone_match(m: Match) -> Match:
    new = type(m).__new__(type(m))
    for k, v in m.__dict__.items():
        if k == "deals":
            v = list(v[:-1]) + [_clone_deal(v[-1])]
        elif k == "contracts_used":
            v = [list(x) for x in v]
        elif isinstance(v, list):
            v = list(v)
        new.__dict__[k] = v
    return new


class SearchMatch(Match):
    """A :class:`Match` that ``copy.deepcopy`` copies fast, for the match inside a search's game state.

    ``pyspiel.clone`` of a Python state deep-copies the state's ``__dict__`` (not through
    :meth:`SergeantMajorState.__deepcopy__`), and the generic deep copy of a match cost about 2.5 ms, most of an
    ISMCTS roll-out's time; this class copies with :func:`_clone_match` instead. :class:`SergeantMajorState` and
    :func:`sergeant_major.research.ismcts.state_from_view` build their matches on it.
    """

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return _clone_match(self)


class _Observer:
    """OpenSpiel's PyObserver protocol over :mod:`.observation` (imported when first needed)."""

    def __init__(self, rules: Rules, info: bool) -> None:
        from sergeant_major.research import observation as obs

        self._obs = obs
        self._info = info
        size = obs.information_state_size(rules) if info else obs.observation_size(rules)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"information_state" if info else "observation": self.tensor}

    def set_from(self, state: SergeantMajorState, player: int) -> None:
        view = state.view(player)
        if view is None:
            self.tensor.fill(0.0)
            return
        vals = self._obs.encode_information_state(view) if self._info else self._obs.encode_observation(view)
        self.tensor[:] = vals

    def string_from(self, state: SergeantMajorState, player: int) -> str:
        view = state.view(player)
        if view is None:
            m = state._match
            cards = " ".join(str(c) for c in state.dealt_so_far(player))
            return f"p{player} deal {m.deal.number} dealing; totals {m.totals}; cards so far: {cards}"
        if self._info:
            return str(self._obs.information_state_string(view))
        return str(self._obs.observation_string(view))


pyspiel.register_game(_GAME_TYPE, SergeantMajorGame)
