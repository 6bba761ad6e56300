"""Regressions from a fifth fresh-eyes run on the browser play, in headless Debian Chromium (Playwright; skipped when
/usr/bin/chromium or the playwright package is missing): a language switch keeps a result dialog kept open and leaves
a dialog closed closed."""

from __future__ import annotations

import os
from typing import Any

import pytest
from conftest import CHROMIUM  # the fixtures server and browser are in conftest.py

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")

from _webhelp import Server  # noqa: E402
from test_web_browser import _errors  # noqa: E402
from test_web_browser_fixes4 import _two_friends, _until  # noqa: E402


def test_a_language_switch_keeps_the_kept_result_and_a_closed_dialog_closed(server: Server, browser: Any) -> None:
    """The repro: Bea read the result of deal 1, kept open (with *Close*) after Ann started deal 2, and switched to
    German: the dialog vanished. And a dialog she had closed (the end of the match) opened again at a language
    switch. Now the kept result is written anew in German and stays, and a closed dialog stays closed."""
    a, b, _tid = _two_friends(server, browser, "9-5-2 to=20 instant-win=off deals=2")  # always a deal 2 (see fixes4)
    errs = _errors(a) + _errors(b)
    _until([a, b], lambda: a.locator("#btn-next").is_visible() and b.locator("#btn-next").is_visible())
    a.click("#btn-next")
    b.locator("#contract", has_text="Deal 2").wait_for()
    b.locator("#btn-close").wait_for()
    assert "Result of deal 1" in b.inner_text("#dlg-body")
    b.click("#lang")
    b.locator("#contract", has_text="Spiel 2").wait_for()
    assert b.evaluate("document.querySelector('#dlg').open")
    assert "Ergebnis von Spiel 1" in b.inner_text("#dlg-body"), b.inner_text("#dlg-body")
    assert b.inner_text("#btn-close") == "Schließen" and b.locator("#btn-next").count() == 0
    b.click("#btn-close")
    b.locator("#dlg").wait_for(state="hidden")
    b.click("#lang")
    b.locator("#contract", has_text="Deal 2").wait_for()
    _until([a, b], lambda: a.locator("#end-title").is_visible() and b.locator("#end-title").is_visible())
    b.click("#btn-close")
    b.locator("#dlg").wait_for(state="hidden")
    b.click("#lang")
    b.locator("#contract", has_text="Spiel 2").wait_for()
    # (the page is drawn at once, dialogs included, in the click on the language button)
    assert not b.evaluate("document.querySelector('#dlg').open")
    assert errs == []
