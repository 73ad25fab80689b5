"""A recorded run carried as one compact file: exported from the database it was written in,
imported into another (the demo's) on first use (docs/demo.md, "The recorded run").

The file is gzip-compressed JSON lines. The first line is the header: the format and its version,
the run id, the ``label`` (the model, its size, the machine and the date, shown wherever the run
appears) and how many rows each table holds. Every further line is one logical row, ``{"t": table,
"r": row}``, as the views show it (engine/store/compact.py): the run's own rows of every table
that has a ``run_id`` (its ``runs`` row first, then documents, observations, facts, decisions,
verdicts, scores, its call log with replies in clear...), and the vectors its embedder cached
(``embeddings``; blobs in base64), so a replay and its scoring need neither model nor embedder.

Importing inserts the rows through the same writers as a run does, in one transaction, and is a
no-op when the run is already there; a file that cannot be read is one :class:`RecordingError`.
"""

from __future__ import annotations

import base64
import gzip
import json
import sqlite3
import zlib
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from seorap.engine.corpus.bundled import bundled_corpus
from seorap.engine.store import compact
from seorap.engine.store.queries import holdings
from seorap.engine.store.schema import all_tables

SHIPPED = Path(__file__).resolve().parents[2] / "fixtures" / "recordings"
"""The recordings that ship inside the package (``seorap/fixtures/recordings`` once installed)."""

NAME = "recorded"
"""What ``seorap demo --replay recorded`` names: the shipped recording."""

FORMAT = "seorap-recording"
VERSION = 1
LABEL_KEYS = ("model", "size", "machine", "date")
"""What a recording's label says, in this order (each a short text)."""

_NOT_RUN_ROWS = {"writers"}
"""Tables with a ``run_id``-like column that are not a run's content."""


class RecordingError(ValueError):
    """A recording file that cannot be read or imported (one sentence for the user)."""


def label_text(label: dict[str, Any] | None) -> str:
    """'recorded: qwen2.5-coder:0.5b (0.5B, Q4_K_M, 491 MB), 2-core x86_64 CPU, 2026-12-03'."""
    if not label:
        return ""
    model, size, machine, date = (str(label.get(k) or "?") for k in LABEL_KEYS)
    return f"recorded: {model} ({size}), {machine}, {date}"


def recording_label(manifest: str | dict | None) -> dict[str, Any] | None:
    """The ``recording`` block of a run's manifest (set when the run was imported from a
    recording), or None."""
    if isinstance(manifest, str):
        try:
            manifest = json.loads(manifest or "{}")
        except ValueError:
            return None
    block = (manifest or {}).get("recording") if isinstance(manifest, dict) else None
    return block if isinstance(block, dict) else None


def recordings(runs: list[dict]) -> dict[str, str]:
    """run id -> its recording's label text (:func:`label_text`), for the runs rows given that
    were imported from a recording or replay one (``{run_id}~label``)."""
    own = {r["run_id"]: label_text(recording_label(r.get("manifest"))) for r in runs}
    out = {}
    for r in runs:
        text = own.get(r["run_id"]) or own.get(r["run_id"].split("~", 1)[0]) or ""
        if text:
            out[r["run_id"]] = text
    return out


def recording_of(db: Database, run_id: str) -> str:
    """The recording label of one run (or of the run it replays), '' when it is none."""
    base = run_id.split("~", 1)[0]
    rows = list(
        db.query("SELECT run_id, manifest FROM runs WHERE run_id IN (?, ?)", [run_id, base])
    )
    return recordings(rows).get(run_id, "")


def _run_tables(db: Database) -> list[str]:
    """The logical tables (views of compact ones) holding a run's rows, ``runs`` first."""
    names = [*all_tables(), "call_counters", "phases"]
    out = [
        name
        for name in names
        if name not in _NOT_RUN_ROWS
        and "run_id" in {r[1] for r in db.execute(f"PRAGMA table_info([{name}])")}
    ]
    out.sort(key=lambda n: (n != "runs", n != "documents", n))
    return out


def _rows(db: Database, table: str, run_id: str) -> list[dict]:
    rows = []
    for row in db.query(f"SELECT * FROM [{table}] WHERE run_id = ? ORDER BY rowid", [run_id]):
        row.pop("rowid", None)
        if table == "calls":
            row.pop("id", None)  # the importing database numbers its own calls
            row["raw"] = compact.raw_reply(row)
            row.pop("raw_z", None)
        if table == "holdings":  # its text ids are this database's: the texts travel instead
            pairs = holdings.of_trajectory(db, run_id, row["trajectory_id"], row["scoring"])
            row["pairs"] = [[p["claim"], p["text"], p["holds"], p["rules"]] for p in pairs]
        rows.append(row)
    return rows


def _embedders(db: Database, run_id: str) -> list[str]:
    names = {
        r[0]
        for r in db.execute("SELECT DISTINCT embedder FROM retrievals WHERE run_id = ?", [run_id])
        if r[0]
    }
    manifest = json.loads(db.table("runs").get(run_id)["manifest"] or "{}")
    info = (manifest.get("models") or {}).get("embedder") or {}
    if isinstance(info, dict) and info.get("backend"):
        names.add(info["backend"])
    if info.get("name"):
        names.add(info["name"])
    return sorted(names)


def export_run(
    db: Database, run_id: str, out: Path, label: dict[str, Any], *, corpus: str | None = None
) -> dict[str, int]:
    """Write ``run_id`` of ``db`` (and the vectors its embedder cached in ``db``: export from the
    database the run was written in) to ``out``; ``label`` names the model, its size, the machine
    and the date; ``corpus`` replaces the corpus path stored in the run (a bundled corpus's name, so
    the imported run opens on the installed copy). Returns the row count per table."""
    missing = [k for k in LABEL_KEYS if not label.get(k)]
    if missing:
        raise RecordingError(f"the recording's label lacks {', '.join(missing)}")
    lines: list[tuple[str, dict]] = []
    for table in _run_tables(db):
        for row in _rows(db, table, run_id):
            if table == "runs":
                manifest = json.loads(row["manifest"] or "{}")
                manifest["recording"] = dict(label)
                if corpus:
                    row["corpus"] = manifest["corpus"] = corpus
                row["manifest"] = json.dumps(manifest, ensure_ascii=False)
            lines.append((table, row))
    if not lines or lines[0][0] != "runs":
        raise RecordingError(f"no run {run_id!r} in the database")
    names = _embedders(db, run_id)
    if names and db["embeddings"].exists():
        marks = ",".join("?" * len(names))
        for row in db.query(
            f"SELECT * FROM embeddings WHERE embedder IN ({marks}) ORDER BY embedder, text_hash",
            names,
        ):
            row["vector"] = base64.b64encode(row["vector"]).decode("ascii")
            lines.append(("embeddings", row))
    counts: dict[str, int] = {}
    for table, _ in lines:
        counts[table] = counts.get(table, 0) + 1
    header = {"format": FORMAT, "version": VERSION, "run_id": run_id, "label": label}
    header["counts"] = counts
    out.parent.mkdir(parents=True, exist_ok=True)
    body = "\n".join(
        json.dumps(x, ensure_ascii=False, sort_keys=True)
        for x in [header, *({"t": t, "r": r} for t, r in lines)]
    )
    # no name, mtime 0: the same run exports to the same bytes
    with open(out, "wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as gz:
        gz.write(body.encode("utf-8") + b"\n")
    return counts


def read_recording(path: Path) -> tuple[dict[str, Any], list[tuple[str, dict]]]:
    """The header and the rows of a recording file; any damage is one :class:`RecordingError`."""
    where = f"recording {path}"
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            lines = [json.loads(line) for line in fh if line.strip()]
    except FileNotFoundError:
        raise RecordingError(f"{where} does not exist") from None
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError) as exc:
        raise RecordingError(f"{where} cannot be read (damaged?): {exc}") from None
    header = lines[0] if lines and isinstance(lines[0], dict) else {}
    if header.get("format") != FORMAT:
        raise RecordingError(f"{where} is not a seorap recording")
    if header.get("version") != VERSION:
        raise RecordingError(f"{where} has format version {header.get('version')}, not {VERSION}")
    rows: list[tuple[str, dict]] = []
    counts: dict[str, int] = {}
    for n, line in enumerate(lines[1:], start=2):
        if not (isinstance(line, dict) and isinstance(line.get("r"), dict) and line.get("t")):
            raise RecordingError(f"{where}, line {n}: not a table row")
        rows.append((str(line["t"]), line["r"]))
        counts[line["t"]] = counts.get(line["t"], 0) + 1
    if counts != header.get("counts"):
        raise RecordingError(f"{where} is incomplete: its rows do not match its header's counts")
    if not rows or rows[0][0] != "runs" or rows[0][1].get("run_id") != header.get("run_id"):
        raise RecordingError(f"{where} does not start with its run")
    return header, rows


def _locate_corpus(run: dict) -> None:
    """A run recorded on a bundled corpus names it by its short name: point it at the installed
    copy (scoring and the app load the corpus from the run's row)."""
    name = run.get("corpus") or ""
    found = bundled_corpus(name) if name and not Path(name).is_absolute() else None
    if found is None:
        return
    run["corpus"] = str(found)
    manifest = json.loads(run.get("manifest") or "{}")
    manifest["corpus"] = str(found)
    run["manifest"] = json.dumps(manifest, ensure_ascii=False)


def _keep_scope(run: dict, rows: list[tuple[str, dict]]) -> None:
    """A recording made before runs kept their scope: the trajectories it wrote are its scope (the
    app lists only those, not a "not scored" row for every other trajectory of the corpus)."""
    manifest = json.loads(run.get("manifest") or "{}")
    if "scope" in manifest:
        return
    wrote = {r.get("trajectory_id") for table, r in rows if table == "documents"}
    corpus = manifest.get("trajectories") or []
    manifest["scope"] = None if wrote >= set(corpus) else [t for t in corpus if t in wrote]
    run["manifest"] = json.dumps(manifest, ensure_ascii=False)


def import_recording(db: Database, path: Path) -> tuple[str, bool]:
    """Insert the recording at ``path`` into ``db`` (writable, schema current); returns (run id,
    whether it was imported now). A run already there is left alone (importing twice is a no-op)."""
    header, rows = read_recording(path)
    run_id = header["run_id"]
    if db.execute("SELECT 1 FROM runs WHERE run_id = ?", [run_id]).fetchone():
        return run_id, False
    have = {
        r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
    }
    unknown = sorted({t for t, _ in rows} - have)
    if unknown:
        raise RecordingError(f"recording {path} has rows of unknown tables: {', '.join(unknown)}")
    _locate_corpus(rows[0][1])
    _keep_scope(rows[0][1], rows)
    by_table: dict[str, list[dict]] = {}
    for table, row in rows:
        by_table.setdefault(table, []).append(row)
    try:
        with db.conn:  # one transaction: a recording is there whole or not at all
            for table, items in by_table.items():
                if table == "embeddings":
                    for r in items:
                        r["vector"] = base64.b64decode(r["vector"])
                    db.table("embeddings").insert_all(items, replace=True)
                elif table == "holdings":
                    for r in items:
                        pairs = [
                            {"claim": c, "text": t, "holds": h, "rules": rule}
                            for c, t, h, rule in r["pairs"]
                        ]
                        holdings.replace(db, r["run_id"], r["trajectory_id"], r["scoring"], pairs)
                elif compact.is_compact(db, table):
                    compact.insert(db, table, items)
                else:
                    db.table(table).insert_all(items)
    except (sqlite3.Error, ValueError, KeyError, TypeError) as exc:
        compact.forget_texts(db)  # the rolled-back texts' ids are gone
        raise RecordingError(f"recording {path} could not be imported: {exc}") from None
    return run_id, True


def shipped_recordings() -> list[Path]:
    """The recording files that ship with the package, by name."""
    return sorted(SHIPPED.glob("*.jsonl.gz")) if SHIPPED.is_dir() else []


def import_shipped(db: Database) -> list[str]:
    """Import every shipped recording not yet in ``db`` (the demo's database, on first use);
    returns the run ids of the shipped recordings. The package's files are only read."""
    return [import_recording(db, path)[0] for path in shipped_recordings()]


def recorded_runs(db: Database) -> list[str]:
    """Run ids of ``db`` imported from a recording (not their replays), in run order."""
    return [
        r["run_id"]
        for r in db.query("SELECT run_id, manifest FROM runs ORDER BY created_at, rowid")
        if "~" not in r["run_id"] and recording_label(r["manifest"])
    ]
