"""Unit tests of the terminal front end: input parsing, refusals, the screen and whole scripted matches
through :class:`sergeant_major.cli.play.Game` (no terminal: the console writes to a string)."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from sergeant_major.cli import tui
from sergeant_major.cli.play import Game
from sergeant_major.core.actions import Contract, Discard, EndGive, Give, NameContract, Play, Return
from sergeant_major.core.cards import CARDS, parse_card
from sergeant_major.core.deal import Phase
from sergeant_major.core.errors import IllegalActionError
from sergeant_major.core.match import Match, first_dealer
from sergeant_major.core.rules import Rules
from sergeant_major.records import match_from_record, read_record

C = parse_card


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=120, force_terminal=False, color_system=None, highlight=False), buf


def _human_dealer_seed() -> int:
    return next(s for s in range(100) if first_dealer(s, 3) == 0)


# ------------------------------------------------------------------------------------------- parsing
@pytest.mark.parametrize("text", ["QS", "qs", "Q♠", "q♠", " QS ", "Qs"])
def test_card_forms(text: str) -> None:
    assert tui.parse_card_list(text) == [C("QS")]


def test_ten_forms() -> None:
    assert tui.parse_card_list("10h TH th") == [C("TH")] * 3


def test_multi_card_line_with_commas() -> None:
    assert tui.parse_card_list("2c 3d, 4h,5s") == [C("2C"), C("3D"), C("4H"), C("5S")]


@pytest.mark.parametrize("text", ["zz", "QX", "1S", "11H", "Q"])
def test_garbage_card_is_refused_quoting_it(text: str) -> None:
    with pytest.raises(tui.InputError) as ei:
        tui.parse_card_list(text)
    assert repr(text) in str(ei.value)
    assert ei.value.rule == "not a card"


def test_garbage_in_a_line_quotes_the_line_and_the_word() -> None:
    with pytest.raises(tui.InputError) as ei:
        tui.parse_card_list("2c 3d zz")
    assert "'2c 3d zz'" in str(ei.value) and "'zz'" in str(ei.value)


def _decl_view(rules: Rules) -> tuple[Match, tui.View]:
    m = Match(rules, _human_dealer_seed(), ["You", "Bob", "Cleo"])
    assert m.deal.dealer == 0 and m.to_act == 0
    return m, m.view(0)


@pytest.mark.parametrize("text,contract", [("S", Contract.SPADES), ("spades", Contract.SPADES), ("h", Contract.HEARTS),
                                           ("♦", Contract.DIAMONDS), ("Clubs", Contract.CLUBS)])
def test_contract_forms(text: str, contract: Contract) -> None:
    _, v = _decl_view(Rules.parse("9-5-2"))
    assert tui.parse_line(v, text) == [NameContract(0, contract)]
    assert tui.prompt_word(v) == "trump"


def test_no_trump_refused_in_952_but_offered_in_358() -> None:
    _, v = _decl_view(Rules.parse("9-5-2"))
    with pytest.raises(tui.InputError) as ei:
        tui.parse_line(v, "NT")
    assert "'NT'" in str(ei.value) and ei.value.rule == "contract"
    legal = [NameContract(0, c) for c in Contract]
    assert tui.parse_contract("nt", legal) == NameContract(0, Contract.NO_TRUMP)
    assert tui.parse_contract("MT", legal) == NameContract(0, Contract.MINIMUM)
    with pytest.raises(tui.InputError) as e2:
        tui.parse_contract("banana", legal)
    assert "'banana'" in str(e2.value) and "NT MT" in str(e2.value)


def test_play_line_takes_one_card() -> None:
    m, _ = _decl_view(Rules.parse("9-5-2"))
    drive_to_phase(m, Phase.PLAY, human_first_legal=True)
    v = m.view(0)
    assert isinstance(v.legal[0], Play) if v.legal else True
    if v.legal:
        with pytest.raises(tui.InputError) as ei:
            tui.parse_line(v, "QS QH")
        assert ei.value.rule == "one card at a time" and "'QS QH'" in str(ei.value)


def test_discard_line_gives_cards() -> None:
    m, v = _decl_view(Rules.parse("9-5-2"))
    m.apply(NameContract(0, Contract.SPADES))
    m.apply(m.forced_action())  # type: ignore[arg-type]  # take the kitty
    v = m.view(0)
    assert tui.prompt_word(v) == "discard"
    assert "Discard 4 cards" in tui.decision_help(v)
    example = tui.decision_help(v).split("several: ")[1].rstrip(").").split()
    assert len(example) == 2 and all(C(x) in v.hand for x in example)  # the example names cards the player holds
    items = tui.parse_line(v, "2c 3d 4h 5s")
    assert items == [C("2C"), C("3D"), C("4H"), C("5S")]
    with pytest.raises(tui.InputError) as ei:
        tui.parse_line(v, "2c 2C")
    assert ei.value.rule == "card twice"


def test_a_discard_naming_a_card_twice_says_which() -> None:
    """'2C 3D 4H 3d' was refused as 'names a card twice' without the card: in a line of 4 cards the player had to
    find it."""
    m, _ = _decl_view(Rules.parse("9-5-2"))
    m.apply(NameContract(0, Contract.SPADES))
    m.apply(m.forced_action())  # type: ignore[arg-type]  # take the kitty
    with pytest.raises(tui.InputError) as ei:
        tui.parse_line(m.view(0), "2C 3D 4H 3d")
    assert ei.value.rule == "card twice" and str(ei.value) == "'2C 3D 4H 3d' names 3D twice", str(ei.value)


def test_refusal_names_rule_and_quotes_input() -> None:
    err = IllegalActionError("you do not hold KD", "card not held")
    line = tui.refusal("kd", err)
    assert line == "Refused [card not held]: 'kd': you do not hold KD"
    already = tui.InputError("'zz' is not a card", "not a card")
    assert tui.refusal("zz", already) == "Refused [not a card]: 'zz' is not a card"


# ------------------------------------------------------------------------------------------- screen
def _render(v: tui.View) -> str:
    con, buf = _console()
    con.print(tui.status(v))
    return buf.getvalue()


def test_status_of_declarer_before_trump() -> None:
    _, v = _decl_view(Rules.parse("9-5-2"))
    out = _render(v)
    assert "Deal 1" in out and "not named yet" in out
    assert "dealer" in out and "eldest" in out and "third" in out
    assert "Legal: C D H S" in out
    hand = " ".join(str(c) for c in v.hand)
    assert all(str(c) in out for c in v.hand), hand


def test_status_shows_contracts_left_and_six_cards_in_358() -> None:
    rules = Rules.parse("3-5-8")
    seed = next(s for s in range(100) if (first_dealer(s, 3) + 1) % 3 == 0)  # the human is eldest: the playmaker
    m = Match(rules, seed, ["You", "Bob", "Cleo"])
    assert m.to_act == 0
    out = _render(m.view(0))
    assert "Contracts left: C D H S NT MT" in out
    assert "only your first 6 cards" in out
    assert "Legal: C D H S NT MT" in out


def test_legal_tokens_in_hand_order() -> None:
    m, _ = _decl_view(Rules.parse("9-5-2"))
    m.apply(NameContract(0, Contract.HEARTS))
    m.apply(m.forced_action())  # type: ignore[arg-type]
    v = m.view(0)
    assert tui.legal_tokens(v) == [str(c) for c in v.hand]
    assert v.hand[0].suit == 2  # hearts (trump) first


def test_describe_hides_other_seats_cards() -> None:
    m, _ = _decl_view(Rules.parse("9-5-2"))
    d = m.deal
    names = m.names
    assert tui.describe_public(Discard(1, C("2C")), d, names, 0) is None
    assert tui.describe_public(Give(1, C("2C"), 2), d, names, 0) is None
    assert tui.describe_public(Return(2, C("AS"), 1), d, names, 0) is None
    assert tui.describe_public(Give(1, C("2C"), 0), d, names, 0) == "Bob (eldest) gives 2C to You"
    assert tui.describe_public(Return(0, C("AS"), 1), d, names, 0) == "You (dealer) return AS to Bob"
    assert tui.describe_public(Play(1, C("QS")), d, names, 0) == "Bob (eldest) plays QS"
    assert tui.describe_public(EndGive(1, 2), d, names, 0) == "Bob (eldest) gives no more cards to Cleo"
    assert tui.hidden_text("give", 1, 2, 2, names) == "Bob gives Cleo 2 cards"
    assert tui.hidden_text("discard", 2, 2, 4, names) == "Cleo discards 4 cards face down"


def test_exchange_plan_words() -> None:
    rules = Rules.parse("9-5-2")
    names = ("You", "Bob", "Cleo")
    # You +2, Bob -2, Cleo 0; next dealer seat 1 -> coming targets You 2, Bob 9, Cleo 5
    plan = tui.exchange_plan(rules, (2, -2, 0), 1, names)
    assert plan == ["You (up 2) give 2 cards to Bob (down 2)"]
    # exchange-count=at-most (seed 004, docs/rules.md reference options, "exchange count"): the giver may give fewer, as the give prompt says ("give up to 2")
    plan = tui.exchange_plan(Rules.parse("9-5-2 exchange-count=at-most"), (2, -2, 0), 1, names)
    assert plan == ["You (up 2) give up to 2 cards to Bob (down 2)"]


# ------------------------------------------------------------------------------------------- scripted matches
def drive_to_phase(m: Match, phase: Phase, human_first_legal: bool = False) -> None:
    from sergeant_major.players import HeuristicPlayer, decision_rng

    p = HeuristicPlayer()
    while not m.over and not (m.deal.phase is phase and m.to_act == 0):
        f = m.forced_action()
        if f is not None:
            m.apply(f)
            continue
        seat = m.to_act
        assert seat is not None
        m.apply(p.choose(m.view(seat), decision_rng(m.seed, seat, m.deal.number, len(m.deal.history))))


class Scripted:
    """Answers prompts like a careless person: sometimes garbage or an illegal card, else a legal token."""

    def __init__(self, game_ref: list[Game], seed: int, quit_after: int | None = None) -> None:
        self.ref = game_ref
        self.rng = random.Random(seed)
        self.asked = 0
        self.quit_after = quit_after
        self.refused_lines: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.asked += 1
        if self.quit_after is not None and self.asked > self.quit_after:
            return "quit"
        v = self.ref[0].match.view(0)
        tokens = tui.legal_tokens(v)
        x = self.rng.random()
        if x < 0.05:
            return "zz9"
        if x < 0.08:
            return "help"
        if x < 0.12 and prompt in ("play> ", "discard> ", "give> "):
            held = {str(c) for c in v.hand}
            not_held = next(str(c) for c in CARDS if str(c) not in held)
            return not_held.lower()
        return self.rng.choice(tokens)


PRESET_RULES = ["9-5-2 to=3", "8-5-3 instant-win=9", "9-2-5 bound=3", "3-5-8 deals=18", "9-5-2 exchange-count=at-most to=4",
                "9-5-2 give=lowest return=overall to=4", "8-5-3 dealer-assigns-targets=on instant-win=9",
                "8-5-3 kitty=see-then-trump instant-win=9", "9-5-2 must-overtrump=on to=4"]


@pytest.mark.slow
@pytest.mark.parametrize("rules_text", PRESET_RULES)
def test_scripted_match_to_the_end(rules_text: str, tmp_path: Path) -> None:
    try:
        rules = Rules.parse(rules_text)
    except Exception as e:  # an option not (yet) in the rules: skip, but loudly
        pytest.skip(f"{rules_text!r}: {e}")
    m = Match(rules, 11, ["You", "Bob", "Cleo"])
    con, buf = _console()
    ref: list[Game] = []
    ask = Scripted(ref, 5)
    g = Game(m, ["human", "heuristic", "random"], tmp_path / "m.json", con, ask)
    ref.append(g)
    assert g.run() == 0
    out = buf.getvalue()
    assert m.over and "Match over:" in out
    assert "Record saved to" in out and (tmp_path / "m.json").exists()
    assert "Traceback" not in out
    assert ask.asked > 0
    # every refusal is one line naming a rule
    for line in out.splitlines():
        if line.startswith("Refused"):
            assert re.match(r"Refused \[[a-z -]+\]: '", line), line
    # never a card passed between the two computer players, nor their discards
    for line in out.splitlines():
        if re.match(r"(Bob|Cleo) .*(gives|returns|discards)", line) and "You" not in line:
            assert not re.search(r"\b[2-9TJQKA][CDHS]\b", line), line
    rec = read_record(tmp_path / "m.json")
    assert match_from_record(rec).totals == m.totals


def test_quit_and_resume_continue_exactly(tmp_path: Path) -> None:
    rules = Rules.parse("9-5-2 to=3")
    path = tmp_path / "save.json"
    # the whole match in one go
    con, _ = _console()
    ref: list[Game] = []
    full = Game(Match(rules, 21, ["You", "Bob", "Cleo"]), ["human", "heuristic", "heuristic"], tmp_path / "full.json", con,
                Scripted(ref, 3))
    ref.append(full)
    full.run()
    # the same, stopped after 8 answers and resumed
    con2, buf2 = _console()
    ref2: list[Game] = []
    g = Game(Match(rules, 21, ["You", "Bob", "Cleo"]), ["human", "heuristic", "heuristic"], path, con2, Scripted(ref2, 3, 8))
    ref2.append(g)
    g.run()
    assert f"Match saved to {path}" in buf2.getvalue()
    assert not g.match.over
    m2 = match_from_record(read_record(path))
    assert m2.view(0) == g.match.view(0)
    ask = Scripted([], 3)
    ask.rng = ref2[0].ask.rng  # type: ignore[attr-defined]  # the same person goes on
    con3, _ = _console()
    g3 = Game(m2, ["human", "heuristic", "heuristic"], path, con3, ask)
    ask.ref = [g3]
    g3.run()
    assert g3.match.over
    assert g3.match.totals == full.match.totals
    assert [d.history for d in g3.match.deals] == [d.history for d in full.match.deals]


@pytest.mark.slow
def test_every_decision_kind_is_met(tmp_path: Path) -> None:
    prompts: set[str] = set()
    for rules_text, seed in (("3-5-8 deals=18", 0), ("8-5-3 dealer-assigns-targets=on instant-win=9", 1),
                             ("9-5-2 exchange-count=at-most to=4", 2)):
        m = Match(Rules.parse(rules_text), seed, ["You", "Bob", "Cleo"])
        con, buf = _console()
        ref: list[Game] = []
        person = Scripted(ref, seed)

        def ask(p: str, person: Scripted = person) -> str:
            prompts.add(p)
            return person(p)

        g = Game(m, ["human", "heuristic", "random"], tmp_path / f"{seed}.json", con, ask)
        ref.append(g)
        g.run()
        assert m.over, rules_text
    assert prompts == {f"{w}> " for w in ("play", "trump", "contract", "discard", "give", "return", "targets")}


@pytest.mark.parametrize("exc", [KeyboardInterrupt, EOFError])
def test_ctrl_c_and_end_of_input_save(exc: type[BaseException], tmp_path: Path) -> None:
    m = Match(Rules.parse("9-5-2"), 2, ["You", "Bob", "Cleo"])
    con, buf = _console()

    def ask(prompt: str) -> str:
        raise exc()

    g = Game(m, ["human", "heuristic", "heuristic"], tmp_path / "s" / "x.json", con, ask)
    assert g.run() == 0
    assert f"Match saved to {tmp_path / 's' / 'x.json'}" in buf.getvalue()
    assert match_from_record(read_record(tmp_path / "s" / "x.json")).view(0) == m.view(0)


def test_play_command_errors_and_resume_from_json_lines(tmp_path: Path) -> None:
    """``play`` errors start ``error:`` like every command; ``--resume FILE --game N`` picks a record of a
    JSON Lines file, and the continued match is saved to a file of its own, not over that file."""
    import json

    from typer.testing import CliRunner

    from sergeant_major.cli.app import app, register_commands
    from sergeant_major.players import HeuristicPlayer
    from sergeant_major.players import drive as drive_match
    from sergeant_major.records import match_to_record

    register_commands()
    runner = CliRunner()
    res = runner.invoke(app, ["play", "--opponents", "wizard"])
    assert res.exit_code == 2 and res.stderr.startswith("error: ") and "'wizard'" in res.stderr
    recs = []
    for seed in (5, 6):
        m = Match(Rules.parse("9-5-2"), seed, ["You", "Bob", "Cleo"])
        drive_match(m, [HeuristicPlayer()] * 3, until_deal_end=True)
        recs.append(match_to_record(m, ["human", "heuristic", "heuristic"]))
    p = tmp_path / "two.jsonl"
    text = "".join(json.dumps(r) + "\n" for r in recs)
    p.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["play", "--resume", str(p)])
    assert res.exit_code == 2 and res.stderr.startswith("error: ") and "2 records" in res.stderr and "--game N" in res.stderr
    saves = tmp_path / "saves"
    res = runner.invoke(app, ["play", "--resume", str(p), "--game", "2", "--save-dir", str(saves)], input="quit\n")
    assert "Resuming" in res.stdout and "seed 6" in res.stdout, res.output
    assert p.read_text(encoding="utf-8") == text
    assert list(saves.glob("match-6-*.json"))
    # one record resumed with --save-dir: saved into that folder, the file resumed left as it was (--save-dir was
    # ignored: the match was saved over the file resumed)
    one = tmp_path / "one.json"
    one.write_text(json.dumps(recs[0]), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    res = runner.invoke(app, ["play", "--resume", str(one), "--save-dir", str(elsewhere)], input="quit\n")
    assert "Resuming" in res.stdout and "seed 5" in res.stdout, res.output
    assert one.read_text(encoding="utf-8") == json.dumps(recs[0])
    assert list(elsewhere.glob("match-5-*.json"))


@pytest.mark.parametrize(("name", "compact"), [("one.jsonl", True), ("one.json", True), ("one.jsonl", False)])
def test_resuming_a_json_lines_file_of_one_record_leaves_it_as_it_was(tmp_path: Path, name: str, compact: bool) -> None:
    """A JSON Lines file of one record (one compact line, or named .jsonl) was replaced by the record pretty-printed
    over 50 lines when its match was resumed: the continued match is saved to a file of its own, as from a JSON Lines
    file of several records; a pretty-printed .json save is still this match's own file and saved over."""
    import json

    from typer.testing import CliRunner

    from sergeant_major.cli.app import app, register_commands
    from sergeant_major.players import HeuristicPlayer
    from sergeant_major.players import drive as drive_match
    from sergeant_major.records import dumps_record, match_to_record

    register_commands()
    m = Match(Rules.parse("9-5-2"), 5, ["You", "Bob", "Cleo"])
    drive_match(m, [HeuristicPlayer()] * 3, until_deal_end=True)
    rec = match_to_record(m, ["human", "heuristic", "heuristic"])
    p = tmp_path / name
    text = json.dumps(rec) + "\n" if compact else dumps_record(rec)
    p.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(app, ["play", "--resume", str(p)], input="quit\n",
                             env={"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert res.exit_code == 0 and "Resuming" in res.stdout, res.output
    assert p.read_text(encoding="utf-8") == text
    saved = list((tmp_path / "xdg" / "sergeant-major" / "saves").glob("match-5-*.json"))
    assert len(saved) == 1 and f"Match saved to {saved[0]}" in res.stdout, res.stdout
    assert read_record(saved[0])["deals"][0] == read_record(p)["deals"][0]  # the same match, played on to the prompt
    pretty = tmp_path / "own.json"  # the form play saves in: resumed, saved over
    pretty.write_text(dumps_record(rec), encoding="utf-8")
    res = CliRunner().invoke(app, ["play", "--resume", str(pretty)], input="quit\n",
                             env={"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert res.exit_code == 0 and f"Match saved to {pretty}" in res.stdout, res.stdout


def test_a_long_paste_is_quoted_by_its_start() -> None:
    """A refused line of thousands of characters is quoted by its first 60, not echoed in full."""
    from sergeant_major.core.errors import SergeantMajorError

    long = "ZZ" * 1500
    line = tui.refusal(long, SergeantMajorError(f"{long!r} is not a card"))
    assert len(line) < 120 and "'" + "Z" * 60 + "...'" in line and "is not a card" in line
    assert tui.refusal("ZZ", SergeantMajorError("'ZZ' is not a card")) == "Refused [input]: 'ZZ' is not a card"


def test_a_failed_save_falls_back_to_a_private_folder(tmp_path: Path) -> None:
    """When the save path cannot be written at the end or on quit, the match is saved in a new folder of its
    own (mode 0700) in the system's temporary folder, and the player is told where."""
    from sergeant_major.cli.play import Game
    from sergeant_major.core.match import Match
    from sergeant_major.records import read_record

    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")
    con = Console(file=io.StringIO(), width=1000)  # one line however long the paths
    g = Game(Match(Rules.parse("9-5-2"), 21, ["You", "Bob", "Cleo"]), ["human", "heuristic", "heuristic"],
             blocker / "m.json", con)
    path = g._final_save()
    try:
        assert path.parent != blocker and path.exists() and read_record(path)["seed"] == 21
        assert path.parent.stat().st_mode & 0o777 == 0o700
        assert f"saved to {path} instead" in con.file.getvalue()  # type: ignore[attr-defined]
    finally:
        path.unlink()
        path.parent.rmdir()


def test_run_interruptible_turns_an_interrupted_compile_into_exit_130() -> None:
    """Ctrl-C during a numba warm-up exits 130 quietly, also when the compiler swallowed the KeyboardInterrupt
    (raised inside an LLVM callback) and failed with another error; without a SIGINT the error propagates."""
    import os
    import signal
    import time

    import typer

    from sergeant_major.cli.app import run_interruptible

    before = signal.getsignal(signal.SIGINT)  # Python's default, or SIG_IGN when the runner was started with `&`

    def swallowed() -> None:
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        except KeyboardInterrupt:
            pass
        raise RuntimeError("no compiled object yet")

    with pytest.raises(typer.Exit) as ei:
        run_interruptible(swallowed)
    assert ei.value.exit_code == 130

    def plain() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)

    with pytest.raises(typer.Exit):
        run_interruptible(plain)

    def broken() -> None:
        raise RuntimeError("a real failure")

    with pytest.raises(RuntimeError, match="a real failure"):
        run_interruptible(broken)
    assert signal.getsignal(signal.SIGINT) is before  # restored


@pytest.mark.parametrize(("sleep", "shown"), [(0.5, True), (0.0, False)])
def test_a_slow_warm_up_is_said_on_a_pipe_too(sleep: float, shown: bool) -> None:
    """Not on a terminal (``play`` or ``analyze`` piped, or logged) a warm-up that takes longer than the notice
    time is said in one plain line, a quick one not at all; the warm-up runs either way."""
    import io
    import time

    from rich.console import Console

    from sergeant_major.cli.app import prepare_with_status

    con = Console(file=io.StringIO(), force_terminal=False, width=200)
    ran: list[bool] = []

    def warm() -> None:
        time.sleep(sleep)
        ran.append(True)

    prepare_with_status(con, "Preparing the [expert] players...", warm, notice_after=0.1)
    assert ran == [True]
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert out == ("Preparing the [expert] players...\n" if shown else "")


def test_ctrl_c_while_the_experts_are_prepared_leaves_a_saved_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during the expert players' warm-up (a minute on first use) exits 130 like any interrupted
    compile, with the match already saved and its path said, as a Ctrl-C during play does (README)."""
    import os
    import signal
    import time

    from typer.testing import CliRunner

    import sergeant_major.players.expert as expert
    import sergeant_major.search as solver
    from sergeant_major.cli.app import app, register_commands

    def interrupted_compile() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)

    monkeypatch.setattr(expert, "warm_up", interrupted_compile)
    monkeypatch.setattr(solver, "HAVE_NUMBA", True)
    register_commands()
    saves = tmp_path / "saves"
    res = CliRunner().invoke(app, ["play", "--opponents", "expert", "--seed", "9", "--save-dir", str(saves)])
    assert res.exit_code == 130, res.output
    files = list(saves.glob("match-9-*.json"))
    assert len(files) == 1 and read_record(files[0])["seed"] == 9
    assert f"Match saved to {files[0]}" in res.stdout and f"play --resume {files[0]}" in res.stdout


# ------------------------------------------------------------------------------------------- second review
def _runner() -> CliRunner:

    from sergeant_major.cli.app import register_commands

    register_commands()
    return CliRunner()


@pytest.mark.parametrize(("text", "card"), [("Q♥\ufe0f", "QH"), ("q♠\ufe0f", "QS"), ("Q♡", "QH"), ("10♢", "TD"), ("K♤\ufe0e", "KS")])
def test_emoji_and_white_suit_cards_are_typed(text: str, card: str) -> None:
    assert tui.parse_card_list(text) == [C(card)]
    assert tui.parse_card_list(f"2c {text}") == [C("2C"), C(card)]


def test_a_refusal_shows_invisible_characters_by_their_code() -> None:
    """'Q♥' with two U+FE0F: the refusal quotes the line with the selectors escaped and names the stray one."""
    line = "Q♥\ufe0f\ufe0f"
    with pytest.raises(tui.InputError) as ei:
        tui.parse_card_list(line)
    shown = tui.refusal(line, ei.value)
    assert "\ufe0f" not in shown and "'Q♥\\ufe0f\\ufe0f'" in shown and "U+FE0F VARIATION SELECTOR-16 is not a suit" in shown
    with pytest.raises(tui.InputError) as ei:
        tui.parse_card_list("2c Q\u200b")
    assert "\u200b" not in str(ei.value) and "'2c Q\\u200b'" in str(ei.value)


def test_two_games_saved_under_one_name_keep_both_matches(tmp_path: Path) -> None:
    """The same seed started in the same second: the second game's first save takes ``-2``, and each game's later
    saves go to its own file."""
    path = tmp_path / "saves" / "match-1-20250101-000000.json"
    con, _ = _console()
    a = Game(Match(Rules.parse("9-5-2"), 1, ["You", "Bob", "Cleo"]), ["human", "heuristic", "heuristic"], path, con)
    b = Game(Match(Rules.parse("9-5-2"), 1, ["You", "Bob", "Cleo"]), ["human", "heuristic", "heuristic"], path, con)
    assert a.save() == path and b.save() == path.with_name("match-1-20250101-000000-2.json")
    for g, contract in ((a, Contract.SPADES), (b, Contract.HEARTS)):
        seat = g.match.to_act
        assert seat is not None
        g.match.apply(NameContract(seat, contract))
        assert g.save() == g.save_path
    assert read_record(path)["deals"][0]["actions"][0]["contract"] == "S"
    assert read_record(b.save_path)["deals"][0]["actions"][0]["contract"] == "H"
    assert sorted(p.name for p in path.parent.iterdir()) == sorted([path.name, b.save_path.name])
    # resuming a saved file goes on saving over it (new_file=False), never to a new name
    r = Game(match_from_record(read_record(path)), ["human", "heuristic", "heuristic"], path, con, new_file=False)
    assert r.save() == path and len(list(path.parent.iterdir())) == 2


def test_play_same_seed_same_second_saves_two_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The repro through the command: two ``play --seed 1`` in one second (the clock held still) keep both matches."""
    import time as time_mod

    monkeypatch.setattr(time_mod, "strftime", lambda fmt, *a: "20250101-000000" if "%Y%m%d" in fmt else "2025-01-01T00:00:00")
    runner = _runner()
    from sergeant_major.cli.app import app

    saves = tmp_path / "p4"
    outs = [runner.invoke(app, ["play", "--seed", "1", "--save-dir", str(saves)], input=f"{c}\nquit\n") for c in "SH"]
    assert all(o.exit_code == 0 for o in outs), [o.output for o in outs]
    files = sorted(saves.iterdir())
    assert [f.name for f in files] == ["match-1-20250101-000000-2.json", "match-1-20250101-000000.json"]
    assert f"Match saved to {files[1]}" in outs[0].stdout and f"Match saved to {files[0]}" in outs[1].stdout
    assert {read_record(f)["deals"][0]["actions"][0]["contract"] for f in files} == {"S", "H"}


@pytest.mark.parametrize(("args", "quoted"), [
    (["--name", "\x1b]0;pwned\x07\x1b[2JX"], "'\\x1b]0;pwned\\x07\\x1b[2JX'"),
    (["--name", "Ann\u202e"], "'Ann\\u202e'"),
    (["--name", "bob"], "'bob': the computer players are called Bob, Cleo; choose another name"),  # the computer's Bob, in other letters
    (["--name", " \u200b\u00a0"], "' \\u200b\\xa0': choose a name one can see"),  # nothing one can see
    (["--name", "A" * 41], "a name has at most 40 characters (this one 41)"),  # it broke the table's header
    (["--opponents", ",random"], "',random'"),
    (["--opponents", "random,"], "'random,'"),
    (["--opponents", "random,,random"], "'random,,random'"),
    (["--to", "20", "--rules", "9-5-2 to=10"], "'9-5-2 to=10'"),
    (["--to", "+20"], "'+20'"),
    (["--to", "0"], "--to '0': to=0 must be positive"),  # named by the option typed, not "rules '9-5-2 to=0'"
    (["--to", "OFF"], "--to 'OFF': a number"),
    (["--to", "２０"], "'２０'"),
    (["--rules", "9-5-2 to=١٠"], "'١٠'"),
    (["--rules", "8-5-3 players=4"], "instant-win=12 needs all 12 tricks of a deal"),  # docs/rules.md decision 13
    (["--rules", "8-5-3 players=4", "--to", "off"], "add a game end that can be reached: to=10"),
    (["--seed", "1_000"], "'1_000'"),
    (["--seed", "+5"], "'+5'"),
    (["--seed", " 7 "], "' 7 '"),
])
def test_play_refuses_bad_options_quoting_them(args: list[str], quoted: str, tmp_path: Path) -> None:
    from sergeant_major.cli.app import app

    res = _runner().invoke(app, ["play", *args, "--save-dir", str(tmp_path / "s")], input="quit\n")
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("error: ") and quoted in res.stderr and res.stderr.count("\n") == 1, res.stderr
    assert "\x1b" not in res.stderr and "\u202e" not in res.stderr
    assert not (tmp_path / "s").exists()


def test_play_accepts_the_same_target_total_twice(tmp_path: Path) -> None:
    from sergeant_major.cli.app import app

    res = _runner().invoke(app, ["play", "--to", "10", "--rules", "9-5-2 to=10", "--seed", "3", "--save-dir", str(tmp_path)],
                           input="quit\n")
    assert res.exit_code == 0 and "Rules: 9-5-2 " in res.stdout, res.output


def test_play_accepts_to_as_the_end_that_can_be_reached(tmp_path: Path) -> None:
    """docs/rules.md decision 13: "8-5-3 players=4" alone is refused, but --to gives it an end that can come."""
    from sergeant_major.cli.app import app

    res = _runner().invoke(app, ["play", "--to", "10", "--rules", "8-5-3 players=4", "--seed", "3", "--save-dir", str(tmp_path)],
                           input="quit\n")
    assert res.exit_code == 0 and "Rules: 8-5-3 players=4 " in res.stdout and "to=10" in res.stdout, res.output


def test_resuming_a_simulated_match_says_it_cannot_be(tmp_path: Path) -> None:
    """Records of ``simulate --out`` have no human: the refusal says simulated matches cannot be resumed, and to replay."""
    import json

    from sergeant_major.cli.app import app
    from sergeant_major.players import HeuristicPlayer
    from sergeant_major.players import drive as drive_match
    from sergeant_major.records import match_to_record, write_record

    runner = _runner()
    sim = tmp_path / "sim.jsonl"
    res = runner.invoke(app, ["simulate", "--games", "2", "--players", "heuristic,random,random", "--seed", "1", "--out", str(sim)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["play", "--resume", str(sim), "--game", "2", "--save-dir", str(tmp_path / "s")])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1, res.output
    assert "simulated matches cannot be resumed" in res.stderr and f"replay {sim} --game 2" in res.stderr
    # a computer-only match saved on its own: the same words, without --game
    m = Match(Rules.parse("9-5-2"), 5, ["Ann", "Bob", "Cleo"])
    drive_match(m, [HeuristicPlayer()] * 3, until_deal_end=True)
    one = tmp_path / "one.json"
    write_record(m, one, ["heuristic"] * 3)
    res = runner.invoke(app, ["play", "--resume", str(one)])
    assert res.exit_code == 2 and "simulated matches cannot be resumed" in res.stderr and f"replay {one})" in res.stderr
    # a record with a human elsewhere than seat 0 is still "not a saved terminal match"
    rec = match_to_record(m, ["heuristic", "human", "heuristic"])
    other = tmp_path / "other.json"
    other.write_text(json.dumps(rec), encoding="utf-8")
    res = runner.invoke(app, ["play", "--resume", str(other)])
    assert res.exit_code == 2 and "is not a saved terminal match" in res.stderr
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("text", ["²", "١", "１", "0", "7", "1 2"])
def test_assign_targets_refuses_anything_but_an_ascii_number_of_the_list(text: str) -> None:
    # '²' passed str.isdigit() and crashed int() with a traceback; '١' and '１' were taken as 1
    _, v = _decl_view(Rules.parse("9-5-2 dealer-assigns-targets=on"))
    assert tui.prompt_word(v) == "targets"
    with pytest.raises(tui.InputError) as ei:
        tui.parse_line(v, text)
    assert ei.value.rule == "not a choice" and tui.quote(text) in str(ei.value)
    assert tui.parse_line(v, "1") == [v.legal[0]]


def test_cards_typed_for_one_player_never_go_on_to_the_next(tmp_path: Path) -> None:
    """The repro: up over both others (seed 11, deal 3: one card to Cleo, then two to Bob), ``2D 4D`` at the prompt
    "give 1 card to Cleo" gave one card to Cleo and the next to Bob without asking. The cards of a line go to the
    player the prompt names; more is refused and nothing is given."""
    from sergeant_major.players import HeuristicPlayer

    m = Match(Rules.parse("9-5-2"), 11, ["You", "Bob", "Cleo"])
    p = HeuristicPlayer()
    rng = random.Random(11)
    while not (m.deal.to_act == 0 and m.forced_action() is None and isinstance(m.deal.legal_actions()[0], (Give, EndGive))):
        f = m.forced_action()
        m.apply(f if f is not None else p.choose(m.view(m.deal.to_act), rng))
    assert m.deal.number == 3
    view = m.view(0)
    assert [a.to for a in view.legal if isinstance(a, Give)][:1] == [2]
    g = Game(m, ["human", "heuristic", "heuristic"], tmp_path / "m.json", Console(file=io.StringIO(), width=200))
    hand = sorted(view.hand, key=lambda c: c.id)
    before = len(m.deal.history)
    with pytest.raises(tui.InputError) as e:
        g.build_actions(view, f"{hand[0]} {hand[1]}")
    assert "only 1 card is asked now for Cleo, not 2; nothing was done" in str(e.value)
    assert len(m.deal.history) == before
    assert g.build_actions(view, f"{hand[0]}") == [Give(0, hand[0], 2)]


@pytest.mark.parametrize("rules_text, shown", [("9-5-2 dealer-assigns-targets=on", "Cleo deals and assigns the targets. Seats: "
                                                "You eldest, Bob third, Cleo dealer ==="),
                                               ("9-5-2", "Cleo deals. Targets: You eldest 5, Bob third 2, Cleo dealer 9 ===")])
def test_the_deal_line_shows_no_targets_before_the_dealer_assigns_them(rules_text: str, shown: str, tmp_path: Path) -> None:
    """The repro: with dealer-assigns-targets=on the line "=== Deal 1: ... Targets: You eldest 5, ..." showed the preset's
    targets, which the dealer then assigned otherwise a line later (seed 002 "Doppeltes Geberrecht": the dealer assigns them)."""
    m = Match(Rules.parse(rules_text), 3, ["You", "Bob", "Cleo"])
    con, buf = _console()
    g = Game(m, ["human", "heuristic", "heuristic"], tmp_path / "m.json", con, lambda prompt: "quit")
    g.run()
    first = next(line for line in buf.getvalue().splitlines() if line.startswith("=== Deal 1"))
    assert first == f"=== Deal 1: {shown}", first


@pytest.mark.parametrize(("rules_text", "why"), [("9-5-2 to=5", None),
                                                ("9-2-5", "(a total reached ±15; the highest total (15) wins)")],
                         ids=["target", "bound"])
def test_resuming_a_finished_match_is_an_error_that_says_to_replay(rules_text: str, why: str | None, tmp_path: Path) -> None:
    """A finished match has nothing to continue: one line on stderr saying so, with the winner and ``replay``,
    status 2 (it was a line on stdout and status 0, as if the match had been played on), and no file saved. The end
    is said as the terminal says it: 9-2-5's bound as '±15', not the record's '+-15'."""
    from sergeant_major.cli.app import app
    from sergeant_major.players import HeuristicPlayer
    from sergeant_major.players import drive as drive_match
    from sergeant_major.records import write_record

    m = Match(Rules.parse(rules_text), 3 if why is None else 0, ["You", "Bob", "Cleo"])
    drive_match(m, [HeuristicPlayer()] * 3)
    assert m.end is not None
    done = tmp_path / "done.json"
    write_record(m, done, ["human", "heuristic", "heuristic"])
    res = _runner().invoke(app, ["play", "--resume", str(done), "--save-dir", str(tmp_path / "s")])
    assert res.exit_code == 2, res.output
    assert res.stdout == "" and res.stderr.count("\n") == 1, res.output
    assert res.stderr.startswith(f"error: cannot resume '{done}': that match is already over: ")
    assert (why or m.end.reason) in res.stderr and f"(sergeant-major replay {done})" in res.stderr and "+-" not in res.stderr
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("under", ["", "saves/deeper"])
def test_a_save_dir_that_is_a_file_is_named(under: str, tmp_path: Path) -> None:
    """``--save-dir`` at an existing file (or below one): one line naming the file in the way (it said only
    'File exists' or 'Not a directory'), nothing else printed, status 2."""
    from sergeant_major.cli.app import app

    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")
    res = _runner().invoke(app, ["play", "--seed", "1", "--save-dir", str(blocker / under if under else blocker)],
                           input="quit\n")
    assert res.exit_code == 2, res.output
    assert res.stdout == "" and res.stderr.count("\n") == 1, res.output
    assert f"'{blocker}' is a file, not a folder" in res.stderr, res.stderr
    assert blocker.read_text() == "not a folder"


def test_a_save_dir_that_is_a_device_is_called_a_device() -> None:
    """``--save-dir /dev/null``: the thing in the way is named for what it is (it was called "a file")."""
    from sergeant_major.cli.app import app

    res = _runner().invoke(app, ["play", "--seed", "1", "--save-dir", "/dev/null"], input="quit\n")
    assert res.exit_code == 2, res.output
    assert "'/dev/null' is a device, not a folder" in res.stderr, res.stderr


def test_the_dealer_assigning_the_targets_sees_no_targets_in_the_table(tmp_path: Path) -> None:
    """The repro: with dealer-assigns-targets=on, at the ``targets>`` prompt the table's Target column showed the
    preset's 9, 5, 2 as if they were in force, and the deal's line read "You deal and assigns the targets". Now the
    column shows ``?`` until the targets are assigned, and the line reads "You deal and assign"."""
    m = Match(Rules.parse("9-5-2 dealer-assigns-targets=on"), _human_dealer_seed(), ["You", "Bob", "Cleo"])
    con, buf = _console()
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return "6" if len(asked) == 1 else "quit"  # 6: You 9, Bob 5, Cleo 2

    Game(m, ["human", "heuristic", "heuristic"], tmp_path / "m.json", con, ask).run()
    out = buf.getvalue()
    assert asked[:2] == ["targets> ", "trump> "], asked
    assert "=== Deal 1: You deal and assign the targets. Seats: You dealer, Bob eldest, Cleo third ===" in out, out
    screens = out.split("\n-- Deal 1 -- ")
    assert len(screens) == 3 and "Assign the targets" in screens[1] and "Name trump" in screens[2], out
    at_targets, at_trump = screens[1], screens[2]
    rows = [line.split() for line in at_targets.splitlines() if line.split()[:1] in (["You"], ["Bob"], ["Cleo"])]
    assert [r[:4] for r in rows[:3]] == [["You", "<", "dealer", "?"], ["Bob", "eldest", "?", "0"], ["Cleo", "third", "?", "0"]], rows
    rows = [line.split() for line in at_trump.splitlines() if line.split()[:1] in (["You"], ["Bob"], ["Cleo"])]
    assert [r[-4] for r in rows[:3]] == ["9", "5", "2"], rows


@pytest.mark.parametrize("line", ["A" * 500 + "S", "10" * 300 + "S", "x" * 200 + " 2C", "2C " + "Q" * 400])
def test_a_long_word_is_quoted_by_its_start(line: str, tmp_path: Path) -> None:
    """The repro: at a discard prompt ``AAA...AS`` (501 characters) was refused with its rank quoted in full, a
    refusal of 640 characters that filled the screen; the line is quoted by its start and so is a long word."""
    m = Match(Rules.parse("9-5-2"), _human_dealer_seed(), ["You", "Bob", "Cleo"])
    con, buf = _console()
    script = ["S", line, "quit"]
    Game(m, ["human", "heuristic", "heuristic"], tmp_path / "m.json", con, lambda prompt: script.pop(0)).run()
    lines = buf.getvalue().splitlines()
    starts = [i for i, x in enumerate(lines) if x.startswith("Refused")]
    assert len(starts) == 1, lines
    refused = " ".join(lines[starts[0]:starts[0] + 2])
    assert len(refused) < 200 and all(len(x) < 120 for x in lines[starts[0]:starts[0] + 2]), refused
    assert refused.startswith("Refused [not a card]: ") and "is not a card" in refused, refused
    assert not any(isinstance(a, Discard) for a in m.deal.history)


def test_the_largest_seed_saves_and_a_longer_one_is_refused(tmp_path: Path) -> None:
    """``play --seed`` with 300 digits stopped at once with "File name too long"; seeds are now below 2**62 as at a web
    table (19 digits at most, whole in the save's name), and a longer one is refused before anything is written."""
    from sergeant_major.cli.app import app

    seed = str(2**62 - 1)
    res = _runner().invoke(app, ["play", "--seed", seed, "--save-dir", str(tmp_path / "s")], input="quit\n")
    assert res.exit_code == 0, res.output
    (saved,) = (tmp_path / "s").glob("match-*.json")
    assert saved.name.startswith(f"match-{seed}-") and len(saved.name) < 80
    assert read_record(saved)["seed"] == int(seed)
    res = _runner().invoke(app, ["play", "--seed", "7" * 300, "--save-dir", str(tmp_path / "t")], input="quit\n")
    assert res.exit_code == 2 and "is not a non-negative integer below 2**62" in res.stderr, res.output
    assert not (tmp_path / "t").exists()


def test_a_word_at_a_card_prompt_is_not_taken_apart() -> None:
    """'done' at a card prompt was refused as "'done' is not a card: 'e' is not a suit" (its last letter read as a
    suit); a word of letters is not a card at all, and the refusal says so and where the commands are."""
    for word in ("done", "pass", "ace"):
        with pytest.raises(tui.InputError, match=rf"'{word}' is not a card or a command here .*'help' lists the commands"):
            tui.parse_card_list(word)
    with pytest.raises(tui.InputError, match=r"'Qx' is not a card: 'x' is not a suit"):  # a card mistyped: its part named
        tui.parse_card_list("Qx")


def test_resume_refuses_a_save_whose_players_share_a_name(tmp_path: Path) -> None:
    """A save edited so that a computer is named 'You' (or two share a name) was resumed, and its moves read
    "You (eldest) play ..."; resuming it is refused naming both seats, and the file is left as it was."""
    import json

    from sergeant_major.cli.app import app
    from sergeant_major.records import match_to_record

    m = Match(Rules.parse("9-5-2"), 5, ["You", "you ", "Cleo"])
    p = tmp_path / "m.json"
    p.write_text(json.dumps(match_to_record(m, ["human", "heuristic", "heuristic"])), encoding="utf-8")
    before = p.read_text(encoding="utf-8")
    res = _runner().invoke(app, ["play", "--resume", str(p)], input="quit\n")
    assert res.exit_code == 2 and res.stderr.startswith("error: ") and "players 0 and 1 are both named 'you '" in res.stderr
    assert res.stderr.count("\n") == 1 and p.read_text(encoding="utf-8") == before


def test_the_person_is_addressed_as_you_in_any_letter_case_and_only_the_person(tmp_path: Path) -> None:
    """``--name YOU`` read 'YOU deals', 'YOU plays', 'YOU wins the trick' (only the exact 'You' was second person);
    a hand-edited save whose computer player is named 'You' read 'You deal' for that computer: refused, quoted."""
    import json

    from sergeant_major.cli.app import app, register_commands
    from sergeant_major.records import match_to_record

    seed = _human_dealer_seed()
    m = Match(Rules.parse("9-5-2"), seed, ["YOU", "Bob", "Cleo"])
    con, buf = _console()
    g = Game(m, ["human", "heuristic", "heuristic"], tmp_path / "x.json", con, lambda p: "quit")
    g.run()
    out = buf.getvalue()
    assert "Deal 1: YOU deal." in out and "YOU deals" not in out, out
    assert tui.describe_public(NameContract(0, Contract.SPADES), m.deal, m.names, 0) == "YOU (dealer) name spades as trump"
    assert tui.is_you("you") and tui.is_you("You") and not tui.is_you("Yours")

    register_commands()
    rec = match_to_record(Match(Rules.parse("9-5-2"), seed, ["Ann", "you", "Cleo"]), ["human", "heuristic", "heuristic"])
    p = tmp_path / "edited.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    before = p.read_bytes()
    res = CliRunner().invoke(app, ["play", "--resume", str(p)], input="quit\n", env={"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert res.exit_code == 2, res.output
    assert "player 1, a computer player, is named 'you'" in res.stderr, res.stderr
    assert p.read_bytes() == before and not (tmp_path / "xdg").exists()


def test_ctrl_c_while_an_action_is_applied_saves_a_whole_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C arrived as a KeyboardInterrupt wherever the program was: in the middle of scoring a deal it left the
    deal scored but the totals not yet added, and that state was saved (a record 'check' and '--resume' refuse).
    It now stops the match before the next action, as SIGTERM does; at the prompt it still quits at once."""
    import os
    import signal

    from sergeant_major.core.match import Match as MatchClass
    from sergeant_major.records import check_record

    finish = MatchClass._finish_deal
    sent: list[bool] = []

    def interrupted(self: MatchClass) -> object:
        if not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)  # the handler runs here, before the deal's score is added
        return finish(self)

    monkeypatch.setattr(MatchClass, "_finish_deal", interrupted)
    m = Match(Rules.parse("9-5-2"), 2, ["You", "Bob", "Cleo"])
    con, buf = _console()
    g = Game(m, ["human", "heuristic", "heuristic"], tmp_path / "x.json", con,
             lambda p: tui.legal_tokens(m.view(0))[0])
    assert g.run() == 0
    assert sent and "Match saved to" in buf.getvalue()
    assert m.deal.number == 2 and m.totals == list(m.results[0].scores)
    check_record(read_record(tmp_path / "x.json"))  # whole: results and totals agree


@pytest.mark.slow
@pytest.mark.parametrize("name", ["[/x]", "[bold red]Ann"])
def test_a_name_that_looks_like_markup_is_shown_as_typed(tmp_path: Path, name: str) -> None:
    """The players' table and the deal's score table read names as rich markup: ``--name "[/x]"`` ended play with a
    MarkupError traceback at the first screen and ``[bold red]Ann`` showed as a red 'Ann'. ``analyze`` did the same
    with a record's names in its table title."""
    import json

    from sergeant_major.cli.app import app, register_commands
    from sergeant_major.players import HeuristicPlayer, drive
    from sergeant_major.records import match_to_record

    m = Match(Rules.parse("9-5-2"), 3, [name, "Bob", "Cleo"])
    con, buf = _console()
    con.print(tui.status(m.view(0)))
    drive(m, [HeuristicPlayer()] * 3, until_deal_end=True)
    con.print(tui.deal_summary(m.results[0], 1, m.totals, m.names, m.deals[0].dealer))
    lines = [ln for ln in buf.getvalue().splitlines() if ln.startswith(name)]
    assert len(lines) == 2, buf.getvalue()

    register_commands()
    p = tmp_path / "r.json"
    p.write_text(json.dumps(match_to_record(m, ["heuristic"] * 3)), encoding="utf-8")
    res = CliRunner().invoke(app, ["analyze", str(p), "-t", "0.2"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert f"Double-dummy table (declarer {m.names[m.deals[0].declarer]}" in res.stdout and name in res.stdout


def test_ctrl_c_during_a_hint_quits_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint only reads the view, so Ctrl-C stops it at once (its first use may compile the solver for a minute);
    when numba swallows the interrupt and fails instead ('no compiled object yet'), that failure is the quit too."""
    import os
    import signal

    import sergeant_major.players.expert as expert

    def compiling(view: object, rng: object, think: float = 1.0) -> list[str]:
        os.kill(os.getpid(), signal.SIGINT)
        raise RuntimeError("no compiled object yet")  # what numba raised after swallowing the interrupt

    monkeypatch.setattr(expert, "hint_lines", compiling)
    m = Match(Rules.parse("9-5-2"), 2, ["You", "Bob", "Cleo"])
    before = m.view(0)
    con, buf = _console()
    g = Game(m, ["human", "heuristic", "heuristic"], tmp_path / "x.json", con, lambda p: "hint")
    assert g.run() == 0
    assert "Match saved to" in buf.getvalue() and "Traceback" not in buf.getvalue()
    assert m.view(0) == before and match_from_record(read_record(tmp_path / "x.json")).view(0) == before


@pytest.mark.parametrize(("rules_text", "title"), [
    ("9-5-2", "9-5-2"), ("3-5-8", "3-5-8"), ("9-2-5", "9-2-5"),
    ("9-5-2 players=4", "5-3-2-2 (9-5-2 rules, 4 players)"),  # seed 002's game for 4 players, docs/rules.md reference decision 5
    ("8-5-3 players=4 deals=12", "5-3-2-2 (8-5-3 rules, 4 players)"),
    ("9-5-2 kitty=none", "9-5-3 (9-5-2 rules)"),  # 51 cards, 17 tricks: the balanced targets 9-5-3
])
def test_the_screen_header_names_the_game_played(rules_text: str, title: str) -> None:
    """The repro: with ``9-5-2 players=4`` the header said '-- Deal 1 -- 9-5-2 -- to 10 --', the name of a
    three-player game with targets 9-5-2, while the table played 5-3-2-2 with four players."""
    r = Rules.parse(rules_text)
    m = Match(r, 3, ["You", "Bob", "Cleo", "Dan"][: r.players])
    head = _render(m.view(0)).splitlines()[0]
    assert head.startswith(f"-- {tui.deal_words(m.view(0))} -- {title} -- "), head


def test_the_match_end_shows_the_totals_as_replay_and_check_do(tmp_path: Path) -> None:
    """The repro: the end of a played match said 'Totals: You -3, Bob +0, Cleo +4' and the deal tables '0' and
    '+4', while ``replay`` of its record said 'You -3, Bob 0, Cleo 4' and ``check`` 'Final totals: ... Cleo 4'.
    Each now shows a total with its sign, and 0 without one (as the play screen's tables always did)."""
    from sergeant_major.cli.app import app

    m = Match(Rules.parse("9-5-2 to=3"), 11, ["You", "Bob", "Cleo"])
    con, buf = _console()
    ref: list[Game] = []
    g = Game(m, ["human", "heuristic", "random"], tmp_path / "m.json", con, Scripted(ref, 5))
    ref.append(g)
    assert g.run() == 0 and m.over
    want = ", ".join(f"{nm} {f'{t:+d}' if t else '0'}" for nm, t in zip(m.names, m.totals, strict=True))
    assert any(t > 0 for t in m.totals) and f"Totals: {want}" in buf.getvalue()
    replayed = _runner().invoke(app, ["replay", str(tmp_path / "m.json")])
    assert replayed.exit_code == 0 and f"\n{want}\n" in replayed.stdout, replayed.output
    checked = _runner().invoke(app, ["check", str(tmp_path / "m.json")])
    assert checked.exit_code == 0 and f"Final totals: {want}\n" in checked.stdout, checked.output


def _refusal_of_a_wrong_suit(rules_text: str, rule: str) -> tuple[str, list[str]]:
    """Play random matches until seat 0 holds 2+ of the cards it must play and may play another card; returns the
    refusal of that other card and the cards it must play, in the order the hand shows them."""
    from sergeant_major.players import RandomPlayer

    rnd = random.Random(0)
    for seed in range(200):
        m = Match(Rules.parse(rules_text), seed, ["You", "Bob", "Cleo"])
        while not m.over:
            f = m.forced_action()
            if f is not None:
                m.apply(f)
                continue
            v = m.view(m.to_act)  # type: ignore[arg-type]
            if v.seat == 0 and v.phase is Phase.PLAY and v.trick:
                legal = [a.card for a in v.legal if isinstance(a, Play)]
                other = [c for c in v.hand if c not in legal]
                if len(legal) >= 2 and other:
                    try:
                        m.deal.clone().apply(Play(0, other[0]))
                    except IllegalActionError as e:
                        if e.rule == rule:
                            return tui.refusal(str(other[0]), e), [str(c) for c in v.hand if c in legal]
            m.apply(RandomPlayer().choose(v, rnd))
    raise AssertionError("no such position")


@pytest.mark.parametrize(("rules_text", "rule"), [("9-5-2", "follow suit"), ("3-5-8", "must trump")])
def test_a_revoke_lists_the_cards_to_play_in_the_hands_order(rules_text: str, rule: str) -> None:
    """The repro: 'revoke: spades were led and you hold 3S 9S JS' (low to high, the card ids' order) under a hand
    shown 'JS 9S 3S'; the cards are now listed as the hand shows them (trump first, each suit high to low)."""
    msg, cards = _refusal_of_a_wrong_suit(rules_text, rule)
    assert " ".join(cards) in msg, (msg, cards)


@pytest.mark.parametrize(("line", "said"), [
    ("\x1b[A", r"'\x1b[A' is what the Up arrow key sends, not a card"),
    ("\x1bOD", r"'\x1bOD' is what the Left arrow key sends, not a card"),
    ("\x1b[1;5C", r"'\x1b[1;5C' is what the Right arrow key sends, not a card"),
    ("\x1b[3~", r"'\x1b[3~' is what the Delete key sends, not a card"),
    ("QS\x1b[D", r"in 'QS\x1b[D': '\x1b[D' is what the Left arrow key sends, not a card"),
    ("\x1b[200~", r"'\x1b[200~' is a terminal's escape sequence"),
    ("\x1b", r"'\x1b' is what the Esc key sends"),
])
def test_an_arrow_key_at_the_card_prompt_is_refused_as_a_key(line: str, said: str) -> None:
    """The repro: the Up arrow typed at ``play>`` where the line is not edited (no readline) arrived as '\\x1b[A' and
    was refused as "'A' is not a suit (C, D, H, S)"; it is now named as the key's escape sequence, quoted in its
    escape form, and nothing is played."""
    m = Match(Rules.parse("9-5-2"), 3, ["You", "Bob", "Cleo"])
    drive_to_phase(m, Phase.PLAY)
    v = m.view(0)
    with pytest.raises(tui.InputError) as ei:
        tui.parse_line(v, line)
    assert ei.value.rule == "escape sequence" and said in str(ei.value), str(ei.value)
    assert "suit" not in str(ei.value) and "\x1b" not in tui.refusal(line, ei.value)


def test_an_arrow_key_at_the_trump_prompt_is_refused_as_a_key() -> None:
    _, v = _decl_view(Rules.parse("9-5-2"))
    with pytest.raises(tui.InputError) as ei:
        tui.parse_line(v, "\x1b[B")
    assert r"'\x1b[B' is what the Down arrow key sends, not a suit" in str(ei.value)


def test_the_screen_header_of_rules_named_by_hand() -> None:
    """The repro: a :class:`Rules` built by hand with a name of its own (``Rules(name="house")``, which the constructor
    accepts) made every screen raise ``KeyError: 'house'`` (the header looked its name up among the presets)."""
    from sergeant_major.cli.tui import game_title

    r = Rules(name="house")
    assert game_title(r) == "9-5-2 (house rules)"
    m = Match(r, 3, ["You", "Bob", "Cleo"])
    head = _render(m.view(0)).splitlines()[0]
    assert head.startswith("-- Deal 1 -- 9-5-2 (house rules) -- "), head


def test_a_file_system_without_locks_leaves_the_save_unclaimed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """flock failing for want of locks (ENOLCK, some network file systems) is not another process playing the save:
    the save is played unclaimed, as where the system has no flock; a lock held elsewhere is still refused."""
    import errno
    import fcntl

    from sergeant_major.cli.filelock import FileLock
    from sergeant_major.core.errors import SergeantMajorError

    save = tmp_path / "m.json"
    held = FileLock()
    held.acquire(save, lambda by: f"busy{by}")
    with pytest.raises(SergeantMajorError, match=r"^busy \(process \d+\)$"):
        FileLock().acquire(save, lambda by: f"busy{by}")
    held.release()

    def no_locks(fd: object, op: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    lock = FileLock()
    lock.acquire(save, lambda by: f"busy{by}")
    assert lock.file is None


@pytest.mark.parametrize(("rules", "seed"), [("9-5-2", 3), ("9-5-2", 4), ("8-5-3", 7), ("3-5-8", 2)])
def test_a_resumed_deal_is_told_as_it_was_played(tmp_path: Path, rules: str, seed: int) -> None:
    """Resuming a save in the middle of a deal tells that deal so far first: every line is one the player was told
    while playing it (the same words, no card more: not the kitty or discards of another declarer)."""
    import copy
    import json

    m = Match(Rules.parse(rules), seed, ["You", "Bob", "Cleo"])
    kinds = ["human", "heuristic", "heuristic"]
    asked = {"n": 0}

    def first_legal(_prompt: str) -> str:
        asked["n"] += 1
        if asked["n"] > 10:
            return "quit"
        return tui.legal_tokens(m.view(0))[0]

    console, out = _console()
    game = Game(m, kinds, tmp_path / "m.json", console, ask=first_legal)
    game.run()
    def facts(lines: list[str]) -> set[str]:  # your discards one by one: typed one at a time, told at once
        found = (re.match(r"^(You \(\w+\) discard)((?: [0-9TJQKA]+[SHDC])+)$", x) for x in lines)
        return {f"{g[1]} {c}" for g in found if g for c in g[2].split()} | {x for x in lines if " discard " not in x}

    live = facts([line.strip() for line in out.getvalue().splitlines() if line.strip()])
    rec = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    resumed = match_from_record(rec)
    assert len(resumed.deal.history) > 4
    at_start = copy.deepcopy(rec)
    at_start["deals"][-1]["actions"] = []
    console2, out2 = _console()
    again = Game(resumed, kinds, tmp_path / "m.json", console2, ask=lambda _p: "quit", new_file=False,
                 deal_start=match_from_record(at_start))
    again.run()
    told = out2.getvalue().split("Match saved to")[0]
    story = [line.strip() for line in told.split("=== Deal 1")[1].splitlines()[1:] if line.strip()]
    story = story[:next((i for i, x in enumerate(story) if x.startswith("-- Deal")), len(story))]  # then the status
    assert any(" plays " in x or " lead" in x for x in story) or any("trump" in x for x in story), story
    assert len(story) >= 3 and facts(story) <= live, facts(story) - live
    assert again.match.deal.history == resumed.deal.history  # telling it changed nothing
