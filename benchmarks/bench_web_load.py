"""Load on the web app: many tables of computer players driven over real websockets on loopback against
one ``sergeant-major serve`` process.

Run (the ``web`` extra)::

    python benchmarks/bench_web_load.py [--tables 200] [--seconds 30] [--rules "9-5-2"] [--db URL] [--think 0.5]
        [--processes N]

What happens: the server is started as a subprocess (uvicorn on a free loopback port, ``--delay 0``, an
SQLite file in a temporary folder unless ``--db`` names another database). ``--tables`` tables are created
over HTTP, each with seat 0 a player driven by this script and seats 1 and 2 ``heuristic`` computers that
the server plays itself. One websocket per table; the script's player waits ``--think`` seconds (a person
thinks: mean of an exponential draw; 0 = as fast as possible), then sends the first legal action (or
"start"/"next deal") with the state version, and times until the next state message of a newer version
arrives (that reply includes the computers' moves taken in between, each stored in the database before
it is broadcast). A table whose match ends is replaced by a new one. With ``--processes N`` (``--db`` a PostgreSQL
URL) N processes are started behind haproxy (deploy/haproxy.cfg, docs/web.md "Many processes") and the load goes
through the proxy.

Reported: tables held (open websockets playing at the end), client actions per second, game actions per
second (every stored action: the client's, the computers', the forced ones and the deal starts), and
p50/p90/p99/max action latency in milliseconds.

With ``--quick N``: N players (guests) use *quick play* instead
(``POST /api/lobby/quick`` for ``--rules``, computers of ``heuristic`` level after ``--wait`` seconds), each joins the
table it was given over a websocket, presses *start* until everyone is there, and plays its own seat (first legal
action after ``--think``); when the match ends it uses quick play again. ``--watchers`` lobby pages
(``/ws/lobby``) time the lobby updates: from a quick play's answer received to the first lobby message with its version
(``lobby_v``) at each watcher (0 when the lobby message came first). Reported besides: tables made, people per table,
p50/p90/p99 of the quick play answers and of the lobby updates.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_proxy(port: int, backends: list[int], folder: str) -> subprocess.Popen[bytes]:
    """haproxy on ``port`` with deploy/haproxy.cfg's settings, one ``server`` line per backend port."""
    lines = []
    for line in (Path(__file__).resolve().parents[1] / "deploy" / "haproxy.cfg").read_text().splitlines():
        if line.startswith("    bind "):
            line = f"    bind 127.0.0.1:{port}"
        elif line.startswith("    server "):
            continue
        elif line.startswith("    # servers"):
            line += "".join(f"\n    server serve{i} 127.0.0.1:{p}" for i, p in enumerate(backends))
        lines.append(line)
    cfg = Path(folder) / "haproxy.cfg"
    cfg.write_text("\n".join(lines) + "\n")
    proc = subprocess.Popen(["haproxy", "-db", "-f", str(cfg)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2.5)  # the health checks find the processes up
    return proc


def _start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).with_name("sergeant-major")
    proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--db", db, "--delay", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    if "served at" not in line:
        raise SystemExit(f"the server did not start: {line}")
    return proc


_HTTP: Any = None


async def _create(base: str, rules: str, seed: int) -> tuple[str, str]:
    import httpx

    global _HTTP
    if _HTTP is None:  # one client for every table: making one builds a TLS context (tens of ms of CPU each)
        _HTTP = httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=20))
    r = await _HTTP.post(base + "/api/tables", json={
        "name": f"load {seed}", "rules": rules, "seed": seed, "away_timeout": -1,
        "seats": [{"kind": "me"}, {"kind": "computer", "level": "heuristic"}, {"kind": "computer", "level": "heuristic"}]})
    r.raise_for_status()
    out = r.json()
    return out["id"], out["seats"][0]["token"]


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


class Stats:
    def __init__(self) -> None:
        self.lobby: list[float] = []
        self.lobby_seen: dict[int, float] = {}  # lobby version -> first time a watcher got it (per watcher: the max)
        self.quick_sent: list[tuple[float, int]] = []  # (answer received, lobby version of the answer)
        self.quick_answer: list[float] = []  # seconds from a quick play's request sent to its answer
        self.table_people: dict[str, int] = {}
        self.server_cpu = 0.0
        self.latencies: list[float] = []
        self.client_actions = 0
        self.game_actions = 0
        self.held = 0
        self.errors = 0
        self.games = 0


async def _table(base: str, rules: str, seed: int, stop: float, think: float, st: Stats, measure_from: float) -> None:
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    while time.time() < stop:
        tid, tok = await _create(base, rules, seed)
        seed += 100_000
        async with connect(base.replace("http", "ws") + f"/ws/{tid}", max_size=1 << 22) as ws:
            await ws.send(json.dumps({"type": "join", "token": tok}))
            st.held += 1
            sent_at: float | None = None
            sent_v = -1
            last_v = 0
            try:
                while time.time() < stop:
                    remaining = stop - time.time()
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, remaining))
                    except TimeoutError:
                        break
                    m = json.loads(raw)
                    if m["type"] == "error":
                        st.errors += 1
                        continue
                    if m["type"] != "state" or m["v"] <= sent_v:
                        continue
                    now = time.time()
                    if sent_at is not None and now >= measure_from:
                        st.latencies.append(now - sent_at)
                        st.game_actions += m["v"] - last_v
                    last_v = m["v"]
                    sent_at = None
                    if m["over"]:
                        st.games += 1
                        break
                    legal = m["view"]["legal"]
                    if not m["waiting_start"] and not legal:
                        continue
                    if think > 0:
                        await asyncio.sleep(rng.expovariate(1 / think))
                    if m["waiting_start"]:
                        msg: dict[str, Any] = {"type": "start", "v": m["v"]}
                    else:
                        a = dict(legal[0])
                        a.pop("seat")
                        msg = {"type": "act", "v": m["v"], "action": a}
                    sent_at = time.time()
                    sent_v = m["v"]
                    if sent_at >= measure_from:
                        st.client_actions += 1
                    await ws.send(json.dumps(msg))
            finally:
                st.held -= 1 if time.time() < stop else 0


async def _watch_lobby(base: str, stop: float, seen: dict[int, float]) -> None:
    """One lobby page: the arrival time of each lobby version (a version skipped by coalescing counts at the next)."""
    from websockets.asyncio.client import connect

    async with connect(base.replace("http", "ws") + "/ws/lobby", max_size=1 << 24) as ws:
        while time.time() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.time()))
            except TimeoutError:
                break
            now = time.time()
            m = json.loads(raw)
            if m.get("type") == "lobby":
                v = int(m["v"])
                if v not in seen:
                    seen[v] = now


async def _quick_player(base: str, i: int, args: argparse.Namespace, stop: float, st: Stats, measure_from: float,
                        cl: Any) -> None:
    """One person using quick play again and again until ``stop`` (``cl``: one HTTP client shared by all, as one of its
    own each would cost this load client more than the server): plays its seat, times its actions."""
    from websockets.asyncio.client import connect

    rng = random.Random(i)
    await asyncio.sleep(rng.random() * args.warmup / 2)  # arrivals spread over the first half of the warm-up
    while time.time() < stop:
        sent = time.time()
        r = await cl.post(base + "/api/lobby/quick", json={"name": f"Guest {i}", "rules": args.rules, "wait": args.wait,
                                                           "level": "heuristic"})
        if r.status_code != 200:
            st.errors += 1
            await asyncio.sleep(1)
            continue
        seat = r.json()
        answered = time.time()
        if sent >= measure_from:
            st.quick_answer.append(answered - sent)
            st.quick_sent.append((answered, int(seat["lobby_v"])))
        st.table_people[seat["id"]] = st.table_people.get(seat["id"], 0) + 1
        async with connect(base.replace("http", "ws") + f"/ws/{seat['id']}", max_size=1 << 22) as ws:
            await ws.send(json.dumps({"type": "join", "token": seat["token"]}))
            st.held += 1
            sent_at: float | None = None
            sent_v = -1
            try:
                while time.time() < stop:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.time()))
                    except TimeoutError:
                        break
                    m = json.loads(raw)
                    if m["type"] == "error":
                        if m.get("code") not in ("empty_seat", "stale", "not_waiting"):
                            st.errors += 1
                        sent_at = None
                        continue
                    if m["type"] != "state":
                        continue
                    now = time.time()
                    if sent_at is not None and m["v"] > sent_v:
                        if now >= measure_from:
                            st.latencies.append(now - sent_at)
                        sent_at = None
                    if m["over"]:
                        st.games += 1
                        break
                    if sent_at is not None:
                        continue
                    legal = m["view"]["legal"]
                    if m["waiting_start"]:
                        if m["view"]["deal"] == 1 and any(s["kind"] == "human" and not s["online"] for s in m["table"]["seats"]):
                            continue  # the start waits for everyone: the next state (someone came) tries again
                        msg: dict[str, Any] = {"type": "start", "v": m["v"]}
                    elif legal and m["view"]["to_act"] == m["you"]:
                        if args.think > 0:
                            await asyncio.sleep(rng.expovariate(1 / args.think))
                        a = dict(legal[0])
                        a.pop("seat")
                        msg = {"type": "act", "v": m["v"], "action": a}
                    else:
                        continue
                    sent_at, sent_v = time.time(), m["v"]
                    if sent_at >= measure_from:
                        st.client_actions += 1
                    await ws.send(json.dumps(msg))
            finally:
                st.held -= 1 if time.time() < stop else 0


async def _run_quick(args: argparse.Namespace, base: str) -> Stats:
    st = Stats()
    t0 = time.time()
    stop = t0 + args.warmup + args.seconds
    measure_from = t0 + args.warmup
    seen: list[dict[int, float]] = [{} for _ in range(args.watchers)]
    watchers = [asyncio.create_task(_watch_lobby(base, stop, s)) for s in seen]
    await asyncio.sleep(0.3)
    import httpx

    cl = httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=args.quick, max_keepalive_connections=args.quick))
    tasks = [asyncio.create_task(_quick_player(base, i, args, stop, st, measure_from, cl)) for i in range(args.quick)]
    await asyncio.sleep(args.warmup + args.seconds - 0.8)
    held = st.held
    await asyncio.gather(*tasks, *watchers, return_exceptions=True)
    await cl.aclose()
    st.held = held
    for sent, v in st.quick_sent:
        for s in seen:
            later = [t for ver, t in s.items() if ver >= v]
            if later:
                st.lobby.append(max(0.0, min(later) - sent))  # pushed before the answer arrived: 0
    return st


async def _run(args: argparse.Namespace, base: str) -> Stats:
    st = Stats()
    t0 = time.time()
    stop = t0 + args.warmup + args.seconds
    measure_from = t0 + args.warmup
    tasks = [asyncio.create_task(_table(base, args.rules, 1000 + i, stop, args.think, st, measure_from)) for i in range(args.tables)]
    await asyncio.sleep(args.warmup + args.seconds - 0.5)
    held = st.held
    await asyncio.gather(*tasks, return_exceptions=True)
    st.held = held
    return st


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (tables are created meanwhile)")
    ap.add_argument("--think", type=float, default=0.5, help="mean seconds the client player thinks (0: none)")
    ap.add_argument("--rules", default="9-5-2")
    ap.add_argument("--db", default="", help="database URL (default: SQLite in a temporary folder)")
    ap.add_argument("--url", default="", help="use this running server (http://host:port) instead of starting one")
    ap.add_argument("--quick", type=int, default=0, help="N players using quick play instead of --tables (see above)")
    ap.add_argument("--wait", type=int, default=5, help="quick play: seconds before computers take the free seats")
    ap.add_argument("--watchers", type=int, default=5, help="quick play: lobby pages timing the lobby updates")
    ap.add_argument("--processes", type=int, default=0, help="start this many processes behind haproxy (--db PostgreSQL)")
    args = ap.parse_args()
    run = _run_quick if args.quick else _run
    if args.url:
        st = asyncio.run(run(args, args.url.rstrip("/")))
        _report(args, st)
        return
    tmp = tempfile.mkdtemp()
    db = args.db or f"sqlite:///{os.path.join(tmp, 'load.sqlite3')}"
    port = _free_port()
    ports = [_free_port() for _ in range(args.processes)] if args.processes else [port]
    procs = [_start_server(db, p) for p in ports]
    proxy = _start_proxy(port, ports, tmp) if args.processes else None
    base = f"http://127.0.0.1:{port}"
    try:
        time.sleep(0.3)
        cpu0 = sum(_cpu(p.pid) for p in procs)
        st = asyncio.run(run(args, base))
        st.server_cpu = sum(_cpu(p.pid) for p in procs) - cpu0
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGINT)
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if proxy is not None:
            proxy.terminate()
            proxy.wait(10)
    _report(args, st)


def _report(args: argparse.Namespace, st: Stats) -> None:
    lat = sorted(x * 1000 for x in st.latencies)

    def q(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    if args.quick:
        people = list(st.table_people.values())
        print(f"quick play: {args.quick} players (guests), wait {args.wait}s, {len(people)} tables made, people per table "
              f"{statistics.fmean(people) if people else 0:.2f}; websockets playing at the end {st.held}, think {args.think}s, "
              f"{args.seconds:.0f}s measured ({'SQLite' if not args.db else args.db.split(':')[0]}"
              f"{f', {args.processes} processes behind haproxy' if args.processes else ''})")
        for what, xs in (("quick play answer ms (request sent -> answer)", st.quick_answer),
                         (f"lobby update latency ms (answer -> lobby message, at each of {args.watchers} watchers)", st.lobby)):
            lob = sorted(x * 1000 for x in xs)
            if lob:
                def ql(p: float, lob: list[float] = lob) -> float:
                    return lob[min(len(lob) - 1, int(p * len(lob)))]
                print(f"{what}: p50 {ql(0.5):.1f}  p90 {ql(0.9):.1f}  p99 {ql(0.99):.1f}  max {lob[-1]:.1f}  (n={len(lob)})")
    else:
        print(f"tables requested {args.tables}, held at the end {st.held}, think {args.think}s, {args.seconds:.0f}s measured "
              f"({'SQLite' if not args.db else args.db.split(':')[0]}"
              f"{f', {args.processes} processes behind haproxy' if args.processes else ''})")
    print(f"client actions/s {st.client_actions / args.seconds:.1f}; game actions/s "
          f"{'(not counted)' if args.quick else f'{st.game_actions / args.seconds:.1f}'}; "
          f"games finished {st.games}; errors {st.errors}")
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    elapsed = args.seconds + args.warmup
    print(f"CPU over {elapsed:.0f}s: server {st.server_cpu:.1f}s, this load client {own.ru_utime + own.ru_stime:.1f}s; "
          f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if lat:
        print(f"action latency ms: p50 {q(0.5):.1f}  p90 {q(0.9):.1f}  p99 {q(0.99):.1f}  max {lat[-1]:.1f}  "
              f"mean {statistics.fmean(lat):.1f}  (n={len(lat)})")


if __name__ == "__main__":
    main()
