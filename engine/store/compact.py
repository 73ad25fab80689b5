"""Compact storage: every long text stored once, raw model replies compressed (docs/store.md,
"Compact storage").

Four tables used to repeat the same texts in every row (a fact's text in every decision's candidate
list and every retrieval ranking, the same system prompt and JSON schema in every model call, the
same fact list in every claim verdict). They are now stored as ``<name>_data`` tables holding
references into ``texts``; a view under the old name (``calls``, ``decisions``, ``verdicts``,
``retrievals``) shows every row whole, so readers (the app, the report, sqlite-utils, Datasette)
see the same columns as before. Writers go through :func:`insert`.

- ``texts(id, hash, text)``: each distinct text once; ``hash`` is the first 8 bytes of its BLAKE2b.
- In JSON lists of objects (``candidates``, ``before``, ``after``, ``ranking``) a ``"text"`` value is
  the id of its text, a fact id of the row's own run and trajectory is kept as ``/f0003`` and an
  object with the usual keys (``LIST_KEYS``) is kept as the array of its values; the view puts all
  of it back. Retrieval scores are kept to 6 decimal places.
- ``calls_data.messages``: each message's ``content`` is a list of text ids, one per line (prompts
  repeat their lines: the system prompt, the payload's candidate facts); ``schema_id`` and
  ``options_id`` refer to texts; ``raw_z`` is the reply compressed with zlib (``parsed`` is kept only
  when it differs from the reply's own JSON, i.e. when the reply needed repair). The view shows
  ``raw_z``: read a reply with :func:`unzip` (or the sqlite-utils recipe in docs/store.md).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from typing import Any

from sqlite_utils import Database

from seorap.engine.store import damage
from seorap.engine.store.connstate import state

COMPACT = (
    "calls",
    "decisions",
    "verdicts",
    "retrievals",
    "observations",
    "facts",
    "fact_versions",
    "answers",
)
"""Logical tables stored compactly (a view of that name over ``<name>_data``)."""

SCOPED = ("observations", "facts", "fact_versions", "decisions", "verdicts", "answers")
"""Tables whose ``run_id`` and ``trajectory_id`` are stored once, in ``scopes``: the data table holds
``scope`` (an id into ``scopes``), and ids of the row's own run and trajectory are kept relative
(``/p003/o002``). Their views also show ``rowid`` (the stored row's: load order)."""

TEXT_COLUMNS: dict[str, tuple[str, ...]] = {
    "observations": ("text", "what", "who", "author", "author_role"),
    "facts": ("text", "authors"),
    "fact_versions": ("text", "authors"),
    "decisions": ("model_text", "reason"),
    "verdicts": ("question", "expected", "rationale", "created_at"),
    "answers": ("question", "answer"),
}
"""Columns holding a text id (an integer into ``texts``) for a non-empty text; the view shows the
text. Declared without a type (BLOB affinity), so a text that looks like a number stays text."""

ID_COLUMNS: dict[str, tuple[str, ...]] = {
    "observations": ("id",),
    "facts": ("id",),
    "fact_versions": ("fact_id", "observation_id", "successor_id"),
    "decisions": ("id", "observation_id", "fact_id"),
    "verdicts": ("best_fact",),
}
"""Columns holding an id, kept relative to the row's own run and trajectory when it is one of theirs."""

ID_LISTS = {
    ("facts", "observation_ids"),
    ("answers", "context_ids"),
    ("retrievals", "answer_fact_ids"),
}
"""JSON lists of ids, each kept relative like :data:`ID_COLUMNS`."""

SCOPE_KEYS: dict[str, tuple[str, ...]] = {
    "observations": ("id",),
    "facts": ("id",),
    "fact_versions": ("fact_id", "version"),
    "decisions": ("id",),
}
"""Unique within a scope (the stored ids are relative); verdicts and answers keep their global ``id``."""


def unzip(blob: bytes | None, run_id: object = None) -> str | None:
    """A compressed raw reply as text, bounded (engine/store/damage.py: a damaged or oversized
    reply is :class:`~engine.store.damage.DamagedRow`, naming the call log of ``run_id``)."""
    return None if blob is None else damage.unzip(blob, run_id)


def _zip(text: str | None) -> bytes | None:
    return None if text is None else zlib.compress(text.encode("utf-8"), 9)


def _hash(text: str) -> int:
    return int.from_bytes(
        hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big", signed=True
    )


# ---- texts ------------------------------------------------------------------------------------------
def _cache(db: Database) -> dict[str, int]:
    return state(db).text_ids


def forget_texts(db: Database) -> None:
    """Drop the connection's text-id and scope caches (after a rollback: new ids may be gone)."""
    state(db).forget_ids()


def text_id(db: Database, text: str) -> int:
    """The id of ``text`` in ``texts``, inserting it when new."""
    cache = _cache(db)
    found = cache.get(text)
    if found is not None:
        return found
    h = _hash(text)
    while True:
        # OR IGNORE: another connection (the call log's) may have stored the same text meanwhile
        db.execute("INSERT OR IGNORE INTO texts (hash, text) VALUES (?, ?)", [h, text])
        row = db.execute("SELECT id, text FROM texts WHERE hash = ?", [h]).fetchone()
        if row[1] == text:
            new_id: int = row[0]
            break
        h = h + 1 if h < 2**63 - 1 else -(2**63)  # a collision: the next free slot
    if len(cache) > 200_000:
        cache.clear()
    cache[text] = new_id
    return new_id


def _scope_cache(db: Database) -> dict[tuple[str | None, str | None], int]:
    return state(db).scope_ids


def scope_id(db: Database, run_id: str | None, trajectory_id: str | None) -> int:
    """The id of (run, trajectory) in ``scopes``, inserting it when new."""
    cache = _scope_cache(db)
    found = cache.get((run_id, trajectory_id))
    if found is not None:
        return found
    db.execute(
        "INSERT OR IGNORE INTO scopes (run_id, trajectory_id) VALUES (?, ?)",
        [run_id, trajectory_id],
    )
    new_id: int = db.execute(
        "SELECT id FROM scopes WHERE run_id IS ? AND trajectory_id IS ? ORDER BY id LIMIT 1",
        [run_id, trajectory_id],
    ).fetchone()[0]
    cache[(run_id, trajectory_id)] = new_id
    return new_id


def _relative(value: Any, prefix: str) -> Any:
    """``RUN/TRAJ/f0003`` -> ``/f0003`` for the row's own run and trajectory; an id that itself starts
    with "/" gets a second one (the view keeps it whole)."""
    if isinstance(value, str) and value.startswith(prefix):
        return value[len(prefix) - 1 :]
    if isinstance(value, str) and value.startswith("/"):
        return "/" + value
    return value


LIST_KEYS: dict[tuple[str, str], tuple[str, ...]] = {
    ("decisions", "candidates"): ("fact_id", "label", "similarity", "text"),
    ("decisions", "before"): (
        "authors",
        "confidence",
        "id",
        "status",
        "text",
        "updated_at",
        "version",
    ),
    ("decisions", "after"): (
        "authors",
        "confidence",
        "id",
        "status",
        "text",
        "updated_at",
        "version",
    ),
    ("retrievals", "ranking"): ("fact_id", "text", "bm25", "bm25_norm", "dense", "hybrid", "rank"),
}
"""The usual keys of each list column's objects, in order: an object with exactly these is stored as
an array of its values (the view names them again); any other object is stored as an object."""

ROUNDED = {("retrievals", "ranking"): ("bm25", "bm25_norm", "dense", "hybrid")}
"""Scores stored to 6 decimal places (ranks and order are computed before, so they are exact)."""


def _compact_list(
    db: Database, value: str | None, prefix: str, table: str = "", column: str = ""
) -> str | None:
    """A JSON list of objects with each ``text`` replaced by its id, own-run fact ids shortened to
    ``/f0003`` and objects with the usual keys stored as arrays."""
    if value in (None, ""):
        return value
    items = json.loads(value)
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise ValueError("compact storage expects a JSON list of objects")
    keys = LIST_KEYS.get((table, column))
    rounded = ROUNDED.get((table, column), ())
    out = []
    for item in items:
        if isinstance(item.get("text"), str):
            item["text"] = text_id(db, item["text"])
        for key in ("fact_id", "id"):
            v = item.get(key)
            if isinstance(v, str) and v.startswith(prefix):
                item[key] = v[len(prefix) - 1 :]  # keeps the leading "/"
            elif isinstance(v, str) and v.startswith("/"):
                item[key] = "/" + v  # an id that itself starts with "/" (kept whole by the view)
        for key in rounded:
            if isinstance(item.get(key), float):
                item[key] = round(item[key], 6)
        out.append([item[k] for k in keys] if keys and tuple(item) == keys else item)
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"))


def _compact_messages(db: Database, value: str | None) -> str | None:
    if value is None:
        return None
    messages = json.loads(value)
    for m in messages:
        if isinstance(m.get("content"), str):  # a system prompt whole, other messages by line
            m["content"] = (
                text_id(db, m["content"])
                if m.get("role") == "system"
                else [text_id(db, line) for line in m["content"].split("\n")]
            )
    return json.dumps(messages, ensure_ascii=False, separators=(",", ":"))


def _same_json(parsed: str | None, raw: str | None) -> bool:
    if parsed is None or raw is None:
        return False
    try:
        same: bool = json.loads(parsed) == json.loads(raw)
        return same
    except (ValueError, RecursionError):
        return False


def compact_row(db: Database, table: str, row: dict) -> dict:
    """One logical row as stored in ``<table>_data``."""
    out = dict(row)
    if table == "calls":
        out["messages"] = _compact_messages(db, row.get("messages"))
        schema, options = out.pop("schema", None), out.pop("options", None)
        out["schema_id"] = None if schema is None else text_id(db, schema)
        out["options_id"] = None if options is None else text_id(db, options)
        raw = out.pop("raw", None)
        out["raw_z"] = _zip(raw)
        if _same_json(out.get("parsed"), raw):
            out["parsed"] = None
        return out
    prefix = f"{row.get('run_id')}/{row.get('trajectory_id')}/"
    if table in SCOPED:
        for key in ID_COLUMNS.get(table, ()):
            if key in out:
                out[key] = _relative(out[key], prefix)
        for key in TEXT_COLUMNS.get(table, ()):
            if isinstance(out.get(key), str) and out[key]:
                out[key] = text_id(db, out[key])
        out = {
            "scope": scope_id(db, out.pop("run_id", None), out.pop("trajectory_id", None)),
            **out,
        }
    for t, key in ID_LISTS:
        if t == table and out.get(key) not in (None, ""):
            items = json.loads(out[key])
            if isinstance(items, list):
                out[key] = json.dumps(
                    [_relative(i, prefix) for i in items], ensure_ascii=False, separators=(",", ":")
                )
    if table == "decisions":
        for key in ("candidates", "before", "after"):
            out[key] = _compact_list(db, row.get(key), prefix, table, key)
    elif table == "retrievals":
        out["ranking"] = _compact_list(db, row.get("ranking"), prefix, table, "ranking")
    elif table == "verdicts":
        candidate = out.pop("candidate", None)
        out["candidate_id"] = None if candidate is None else text_id(db, candidate)
    return out


def insert_one(db: Database, table: str, row: dict) -> int:
    """Insert one logical row; returns its rowid."""
    stored = compact_row(db, table, row)
    names = ", ".join(f"[{c}]" for c in stored)
    marks = ", ".join("?" for _ in stored)
    rowid = db.execute(
        f"INSERT INTO [{table}_data] ({names}) VALUES ({marks})", list(stored.values())
    ).lastrowid
    assert rowid is not None  # set by every INSERT
    return rowid


def is_compact(db: Database, table: str) -> bool:
    row = db.execute("SELECT type FROM sqlite_master WHERE name = ?", [table]).fetchone()
    return row is not None and row[0] == "view"


def data_table(db: Database, table: str) -> str:
    """Where ``table``'s rows are stored: ``<table>_data`` for a compact table, else itself."""
    return f"{table}_data" if is_compact(db, table) else table


def insert(db: Database, table: str, rows: Iterable[dict], *, replace: bool = False) -> None:
    """Insert logical rows of a compact table (one prepared statement per column set)."""
    rows = [compact_row(db, table, r) for r in rows]
    if not rows:
        return
    verb = "INSERT OR REPLACE" if replace else "INSERT"
    for _columns, names, marks, values in _by_columns(rows):
        db.conn.executemany(f"{verb} INTO [{table}_data] ({names}) VALUES ({marks})", values)


def _by_columns(rows: list[dict]) -> Iterator[tuple[tuple[str, ...], str, str, list[list]]]:
    """Rows grouped by their column set, for one prepared statement each: (columns, the quoted
    column list, the placeholders, the rows' values in column order)."""
    groups: dict[tuple[str, ...], list[dict]] = {}
    for r in rows:
        groups.setdefault(tuple(r), []).append(r)
    for columns, group in groups.items():
        yield (
            columns,
            ", ".join(f"[{c}]" for c in columns),
            ", ".join("?" for _ in columns),
            [[r[c] for c in columns] for r in group],
        )


def upsert(db: Database, table: str, rows: Iterable[dict]) -> None:
    """Insert logical rows, or update the stored row with the same key (its rowid, i.e. load
    order, kept): ``facts`` rows are written again whenever a fact changes."""
    rows = [compact_row(db, table, r) for r in rows]
    if not rows:
        return
    key = ("scope", *SCOPE_KEYS[table]) if table in SCOPE_KEYS else ("id",)
    for columns, names, marks, values in _by_columns(rows):
        updates = ", ".join(f"[{c}] = excluded.[{c}]" for c in columns if c not in key)
        db.conn.executemany(
            f"INSERT INTO [{table}_data] ({names}) VALUES ({marks}) ON CONFLICT "
            f"({', '.join(key)}) DO UPDATE SET {updates}",
            values,
        )


def delete_where(db: Database, table: str, where: str, params: list) -> int:
    """``DELETE FROM table WHERE ...`` (logical columns) on the stored rows; returns the count."""
    if table in SCOPED and is_compact(db, table) and has_scope(db, table):
        return db.execute(
            f"DELETE FROM [{table}_data] WHERE rowid IN (SELECT rowid FROM [{table}] "
            f"WHERE {where})",
            params,
        ).rowcount
    return db.execute(f"DELETE FROM [{data_table(db, table)}] WHERE {where}", params).rowcount


def count_where(db: Database, table: str, where: str, params: list) -> int:
    """How many stored rows :func:`delete_where` with the same arguments would delete."""
    if table in SCOPED and is_compact(db, table) and has_scope(db, table):
        sql = f"SELECT count(*) FROM [{table}] WHERE {where}"
    else:
        sql = f"SELECT count(*) FROM [{data_table(db, table)}] WHERE {where}"
    n: int = db.execute(sql, params).fetchone()[0]
    return n


def has_scope(db: Database, table: str) -> bool:
    return any(r[1] == "scope" for r in db.execute(f"PRAGMA table_info([{table}_data])"))


def raw_reply(row: dict[str, Any]) -> str | None:
    """The raw reply of a ``calls`` row, whichever form it has."""
    if "raw_z" in row:
        return unzip(row["raw_z"], row.get("run_id"))
    return row.get("raw")


def all_texts_sql() -> str:
    return "SELECT count(*), coalesce(sum(length(CAST(text AS BLOB))), 0) FROM texts"


def unzip_function(conn: sqlite3.Connection) -> None:
    """Register ``unzip(raw_z)`` on a connection (so SQL can read replies)."""
    conn.create_function("unzip", 1, unzip, deterministic=True)
