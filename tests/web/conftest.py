"""Fixtures of the browser tests (test_web_browser*.py): a real ``sergeant-major serve`` with a database file of
its own, and one headless Debian Chromium; module-scoped, so each test module gets its own of both. For the account
tests run in-process: a migrated SQLite ``store`` and the ``app`` on it, and cheap Argon2 parameters."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from _webhelp import Server

    s = Server(f"sqlite:///{tmp_path_factory.mktemp('web') / 'b.sqlite3'}")
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def fast_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Argon2id with cheap parameters (1 pass, 8 MiB) for the account tests run in-process: the real ones take up to a
    second a hash on a loaded two-core machine (test_web_accounts.py checks that the server's own are the recommended)."""
    from pwdlib import PasswordHash
    from pwdlib.hashers.argon2 import Argon2Hasher

    from sergeant_major.web import accounts

    monkeypatch.setattr(accounts, "HASHER", PasswordHash((Argon2Hasher(time_cost=1, memory_cost=8192, parallelism=1),)))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Any]:
    """A migrated SQLite store of the web server's, in the test's own folder (a module may define its own)."""
    from sergeant_major.web.store import Store

    s = Store(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    s.migrate()
    yield s
    s.dispose()


@pytest.fixture
def app(store: Any) -> Any:
    """The web server's application on :func:`store`, run in-process (``fastapi.testclient.TestClient``)."""
    from sergeant_major.web.app import create_app

    return create_app(store=store)
