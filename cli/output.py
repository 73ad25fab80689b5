"""Standard output whose every write is checked.

Python's buffered stdout can lose the tail of a short write without a word (a file size limit:
``seorap report > file`` under ``ulimit -f`` exited 0 with the file cut). :func:`install` puts a
text stream over a raw writer that writes every byte or raises the OSError (EFBIG, ENOSPC, EPIPE),
which the command line turns into one sentence (exit 2) or, for a closed pipe, a quiet stop.
"""

from __future__ import annotations

import io
import os
import sys

from seorap.engine.outfile import write_all


class CheckedRaw(io.RawIOBase):
    """A raw writer over a file descriptor: every write whole, or its OSError."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(data).cast("B")
        write_all(self.fd, view.tobytes())
        return len(view)


def install() -> None:
    """Replace ``sys.stdout`` with a checked stream of the same encoding, error handler and line
    buffering (nothing when stdout is closed or not a file)."""
    old = sys.stdout
    try:
        fd = old.fileno()
    except (AttributeError, OSError, ValueError):
        return
    old.flush()
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(CheckedRaw(fd)),
        encoding=old.encoding,
        errors=old.errors,
        line_buffering=bool(getattr(old, "line_buffering", False)),
    )
