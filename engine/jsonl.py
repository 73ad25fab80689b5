"""Reading a JSON Lines file a person gives us: streamed, bounded and interruptible.

The file is read one line at a time with a bound on each line, so memory stays small whatever the
file is (``/dev/zero`` has no line end at all: it is refused after the first megabyte), Ctrl+C is
seen between reads, and a line nested too deeply for the parser is a located problem, not a crash.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_LINE_BYTES = 1024 * 1024
"""The longest line read (one JSON object per line is far smaller)."""

MAX_PROBLEMS = 1000
"""A file with more bad lines than this is not the kind of file asked for: reading stops."""


@dataclass(frozen=True)
class Line:
    """One non-blank line: its number and either its JSON value or the problem with it."""

    number: int
    value: Any = None
    problem: str | None = None


class LineTooLong(ValueError):
    """A line longer than :data:`MAX_LINE_BYTES`: the file is not read further."""


def read_lines(path: str | Path, max_line: int = MAX_LINE_BYTES) -> Iterator[Line]:
    """Every non-blank line of ``path`` parsed as JSON, in order. A line that is not UTF-8 or not
    JSON (or nested too deeply) comes back with its ``problem``; a line longer than ``max_line``
    raises :class:`LineTooLong` (located). ``OSError`` from opening the file propagates."""
    with open(path, "rb") as fh:
        number = 0
        while True:
            raw = fh.readline(max_line + 1)
            if not raw:
                return
            number += 1
            if len(raw) > max_line and not raw.endswith(b"\n"):
                raise LineTooLong(
                    f"{path}:{number}: line longer than {max_line // 1024} KB; one JSON object "
                    "per line is far smaller (is this the right file?)"
                )
            if not raw.strip():
                continue
            yield _parse(path, number, raw)


def _parse(path: str | Path, number: int, raw: bytes) -> Line:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Line(number, problem=f"{path}:{number}: not UTF-8 text (byte {exc.start})")
    try:
        return Line(number, value=json.loads(text))
    except json.JSONDecodeError as exc:
        return Line(number, problem=f"{path}:{number}: not a JSON object ({exc.msg})")
    except RecursionError:
        return Line(number, problem=f"{path}:{number}: JSON nested too deeply")
