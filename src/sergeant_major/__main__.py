"""``python -m sergeant_major ...``: the same program as the ``sergeant-major`` script (needs the ``cli`` extra)."""

from __future__ import annotations

import sys


def _run() -> None:
    try:
        from sergeant_major.cli.app import main
    except ModuleNotFoundError as e:  # the core installed without the terminal program's libraries
        if e.name not in ("typer", "rich", "click"):
            raise
        from sergeant_major.core.errors import install_hint

        print(f"error: the sergeant-major program needs the cli extra ({e.name} is not installed): "
              f"{install_hint('cli')}", file=sys.stderr)
        raise SystemExit(2) from None
    main()


if __name__ == "__main__":
    _run()
