"""A deal's score in the browser's result dialog is signed as in the terminal (``tui.signed``: ``+11``, ``-3``, ``0``),
run in Node on the page's own ``resultTable`` and ``scoreSheet`` from ``static/table.js`` (skipped without ``node``)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import sergeant_major.web as web
from sergeant_major.cli.tui import signed

_RUN = r"""
const fs = require("fs");
const src = fs.readFileSync(process.argv[1], "utf8");
const pick = (name) => { const i = src.indexOf("function " + name + "("); const j = src.indexOf("\nfunction ", i + 1);
  const k = src.indexOf("\n//", i + 1); return src.slice(i, Math.min(j, k < 0 ? j : k)); };
const esc = (x) => String(x), t = (k) => k, contractText = (c) => c, contractShort = (c) => c;
let S = { view: { results: [], totals: [] } };
const names = () => ["Ann", "Bo", "Cy"];
eval(pick("signed") + pick("nameTh") + pick("resultTable") + pick("scoreSheet"));
const r = { targets: [9, 5, 2], tricks: [9, 2, 6], scores: [0, -3, 4], contract: "S" };
S.view.results = [r]; S.view.totals = [0, -3, 4];
console.log(JSON.stringify({ result: resultTable({ number: 1, result: r }), sheet: scoreSheet() }));
"""


def _render() -> dict[str, str]:
    import pytest

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    js = Path(web.__file__).parent / "static" / "table.js"
    out = subprocess.run([node, "-e", _RUN, str(js)], capture_output=True, text=True, timeout=30, check=True)
    got: dict[str, str] = json.loads(out.stdout)
    return got


def test_the_result_dialog_signs_a_deals_score_as_the_terminal() -> None:
    """The repro: the result dialog's +/- column showed ``4`` where the terminal shows ``+4``. Now it is signed as
    there (``-3`` as before, ``0`` without a sign); the score sheet's per-deal figures as well."""
    got = _render()
    cells = re.findall(r"<tr><th[^>]*><span class=\"nw\">(\w+)</span></th><td>(\d+)</td><td>(\d+)</td><td>([^<]*)</td><td class=\"total\">([^<]*)</td></tr>", got["result"])
    assert [(n, x) for n, _, _, x, _ in cells] == [("Ann", "0"), ("Bo", "-3"), ("Cy", "+4")], got["result"]
    assert [tot for *_, tot in cells] == ["0", "-3", "+4"], got["result"]  # the running total after the deal, signed
    assert [x for *_, x in cells] == [signed(x) for x in (0, -3, 4)]
    assert re.findall(r"<td>\d+/\d+: ([^ ]+) = ", got["sheet"]) == ["0", "-3", "+4"], got["sheet"]


def test_the_score_sheet_signs_running_totals_as_the_terminal() -> None:
    """The score sheet's running totals (``= 11``) and its total row were unsigned where the terminal's score
    sheet (``tui.signed``) shows ``+11``; now both are signed, ``0`` without a sign."""
    got = _render()
    assert re.findall(r"<td>\d+/\d+: [^ ]+ = ([^<]*)</td>", got["sheet"]) == ["0", "-3", "+4"], got["sheet"]
    assert re.findall(r"<th>([^<]*)</th>", got["sheet"])[-3:] == ["0", "-3", "+4"], got["sheet"]
