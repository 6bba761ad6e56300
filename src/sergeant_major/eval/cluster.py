"""A tournament's jobs on a ray cluster: ``sergeant-major tournament --ray ADDRESS`` (the ``cluster`` extra).

Only :func:`~sergeant_major.eval.tournament.tournament_iter` imports this module, when it is given a ray address;
nothing else in the package imports ray. The jobs are cut into chunks as for the local ``multiprocessing`` pool,
each chunk a ray task of one CPU, at most ``workers`` (or one per CPU of the cluster) at a time, and the
outcomes are yielded in the order of the jobs: the result is the one of a local run, whatever the cluster.
(Plain tasks rather than ``ray.util.multiprocessing.Pool``: its result thread outlives an interrupted run and
then reconnects to a cluster on its own.)

The driver (the process that runs ``sergeant-major tournament``) must run on a machine of the cluster, as ray
requires of a driver. The package itself is sent along with the jobs (``runtime_env`` ``py_modules``; it has
no third-party dependencies), so every machine plays with the driver's code: the other machines need only
ray of the same version and the same Python version (``pip install ".[cluster]"`` in the source folder). A library
caller already connected to the same cluster (its own ``ray.init``) keeps its connection and its own
``runtime_env``: the package must then be importable on every machine.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from sergeant_major.core.errors import SergeantMajorError, UnknownLevelError, install_hint

__all__ = ["CONNECT_TIMEOUT", "ray_imap"]

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for the cluster's address to answer before giving up (ray itself would wait many minutes)."""

_J = TypeVar("_J")
_R = TypeVar("_R")
_ADDRESS = re.compile(r"(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):[0-9]{1,5}")


def _gcs_address(address: str) -> str:
    """``HOST:PORT`` of the cluster's head (``auto``: the cluster this machine is part of), checked to answer."""
    from ray._private.services import canonicalize_bootstrap_address_or_die

    try:
        gcs = canonicalize_bootstrap_address_or_die(address)  # 'auto': the cluster started here by 'ray start'
    except (ConnectionError, ValueError) as e:
        why = " ".join(str(e).split(" Please specify")[0].split())  # ray's advice names its own --address flag
        if why.startswith("Could not find any running Ray instance"):
            raise SergeantMajorError(f"--ray {address!r}: no ray cluster runs on this machine (start one with "
                                     f"'ray start --head', or give --ray HOST:PORT)") from None
        raise SergeantMajorError(f"--ray {address!r}: {why or type(e).__name__}; give --ray HOST:PORT") from None
    host, _, port = gcs.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except (OSError, ValueError) as e:
        why = f"no answer within {CONNECT_TIMEOUT:g} s" if isinstance(e, TimeoutError) else (getattr(e, "strerror", None) or str(e))
        raise SergeantMajorError(f"--ray {address!r}: no ray cluster answers at {gcs} ({why.lower()})") from None
    return gcs


def ray_imap(address: str, func: Callable[[_J], _R], jobs: Sequence[_J], workers: int,
             started: Callable[[str, int], None] | None = None) -> Iterator[_R]:
    """``func(job)`` for every job on the ray cluster at ``address``, yielded in the order of ``jobs``.

    ``workers`` (0: as many as the cluster has CPUs) caps the processes used; never more than the cluster's
    CPUs nor the jobs. ``started(description, processes)`` is called once connected, e.g. with ``('ray cluster
    at 127.0.0.1:6379, 2 CPUs, 2 worker processes', 2)``. Disconnects when the iterator ends, fails, is closed or
    interrupted (Ctrl-C), and ray then stops the processes of this run at once, chunks still playing included. A
    caller connected already keeps its connection: the chunks still playing then run to their end (at most
    ``workers`` chunks of at most 16 jobs), their outcomes unused.

    Raises:
        SergeantMajorError: ray is not installed, no cluster answers at ``address``, it has no CPU, or a job
            failed on the cluster (its error, in one line).
    """
    if address != "auto" and not (_ADDRESS.fullmatch(address) and 0 < int(address.rpartition(":")[2]) < 65536):
        raise SergeantMajorError(f"--ray {address!r}: give the ray cluster's HOST:PORT (from 'ray start --head') or 'auto'")
    try:
        with _ray_env():  # ray reads its settings when imported
            import ray
    except ModuleNotFoundError as e:
        if not (e.name or "ray").startswith("ray"):
            raise
        raise SergeantMajorError(f"--ray {address!r}: ray is not installed; " + install_hint("cluster")) from None
    gcs = _gcs_address(address)
    own = not ray.is_initialized()  # a library caller may have connected already: keep that connection then
    if not own and ray.get_runtime_context().gcs_address != gcs:
        raise SergeantMajorError(f"--ray {address!r}: this process is connected to the ray cluster at "
                                 f"{ray.get_runtime_context().gcs_address} already (ray.shutdown() first)")
    if own:
        try:
            # log_to_driver=False: the workers' output stays in the cluster's logs (/tmp/ray/session_latest/logs);
            # a job's error comes back as an exception all the same. The package goes along (py_modules; ray
            # takes a local folder only here, for the whole job): every machine plays the driver's code.
            with _ray_env(), _stderr_dropped(), _own_sigterm():  # and ray.init some more; its C++ warnings while it retries
                ray.init(address=gcs, log_to_driver=False, logging_level=logging.ERROR,
                         runtime_env={"py_modules": [str(Path(__file__).parent.parent)]})
        except (ConnectionError, RuntimeError, ValueError) as e:
            ray.shutdown()
            raise SergeantMajorError(f"--ray {address!r}: cannot connect to the ray cluster at {gcs}: {_line(e)}") from None
    running: dict[Any, int] = {}  # the chunks playing on the cluster: ObjectRef -> chunk number
    try:
        cpus = int(ray.cluster_resources().get("CPU", 0))  # type: ignore[no-untyped-call]
        if cpus < 1:
            raise SergeantMajorError(f"--ray {address!r}: the ray cluster at {gcs} has no CPU")
        k = min(workers or cpus, cpus, max(1, len(jobs)))
        if started is not None:
            where = address if address == gcs else f"{address} ({gcs})"
            started(f"ray cluster at {where}, {cpus} CPU{'s' if cpus > 1 else ''}, "
                    f"{k} worker process{'es' if k > 1 else ''}", k)
        size = max(1, min(16, len(jobs) // (k * 8)))  # as the local pool's chunks
        chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
        play: Any = ray.remote(num_cpus=1, max_retries=0)(_play_chunk)
        f = ray.put(func)
        done: dict[int, list[_R]] = {}
        sent = 0
        for i in range(len(chunks)):  # at most k chunks at a time on the cluster; yielded in order
            while i not in done:
                while sent < len(chunks) and len(running) < k:
                    running[play.remote(f, chunks[sent])] = sent
                    sent += 1
                ready, _ = ray.wait(list(running), num_returns=1)
                for ref in ready:
                    done[running.pop(ref)] = ray.get(ref)
            yield from done.pop(i)
    except ray.exceptions.RayTaskError as e:
        cause: Any = e.cause
        if isinstance(cause, SergeantMajorError):
            msg = str(cause)
            if isinstance(cause, UnknownLevelError):  # known here (the level was checked), not in the cluster's workers
                msg += (" on the ray cluster's workers: a level registered at run time in this process does not reach them "
                        "(register it in a module the workers import)")
            raise SergeantMajorError(msg) from e
        raise SergeantMajorError(f"--ray {address!r}: a job failed on the cluster: {_line(cause or e)}") from e
    except ray.exceptions.RayError as e:
        raise SergeantMajorError(f"--ray {address!r}: the ray cluster at {gcs} failed: {_line(e)}") from e
    finally:
        # Stopped early (Ctrl-C, an error, the caller closed the iterator): disconnecting ends this driver's job,
        # and ray kills the job's worker processes, those playing chunks too. No ray.cancel() of the chunks
        # still running: in ray 2.60 it races with a chunk that ends at that moment and aborts this process
        # (RAY_CHECK "Tried to complete task that was not pending": exit 1 and a C++ stack trace instead of 130).
        if own:
            ray.shutdown()


def _play_chunk(func: Callable[[_J], _R], chunk: Sequence[_J]) -> list[_R]:
    return [func(job) for job in chunk]


@contextlib.contextmanager
def _ray_env() -> Iterator[None]:
    """ray's settings for connecting, unless the environment gives them: when something that is not a ray cluster
    answers at the address, ray.init gives up after about 12 s instead of 20 tries of 40 s."""
    knobs = {"RAY_gcs_server_port_wait_time_s": "1", "RAY_py_gcs_connect_timeout_s": "5",
             "RAY_gcs_rpc_server_connect_timeout_s": "3"}
    added = [k for k in knobs if k not in os.environ]
    os.environ.update({k: knobs[k] for k in added})
    try:
        yield
    finally:
        for k in added:
            os.environ.pop(k, None)


@contextlib.contextmanager
def _own_sigterm() -> Iterator[None]:
    """The caller's SIGTERM handler kept: ``ray.init`` sets its own (``sys.exit(15)``: status 15, and the command's
    handler, which stops as on Ctrl-C with status 143, would be lost). Kept while ``ray.init`` runs too: ray's
    setter (``ray._private.utils.set_sigterm_handler``, called first thing) does nothing meanwhile, so that a
    ``kill`` while it connects is not the end with status 15 and no word; and put back after it all the same."""
    main = threading.current_thread() is threading.main_thread()
    handler = signal.getsignal(signal.SIGTERM) if main and hasattr(signal, "SIGTERM") else None
    utils = sys.modules.get("ray._private.utils") if main else None
    setter = getattr(utils, "set_sigterm_handler", None)
    if setter is not None:
        utils.set_sigterm_handler = _keep_sigterm  # type: ignore[union-attr]
    try:
        yield
    finally:
        if setter is not None:
            utils.set_sigterm_handler = setter  # type: ignore[union-attr]
        if handler is not None:
            signal.signal(signal.SIGTERM, handler)


def _keep_sigterm(handler: Any) -> None:
    """Stands for ray's ``set_sigterm_handler`` while ``ray.init`` runs (:func:`_own_sigterm`): sets nothing."""


@contextlib.contextmanager
def _stderr_dropped() -> Iterator[None]:
    """File descriptor 2 to /dev/null: ray's C++ core writes its warnings there directly ("Failed to connect to GCS
    at address ... within 3 seconds", three lines while ray.init retries), not through Python's logging; a failure
    is then the one line of the error raised."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _line(e: BaseException) -> str:
    """An error in one line: its type and the last line of its message."""
    lines = [s for s in str(e).strip().splitlines() if s.strip()]
    return f"{type(e).__name__}: {lines[-1].strip()}" if lines else type(e).__name__

