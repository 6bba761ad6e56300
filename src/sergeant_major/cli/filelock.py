"""The claim of one process on a file it writes (a save of ``play``, the SQLite database of ``serve``), so that a
second process on the same file is refused instead of the two overwriting each other's work."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO

from sergeant_major.core.errors import SergeantMajorError

__all__ = ["FileLock"]


class FileLock:
    """An exclusive lock on a hidden ``.NAME.lock`` file beside the file claimed, holding this process's id; the
    system releases it when the process ends, however it ends. No lock where the system has no ``flock`` (Windows)."""

    def __init__(self) -> None:
        self.file: IO[str] | None = None
        self.path: Path | None = None

    def acquire(self, claimed: Path, busy: Callable[[str], str]) -> None:
        """Claim ``claimed`` for this process.

        Raises:
            SergeantMajorError: another process holds it; its text is ``busy(by)``, ``by`` naming that process
                (`` (process N)``, or empty when the lock file holds no process id).
        """
        try:
            import fcntl
        except ImportError:
            return
        lock_path = claimed.with_name(f".{claimed.name}.lock")
        try:
            f = open(lock_path, "a+", encoding="utf-8")  # noqa: SIM115 (held open while the file is in use)
        except OSError:
            return  # a folder that cannot be written: the file's own writing says so, quoting it
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            holder = f.read().strip()
            f.close()
            raise SergeantMajorError(busy(f" (process {holder})" if holder.isdigit() else "")) from None
        except OSError:  # a file system without locks (ENOLCK): not claimed, as on Windows
            f.close()
            return
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        self.file, self.path = f, lock_path

    def release(self) -> None:
        """Give the claim up and remove the lock file (nothing when none is held)."""
        if self.file is None:
            return
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
        self.file.close()
        self.file = None
