"""A missing extra is named with a command that installs it. The package is not on PyPI, so the messages said
``pip install 'sergeant-major[web]'`` (and ``[pettingzoo]``, ``[openspiel]``, ``[fast]``, ``[cluster]``), which
answers 'No matching distribution found for sergeant-major'; they now say ``pip install ".[web]"`` in the source
folder, as the README's quickstart installs it."""

from __future__ import annotations

import importlib
import sys

import pytest
from typer.testing import CliRunner

from sergeant_major.core.errors import SergeantMajorError, install_hint


def test_install_hint_installs_from_the_source_folder() -> None:
    assert install_hint("web") == 'pip install ".[web]" in the sergeant-major source folder'
    assert "sergeant-major[" not in install_hint("fast")


def test_serve_without_the_web_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from sergeant_major.cli.app import app, register_commands

    register_commands()  # the script's main() registers the commands
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if uvicorn were not installed: importing it fails
    r = CliRunner().invoke(app, ["serve", "--port", "0"])
    assert r.exit_code == 2, r.output
    assert r.stderr.splitlines() == ["error: serve needs the web extra (uvicorn is missing): "
                                     'pip install ".[web]" in the sergeant-major source folder']


def test_envs_without_the_pettingzoo_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "sergeant_major.research.envs" or m.startswith("sergeant_major.research.envs.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    with pytest.raises(ImportError, match=r'install them with: pip install "\.\[pettingzoo\]" in the'):
        importlib.import_module("sergeant_major.research.envs")


def test_openspiel_game_without_the_openspiel_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """It was a bare 'ModuleNotFoundError: No module named ...' (numpy or pyspiel)."""
    monkeypatch.delitem(sys.modules, "sergeant_major.research.openspiel_game", raising=False)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(ImportError, match=r'needs open-spiel and numpy .*pip install "\.\[openspiel\]" in the'):
        importlib.import_module("sergeant_major.research.openspiel_game")


def test_ismcts_level_without_openspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    from sergeant_major.research import ismcts

    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(SergeantMajorError, match=r'needs OpenSpiel .*pip install "\.\[openspiel\]" in the'):
        ismcts._openspiel()


def test_records_without_the_records_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """The records package validates with jsonschema (the records extra): without it, importing it names the extra."""
    for name in [m for m in sys.modules if m == "sergeant_major.records" or m.startswith("sergeant_major.records.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    with pytest.raises(ImportError, match=r'needs jsonschema .*pip install "\.\[records\]" in the'):
        importlib.import_module("sergeant_major.records")


def test_the_core_needs_no_jsonschema() -> None:
    """The core keeps no third-party dependency: a match is played, in a fresh process, with jsonschema unimportable."""
    import subprocess

    code = ("import sys; sys.modules['jsonschema'] = None\n"
            "from sergeant_major import Match, RandomPlayer, Rules, drive\n"
            "import sergeant_major.core\n"
            "m = Match(Rules.parse('9-5-2'), 1)\n"
            "drive(m, [RandomPlayer()] * 3)\n"
            "print(m.over, sorted(k for k in sys.modules if k.startswith('sergeant_major.records')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True []", out.stdout
