"""TOML files a person writes (configs, variants), with errors located as ``FILE:LINE: key: message``.

The standard parser gives a position only for syntax errors; for a wrong key or value the line is
found here by looking for the key under its ``[section]``. An unknown key that belongs to another
section gets a suggestion ("put it under [models]").
"""

from __future__ import annotations

import difflib
import os
import re
import stat
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from seorap.engine.errors import ConfigError, why

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

MAX_TOML_BYTES = 1024 * 1024


def load_toml(path: str | Path) -> tuple[dict, str]:
    """(data, text) of a TOML file; ConfigError (located) when it cannot be read or parsed."""
    path = Path(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe or a device could block or never end
            raise ConfigError(f"{path}: not a regular file (a pipe, a device); give a TOML file")
        with open(path, "rb") as fh:
            raw = fh.read(MAX_TOML_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {why(exc)}") from None
    if len(raw) > MAX_TOML_BYTES:
        raise ConfigError(f"{path}: larger than 1 MB; a settings file is far smaller")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"{path}:{line}: not UTF-8 text (byte {exc.start}); save the file as UTF-8"
        ) from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        where = f":{match.group(1)}" if match else ""
        raise ConfigError(f"{path}{where}: TOML syntax: {message}") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply") from None


def key_line(text: str, loc: Iterable) -> int | None:
    """The 1-based line that sets the key at ``loc`` (('models', 'judge') or ('seed',)), if any."""
    parts = [str(p) for p in loc if not isinstance(p, int)]
    if not parts:
        return None
    section: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        header = re.match(r"^\[+\s*([^\]]+?)\s*\]+", stripped)
        if header:
            section = [p.strip().strip('"') for p in header.group(1).split(".")]
            if section == parts:  # the section itself is the problem
                return n
            continue
        key = re.match(r'^("?)([A-Za-z0-9_.\-]+)\1\s*=', stripped)
        if key:
            full = section + [p.strip() for p in key.group(2).split(".")]
            if full == parts[: len(full)] and len(full) >= len(parts):
                return n
    return None


def validation_error(
    path: str | Path, text: str, exc: ValidationError, sections: dict[str, set[str]] | None = None
) -> ConfigError:
    """Every problem of a failed model validation as ``FILE:LINE: key: message`` lines.
    ``sections``: {section: its keys} for suggesting where a misplaced key belongs."""
    lines = []
    for error in exc.errors():
        loc = [p for p in error["loc"] if p != "__root__"]
        key = ".".join(str(p) for p in loc) or "(file)"
        line = key_line(text, loc)
        message = _message(error, loc, sections or {})
        lines.append(f"{path}{f':{line}' if line else ''}: {key}: {message}")
    return ConfigError("\n".join(lines)) if len(lines) == 1 else _many(lines)


def _many(lines: list[str]) -> ConfigError:
    error = ConfigError(lines[0])
    error.problems = lines
    error.summary = f"{len(lines)} problems in the settings file (listed above)"
    return error


def _message(error: ErrorDetails, loc: list[str | int], sections: dict[str, set[str]]) -> str:
    if error["type"] == "extra_forbidden":
        name = str(loc[-1]) if loc else ""
        homes = [
            s for s, keys in sections.items() if name in keys and s != ".".join(map(str, loc[:-1]))
        ]
        if homes:
            home = homes[0]
            return (
                f"unknown key here; it belongs under [{home}]"
                if home
                else "unknown key in this section; it is a top-level setting (put it before the "
                "first [section])"
            )
        here = sections.get(".".join(map(str, loc[:-1])), set())
        close = difflib.get_close_matches(name, sorted(here), n=1)
        return f"unknown key; did you mean {close[0]!r}?" if close else "unknown key"
    if error["type"] == "missing":
        return "required key is missing"
    return error["msg"]
