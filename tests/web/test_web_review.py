"""The review of a finished match on the server (issue 36): queued when a match with a person ends, computed in the
background, stored, and served by ``GET /api/tables/ID/review`` with its progress until ready."""

from __future__ import annotations

import asyncio
import json
import os
import time
import types
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from _webhelp import connect, new_table, play_to_the_end, send  # noqa: E402

with warnings.catch_warnings():  # starlette's notice about httpx, not about this code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from sergeant_major.web.app import create_app  # noqa: E402


@pytest.mark.slow
def test_a_finished_match_is_reviewed_in_the_background_and_stored(tmp_path: Path) -> None:
    import jsonschema

    from sergeant_major.search.review import review_schema

    db = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    app = create_app(db)
    hub = app.state.hub
    jobs = hub.reviews
    t = new_table(hub, "9-5-2 deals=1 to=20 instant-win=off", ["me", "heuristic", "heuristic"], seed=5)
    tid = t["id"]
    comp = new_table(hub, "9-5-2 deals=1 to=20 instant-win=off", ["heuristic", "heuristic", "heuristic"], seed=6)

    async def run() -> None:
        c = connect(hub, tid)
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        await play_to_the_end(hub, c)
        hub.drop(c)

    asyncio.run(run())
    client = TestClient(app)
    assert jobs.status(tid) is not None  # queued when the match ended, before anyone asked
    r = client.get(f"/api/tables/{tid}/review")
    assert r.status_code in (200, 202) and r.json()["status"] in ("queued", "running", "ready")
    deadline = time.monotonic() + 600
    while r.status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.5)
        r = client.get(f"/api/tables/{tid}/review")
    assert r.status_code == 200, r.json()
    review = r.json()["review"]
    jsonschema.Draft202012Validator(review_schema()).validate(review)
    assert review["expert"] is not None and len(review["deals"]) == 1 and len(review["deals"][0]["plays"]) == 48
    assert hub.store.review(tid) == review  # stored: a new server answers it at once
    again = TestClient(create_app(db))
    assert again.get(f"/api/tables/{tid}/review").json() == {"status": "ready", "review": review}
    # a table of computers only is not reviewed by itself; not over yet, it has no review
    assert jobs.status(comp["id"]) is None
    assert client.get(f"/api/tables/{comp['id']}/review").status_code == 403
    assert client.get("/api/tables/nosuchtable/review").status_code == 404
    jobs.shutdown()


def test_the_review_leaves_a_core_to_the_tables_unless_told(tmp_path: Path) -> None:
    """The background review runs in the cores less one (at least 1), or in ``review_jobs`` threads; fewer than 1
    is refused, quoted."""
    from sergeant_major.search.review import table_jobs
    from sergeant_major.web.review import ReviewJobs, review_jobs

    db = f"sqlite:///{tmp_path / 'j.sqlite3'}"
    assert review_jobs() == max(1, table_jobs() - 1)
    assert create_app(db).state.hub.reviews.jobs == review_jobs()
    assert create_app(db, review_jobs=3).state.hub.reviews.jobs == 3
    with pytest.raises(ValueError, match="jobs=0"):
        ReviewJobs(create_app(db).state.hub.store, 0)


@pytest.mark.parametrize("numba", [True, False])
def test_a_review_in_progress_says_whether_the_server_has_numba(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 numba: bool) -> None:
    """The repro: without numba the replay page said "29 of 216 searches" for minutes, and nothing more. A review not
    ready yet now says ``slow`` when the server runs the searches in pure Python, for the page to say so once."""
    import sergeant_major.web.review as web_review

    # the web's own question, not the search's flag: other tests' search threads may still run in this process
    monkeypatch.setattr(web_review, "searches_compiled", lambda: numba)
    jobs = create_app(f"sqlite:///{tmp_path / 's.sqlite3'}").state.hub.reviews
    jobs._jobs["t1"] = {"status": "running", "done": 29, "total": 216}  # a job under way (the worker not started)
    assert jobs.status("t1") == {"status": "running", "done": 29, "total": 216, "slow": not numba}


@pytest.mark.usefixtures("fast_argon2")
def test_a_review_an_account_s_deletion_dropped_is_computed_anew(tmp_path: Path) -> None:
    """Deleting an account drops the stored reviews of its tables (they hold its name). The review jobs of the process
    that had computed one still said ``ready``: the page was answered 200 with no review in it, and the review was
    never computed again (its job was kept). Now the job is forgotten: asked again, it is queued anew."""
    from sergeant_major.web.accounts import AccountStore
    from sergeant_major.web.app import create_table
    from sergeant_major.web.review import ReviewJobs
    from sergeant_major.web.store import Store

    store = Store(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    store.migrate()
    accounts = AccountStore(store)
    gone = accounts.register("mia", "correct horse 42")
    tid = create_table(store, {"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "computer", "level": "random"},
                                                           {"kind": "computer", "level": "random"}]}, account=gone)["id"]
    jobs = ReviewJobs(store, 1)
    jobs._jobs[tid] = {"status": "ready", "done": 5, "total": 5}  # as a finished job leaves it, its review stored:
    store.save_review(tid, {"names": ["Me", "Random 2", "Random 3"]})
    assert jobs.status(tid) == {"status": "ready", "review": {"names": ["Me", "Random 2", "Random 3"]}}
    assert accounts.delete(gone, "correct horse 42").tables == [tid]
    assert jobs.status(tid) is None  # not started: the page's next ask queues it (with the names as they are now)
    store.dispose()


def _computed_as_the_account_is_deleted(monkeypatch: pytest.MonkeyPatch, delete: Any) -> None:
    """The review job's searches stood in for: ``delete()`` (the account's deletion) runs while the review is computed,
    after the job read the names (when the match ended) and before it stores the review, which is made from those names."""
    import sergeant_major.eval.review as eval_review
    import sergeant_major.players.expert as expert
    import sergeant_major.search as search
    import sergeant_major.search.review as search_review

    def review_match(match: Any, solver: Any, time_limit: Any, names: list[str], **_kw: Any) -> dict[str, Any]:
        delete()
        return {"review": 1, "rules": str(match.rules), "names": list(names), "time_limit": time_limit, "deals": [],
                "seats": [{"seat": s, "name": n, "lost": 0, "lost_max": 0, "mistakes": 0, "cards": 0} for s, n in enumerate(names)]}

    monkeypatch.setattr(expert, "warm_up", lambda: None)
    monkeypatch.setattr(search, "Solver", lambda **_kw: types.SimpleNamespace(interrupt=lambda: None))
    monkeypatch.setattr(search_review, "review_match", review_match)
    monkeypatch.setattr(eval_review, "add_expert_estimates", lambda *_a, **_kw: None)


@pytest.mark.usefixtures("fast_argon2")
def test_a_review_computed_while_its_player_s_account_is_deleted_keeps_no_name_of_it(tmp_path: Path,
                                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The review job reads the seats' names when the match ends; the account deleted while the review was computed
    (its seats renamed ``deleted player``, the table's stored review dropped, none stored yet) came back in the review
    stored after it: ``names`` and the seat's ``name`` held the deleted account's name. Now the review is stored under
    the names as they are when it is stored."""
    from sergeant_major.core.rules import Rules
    from sergeant_major.web.accounts import DELETED_NAME, AccountStore
    from sergeant_major.web.app import create_table
    from sergeant_major.web.review import ReviewJobs
    from sergeant_major.web.store import Store

    store = Store(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    store.migrate()
    accounts = AccountStore(store)
    gone = accounts.register("mia", "correct horse 42")
    tid = create_table(store, {"rules": "9-5-2", "seats": [{"kind": "me", "name": "Mia"}, {"kind": "computer", "level": "random"},
                                                           {"kind": "computer", "level": "random"}]}, account=gone)["id"]
    _computed_as_the_account_is_deleted(monkeypatch, lambda: accounts.delete(gone, "correct horse 42"))
    jobs = ReviewJobs(store, 1)
    jobs.start(tid, Rules.parse("9-5-2"), 1, ["Mia", "Random 2", "Random 3"], [])  # as the runner does when it ends
    deadline = time.monotonic() + 60
    while (got := jobs.status(tid)) is not None and got["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert got is not None and got["status"] == "ready", got
    stored = store.review(tid)
    assert stored is not None and stored == got["review"]
    assert stored["names"] == [DELETED_NAME, "Random 2", "Random 3"] and stored["seats"][0]["name"] == DELETED_NAME
    assert "Mia" not in json.dumps(stored)
    jobs.shutdown()
    store.dispose()


@pytest.mark.postgres
@pytest.mark.usefixtures("fast_argon2")
def test_on_postgresql_a_review_stored_during_an_account_s_deletion_waits_and_has_the_new_name() -> None:
    """The deletion's transaction has renamed the account's seats and dropped its tables' reviews, not committed yet, when
    the review (computed under the old names) is stored: the store waits for it (the seats locked to share) and stores the
    review under ``deleted player``; before, it stored the old name at once, after the drop."""
    import threading

    import sqlalchemy as sa

    from sergeant_major.web.accounts import DELETED_NAME, AccountStore
    from sergeant_major.web.app import create_table
    from sergeant_major.web.store import Store, accounts_t, reviews_t, seats_t

    url = os.environ.get("SM_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("SM_TEST_POSTGRES_URL is not set (a PostgreSQL database for the tests)")
    store = Store(url)
    store.migrate()
    try:
        accounts = AccountStore(store)
        name = f"rev{os.getpid()}"
        gone = accounts.register(name, "correct horse 42")
        tid = create_table(store, {"rules": "9-5-2", "seats": [{"kind": "me", "name": name}, {"kind": "computer", "level": "random"},
                                                               {"kind": "computer", "level": "random"}]}, account=gone)["id"]
        review = {"names": [name, "Random 2", "Random 3"], "seats": [{"seat": 0, "name": name}]}
        done: list[bool] = []
        with store.engine.connect() as conn, conn.begin():  # AccountStore.delete's steps, its transaction kept open
            conn.execute(sa.select(accounts_t.c.id).where(accounts_t.c.id == gone).with_for_update())
            conn.execute(seats_t.update().where(seats_t.c.account_id == gone).values(name=DELETED_NAME, account_id=None))
            conn.execute(reviews_t.delete().where(reviews_t.c.table_id == tid))
            saving = threading.Thread(target=lambda: done.append(store.save_review(tid, review) is None))
            saving.start()
            saving.join(0.5)  # (it waits for the seats' locks; the test holds either way)
            conn.execute(accounts_t.delete().where(accounts_t.c.id == gone))
        saving.join(10)
        assert done == [True]
        stored = store.review(tid)
        assert stored is not None and stored["names"][0] == DELETED_NAME and stored["seats"][0]["name"] == DELETED_NAME
        assert name not in json.dumps(stored)
    finally:
        store.dispose()
