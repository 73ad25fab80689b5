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
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
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
        with open(path, "wb") as fh:
            fh.write(data)
            fh.flush()
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise  # the reader went away: the command line stops quietly
        raise OutputError(f"cannot write {path}: {why(exc)}") from None


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
            path = out / name
            existed = os.path.lexists(path)
            write_text(path, text, follow_links=False)
            paths.append(path)
            if not existed:
                created.append(path)
    except OutputError:
        for path in created:
            path.unlink(missing_ok=True)
        raise
    return paths
