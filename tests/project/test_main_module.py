"""``python -m sergeant_major`` runs the same program as the ``sergeant-major`` script; without the cli extra it says
which extra to install (it was "No module named sergeant_major.__main__ ... cannot be directly executed")."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_python_m_runs_the_program() -> None:
    pytest.importorskip("typer")
    out = subprocess.run([sys.executable, "-m", "sergeant_major", "rules", "9-5-2"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Rules '9-5-2': preset 9-5-2") and "Targets: dealer 9" in out.stdout, out.stdout[:200]


def test_python_m_without_the_cli_extra_names_it() -> None:
    # typer made unimportable: a module of that name that raises ModuleNotFoundError for it
    code = ("import sys, runpy\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'typer':\n"
            "            raise ModuleNotFoundError(\"No module named 'typer'\", name='typer')\n"
            "sys.meta_path.insert(0, Block())\n"
            "sys.argv = ['sergeant_major', 'rules']\n"
            "runpy.run_module('sergeant_major', run_name='__main__')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert out.stderr.strip() == ('error: the sergeant-major program needs the cli extra (typer is not installed): '
                                  'pip install ".[cli]" in the sergeant-major source folder'), out.stderr
