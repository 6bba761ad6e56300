"""The ``sergeant-major`` command line (typer + rich; the ``cli`` extra).

Each command lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="sergeant-major",
    help="Sergeant Major (9-5-2, 8-5-3, 9-2-5, 3-5-8): play, simulate, replay and check games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    import importlib

    for mod in ("cli_play", "cli_records", "simulate", "cli_rules", "tournament", "cli_serve", "cli_analyze"):
        try:
            importlib.import_module(f"sergeant_major.{mod}")
        except ModuleNotFoundError as e:  # a command module not written yet
            if e.name != f"sergeant_major.{mod}":
                raise


def main() -> None:
    """Entry point of the ``sergeant-major`` script."""
    _register()
    app()
