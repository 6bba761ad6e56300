"""Lighthouse scores of the web pages: performance and accessibility (goals: at least 90 and 95) and the page weight in
bytes (goal: under 300 KB, card faces included: they are drawn by the page, no image is fetched).

Needs the ``web`` extra, Debian's chromium and the npm package ``lighthouse`` (pinned 12.2.3)::

    npm install --prefix /some/folder lighthouse@12.2.3
    python benchmarks/bench_web_lighthouse.py --lighthouse /some/folder/node_modules/.bin/lighthouse

It starts ``sergeant-major serve`` on a free port with a database of its own, makes a practice table (seat 0 and two
computers) and runs Lighthouse (mobile emulation, its default) on the home page and on the table page, the table seen
as a spectator (Lighthouse's browser holds no seat token) waiting for the start."""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def lighthouse(exe: str, url: str, chromium: str) -> dict[str, float]:
    """Performance and accessibility scores (0-100) and the page weight (bytes) of ``url``."""
    out = subprocess.run([exe, url, "--quiet", "--output=json", "--only-categories=performance,accessibility",
                          "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
                         capture_output=True, text=True, timeout=300, env={**os.environ, "CHROME_PATH": chromium}, check=True)
    r = json.loads(out.stdout)
    return {"performance": round(100 * r["categories"]["performance"]["score"]),
            "accessibility": round(100 * r["categories"]["accessibility"]["score"]),
            "bytes": r["audits"]["total-byte-weight"]["numericValue"],
            "lcp_ms": round(r["audits"]["largest-contentful-paint"]["numericValue"])}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lighthouse", default="lighthouse", help="the lighthouse program (npm lighthouse@12.2.3)")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    a = ap.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(sys.executable).with_name("sergeant-major")
        srv = subprocess.Popen([str(exe), "serve", "--port", str(port), "--db", f"sqlite:///{tmp}/lh.sqlite3", "--delay", "0"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    httpx.get(base + "/", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            out = httpx.post(base + "/api/tables", json={"rules": "9-5-2", "seed": 1, "seats": [
                {"kind": "me", "name": "Ann"}, {"kind": "computer", "level": "heuristic"}, {"kind": "computer", "level": "heuristic"}]}).json()
            print(f"lighthouse {subprocess.run([a.lighthouse, '--version'], capture_output=True, text=True).stdout.strip()}")
            print(f"{'page':10} {'performance':>11} {'accessibility':>13} {'weight KB':>9} {'LCP ms':>7}")
            for name, path in (("home", "/"), ("table", "/t/" + out["id"]), ("history", "/history")):
                r = lighthouse(a.lighthouse, base + path, a.chromium)
                print(f"{name:10} {r['performance']:>11} {r['accessibility']:>13} {r['bytes'] / 1024:>9.1f} {r['lcp_ms']:>7}")
        finally:
            srv.terminate()
            srv.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
