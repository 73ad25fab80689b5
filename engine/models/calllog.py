"""The call log: every model call, stored; identical calls are served from it (SPEC §4)."""

from __future__ import annotations


def ensure_calls_table(db) -> None:
    db["calls"].create(
        {"id": int, "key": str, "run_id": str, "phase": str, "role": str, "model": str,
         "digest": str, "messages": str, "schema": str, "options": str, "raw": str, "parsed": str,
         "tokens_in": int, "tokens_out": int, "duration_ms": float, "done_reason": str,
         "error": str, "created_at": str},
        pk="id", if_not_exists=True)
    db["calls"].create_index(["key"], if_not_exists=True)
    db["calls"].create_index(["run_id", "phase"], if_not_exists=True)
