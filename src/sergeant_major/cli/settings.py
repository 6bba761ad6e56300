"""The user's settings for ``sergeant-major play``: a small JSON file in the XDG config folder.

``$XDG_CONFIG_HOME/sergeant-major/settings.json`` (``~/.config/sergeant-major/settings.json`` by default), e.g.
``{"play_forced": true}``. A missing or unreadable file gives the defaults; a value of the wrong type is ignored.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

__all__ = ["Settings", "settings_path", "load_settings", "save_settings"]


@dataclass
class Settings:
    """What ``play`` remembers between matches.

    Attributes:
        play_forced: play every forced card (the only legal card) without asking; the last card of a deal is
            always played for you.
    """

    play_forced: bool = False


def settings_path() -> Path:
    """``$XDG_CONFIG_HOME/sergeant-major/settings.json`` or ``~/.config/sergeant-major/settings.json``."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "sergeant-major" / "settings.json"


def load_settings(path: Path | None = None) -> Settings:
    """The settings saved at ``path`` (default :func:`settings_path`); the defaults when there are none."""
    p = path or settings_path()
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    s = Settings()
    if isinstance(data, dict) and isinstance(data.get("play_forced"), bool):
        s.play_forced = data["play_forced"]
    return s


def save_settings(settings: Settings, path: Path | None = None) -> bool:
    """Write ``settings`` to ``path`` (default :func:`settings_path`) atomically. Returns whether it was written
    (a read-only config folder is no reason to stop a game)."""
    p = path or settings_path()
    with contextlib.suppress(OSError):
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(json.dumps(asdict(settings), indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, p)
        return True
    return False
