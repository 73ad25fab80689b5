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
from typing import Any, Iterable

COMPACT = ("calls", "decisions", "verdicts", "retrievals")
"""Logical tables stored compactly (a view of that name over ``<name>_data``)."""


def unzip(blob: bytes | None) -> str | None:
    """A compressed raw reply as text."""
    return None if blob is None else zlib.decompress(blob).decode("utf-8")


def _zip(text: str | None) -> bytes | None:
    return None if text is None else zlib.compress(text.encode("utf-8"), 9)


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big",
                          signed=True)


# ---- texts ------------------------------------------------------------------------------------------
def _cache(db) -> dict[str, int]:
    cache = getattr(db, "_text_ids", None)
    if cache is None:
        cache = {}
        db._text_ids = cache
    return cache


def forget_texts(db) -> None:
    """Drop the connection's text-id cache (after a rollback: its new ids may be gone)."""
    db._text_ids = {}


def text_id(db, text: str) -> int:
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
            found = row[0]
            break
        h = h + 1 if h < 2**63 - 1 else -(2**63)  # a collision: the next free slot
    if len(cache) > 200_000:
        cache.clear()
    cache[text] = found
    return found


LIST_KEYS: dict[tuple[str, str], tuple[str, ...]] = {
    ("decisions", "candidates"): ("fact_id", "label", "similarity", "text"),
    ("decisions", "before"): ("authors", "confidence", "id", "status", "text", "updated_at", "version"),
    ("decisions", "after"): ("authors", "confidence", "id", "status", "text", "updated_at", "version"),
    ("retrievals", "ranking"): ("fact_id", "text", "bm25", "bm25_norm", "dense", "hybrid", "rank"),
}
"""The usual keys of each list column's objects, in order: an object with exactly these is stored as
an array of its values (the view names them again); any other object is stored as an object."""

ROUNDED = {("retrievals", "ranking"): ("bm25", "bm25_norm", "dense", "hybrid")}
"""Scores stored to 6 decimal places (ranks and order are computed before, so they are exact)."""


def _compact_list(db, value: str | None, prefix: str, table: str = "", column: str = "") -> str | None:
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
                item[key] = v[len(prefix) - 1:]  # keeps the leading "/"
            elif isinstance(v, str) and v.startswith("/"):
                item[key] = "/" + v  # an id that itself starts with "/" (kept whole by the view)
        for key in rounded:
            if isinstance(item.get(key), float):
                item[key] = round(item[key], 6)
        out.append([item[k] for k in keys] if keys and tuple(item) == keys else item)
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"))


def _compact_messages(db, value: str | None) -> str | None:
    if value is None:
        return None
    messages = json.loads(value)
    for m in messages:
        if isinstance(m.get("content"), str):  # a system prompt whole, other messages by line
            m["content"] = text_id(db, m["content"]) if m.get("role") == "system" else \
                [text_id(db, line) for line in m["content"].split("\n")]
    return json.dumps(messages, ensure_ascii=False, separators=(",", ":"))


def _same_json(parsed: str | None, raw: str | None) -> bool:
    if parsed is None or raw is None:
        return False
    try:
        return json.loads(parsed) == json.loads(raw)
    except (ValueError, RecursionError):
        return False


def compact_row(db, table: str, row: dict) -> dict:
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
    if table == "decisions":
        for key in ("candidates", "before", "after"):
            out[key] = _compact_list(db, row.get(key), prefix, table, key)
    elif table == "retrievals":
        out["ranking"] = _compact_list(db, row.get("ranking"), prefix, table, "ranking")
    elif table == "verdicts":
        candidate = out.pop("candidate", None)
        out["candidate_id"] = None if candidate is None else text_id(db, candidate)
    return out


def insert_one(db, table: str, row: dict) -> int:
    """Insert one logical row; returns its rowid."""
    stored = compact_row(db, table, row)
    names = ", ".join(f"[{c}]" for c in stored)
    marks = ", ".join("?" for _ in stored)
    return db.execute(f"INSERT INTO [{table}_data] ({names}) VALUES ({marks})", list(stored.values())).lastrowid


def data_table(db, table: str) -> str:
    """Where ``table``'s rows are stored: ``<table>_data`` for a compact table, else itself."""
    return f"{table}_data" if is_compact(db, table) else table


def insert(db, table: str, rows: Iterable[dict], *, replace: bool = False) -> None:
    """Insert logical rows of a compact table (one prepared statement per column set)."""
    rows = [compact_row(db, table, r) for r in rows]
    if not rows:
        return
    verb = "INSERT OR REPLACE" if replace else "INSERT"
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault(tuple(r), []).append(r)
    for columns, group in groups.items():
        names = ", ".join(f"[{c}]" for c in columns)
        marks = ", ".join("?" for _ in columns)
        db.conn.executemany(f"{verb} INTO [{table}_data] ({names}) VALUES ({marks})",
                            [[r[c] for c in columns] for r in group])


# ---- schema -----------------------------------------------------------------------------------------
def data_columns(table: str, logical: dict[str, type]) -> dict[str, type]:
    """The stored columns of a compact table, from its logical ones."""
    out: dict[str, type] = {}
    for name, kind in logical.items():
        if table == "calls" and name == "schema":
            out["schema_id"] = int
        elif table == "calls" and name == "options":
            out["options_id"] = int
        elif table == "calls" and name == "raw":
            out["raw_z"] = bytes
        elif table == "verdicts" and name == "candidate":
            out["candidate_id"] = int
        else:
            out[name] = kind
    return out


def _list_expr(table: str, column: str) -> str:
    """SQL rebuilding a compact JSON list column of row ``d`` whole."""
    prefix = "d.run_id || '/' || d.trajectory_id"

    def full(v: str) -> str:  # ->> binds like ||: always in parentheses
        return (f"CASE WHEN substr(({v}), 1, 2) = '//' THEN substr(({v}), 2) "
                f"WHEN substr(({v}), 1, 1) = '/' THEN {prefix} || ({v}) ELSE ({v}) END")

    def text(path: str) -> str:
        return (f"CASE WHEN json_type(e.value, '{path}') = 'integer' THEN (SELECT text FROM texts "
                f"WHERE id = e.value ->> '{path}') ELSE e.value ->> '{path}' END")

    fact_id, own_id = full("e.value ->> '$.fact_id'"), full("e.value ->> '$.id'")
    as_object = (f"json_replace(e.value, '$.text', {text('$.text')}, "
                 f"'$.fact_id', {fact_id}, '$.id', {own_id})")
    keys = LIST_KEYS.get((table, column))
    element = f"json({as_object})"
    if keys:
        parts = []
        for i, key in enumerate(keys):
            path = f"$[{i}]"
            if key == "text":
                value = text(path)
            elif key in ("fact_id", "id"):
                value = full(f"e.value ->> '{path}'")
            else:
                value = f"e.value -> '{path}'"
            parts.append(f"'{key}', {value}")
        element = (f"CASE WHEN json_type(e.value) = 'array' THEN json_object({', '.join(parts)}) "
                   f"ELSE json({as_object}) END")
    return (f"CASE WHEN d.[{column}] IS NULL OR d.[{column}] = '' THEN d.[{column}] ELSE "
            f"(SELECT json_group_array({element}) FROM json_each(d.[{column}]) e) END")


def _messages_expr() -> str:
    lines = ("CASE WHEN json_type(m.value, '$.content') = 'integer' THEN (SELECT text FROM texts "
             "WHERE id = m.value ->> '$.content') ELSE "
             "(SELECT group_concat(coalesce(t.text, ''), char(10)) FROM "
             "(SELECT l.value AS id FROM json_each(m.value, '$.content') l ORDER BY l.key) x "
             "LEFT JOIN texts t ON t.id = x.id) END")
    return ("CASE WHEN d.messages IS NULL THEN NULL ELSE "
            f"(SELECT json_group_array(json(json_replace(m.value, '$.content', {lines}))) "
            "FROM json_each(d.messages) m) END")


def view_sql(table: str, logical: dict[str, type]) -> str:
    exprs = []
    for name in logical:
        if table == "calls" and name == "messages":
            exprs.append(f"{_messages_expr()} AS messages")
        elif table == "calls" and name in ("schema", "options"):
            exprs.append(f"(SELECT text FROM texts WHERE id = d.{name}_id) AS [{name}]")
        elif table == "calls" and name == "raw":
            exprs.append("d.raw_z AS raw_z")
        elif table == "verdicts" and name == "candidate":
            exprs.append("(SELECT text FROM texts WHERE id = d.candidate_id) AS candidate")
        elif (table, name) in {("decisions", "candidates"), ("decisions", "before"),
                               ("decisions", "after"), ("retrievals", "ranking")}:
            exprs.append(f"{_list_expr(table, name)} AS [{name}]")
        else:
            exprs.append(f"d.[{name}]")
    return f"CREATE VIEW [{table}] AS SELECT {', '.join(exprs)} FROM [{table}_data] d"


def trigger_sql(table: str, pk: str) -> str:
    """Deleting from the view deletes the stored row (score re-runs and `runs rm` delete rows)."""
    return (f"CREATE TRIGGER [{table}_delete] INSTEAD OF DELETE ON [{table}] BEGIN "
            f"DELETE FROM [{table}_data] WHERE [{pk}] = OLD.[{pk}]; END")


def is_compact(db, table: str) -> bool:
    row = db.execute("SELECT type FROM sqlite_master WHERE name = ?", [table]).fetchone()
    return row is not None and row[0] == "view"


def ensure(db: Any, table: str, logical: dict[str, type], pk: Any, indexes: list[list[str]]) -> None:
    """Create ``<table>_data``, its view and trigger; an older plain table of that name is moved
    into compact form first (rows kept). Runs inside the caller's transaction."""
    columns = data_columns(table, logical)
    db["texts"].create({"id": int, "hash": int, "text": str}, pk="id", not_null={"hash", "text"},
                       if_not_exists=True)
    db["texts"].create_index(["hash"], unique=True, if_not_exists=True)
    old = db.execute("SELECT type FROM sqlite_master WHERE name = ?", [table]).fetchone()
    data = f"{table}_data"
    db[data].create(columns, pk=pk, if_not_exists=True)
    have = set(db[data].columns_dict)
    for name, kind in columns.items():
        if name not in have:
            db[data].add_column(name, kind)
    for cols in indexes:
        db[data].create_index(cols, if_not_exists=True)
    if old is not None and old[0] == "table":
        _move(db, table)
        db.execute(f"DROP TABLE [{table}]")
    elif old is not None:  # a view: rebuild it (columns may have been added)
        db.execute(f"DROP VIEW [{table}]")
    db.execute(view_sql(table, logical))
    db.execute(f"DROP TRIGGER IF EXISTS [{table}_delete]")
    db.execute(trigger_sql(table, pk))


def _move(db, table: str) -> None:
    cursor = db.conn.execute(f"SELECT * FROM [{table}]")
    names = [d[0] for d in cursor.description]
    while True:
        batch = cursor.fetchmany(2000)
        if not batch:
            break
        insert(db, table, [dict(zip(names, values)) for values in batch])


def raw_reply(row: dict[str, Any]) -> str | None:
    """The raw reply of a ``calls`` row, whichever form it has."""
    if "raw_z" in row:
        return unzip(row["raw_z"])
    return row.get("raw")


def all_texts_sql() -> str:
    return "SELECT count(*), coalesce(sum(length(CAST(text AS BLOB))), 0) FROM texts"


def unzip_function(conn: sqlite3.Connection) -> None:
    """Register ``unzip(raw_z)`` on a connection (so SQL can read replies)."""
    conn.create_function("unzip", 1, unzip, deterministic=True)
