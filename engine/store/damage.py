"""Stored content is read as a stranger's: a row that another program (or a bad disk) changed is
named as damaged, with its run and its table, never a traceback.

:func:`stored_json` reads a JSON column (a run's manifest, a score card); :func:`unzip` inflates a
compressed reply of the call log, bounded (:data:`MAX_REPLY_BYTES`), so a small blob that would
inflate to gigabytes is refused instead of filling memory. Both raise :class:`DamagedRow` (exit 2)."""

from __future__ import annotations

import json
import zlib
from typing import Any

from seorap.engine.errors import StoreError
from seorap.engine.untrusted import visible

MAX_REPLY_BYTES = 16 * 1024 * 1024
"""The largest reply the call log gives back (a model's reply is kilobytes; mem0's too)."""


class DamagedRow(StoreError):
    """A stored row cannot be read as what it must be (exit 2): the sentence names the run and the
    table."""


def damaged(what: str, run_id: object, problem: str) -> DamagedRow:
    run = visible(str(run_id)) if run_id not in (None, "") else "(unknown)"
    return DamagedRow(
        f"the {what} of run {run} is damaged ({problem}); delete the run "
        f"(`seorap runs rm {run}`) or restore the database from a copy"
    )


def stored_json(value: str | bytes | None, what: str, run_id: object, default: Any = None) -> Any:
    """The JSON object of a stored column (``what``: 'manifest', 'score card'), ``default`` when
    empty; :class:`DamagedRow` when it is not JSON or not an object."""
    if value is None or value in ("", b""):
        return default
    try:
        found = json.loads(value)
    except (ValueError, RecursionError, TypeError):
        raise damaged(what, run_id, "it is not JSON") from None
    if not isinstance(found, dict):
        raise damaged(what, run_id, f"it is a JSON {type(found).__name__}, not an object")
    return found


def unzip(blob: bytes, run_id: object = None, limit: int = MAX_REPLY_BYTES) -> str:
    """A compressed reply as text, at most ``limit`` bytes inflated; :class:`DamagedRow` naming the
    call log of ``run_id`` when it is not zlib data, not UTF-8, cut short or larger than that."""
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(blob, limit)
    except (zlib.error, TypeError):
        raise damaged("call log", run_id, "a stored reply is not zlib data") from None
    if inflater.unconsumed_tail:
        raise damaged("call log", run_id, f"a stored reply inflates past {limit // 2**20} MiB")
    if not inflater.eof:
        raise damaged("call log", run_id, "a stored reply is cut short")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise damaged("call log", run_id, "a stored reply is not UTF-8") from None
