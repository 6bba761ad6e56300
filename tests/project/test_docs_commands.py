"""The README's table of commands: each links a page (and a heading there) that names every option of the command."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

pytest.importorskip("typer")

import typer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SKIP: set[str] = set()  # commands whose page is checked elsewhere (none)


def _slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _rows() -> list[tuple[str, str]]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `sergeant-major (\w+)[^|]*\|[^|]*\|[^|]*\| \[\w+\]\(([^)]+)\) \|$", readme, re.M)
    assert len(rows) >= 9, rows
    return [r for r in rows if r[0] not in SKIP]


@pytest.mark.parametrize(("command", "link"), _rows())
def test_readme_command_links_a_page_naming_every_option(command: str, link: str) -> None:
    from sergeant_major.cli.app import app

    for module in ("play", "records", "rules", "simulate", "tournament", "analyze", "serve"):
        importlib.import_module(f"sergeant_major.cli.{module}")  # registers the commands on the app
    page, _, anchor = link.partition("#")
    text = (ROOT / page).read_text(encoding="utf-8")
    if anchor:
        headings = {_slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}
        assert anchor in headings, f"README links {link}, a heading {page} does not have"
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    missing = [opts[0] for p in group.commands[command].params
               if (opts := [o for o in [*p.opts, *p.secondary_opts] if o.startswith("--")]) and opts[0] != "--help"
               and not any(f"`{o}" in text or f" {o}" in text or f"/{o}" in text for o in opts)]
    assert not missing, f"{page} does not name {missing} of sergeant-major {command}"
