"""The file a command writes whole when its run ends (``simulate --out``, ``tournament --json``): checked before
the run, so that a file that exists is refused unless ``--force`` is given, and written through a temporary file
beside it, renamed onto it once complete."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.records.files import file_mode, renamed_onto

__all__ = ["output_target", "temporary_beside"]


def output_target(path: str, option: str, force: bool) -> str | None:
    """Where the output file ``path`` of ``option`` (``--out``, ``--json``) is renamed to once written: ``path``, or
    the file a symbolic link ``path`` names (:func:`~sergeant_major.records.files.renamed_onto`); ``None`` for a
    device or a pipe (``/dev/null``, a FIFO), written directly and never replaced, so taken without ``--force``.

    Raises:
        SergeantMajorError: ``--out 'x.jsonl' exists; choose another file or add --force to replace it`` when the
            file exists and ``force`` is false.
        OSError: a folder (``IsADirectoryError``, refused before ``--force`` is asked for: it does not replace a
            folder), a loop of links, no permission.
    """
    if Path(path).is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    dest = renamed_onto(path)  # a link's file, not the link
    if dest is not None and not force and os.path.exists(path):
        raise SergeantMajorError(f"{option} {path!r} exists; choose another file or add --force to replace it")
    return dest


def temporary_beside(dest: str) -> tuple[int, str]:
    """A new temporary file beside ``dest`` (a hidden ``.NAME.*.tmp`` in its folder, so that the rename onto ``dest``
    is atomic) with the permission bits ``dest`` has, or a new file's: ``(open descriptor, path)``.

    Raises:
        OSError: the folder cannot be written.
    """
    target = Path(dest)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, file_mode(target))  # the replaced file's mode, else the usual one (as write_record does)
    except OSError:
        os.close(fd)
        os.unlink(tmp)
        raise
    return fd, tmp
