"""The call log: every model call, stored; identical calls are served from it (docs/models.md).

One row per backend call (including failed ones, whose ``error`` is set). ``key`` is
:meth:`ChatRequest.key` — everything that determines the reply — so a later identical request is
answered from the newest successful row with that key, without calling the model.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlite_utils import Database

from seorap.engine.models.base import ChatReply, ChatRequest
from seorap.engine.store import compact, compact_layout
from seorap.engine.store.compact import raw_reply
from seorap.engine.store.connstate import state
from seorap.engine.store.txn import checked

CALL_COLUMNS = {
    "id": int,
    "key": str,
    "run_id": str,
    "phase": str,
    "role": str,
    "model": str,
    "digest": str,
    "messages": str,
    "schema": str,
    "options": str,
    "raw": str,
    "parsed": str,
    "tokens_in": int,
    "tokens_out": int,
    "duration_ms": float,
    "done_reason": str,
    "error": str,
    "created_at": str,
    "prompt_truncated": int,
    "first_token_ms": float,
    "host": str,
}


CALL_INDEXES = [["key"], ["run_id", "phase"]]


def ensure_calls_table(db: Database) -> None:
    """The call log, stored compactly (engine/store/compact.py): ``calls`` is a view over ``calls_data``."""

    if state(db).readonly:
        return
    if compact.is_compact(db, "calls") and set(
        compact_layout.data_columns("calls", CALL_COLUMNS)
    ) <= set(db.table("calls_data").columns_dict):
        return
    compact_layout.ensure(db, "calls", CALL_COLUMNS, "id", CALL_INDEXES)


def put_call(
    db: Database,
    request: ChatRequest,
    *,
    reply: ChatReply | None = None,
    run_id: str | None = None,
    phase: str = "",
    parsed: Any = None,
    error: str | None = None,
    prompt_truncated: bool = False,
    key: str | None = None,
) -> int | None:
    """Insert one call row; returns its id. ``key``: request.key() when the caller has it already."""
    row = {
        "key": key or request.key(),
        "run_id": run_id,
        "phase": phase,
        "role": request.role,
        "model": request.model,
        "digest": reply.digest if reply else None,
        "messages": json.dumps(list(request.messages), ensure_ascii=False),
        "schema": json.dumps(request.schema, ensure_ascii=False) if request.schema else None,
        "options": json.dumps(request.options, sort_keys=True),
        "raw": reply.content if reply else None,
        "parsed": json.dumps(parsed, ensure_ascii=False) if parsed is not None else None,
        "tokens_in": reply.tokens_in if reply else 0,
        "tokens_out": reply.tokens_out if reply else 0,
        "duration_ms": reply.duration_ms if reply else 0.0,
        "done_reason": reply.done_reason if reply else None,
        "error": error,
        "created_at": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "prompt_truncated": int(prompt_truncated),
        "first_token_ms": reply.first_token_ms if reply else None,
        "host": reply.host if reply else None,
    }
    # one prepared INSERT (sqlite-utils' Table.insert re-inspects the table on every call: half the
    # cost of logging a call, docs/benchmarks.md); texts interned, the reply compressed; under the
    # writer lease when one is held (a writer that lost it logs nothing more)
    with checked(db):
        return compact.insert_one(db, "calls", row)


def reply_from_row(row: dict) -> ChatReply:
    return ChatReply(
        content=raw_reply(row) or "",
        model=row["model"],
        digest=row["digest"],
        tokens_in=row["tokens_in"] or 0,
        tokens_out=row["tokens_out"] or 0,
        duration_ms=row["duration_ms"] or 0.0,
        done_reason=row["done_reason"],
        first_token_ms=row.get("first_token_ms"),
    )
