"""The compact layout's schema (docs/store.md, "Compact storage"): the stored columns of each
compact table, the view that shows its rows whole, the triggers that write through the view, and
:func:`ensure`, which creates them (or moves an older layout's rows into them)."""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from seorap.engine.store.compact import (
    ID_COLUMNS,
    ID_LISTS,
    LIST_KEYS,
    SCOPE_KEYS,
    SCOPED,
    TEXT_COLUMNS,
    has_scope,
    insert,
)


def data_columns(table: str, logical: dict[str, type]) -> dict[str, type]:
    """The stored columns of a compact table, from its logical ones."""
    out: dict[str, type] = {"scope": int} if table in SCOPED else {}
    for name, kind in logical.items():
        if table in SCOPED and name in ("run_id", "trajectory_id"):
            continue
        if name in TEXT_COLUMNS.get(table, ()):
            out[name] = bytes  # BLOB affinity: a text id (integer) or a short text as given
        elif table == "calls" and name == "schema":
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


def _prefix(table: str) -> str:
    return (
        "s.run_id || '/' || s.trajectory_id"
        if table in SCOPED
        else "d.run_id || '/' || d.trajectory_id"
    )


def _full(v: str, prefix: str) -> str:
    """SQL for a relative id made whole again (``->>`` binds like ``||``: always in parentheses)."""
    return (
        f"CASE WHEN substr(({v}), 1, 2) = '//' THEN substr(({v}), 2) "
        f"WHEN substr(({v}), 1, 1) = '/' THEN {prefix} || ({v}) ELSE ({v}) END"
    )


def _list_expr(table: str, column: str) -> str:
    """SQL rebuilding a compact JSON list column of row ``d`` whole."""
    prefix = _prefix(table)

    def full(v: str) -> str:
        return _full(v, prefix)

    def text(path: str) -> str:
        return (
            f"CASE WHEN json_type(e.value, '{path}') = 'integer' THEN (SELECT text FROM texts "
            f"WHERE id = e.value ->> '{path}') ELSE e.value ->> '{path}' END"
        )

    fact_id, own_id = full("e.value ->> '$.fact_id'"), full("e.value ->> '$.id'")
    as_object = (
        f"json_replace(e.value, '$.text', {text('$.text')}, "
        f"'$.fact_id', {fact_id}, '$.id', {own_id})"
    )
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
        element = (
            f"CASE WHEN json_type(e.value) = 'array' THEN json_object({', '.join(parts)}) "
            f"ELSE json({as_object}) END"
        )
    return (
        f"CASE WHEN d.[{column}] IS NULL OR d.[{column}] = '' THEN d.[{column}] ELSE "
        f"(SELECT json_group_array({element}) FROM json_each(d.[{column}]) e) END"
    )


def _messages_expr() -> str:
    lines = (
        "CASE WHEN json_type(m.value, '$.content') = 'integer' THEN (SELECT text FROM texts "
        "WHERE id = m.value ->> '$.content') ELSE "
        "(SELECT group_concat(coalesce(t.text, ''), char(10)) FROM "
        "(SELECT l.value AS id FROM json_each(m.value, '$.content') l ORDER BY l.key) x "
        "LEFT JOIN texts t ON t.id = x.id) END"
    )
    return (
        "CASE WHEN d.messages IS NULL THEN NULL ELSE "
        f"(SELECT json_group_array(json(json_replace(m.value, '$.content', {lines}))) "
        "FROM json_each(d.messages) m) END"
    )


def view_sql(table: str, logical: dict[str, type]) -> str:
    exprs = ["d.rowid AS rowid"] if table in SCOPED else []
    for name in logical:
        if table in SCOPED and name in ("run_id", "trajectory_id"):
            exprs.append(f"s.[{name}]")
        elif name in TEXT_COLUMNS.get(table, ()):
            exprs.append(
                f"CASE WHEN typeof(d.[{name}]) = 'integer' THEN (SELECT text FROM texts WHERE "
                f"id = d.[{name}]) ELSE d.[{name}] END AS [{name}]"
            )
        elif name in ID_COLUMNS.get(table, ()):
            exprs.append(f"{_full(f'd.[{name}]', _prefix(table))} AS [{name}]")
        elif (table, name) in ID_LISTS:
            exprs.append(
                f"CASE WHEN d.[{name}] IS NULL OR d.[{name}] = '' THEN d.[{name}] ELSE "
                f"(SELECT json_group_array({_full('e.value', _prefix(table))}) FROM "
                f"json_each(d.[{name}]) e) END AS [{name}]"
            )
        elif table == "calls" and name == "messages":
            exprs.append(f"{_messages_expr()} AS messages")
        elif table == "calls" and name in ("schema", "options"):
            exprs.append(f"(SELECT text FROM texts WHERE id = d.{name}_id) AS [{name}]")
        elif table == "calls" and name == "raw":
            exprs.append("d.raw_z AS raw_z")
        elif table == "verdicts" and name == "candidate":
            exprs.append(
                "CASE WHEN typeof(d.candidate_id) = 'integer' THEN (SELECT text FROM texts "
                "WHERE id = d.candidate_id) ELSE d.candidate_id END AS candidate"
            )
        elif (table, name) in {
            ("decisions", "candidates"),
            ("decisions", "before"),
            ("decisions", "after"),
            ("retrievals", "ranking"),
        }:
            exprs.append(f"{_list_expr(table, name)} AS [{name}]")
        else:
            exprs.append(f"d.[{name}]")
    join = " JOIN scopes s ON s.id = d.scope" if table in SCOPED else ""
    return f"CREATE VIEW [{table}] AS SELECT {', '.join(exprs)} FROM [{table}_data] d{join}"


def trigger_sql(table: str, pk: str) -> str:
    """Deleting from the view deletes the stored row (score re-runs and `runs rm` delete rows)."""
    where = "rowid = OLD.rowid" if table in SCOPED else f"[{pk}] = OLD.[{pk}]"
    return (
        f"CREATE TRIGGER [{table}_delete] INSTEAD OF DELETE ON [{table}] BEGIN "
        f"DELETE FROM [{table}_data] WHERE {where}; END"
    )


def write_triggers_sql(table: str, logical: dict[str, type]) -> list[str]:
    """INSERT and UPDATE on a scoped table's view (plain SQL from anyone: sqlite3, Datasette, tests)
    store the values as given — texts and ids whole, which the view shows as they are — with the
    run and trajectory as a scope. seorap itself writes through :func:`insert` / :func:`upsert`."""
    if table not in SCOPED:
        return []
    names = [n for n in logical if n not in ("run_id", "trajectory_id")]
    stored = ["candidate_id" if (table, n) == ("verdicts", "candidate") else n for n in names]
    scope = (
        "(SELECT id FROM scopes WHERE run_id IS NEW.run_id AND trajectory_id IS NEW.trajectory_id "
        "ORDER BY id LIMIT 1)"
    )
    add_scope = "INSERT OR IGNORE INTO scopes (run_id, trajectory_id) VALUES (NEW.run_id, NEW.trajectory_id);"
    insert = (
        f"CREATE TRIGGER [{table}_insert] INSTEAD OF INSERT ON [{table}] BEGIN {add_scope} "
        f"INSERT INTO [{table}_data] (scope, {', '.join(f'[{c}]' for c in stored)}) VALUES "
        f"({scope}, {', '.join(f'NEW.[{n}]' for n in names)}); END"
    )
    sets = ", ".join(f"[{c}] = NEW.[{n}]" for c, n in zip(stored, names))
    update = (
        f"CREATE TRIGGER [{table}_update] INSTEAD OF UPDATE ON [{table}] BEGIN {add_scope} "
        f"UPDATE [{table}_data] SET scope = {scope}, {sets} WHERE rowid = OLD.rowid; END"
    )
    return [insert, update]


def ensure_scopes(db: Any) -> None:
    db.execute(
        "CREATE TABLE IF NOT EXISTS scopes (id INTEGER PRIMARY KEY, run_id TEXT, "
        "trajectory_id TEXT, UNIQUE (run_id, trajectory_id))"
    )


def ensure(
    db: Any, table: str, logical: dict[str, type], pk: Any, indexes: list[list[str]]
) -> None:
    """Create ``<table>_data``, its view and trigger. An older plain table of that name, or a data
    table of an earlier compact layout, is moved into today's form first (every row kept, read
    through the old table or view). Runs inside the caller's transaction."""
    columns = data_columns(table, logical)
    db["texts"].create(
        {"id": int, "hash": int, "text": str},
        pk="id",
        not_null={"hash", "text"},
        if_not_exists=True,
    )
    db["texts"].create_index(["hash"], unique=True, if_not_exists=True)
    ensure_scopes(db)
    old = db.execute("SELECT type FROM sqlite_master WHERE name = ?", [table]).fetchone()
    data = f"{table}_data"
    relayout = (
        table in SCOPED
        and old is not None
        and old[0] == "view"
        and data in db.table_names()
        and not has_scope(db, table)
    )
    if relayout:  # an earlier compact layout: its view keeps reading the renamed table
        for verb in ("delete", "insert", "update"):
            db.execute(f"DROP TRIGGER IF EXISTS [{table}_{verb}]")
        db.execute(f"ALTER TABLE [{data}] RENAME TO [{table}_old]")
    if table in SCOPE_KEYS:
        db[data].create(columns, if_not_exists=True)
    else:
        db[data].create(columns, pk=pk, if_not_exists=True)
    have = set(db[data].columns_dict)
    for name, kind in columns.items():
        if name not in have:
            db[data].add_column(name, kind)
    if old is not None and (old[0] == "table" or relayout):
        _move(db, table)
    if old is not None and old[0] == "table":
        db.execute(f"DROP TABLE [{table}]")
    elif old is not None:  # a view: rebuild it (columns may have been added)
        db.execute(f"DROP VIEW [{table}]")
    if relayout:
        db.execute(f"DROP TABLE [{table}_old]")
    _create_indexes(db, table, indexes)
    db.execute(view_sql(table, logical))
    for verb in ("delete", "insert", "update"):
        db.execute(f"DROP TRIGGER IF EXISTS [{table}_{verb}]")
    db.execute(trigger_sql(table, pk))
    for sql in write_triggers_sql(table, logical):
        db.execute(sql)


def _create_indexes(db: Any, table: str, indexes: list[list[str]]) -> None:
    """The indexes of ``<table>_data``: a scoped table's (run_id, trajectory_id, ...) index becomes
    (scope, ...); a table with scope keys has its unique (scope, keys) index instead."""
    data = f"{table}_data"
    if table in SCOPE_KEYS:
        db[data].create_index(["scope", *SCOPE_KEYS[table]], unique=True, if_not_exists=True)
    for cols in indexes:
        if table in SCOPED and cols[:2] == ["run_id", "trajectory_id"]:
            cols = ["scope", *cols[2:]]
            if table in SCOPE_KEYS:
                continue  # the unique (scope, id) index finds a trajectory's rows (a few hundred)
        db[data].create_index(cols, if_not_exists=True)


def _move(db: Database, table: str) -> None:
    cursor = db.conn.execute(f"SELECT * FROM [{table}]")
    names = [d[0] for d in cursor.description]
    while True:
        batch = cursor.fetchmany(2000)
        if not batch:
            break
        insert(db, table, [dict(zip(names, values)) for values in batch])
