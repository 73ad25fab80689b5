"""Files we write for the user (reports, synthetic corpora): whole or not at all.

A regular file is written to a temporary file beside it and renamed over it, so a full disk, a file
size limit, a permission or a kill never leaves a partial file (nor damages what was there). A
target that is not a regular file (a terminal, a pipe, ``/dev/null``) is written in place: renaming
over a device would replace it. Every failure of the environment is one sentence
(:class:`OutputError`, exit 2), never a traceback.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from seorap.engine.errors import SeorapError
from seorap.engine.errors import why as why  # re-exported
from seorap.engine.safepath import name_problem, unlink
from seorap.engine.untrusted import visible

ENVIRONMENT_ERRNOS = frozenset(
    {
        errno.ENOSPC,
        errno.EDQUOT,
        errno.EFBIG,
        errno.EIO,
        errno.EACCES,
        errno.EPERM,
        errno.EROFS,
        errno.ENOENT,
        errno.ENOTDIR,
        errno.EISDIR,
        errno.ELOOP,
        errno.ENAMETOOLONG,
        errno.EMFILE,
        errno.ENFILE,
        errno.ENXIO,
        errno.ETXTBSY,
        errno.EEXIST,
        errno.EBUSY,
    }
)
"""OSError numbers that describe the user's machine (disk, permissions, limits), not a bug."""


class OutputError(SeorapError):
    """A file could not be written: the disk, a limit or a permission (exit 2)."""


def is_environment(exc: BaseException) -> bool:
    """True for an OSError the user's machine caused (see :data:`ENVIRONMENT_ERRNOS`)."""
    return isinstance(exc, OSError) and exc.errno in ENVIRONMENT_ERRNOS


def _mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_text(path: str | Path, text: str, *, follow_links: bool = True) -> Path:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all; returns the file written (a link is
    followed: the file it names is replaced, the link stays; with ``follow_links=False`` the link
    itself is replaced). Raises :class:`OutputError`, also for a file that belongs to a database
    (its -wal, -shm, -journal), which is never written."""
    # start-up: sqlite_utils loads only when this runs
    from seorap.engine.store.database import database_of

    owner = database_of(path) if follow_links or not os.path.islink(path) else None
    if owner is not None:  # never over a database or its journal, whatever the caller checked
        raise OutputError(f"{path} belongs to the database {owner}; it was left untouched")
    try:  # through links (/dev/stdout is whatever stdout is) unless told not to
        info = os.stat(path) if follow_links else os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {why(exc)}") from None
    data = text.encode("utf-8")
    if not follow_links:  # a link in our place is replaced, never written through
        if info is not None and not (stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode)):
            raise OutputError(f"cannot write {path}: it is not a regular file; left untouched")
        target = Path(os.path.realpath(Path(path).parent)) / Path(path).name
        info = None if info is None or stat.S_ISLNK(info.st_mode) else info
    elif info is not None and not stat.S_ISREG(info.st_mode):
        _write_in_place(path, data)
        return Path(path)
    else:
        target = Path(os.path.realpath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp, stat.S_IMODE(info.st_mode) if info is not None else _mode())
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {why(exc)}; nothing was written") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return target


def _write_in_place(path: str | Path, data: bytes) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
        try:
            write_all(fd, data)
        finally:
            os.close(fd)
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise  # the reader went away: the command line stops quietly
        raise OutputError(f"cannot write {path}: {why(exc)}") from None


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to ``fd``, each write's count checked: a short write is followed
    by the rest, so a full disk or a file size limit raises its OSError (ENOSPC, EFBIG) instead of
    leaving the output cut without a word (Python's buffered files do not always say)."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:
            raise OSError(errno.EIO, "the output took no more bytes")
        view = view[n:]


def write_files(folder: str | Path, files: Iterable[tuple[str, str]]) -> list[Path]:
    """Write each (name, text) into ``folder`` (created if missing), each file whole; a link in the
    folder is replaced, never written through. When the disk, a limit or a permission stops it, the
    files this call created are removed again and :class:`OutputError` says why."""
    # start-up: sqlite_utils loads only when this runs
    from seorap.engine.store.database import database_of

    out = Path(folder)
    owner = database_of(out)
    if owner is not None:  # a folder named x.db-wal would stop SQLite writing x.db
        raise OutputError(f"{folder} is a name SQLite uses for the database {owner}; give another")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the folder {out}: {why(exc)}") from None
    paths: list[Path] = []
    created: list[Path] = []
    try:
        for name, text in files:
            problem = name_problem(name)
            if problem is not None:  # one file directly in the folder, never elsewhere
                raise OutputError(f"cannot write {visible(repr(name))} into {out}: {problem}")
            path = out / name
            existed = os.path.lexists(path)
            write_text(path, text, follow_links=False)
            paths.append(path)
            if not existed:
                created.append(path)
    except OutputError:
        for path in created:
            unlink(path, out)
        raise
    return paths


def append_line(path: str | Path, line: str, name: str = "") -> None:
    """Append one whole line (``line`` ends in a newline) to ``path`` (created when missing) with
    one ``write``: a short write (a file size limit, a full disk) is cut back to the file's earlier
    length, so the file never holds half a line. Refuses a database or one of its sidecars (-wal,
    -shm, -journal, through links). Raises :class:`OutputError` with one sentence, which calls the
    file ``name`` (default: its path)."""
    # start-up: sqlite_utils loads only when this runs
    from seorap.engine.store.database import database_of

    owner = database_of(path)
    if owner is not None:
        raise OutputError(f"{path} belongs to the database {owner}; it was left untouched")
    data = line.encode("utf-8")
    try:  # never blocks: a pipe without a reader fails here instead of waiting for one
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, _mode())
    except OSError as exc:
        raise OutputError(f"cannot write {name or path}: {why(exc)}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a device or a pipe is no ledger
            raise OutputError(f"cannot write {name or path}: it is not a regular file")
        _append_whole(fd, data, name or str(path))
    finally:
        os.close(fd)


def _append_whole(fd: int, data: bytes, path: str) -> None:
    size = os.fstat(fd).st_size
    try:
        written = os.write(fd, data)
    except OSError as exc:
        _cut(fd, size)
        raise OutputError(f"cannot write {path}: {why(exc)}; nothing was added") from None
    if written != len(data):
        _cut(fd, size)
        raise OutputError(
            f"cannot write {path}: only {written} of {len(data)} bytes fit (a full disk or a "
            "file size limit); nothing was added"
        )


def _cut(fd: int, size: int) -> None:
    try:
        os.ftruncate(fd, size)
    except OSError:
        pass  # the write failed whole or the file system refuses even this: nothing more to do
