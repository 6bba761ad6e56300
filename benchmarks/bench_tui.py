"""The full-screen table's response: the time from a key to the redrawn screen (goal: under 50 ms at the median).

Run (the ``cli`` extra: textual)::

    python benchmarks/bench_tui.py [--keys 200] [--size 80x24] [--seed 5]

The table (:class:`sergeant_major.cli.table.TableApp`) runs headless under Textual's pilot at the given size,
through deal 1 of a 9-5-2 match against two heuristic players, with no pause between computer moves. Timed in
CPU time of the process (``time.process_time``, both threads: the screen and the driving loop), each reported as
median and 95th percentile in milliseconds. CPU time, not wall clock: the pilot waits for the app to be idle in
steps of 20 ms of sleep (``textual._wait.wait_for_idle``), a floor of some 45 ms per key that a real terminal does
not have, and the shared machine's load would add its own; the CPU time is the work a key costs.

- cursor: a Left or Right arrow at a card decision until the screen has processed it and is idle again (the hand
  redrawn: the cursor moved);
- play: Enter after a legal card typed until the table is drawn with that card on it: the line handed to the
  driving loop's worker, the card checked and applied, the view built and drawn;
- to turn: from there until your next question is on the screen: the computers' cards (their thinking included),
  each drawn, the autosave before your decision, the next decision shown.

Nothing is asserted: the figures go into docs/terminal.md.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from textual.events import Key
from textual.widgets import Input

from sergeant_major.cli.settings import Settings
from sergeant_major.cli.table import TableApp
from sergeant_major.cli.tui import legal_tokens as tokens
from sergeant_major.core.actions import Discard, Play
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules


async def _until(pilot, app: TableApp, since: int) -> None:  # type: ignore[no-untyped-def]
    while app.asks <= since and (app.worker is None or app.worker.is_alive()):
        await pilot.pause(0)
    await pilot.pause()


async def measure(keys: int, size: tuple[int, int], seed: int) -> tuple[list[float], list[float], list[float]]:
    cursor: list[float] = []
    play: list[float] = []
    turn: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        while len(cursor) < keys or len(play) < keys // 4:
            m = Match(Rules.parse("9-5-2"), seed, ["You", "Bob", "Cleo"])
            seed += 1
            app = TableApp(m, ["human", "heuristic", "heuristic"], Path(tmp) / "m.json", settings=Settings())
            async with app.run_test(size=size) as pilot:
                since = -1
                while app.game.match.deal.number == 1 and len(play) < keys:
                    await _until(pilot, app, since)
                    since = app.asks
                    if app.panel is not None or app.view is None or not app.view.legal:
                        break
                    first = app.view.legal[0]
                    if not isinstance(first, Play):  # trump, discards: typed, not timed
                        entry = app.query_one("#line", Input)
                        if isinstance(first, Discard):
                            entry.value = " ".join(str(x.card) for x in app.view.legal[:4] if isinstance(x, Discard))
                        else:
                            entry.value = tokens(app.view)[0]
                        await pilot.press("enter")
                        continue
                    for key in ("right", "left"):
                        t0 = time.process_time()
                        await pilot.press(key)  # returns once the key is handled and the app is idle (redrawn)
                        cursor.append(time.process_time() - t0)
                    card = str(first.card)
                    await pilot.press(*card)
                    drawn = app.updates
                    t0 = time.process_time()
                    app.post_message(Key("enter", "\r"))  # the key, as the terminal's driver posts it
                    while app.updates == drawn:  # until the table is drawn with your card on it
                        await asyncio.sleep(0)
                    await asyncio.sleep(0)
                    play.append(time.process_time() - t0)
                    t0 = time.process_time()
                    await _until(pilot, app, since)
                    turn.append(time.process_time() - t0)
                await pilot.press("ctrl+q")
                while app.worker is not None and app.worker.is_alive():
                    await pilot.pause(0.01)
    return cursor, play, turn


def _report(name: str, xs: list[float]) -> None:
    ms = sorted(x * 1000 for x in xs)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"{name:7} n={len(ms):4}  median {statistics.median(ms):6.1f} ms   p95 {p95:6.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=int, default=200, help="cursor keys to time (play: a quarter as many cards)")
    ap.add_argument("--size", default="80x24", help="terminal size COLSxROWS")
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args()
    w, h = (int(x) for x in a.size.split("x"))
    cursor, play, turn = asyncio.run(measure(a.keys, (w, h), a.seed))
    print(f"bench_tui: {a.size}, 9-5-2 deal 1, heuristic opponents")
    _report("cursor", cursor)
    _report("play", play)
    _report("to turn", turn)


if __name__ == "__main__":
    main()
