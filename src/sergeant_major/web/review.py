"""The review of finished matches for the replay viewer: computed in the background, stored, with its progress.

When a table's match ends (or its review is first asked for, for matches that ended before this existed) a job is
queued; one worker thread runs the jobs in turn: the double-dummy review (``sergeant_major.search.review``, one
solver of 32 MB, :data:`TIME_LIMIT` seconds per search) and the expert's estimate of each card
(``sergeant_major.eval.review``), then stores the JSON (``Store.save_review``). :meth:`ReviewJobs.status` answers
``ready`` with the review, or ``running`` / ``queued`` with the searches done and in all, or ``failed``.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from sergeant_major.core.actions import Action
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.web.store import Store

__all__ = ["ReviewJobs", "TIME_LIMIT", "review_jobs"]

TIME_LIMIT = 2.0
"""Seconds per search of a review made by the server (a value cut short shows as a range)."""


def review_jobs() -> int:
    """The server's default threads for a review: ``review``'s (the cores, at most 4; 1 without numba) less one,
    kept for the live tables' computer players; at least 1."""
    from sergeant_major.search.review import table_jobs

    return max(1, table_jobs() - 1)


class _Stopped(Exception):
    """The server is stopping: the job in progress ends."""


def searches_compiled() -> bool:
    """Whether this server runs the review's searches compiled (numba installed) rather than in pure Python."""
    from sergeant_major.search.jit import HAVE_NUMBA  # imported on first use: numba's import takes seconds

    return HAVE_NUMBA


class ReviewJobs:
    """The reviews being computed, one worker thread for them all (a daemon, started with the first job: a review
    in progress never keeps a stopping process alive; it is computed again when next asked for).

    Args:
        store: where finished reviews are kept (and read from).
        jobs: threads a review's searches run in (default :func:`review_jobs`: the cores but one, so that the
            tables' computer players keep a core).

    Raises:
        ValueError: ``jobs`` below 1.
    """

    def __init__(self, store: Store, jobs: int | None = None) -> None:
        self.jobs = review_jobs() if jobs is None else jobs
        if isinstance(self.jobs, bool) or not isinstance(self.jobs, int) or self.jobs < 1:
            raise ValueError(f"review jobs={jobs!r}: give a whole number of threads, 1 or more")
        self.store = store
        self._jobs: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[tuple[str, Rules, int, list[str], list[Action]]] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._solvers: list[Any] = []  # the running job's solver, stopped at shutdown
        self._closed = False

    def _work(self) -> None:
        while not self._closed:
            self._run(*self._queue.get())

    def start(self, table_id: str, rules: Rules, seed: int, names: list[str], actions: list[Action]) -> None:
        """Queue the review of a finished match (its rules, seed, names and every action in order), unless it is
        stored, queued or running already. Cheap: the work happens in the worker thread."""
        with self._lock:
            if self._closed or table_id in self._jobs:
                return
            self._jobs[table_id] = {"status": "queued", "done": 0, "total": 0}
            self._queue.put((table_id, rules, seed, list(names), list(actions)))
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="sm-review", daemon=True)
                self._worker.start()

    def status(self, table_id: str) -> dict[str, Any] | None:
        """``{"status": "ready", "review"}`` when stored, ``{"status": "queued" | "running" | "failed", "done",
        "total", "slow"}`` while not (``slow``: the server has no numba, so the searches run in pure Python, about 90
        times slower, and more of them are cut short: the page says so once), ``None`` when no job was started for it
        (or its review, stored, was dropped since). Reads the store (call it in a worker thread)."""
        with self._lock:
            job = dict(self._jobs[table_id]) if table_id in self._jobs else None
        if job is not None and job["status"] != "ready":
            return {**job, "slow": not searches_compiled()}
        stored = self.store.review(table_id)
        if stored is not None:
            return {"status": "ready", "review": stored}
        if job is not None and job["status"] == "ready":
            # stored once and dropped since (an account of the match deleted: the review held its name): not started
            with self._lock:
                if self._jobs.get(table_id, {}).get("status") == "ready":
                    del self._jobs[table_id]
            return None
        return job

    def _set(self, table_id: str, **kw: Any) -> None:
        with self._lock:
            self._jobs[table_id].update(kw)

    def _run(self, table_id: str, rules: Rules, seed: int, names: list[str], actions: list[Action]) -> None:
        from sergeant_major.eval.review import add_expert_estimates
        from sergeant_major.players.expert import warm_up
        from sergeant_major.search import Solver
        from sergeant_major.search.review import review_match, review_units

        try:
            if self.store.review(table_id) is not None:
                self._set(table_id, status="ready")
                return
            match = Match(rules, seed, names)
            for a in actions:
                match.apply(a)
            cards = sum(len(d.completed) * d.n + len(d.trick) for d in match.deals)
            self._set(table_id, status="running", total=review_units(match) + cards)
            warm_up()
            solver = Solver(tt_bits=20, threads=self.jobs)
            self._solvers[:] = [solver]
            if self._closed:
                return

            def tick(k: int) -> None:
                if self._closed:
                    raise _Stopped
                with self._lock:
                    self._jobs[table_id]["done"] += k

            review = review_match(match, solver, TIME_LIMIT, names=names, progress=tick, jobs=self.jobs)
            add_expert_estimates(match, review, progress=tick, jobs=self.jobs)
            self.store.save_review(table_id, review)
            self._set(table_id, status="ready")
        except (_Stopped, KeyboardInterrupt):  # shutdown (the solver interrupted raises KeyboardInterrupt)
            self._set(table_id, status="failed", error="the server stopped")
        except Exception as e:  # noqa: BLE001 - a job that fails says so to the page (and may be asked for again)
            self._set(table_id, status="failed", error=f"{type(e).__name__}: {e}"[:300])

    def forget_failed(self, table_id: str) -> None:
        """Drop a failed job so that the next :meth:`start` tries again."""
        with self._lock:
            if self._jobs.get(table_id, {}).get("status") == "failed":
                del self._jobs[table_id]

    def shutdown(self) -> None:
        """Stop the running job (its searches are interrupted) and drop the queued ones."""
        self._closed = True
        for s in self._solvers:
            s.interrupt()
