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
