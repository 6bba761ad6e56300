"""The store's methods are each used by the server: a write the server does not use (``Store.rename_seat``, a second
way to rename a seat beside the join's claim and the account's deletion) is a second home for it that nothing tests."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from sergeant_major.web.store import Store  # noqa: E402

SRC = Path(__file__).resolve().parents[2] / "src" / "sergeant_major"
FOR_TESTS = {"lease_holders"}  # read by the many-process tests and checks only (its docstring says so)


def test_every_method_of_the_store_is_used_by_the_server() -> None:
    code = "\n".join(p.read_text(encoding="utf-8") for p in SRC.rglob("*.py"))
    methods = [n for n, _ in inspect.getmembers(Store, inspect.isfunction) if not n.startswith("_")]
    unused = [n for n in methods if n not in FOR_TESTS and not re.search(rf"\.{n}\b(?!\w)", code)]
    assert "save_review" in methods and unused == []
