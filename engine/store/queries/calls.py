"""The call log (``calls``, a view over the compact ``calls_data``): one row per model call."""

from __future__ import annotations

from sqlite_utils import Database


def call_costs(db: Database, run_id: str) -> list[tuple]:
    """(role, model, failed, tokens_in, tokens_out, duration_ms, done_reason, prompt_truncated) of
    every call a run made."""
    return db.execute(
        "SELECT role, model, error IS NOT NULL, tokens_in, tokens_out, duration_ms, "
        "done_reason, prompt_truncated FROM calls WHERE run_id = ?",
        [run_id],
    ).fetchall()


def model_digests(db: Database) -> dict[str, str]:
    """{model: digest} of the models the log has digests of."""
    return {
        r["model"]: r["digest"]
        for r in db.query(
            "SELECT model, digest FROM calls WHERE digest IS NOT NULL GROUP BY model, digest"
        )
    }


def answered_keys(db: Database) -> list[tuple[str, str | None, str]]:
    """(key, parsed, role) of every successful call."""
    return db.execute("SELECT key, parsed, role FROM calls WHERE error IS NULL").fetchall()


def answered_totals(db: Database, run_id: str) -> tuple[int, int, int]:
    """(successful calls, their tokens in, their tokens out) of one run."""
    row = next(
        db.query(
            "SELECT COUNT(*) AS n, COALESCE(SUM(tokens_in),0) AS ti, "
            "COALESCE(SUM(tokens_out),0) AS tout FROM calls WHERE run_id=? AND error IS NULL",
            [run_id],
        )
    )
    return row["n"], row["ti"], row["tout"]


def answered_by_role(db: Database, run_id: str) -> dict[str, int]:
    """{role: successful calls} of one run."""
    return {
        r["role"]: r["n"]
        for r in db.query(
            "SELECT role, COUNT(*) AS n FROM calls WHERE run_id=? AND error IS NULL GROUP BY role",
            [run_id],
        )
    }


def recent_calls(db: Database, model: str, limit: int) -> list[dict]:
    """The newest successful calls of a model (at most ``limit``), newest first, with ``host`` and
    ``first_token_ms`` (None on a log older than those columns)."""
    have = db["calls"].columns_dict
    host = ", host" if "host" in have else ", NULL AS host"
    host += ", first_token_ms" if "first_token_ms" in have else ", NULL AS first_token_ms"
    return [
        dict(r)
        for r in db.query(
            "SELECT role, run_id, phase, messages, tokens_in, tokens_out, duration_ms, created_at, "
            f"parsed{host} FROM calls WHERE model = ? AND error IS NULL ORDER BY id DESC LIMIT ?",
            [model, limit],
        )
    ]


def get_call(db: Database, key: str) -> dict | None:
    """The newest successful (error IS NULL) call with this key, or None."""
    table = "calls_data" if "calls_data" in db.table_names() else "calls"
    rows = list(
        db.query(
            f"select * from {table} where key = ? and error is null order by id desc limit 1", [key]
        )
    )
    return rows[0] if rows else None


def count_calls(
    db: Database,
    *,
    run_id: str | None = None,
    phase: str | None = None,
    role: str | None = None,
    errors: bool | None = None,
) -> int:
    """Number of logged calls matching every given filter (errors=True: only failed calls)."""
    where, params = _where(run_id=run_id, phase=phase, role=role)
    if errors is not None:
        where.append("error is not null" if errors else "error is null")
    sql = "select count(*) from calls" + (" where " + " and ".join(where) if where else "")
    n: int = db.execute(sql, params).fetchone()[0]
    return n


def call_counts(db: Database, by: str = "role", *, run_id: str | None = None) -> dict[str, int]:
    """{value: count} grouped by one of run_id | phase | role | model."""
    if by not in {"run_id", "phase", "role", "model"}:
        raise ValueError(f"cannot group calls by {by!r}")
    where, params = _where(run_id=run_id)
    sql = (
        f"select {by}, count(*) from calls"
        + (" where " + " and ".join(where) if where else "")
        + f" group by {by} order by {by}"
    )
    return {row[0]: row[1] for row in db.execute(sql, params).fetchall()}


def token_totals(db: Database, *, run_id: str | None = None) -> dict[str, int]:
    where, params = _where(run_id=run_id)
    sql = "select coalesce(sum(tokens_in),0), coalesce(sum(tokens_out),0) from calls" + (
        " where " + " and ".join(where) if where else ""
    )
    tin, tout = db.execute(sql, params).fetchone()
    return {"tokens_in": tin, "tokens_out": tout}


def _where(**filters: str | None) -> tuple[list[str], list[str]]:
    where, params = [], []
    for column, value in filters.items():
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    return where, params
