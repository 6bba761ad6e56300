"""The page's German texts of the server's refusals (``refusalText`` in ``static/i18n.js``), run in Node (skipped when
``node`` is missing): a failed run of the computers' moves is said as what the server said it was."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import sergeant_major.web as web

_RUN = r"""
const fs = require("fs"), vm = require("vm");
const el = () => ({ setAttribute() {}, addEventListener() {}, style: {}, textContent: "" });
const ctx = { localStorage: { getItem: () => "de", setItem() {} }, navigator: { language: "de" }, window: {},
  document: { documentElement: {}, getElementById: () => null, querySelectorAll: () => [], addEventListener() {},
              createElement: el } };
vm.createContext(ctx);
for (const f of process.argv.slice(1, -1)) vm.runInContext(fs.readFileSync(f, "utf8"), ctx);
console.log(JSON.stringify(vm.runInContext(process.argv[process.argv.length - 1], ctx)));
"""


def _in_german(expr: str, *more: str) -> Any:
    """``expr`` evaluated in German after ``static/i18n.js`` and the static scripts ``more`` (their file names)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    js = [str(Path(web.__file__).parent / "static" / f) for f in ("i18n.js", *more)]
    out = subprocess.run([node, "-e", _RUN, *js, expr], capture_output=True, text=True, timeout=30, check=True)
    return json.loads(out.stdout)


def _german(expr: str, *more: str) -> str:
    return str(_in_german(expr, *more))


def test_a_failed_run_is_said_as_the_server_said_it() -> None:
    """The repro: a run that failed for another reason than the database (code ``server``) was said in German as
    refused by the database ("die Datenbank hat sie nicht gespeichert"). Now only a ``storage`` failure says so."""
    storage = _german('refusalText({type: "error", code: "storage", reason: "x", retry: 0.5})')
    server = _german('refusalText({type: "error", code: "server", reason: "x", retry: 2})')
    assert "Datenbank" in storage and "in 0,5 s noch einmal versucht" in storage, storage
    assert "Datenbank" not in server and "Fehler im Server" in server and "in 2 s noch einmal versucht" in server, server


def test_a_stopped_table_is_said_in_german() -> None:
    """A table whose computers' moves failed too often for a reason other than the database (code ``stopped``) is said
    as stopped, not with the page's catch-all "the server refused the message"."""
    stopped = _german('refusalText({type: "error", code: "stopped", reason: "x"})')
    assert "angehalten" in stopped and "Fehler im Server" in stopped and "abgelehnt" not in stopped, stopped


def test_the_throttle_is_said_in_german_as_wrong_passwords_of_logins_and_password_changes() -> None:
    """The repro: the password form's wrong current passwords were said to be "failed logins" ("fehlgeschlagene
    Anmeldungen") once throttled. Now the words fit both forms."""
    said = _german('accountError({code: "throttled", retry_after: 7, error: "x"}, "ulla")', "accounts.js")
    assert "falsche Passwörter" in said and "Anmelden" in said and "Passworts" in said and "7 s" in said, said
    assert "fehlgeschlagene Anmeldungen" not in said


def test_a_throttle_for_a_name_is_said_in_german_quoting_it() -> None:
    """The repro: the English "Too many wrong passwords for the name 'Nobody390' ..." was said in German without the
    name. Now the name the server's answer carries (``name``, as its message quotes it: normalised, not as typed) is
    quoted, from the address or from many addresses as the server said; a throttle of the address alone names no name."""
    said = _german('accountError({code: "throttled", retry_after: 7, name: "Nobody390", error: "Too many wrong passwords '
                   'for the name \'Nobody390\' from your address in 10 minutes"}, " \uff2eobody390")', "accounts.js")
    assert "„Nobody390“" in said and "deiner Adresse" in said and "7 s" in said, said
    said = _german('accountError({code: "throttled", retry_after: 3, name: "Nobody390", error: "Too many wrong passwords '
                   'for the name \'Nobody390\' from many addresses in 60 seconds"}, "Nobody390")', "accounts.js")
    assert "„Nobody390“" in said and "vielen Adressen" in said, said
    said = _german('accountError({code: "throttled", retry_after: 3, name: null, error: "Too many wrong passwords from your '
                   'address"}, "Ann")', "accounts.js")
    assert "Ann" not in said and "deiner Adresse" in said, said


def test_a_computer_s_server_name_is_written_in_german_from_its_level() -> None:
    """A lobby's computers are stored as ``Random 2`` with their level (``name_level``): the German page writes
    ``Zufall 2``, keeps the server's ``'`` and adds one while a person at the table has the name so written; a name
    without a level is left as it is."""
    said = _in_german('shownNames(["Ann", "Random 2", "Heuristic 3\'", "Zufall 9"], [null, "random", "heuristic", null])')
    assert said == ["Ann", "Zufall 2", "Heuristik 3'", "Zufall 9"]
    said = _in_german('shownNames(["Heuristik 2", "Heuristic 2"], [null, "heuristic"])')
    assert said == ["Heuristik 2", "Heuristik 2'"]


def test_the_server_knows_every_level_s_name_as_the_pages_write_it() -> None:
    """A person's name written as a computer's is refused by the server (``computer_like``) in every language of the
    site: its level names are the pages' (``lv_`` in i18n.js, written with a capital), for every level."""
    from sergeant_major.players import LEVELS
    from sergeant_major.web.tables import LEVEL_NAMES, computer_like

    pages = _in_german('Object.keys(STRINGS).map((l) => Object.keys(STRINGS.en).filter((k) => k.startsWith("lv_"))'
                       '.map((k) => [k.slice(3), STRINGS[l][k].replace(/^./, (c) => c.toUpperCase())]))')
    assert {lv: tuple(w for lang in pages for k, w in lang if k == lv) for lv in LEVELS} == LEVEL_NAMES
    assert all(computer_like(f"{w} 3") for ws in LEVEL_NAMES.values() for w in ws)


def test_the_server_knows_the_computer_s_role_line_as_the_pages_write_it() -> None:
    """A person's name written as a computer seat's role line ("Computer (Heuristik)", ``kindText``) is refused by the
    server (``role_like``) in every language of the site: its word for a computer is the pages' (``computer`` in
    i18n.js, written with a capital)."""
    from sergeant_major.web.tables import COMPUTER_WORDS, LEVEL_NAMES, role_like

    said = _in_german('Object.keys(STRINGS).map((l) => STRINGS[l].computer.replace(/^./, (c) => c.toUpperCase()))')
    assert set(said) == set(COMPUTER_WORDS), said
    for lang in ("en", "de"):
        lines = _in_german(f'(() => {{ LANG = "{lang}"; return ["random", "beginner", "heuristic", "expert"].map(kindText); }})()')
        assert all(role_like(line) for line in lines), (lang, lines)
    assert all(role_like(f"Computer ({w})") for ws in LEVEL_NAMES.values() for w in ws)


def test_a_name_refused_as_a_computer_s_is_said_in_german_quoting_it() -> None:
    """The refusal of a person's name written as a computer's (code ``computer_name``) on the table page (an invitation's
    name), the home page (a seat's name, with its seat) and the lobby, in German, quoting the name."""
    join = _german('t("err_computer_name", {name: JSON.stringify("Heuristic 3")})')
    create = _german('refusalText({code: "create_computer_name", reason: "x"}, {seat: 2, seatName: "Zufall 3", name: "T"})')
    lobby = _german('t("err_lobby_computer_name", {name: "Experte 2"})')
    assert '"Heuristic 3"' in join and "Computer" in join and "nichts wurde geändert" in join, join
    assert "„Zufall 3“ auf Platz 2" in create and "kein Tisch" in create, create
    assert "„Experte 2“" in lobby and "Computer" in lobby, lobby


def test_a_name_refused_as_a_free_seat_s_is_said_in_german_quoting_it() -> None:
    """The refusal of a person's name written as a free seat's (code ``free_seat_name``) on the table page, the home
    page and the lobby, in German, quoting the name; the pages' free seats are named as the server knows them."""
    from sergeant_major.web.tables import free_seat_like

    join = _german('t("err_free_seat_name", {name: JSON.stringify("Free seat 3")})')
    create = _german('refusalText({code: "create_free_seat_name", reason: "x"}, {seat: 2, seatName: "Freier Platz 3", name: "T"})')
    lobby = _german('t("err_lobby_free_seat_name", {name: "Freier Platz 2"})')
    assert '"Free seat 3"' in join and "Platz" in join and "nichts wurde geändert" in join, join
    assert "„Freier Platz 3“ auf Platz 2" in create and "kein Tisch" in create, create
    assert "„Freier Platz 2“" in lobby, lobby
    said = _in_german('Object.keys(STRINGS).map((l) => STRINGS[l].freeSeatN.replace("{n}", "3"))')
    assert len(said) == 2 and all(free_seat_like(x) for x in said), said


def test_a_player_s_page_without_rated_matches_names_the_practice_table_too() -> None:
    """The repro: after a practice match (a preset, every seat an account or a computer) the player's page said a match
    is rated when every seat is an account or a computer and its rules are a preset's - true of that match, which was
    not rated. Now the note names the third condition, in both languages, as the leaderboard's does."""
    english, german = _in_german("[STRINGS.en.noRatedPlayer, t('noRatedPlayer')]", "accounts.js")
    assert "practice table" in english and "alone against computers" in english, english
    assert "Übungstisch" in german and "allein gegen Computer" in german, german


def test_a_guest_s_renamed_seat_and_its_table_are_said_in_german() -> None:
    """The repro: a guest's seat renamed by the server when another registered the name ("Zora (guest)") was shown
    in English on German pages, and the lobby's default table name of such an opener ("Zora's table") was no longer
    translated. Now the suffix is German ("Zora (Gast)") wherever names go through ``shownNames`` / ``guestName``, and
    the table's name is translated whether it was named before the rename or after it; English pages keep the names."""
    said = _in_german('shownNames(["Zora (guest)", "Random 2", "(guest)"], [null, "random", null])')
    assert said == ["Zora (Gast)", "Zufall 2", "(guest)"], said
    assert _german('guestName("Zora (guest)")') == "Zora (Gast)"
    assert _german('guestName("Zora (guest 2)")') == "Zora (Gast 2)"  # the second guest mark of that name at the table
    assert _german('guestName("Zora (guest 0)")') == "Zora (guest 0)"  # no mark the server gives: a person's own name
    assert _german("tableNameText(\"Zora's table\", \"Zora (guest)\", true)") == "Tisch von Zora"
    assert _german("tableNameText(\"Zora (guest)'s table\", \"Zora (guest)\", true)") == "Tisch von Zora (Gast)"
    assert _german('tableNameText("Tisch von Zora", "Zora (guest)", true)') == "Tisch von Zora"
    assert _german("tableNameText(\"Zora's table\", \"Zora\", true)") == "Tisch von Zora"
    assert _german("tableNameText(\"Bea's table\", \"Zora (guest)\", true)") == "Bea's table"
    english = _in_german('(() => { LANG = "en"; return [guestName("Zora (guest)"), guestName("Zora (guest 2)"), tableNameText("Tisch von Zora", "Zora (guest)", true)]; })()')
    assert english == ["Zora (guest)", "Zora (guest 2)", "Zora's table"], english


def test_a_table_name_its_creator_chose_is_shown_as_typed_even_when_it_reads_as_a_default() -> None:
    """The repro: a table its creator named "Table" read "Tisch" on German pages (and "Ann's table" of a lobby table
    "Tisch von Ann"). Now only a name the server marks default (``name_default``) is written in the page's language."""
    assert _german('tableNameText("Table", null, true)') == "Tisch"
    assert _german('tableNameText("Table", null, false)') == "Table"
    assert _german("tableNameText(\"Ann's table\", \"Ann\", false)") == "Ann's table"
    assert _german("tableNameText(\"Ann's table\", \"Ann\", true)") == "Tisch von Ann"
