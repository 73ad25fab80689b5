"""`seorap import`: a public benchmark file turned into a corpus folder (docs/corpus-format.md#imported-sets).

Both datasets ship as one JSON list. The list is read item by item with ijson (a streaming parser:
LongMemEval's ``_S`` file is about 265 MB and ``_M`` several GB, so the whole file is never held in
memory); each item becomes one trajectory file, written as soon as it is read. The source file's
SHA-256 is taken in a first pass and recorded in every trajectory with the dataset version the user
declares (it cannot be told offline). A bad file stops the import with one located sentence
(:class:`DatasetError`); what was already written stays, and the sentence says so.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

import ijson

from seorap.engine.errors import EXIT_INPUT, SeorapError

DATASET_VERSIONS = ("original", "cleaned", "unknown")

_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class DatasetError(SeorapError):
    """The dataset file is not what the importer reads: one located sentence (exit 1)."""

    exit_code = EXIT_INPUT


@dataclass
class ImportResult:
    """What an import wrote: counts for the closing lines of `seorap import`."""

    out: Path
    trajectories: int = 0
    documents: int = 0
    questions: int = 0
    excluded: int = 0
    bytes_written: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    """What was left out, located (an empty session)."""


NOTES = "_notes"
"""The key a converted trajectory carries its notes under; taken off before it is written."""


def sha256_of(path: Path) -> str:
    """The file's SHA-256, read in 1 MB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class _Counting:
    """A binary reader that counts the bytes handed to the parser, to locate a syntax error."""

    def __init__(self, fh: BinaryIO) -> None:
        self._fh = fh
        self.count = 0

    def read(self, size: int = -1) -> bytes:
        data = self._fh.read(size)
        self.count += len(data)
        return data


def items(path: Path) -> Iterator[tuple[int, Any]]:
    """(position, item) for each element of the file's top-level JSON list, one at a time."""
    with open(path, "rb") as fh:
        head = fh.read(4096)
        bom = len(_BOM) if head.startswith(_BOM) else 0
        if head.startswith(b"\x1f\x8b"):
            raise DatasetError(f"{path}: byte 0: gzip-compressed; decompress it first")
        if not head[bom:].lstrip(b" \t\r\n").startswith(b"["):
            raise DatasetError(f"{path}: byte 0: not a JSON list (both datasets are one list)")
        fh.seek(bom)
        reader = _Counting(fh)
        try:
            yield from enumerate(ijson.items(reader, "item", use_float=True))
        except ijson.JSONError as exc:
            raise DatasetError(
                f"{path}: {_where(path, reader.count)}: {_first_line(exc)}"
            ) from None


_BOM = b"\xef\xbb\xbf"

LOCATE_LIMIT = 64 * 1024 * 1024
"""A file up to this size is parsed once more, whole, to name the line and column of a syntax
error (the streaming parser names none); a larger one is located to the bytes read."""


def _where(path: Path, read: int) -> str:
    """Where a syntax error is: ``line 3 column 7`` when the file is small enough to parse whole."""
    if path.stat().st_size <= LOCATE_LIMIT:
        try:
            json.loads(path.read_bytes().decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            return f"byte {exc.start}: not UTF-8 text"
        except json.JSONDecodeError as exc:
            return f"line {exc.lineno} column {exc.colno}: not valid JSON"
    return f"within its first {read} bytes: not valid JSON"


def _first_line(exc: Exception) -> str:
    """The parser's own words, first line only (its message may be bytes)."""
    raw = exc.args[0] if exc.args else ""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    return (text.strip().splitlines() or ["parse error"])[0][:160]


def safe_id(raw: object, where: str) -> str:
    """A dataset id used as a trajectory id and file name: letters, digits, ``.``, ``_``, ``-``."""
    text = str(raw) if isinstance(raw, str | int) and not isinstance(raw, bool) else ""
    if not _SAFE_ID.match(text):
        raise DatasetError(
            f"{where}: id {text[:80]!r} is not a plain name (letters, digits, '.', '_', '-')"
        )
    return text


def answer_text(value: object) -> str:
    """An answer as text: the file may give a number (LoCoMo's ``2022``), kept as written."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def iso_date(raw: object, formats: tuple[str, ...], where: str) -> str:
    """A dataset's date string as ISO (``2023-05-08T13:56``), trying each format in turn."""
    if isinstance(raw, str):
        text = " ".join(raw.split())
        for fmt in formats:
            try:
                return datetime.strptime(text, fmt).isoformat(timespec="minutes")
            except ValueError:
                continue
    raise DatasetError(f"{where}: date {str(raw)[:60]!r} is not in the dataset's date format")


def prepare_out(out: Path) -> None:
    """The output folder, made; one that already holds trajectory files is refused (two corpora
    mixed in one folder would validate as one)."""
    if out.exists() and not out.is_dir():
        raise DatasetError(f"{out}: exists and is not a folder")
    if out.is_dir() and any(out.glob("*.json")):
        raise DatasetError(f"{out}: already holds *.json files; import into an empty folder")
    out.mkdir(parents=True, exist_ok=True)


def write_trajectory(out: Path, trajectory: dict[str, Any], result: ImportResult) -> None:
    """One trajectory file, ``<id>.json``, in the on-disk (camelCase) format; the counts updated."""
    result.notes += trajectory.pop(NOTES, [])
    path = out / f"{trajectory['id']}.json"
    if path.exists():
        raise DatasetError(f"{path}: the id {trajectory['id']!r} occurs twice in the source file")
    text = json.dumps(trajectory, ensure_ascii=False, indent=1) + "\n"
    path.write_text(text, encoding="utf-8")
    result.trajectories += 1
    result.bytes_written += len(text.encode("utf-8"))
    result.documents += len(trajectory["states"])
    for question in trajectory["singleQA"]:
        result.questions += 1
        result.excluded += "excluded" in question
        result.by_kind[kind_label(question)] += 1


def run_import(
    path: Path,
    out: Path,
    convert: Callable[[int, Any, dict[str, Any]], dict[str, Any] | None],
    source: dict[str, Any],
    limit: int | None,
) -> ImportResult:
    """Stream the file's items through ``convert`` (None: the item is left out by ``--types``),
    writing each trajectory; stop after ``limit`` written."""
    prepare_out(out)
    result = ImportResult(out)
    for position, item in items(path):
        if limit is not None and result.trajectories >= limit:
            break
        trajectory = convert(position, item, source)
        if trajectory is not None:
            write_trajectory(out, trajectory, result)
    if result.trajectories == 0:
        raise DatasetError(f"{path}: nothing to import (an empty list, or --types matched nothing)")
    return result


def source_block(dataset: str, path: Path, version: str) -> dict[str, Any]:
    """The ``source`` object every imported trajectory carries."""
    if version not in DATASET_VERSIONS:
        raise DatasetError(f"--dataset-version {version!r}: one of {', '.join(DATASET_VERSIONS)}")
    return {
        "dataset": dataset,
        "file": path.name,
        "sha256": sha256_of(path),
        "datasetVersion": version,
    }


def field_of(item: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``item[key]`` of the given type, or one located sentence."""
    if not isinstance(item, dict):
        raise DatasetError(f"{where}: not a JSON object")
    value = item.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        got = "missing" if key not in item else f"a {type(value).__name__}"
        raise DatasetError(f"{where}: {key!r} is {got}, not the dataset's format")
    return value


def kind_label(question: dict[str, Any]) -> str:
    """``1 multi-hop``, ``abstention (temporal-reasoning)``, ``knowledge-update``."""
    kind, name = str(question.get("kind", "?")), question.get("kindName")
    if not name or name == kind:
        return kind
    return name if name.startswith(kind) else f"{kind} {name}"
