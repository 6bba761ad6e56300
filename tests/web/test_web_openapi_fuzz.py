"""schemathesis over the server's OpenAPI schema (a bounded run): no request gets a server error (5xx) and no answer
breaks the schema it documents (the account, leaderboard and player API have response models)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis", reason="the schemathesis package is missing (the test extra)")

from fastapi import FastAPI  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import response_schema_conformance  # noqa: E402

from sergeant_major.web.app import create_app  # noqa: E402
from sergeant_major.web.store import Store  # noqa: E402

pytestmark = pytest.mark.usefixtures("fast_argon2")  # the server's own parameters: test_web_accounts.py

MAX_EXAMPLES = 25  # per operation: about 30 s for the whole schema on the project's machine


def _app(tmp: Path) -> FastAPI:
    store = Store(f"sqlite:///{tmp / 'fuzz.sqlite3'}")
    store.migrate()
    return create_app(store=store)


def test_the_schema_lists_the_account_routes(tmp_path: Path) -> None:
    paths = _app(tmp_path).openapi()["paths"]
    for p in ("/api/account", "/api/account/register", "/api/account/login", "/api/account/logout", "/api/account/delete",
              "/api/account/password",
              "/api/leaderboard", "/api/players/{name}"):
        assert p in paths, p


@pytest.mark.slow
def test_no_server_error_and_no_answer_outside_the_schema(tmp_path_factory: pytest.TempPathFactory) -> None:
    app = _app(tmp_path_factory.mktemp("fuzz"))
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    failures: list[str] = []
    calls: list[int] = []
    ops = 0
    for result in schema.get_all_operations():
        op = result.ok()
        ops += 1

        @settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(op.as_strategy())
        def run(case) -> None:  # type: ignore[no-untyped-def]
            response = case.call()  # an exception in the app is raised here
            calls.append(response.status_code)
            case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])

        try:
            run()
        except Exception as e:  # noqa: BLE001 - collected with the operation's name (hypothesis re-raises the smallest case)
            failures.append(f"{op.method.upper()} {op.path}: {type(e).__name__}: {str(e)[:300]}")
    assert ops >= 10 and len(calls) >= 5 * ops
    assert 200 in calls and any(400 <= c < 500 for c in calls)
    assert not failures, "\n".join(failures[:5])
