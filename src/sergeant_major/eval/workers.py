"""Local worker processes for :mod:`~sergeant_major.eval.simulate` and :mod:`~sergeant_major.eval.tournament`.

:func:`worker_pool` is a ``multiprocessing`` pool (``spawn``) whose workers leave stopping to the process that
started them. Ctrl-C in a terminal sends SIGINT, and a closed terminal SIGHUP, to every process of the command,
workers included: a worker that took them as Python does by default died with ``Process SpawnPoolWorker-2:``
and a traceback on stderr, or wrote its last result into the pipe of a parent gone (``BrokenPipeError``). So the
workers ignore SIGINT and SIGHUP, and the caller ends them when it stops (the pool is terminated when the
``with`` block is left, by an error, an interrupt or a closed generator). SIGTERM keeps its default action in a
worker: it is how the pool terminates its workers, without a word.

The workers start with these signals blocked (a blocked signal stays blocked through ``exec``), so that not even
a Ctrl-C while a worker is still starting (importing the package, before the pool's initializer runs) reaches
it; a signal sent to the caller meanwhile waits until the pool is made, and then takes effect as it would have.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import signal
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["worker_pool"]

_IGNORED = tuple(s for s in (getattr(signal, "SIGINT", None), getattr(signal, "SIGHUP", None)) if s is not None)
"""The signals a worker ignores: its caller handles them."""
_HELD = tuple(s for s in (*_IGNORED, getattr(signal, "SIGTERM", None)) if s is not None)
"""The signals blocked while the workers start: the ignored ones, and SIGTERM until the worker is ready."""
_SIGMASK = hasattr(signal, "pthread_sigmask")  # POSIX


def _quiet_worker() -> None:
    """The pool's initializer, in each worker: ignore SIGINT and SIGHUP, then take the signals held at the start
    (a SIGINT or SIGHUP held meanwhile is dropped; a SIGTERM ends the worker)."""
    for sig in _IGNORED:
        signal.signal(sig, signal.SIG_IGN)
    if _SIGMASK:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT, SIGHUP and SIGTERM held while the block runs, then taken as they would have been: blocked in this
    thread (what a process started meanwhile inherits), and in the main thread recorded by handlers of our own
    (another thread of the process, a progress bar's, may take a signal the main thread blocks, and Python then
    runs the handler in the main thread all the same: Ctrl-C would stop the pool half made, a worker reading its
    start-up data from a pipe already closed)."""
    pending: list[int] = []
    handlers: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in _HELD:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                handlers[sig] = signal.signal(sig, lambda signum, frame: pending.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD) if _SIGMASK else None
    try:
        yield
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a signal blocked meanwhile: to the handler below
        for sig, handler in handlers.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        for sig in dict.fromkeys(pending):
            signal.raise_signal(sig)  # as it would have been taken: KeyboardInterrupt for SIGINT...


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator[multiprocessing.pool.Pool]:
    """A pool of ``workers`` spawned processes (module doc), terminated and joined when the block is left."""
    ctx = multiprocessing.get_context("spawn")  # no fork of a process that may run a progress thread
    pool: multiprocessing.pool.Pool | None = None
    try:
        with _signals_held():
            if _SIGMASK:
                # multiprocessing's resource tracker, started now rather than by the pool's first lock: starting it
                # unblocks SIGINT and SIGTERM in this thread (after giving it them blocked), which would let them reach
                # the workers started next; so block them again. The tracker keeps SIGHUP blocked: it outlives a
                # hang-up until the pool is gone (it ignores SIGINT and SIGTERM itself).
                from multiprocessing import resource_tracker

                resource_tracker.ensure_running()
                signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
            pool = ctx.Pool(workers, initializer=_quiet_worker)
        yield pool
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
