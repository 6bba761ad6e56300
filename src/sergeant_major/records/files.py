"""Record files read and written safely: whole or not at all, never through a pipe or a device by mistake.

- :func:`write_record`: a match's record to a file atomically (a temporary file in the same folder, then a rename);
  :func:`file_mode` and :func:`renamed_onto` are the same care for other files written whole (``simulate --out``,
  ``tournament --json``).
- :func:`read_regular_file`: the bytes of a regular file of at most a given size, refusing a pipe, a device or a
  folder without waiting (:class:`NotRegularFile`, :class:`FileTooLarge`).
- :func:`read_records` / :func:`split_records`: a file (or text) -> its records ``[(line, text)]``: one JSON record,
  or JSON Lines (one record a line, as ``simulate --out`` writes); :func:`read_record` reads and validates one
  (``game=K`` picks record K; :class:`RecordCountError` when a file of several records is read without it).
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from sergeant_major.core.errors import RecordError
from sergeant_major.core.match import Match
from sergeant_major.records.format import dumps_record, match_to_record
from sergeant_major.records.validation import loads_record_at

__all__ = [
    "MAX_RECORD_FILE",
    "FileTooLarge",
    "NotRegularFile",
    "RecordCountError",
    "file_mode",
    "read_record",
    "read_records",
    "read_regular_file",
    "renamed_onto",
    "split_records",
    "write_record",
]


def file_mode(p: Path) -> int:
    """The permission bits (``0o777`` at most) for a file written whole onto ``p`` (a record, ``simulate --out``,
    ``tournament --json``): the existing file's, else 0666 less the process's umask (a temporary file is 0600)."""
    try:
        return p.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def renamed_onto(path: str) -> str | None:
    """Where a file written whole through a temporary file and a rename (``tournament --json``, ``simulate --out``)
    goes: ``path``, or the file a symbolic link ``path`` names (the link is kept, as a plain write keeps it); ``None``
    when ``path`` is a device, a pipe or a socket (``/dev/null``, ``/dev/stdout``, a FIFO), to be written directly:
    a rename would put a regular file in its place (as root, in ``/dev`` too). A folder is for the caller to refuse.

    Raises:
        OSError: ``path`` cannot be looked up (a loop of links, a file where a folder should be, no permission).
    """
    try:
        st = os.stat(path)  # follows links: what a write would reach
    except FileNotFoundError:  # a new file, or a dangling link's; a loop of links (ELOOP) is the caller's error
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        return None
    return os.path.realpath(path) if os.path.islink(path) else path


_MAX_SUFFIX: Final = 1000


def _place_new(tmp: str, p: Path) -> Path:
    """Give the written temporary file ``tmp`` the name ``p``, or ``p`` with ``-2``, ``-3``... before its suffix when
    that name is taken, never replacing a file; returns the name given. A hard link claims the name atomically
    with the whole record in it; where the file system has no hard links, the name is claimed by creating it
    empty (``O_EXCL``) and the record then renamed over it."""
    for k in range(1, _MAX_SUFFIX + 1):
        cand = p if k == 1 else p.with_name(f"{p.stem}-{k}{p.suffix}")
        try:
            os.link(tmp, cand)
        except FileExistsError:
            continue
        except OSError:  # no hard links here (some network or FAT file systems)
            try:
                os.close(os.open(cand, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                continue
            try:
                os.replace(tmp, cand)
            except OSError:
                os.unlink(cand)  # the empty name claimed, not a record: leave nothing behind
                raise
            return cand
        os.unlink(tmp)
        return cand
    raise FileExistsError(errno.EEXIST, f"{p.name} and {_MAX_SUFFIX - 1} numbered names after it are all taken")


def write_record(match: Match, path: str | Path, players: Sequence[str], meta: dict[str, Any] | None = None, *,
                 unique: bool = False) -> Path:
    """Write the record of ``match`` to ``path`` atomically (a temporary file in the same folder, then a
    rename), so a crash never leaves half a record. Returns the path written.

    Args:
        unique: never replace an existing file: when ``path`` exists, write ``NAME-2.json``, ``NAME-3.json``...
            (the first free name, claimed atomically, so two programs saving at once get two files) and return
            that path. Without it an existing ``path`` is replaced (saving the same match again); a symbolic link
            ``path`` is kept and the file it names is replaced.

    Raises:
        RecordError: from :func:`match_to_record`, or when the file cannot be written (the path and the
            system's reason quoted); nothing is left behind then.
    """
    p = Path(path)
    text = dumps_record(match_to_record(match, players, meta))
    tmp: str | None = None
    try:
        # a symbolic link is kept and the file it names replaced (the rename replaced the link by a file of its own,
        # leaving the file it named as it was: a save resumed through a link went on in a copy)
        dest = Path(os.path.realpath(p)) if not unique and p.is_symlink() else p
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent if str(dest.parent) else ".")
        os.chmod(tmp, file_mode(dest))  # mkstemp makes 0600 files; a record gets the usual mode
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if unique:
            p = _place_new(tmp, p)
        else:
            os.replace(tmp, dest)
        tmp = None
    except OSError as e:
        raise RecordError(f"cannot write the record to {str(p)!r}: {e.strerror or e}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return p




class RecordCountError(RecordError):
    """A JSON Lines file of several records read without saying which one (or naming one it lacks).

    Attributes:
        count: the number of records in the file (>= 1).
        lines: the line number (1-based) of each record, in file order.
    """

    def __init__(self, message: str, count: int, lines: Sequence[int]) -> None:
        super().__init__(message)
        self.count = count
        self.lines = tuple(lines)


def split_records(text: str) -> list[tuple[int, str]]:
    """Split the text of a record file into its records: ``[(line, text)]`` with ``line`` the 1-based line
    number where each record starts.

    A file is either one JSON record (pretty-printed over many lines, as :func:`write_record` writes it, or
    on one line) or JSON Lines, one compact record a line, as ``sergeant-major simulate --out`` writes them
    (blank lines are skipped). It is taken as JSON Lines when it has more than one non-blank line and its
    first non-blank line is a whole JSON value by itself.
    """
    lines = text.splitlines()
    filled = [(i + 1, ln) for i, ln in enumerate(lines) if ln.strip()]
    if len(filled) > 1:
        try:
            json.loads(filled[0][1])
        except ValueError:
            pass
        else:
            return filled
    first = filled[0][0] if filled else 1
    return [(first, text)]


MAX_RECORD_FILE: Final = 1 << 30
"""The largest record file read, in bytes (1 GiB): a record of a whole match is about 3 to 25 kB as
``simulate --out`` writes it (7 kB on average for 9-5-2 to 10), so this holds some 150,000 matches."""


def _file_kind(mode: int) -> str:
    for test, what in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "not a regular file"


class NotRegularFile(Exception):
    """:func:`read_regular_file` refused a path that is not a regular file; ``mode`` is its ``st_mode``."""

    def __init__(self, mode: int) -> None:
        super().__init__(_file_kind(mode))
        self.mode = mode


class FileTooLarge(Exception):
    """:func:`read_regular_file` refused a file of more than its ``limit`` bytes."""


def read_regular_file(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (records, ``tournament --merge`` files).

    A pipe is refused without waiting for a writer (opened non-blocking), and the size is checked before and
    after reading (the file may grow meanwhile).

    Raises:
        NotRegularFile: a folder, a pipe, a device or a socket (``e.mode``).
        FileTooLarge: more than ``limit`` bytes.
        OSError: from opening or reading (``FileNotFoundError``; ``IsADirectoryError`` where opening a folder fails).
        MemoryError: the file does not fit in the memory this process may use.
    """
    # O_NONBLOCK: opening a pipe must not wait for a writer (it is refused just below)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(st.st_mode)
        if st.st_size > limit:
            raise FileTooLarge(limit)
        data = f.read(limit + 1)  # the file may have grown since
    if len(data) > limit:
        raise FileTooLarge(limit)
    return data


def _read_text(p: Path) -> str:
    """The text of the record file ``p``: a regular file of at most :data:`MAX_RECORD_FILE` bytes, UTF-8."""
    try:
        data = read_regular_file(p, MAX_RECORD_FILE)
    except NotRegularFile as e:
        raise RecordError(f"{str(p)!r} is {_file_kind(e.mode)}, not a regular file; a record is a JSON text file") from None
    except FileTooLarge:
        raise RecordError(f"{str(p)!r} is larger than {MAX_RECORD_FILE:,} bytes, the most a record file may hold "
                          "(split a JSON Lines file into several)") from None
    except OSError as e:
        raise RecordError(f"cannot read the record {str(p)!r}: {e.strerror or e}") from None
    except MemoryError:
        raise RecordError(f"{str(p)!r} is too large to read in the memory this process may use") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError(f"{str(p)!r} is not UTF-8 text (byte {e.start}); a record is a JSON text file") from None
    except MemoryError:
        raise RecordError(f"{str(p)!r} is too large to read in the memory this process may use") from None




def read_records(path: str | Path) -> list[tuple[int, str]]:
    """The records of the file ``path`` unparsed, ``[(line, text)]`` (see :func:`split_records`); parse one
    with :func:`loads_record_at`.

    Raises:
        RecordError: when the file cannot be read, is not a regular file (a pipe, a device, a folder), is larger
            than :data:`MAX_RECORD_FILE` or than the memory allowed, or is not UTF-8 (the path and reason quoted).
    """
    p = Path(path)
    text = _read_text(p)
    try:
        return split_records(text)
    except MemoryError:
        raise RecordError(f"{str(p)!r} is too large to read in the memory this process may use") from None



def read_record(path: str | Path, game: int | None = None) -> dict[str, Any]:
    """Read and validate the record file ``path`` (UTF-8 JSON); see :func:`loads_record`.

    Args:
        game: for a JSON Lines file of several records (``simulate --out``), which one, from 1; ``None``
            for a file holding one record.

    Raises:
        RecordError: when the file cannot be read or decoded, is not a regular file or is too large (the path and
            reason quoted; see :func:`read_records`), or is malformed (in a JSON Lines file ``where`` starts with
            the line number).
        RecordCountError: when the file holds several records and ``game`` is ``None``, or ``game`` is not
            one of them.
    """
    p = Path(path)
    recs = read_records(p)
    n = len(recs)
    if game is None and n > 1:
        raise RecordCountError(f"{str(p)!r} holds {n} records (JSON Lines, one match a line, lines "
                               f"{recs[0][0]}..{recs[-1][0]}); choose one by its number 1..{n}", n, [ln for ln, _ in recs])
    k = 1 if game is None else game
    if not 1 <= k <= n:
        what = "1 record" if n == 1 else f"{n} records, 1..{n}"
        raise RecordCountError(f"{str(p)!r} has no record {k}: it holds {what}", n, [ln for ln, _ in recs])
    line, text = recs[k - 1]
    return loads_record_at(text, line, n > 1)


