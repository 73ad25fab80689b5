"""LongMemEval (``longmemeval_s.json``, ``_m``, ``_oracle``) as a seorap corpus: one trajectory per
question, its haystack of dated sessions the documents.

Each item has ``question_id`` (ending ``_abs`` for an abstention item), ``question_type``,
``question``, ``answer``, ``question_date`` (``2023/05/30 (Tue) 23:40``), ``haystack_session_ids``,
``haystack_dates``, ``haystack_sessions`` (lists of ``{role, content, has_answer?}`` turns) and
``answer_session_ids`` (the evidence sessions). Sessions keep the file's order; the question keeps
its own date even when it falls before the last session's (the dataset asks it there too; `seorap
validate` names such items). The authors replaced the file in 2025 with a cleaned one that the
importer cannot tell apart: ``--dataset-version`` records what the user says it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from seorap.engine.corpus.importers import (
    NOTES,
    DatasetError,
    ImportResult,
    answer_text,
    field_of,
    iso_date,
    run_import,
    safe_id,
    source_block,
)

QUESTION_TYPES = (
    "single-session-user",
    "single-session-assistant",
    "single-session-preference",
    "multi-session",
    "knowledge-update",
    "temporal-reasoning",
)
"""The file's ``question_type`` values; an id ending ``_abs`` makes the item the kind
``abstention`` (the type is kept beside it)."""

ABSTENTION = "abstention"

DATE_FORMATS = ("%Y/%m/%d (%a) %H:%M", "%Y/%m/%d %H:%M", "%Y/%m/%d")


def kinds(wanted: Iterable[str]) -> set[str]:
    """``--types`` for LongMemEval: question types, or ``abstention``."""
    out = set()
    for raw in wanted:
        token = raw.strip().lower()
        if token not in (*QUESTION_TYPES, ABSTENTION):
            known = ", ".join((*QUESTION_TYPES, ABSTENTION))
            raise DatasetError(f"--types {raw!r}: LongMemEval's kinds are {known}")
        out.add(token)
    return out


def import_longmemeval(
    path: Path,
    out: Path,
    limit: int | None = None,
    types: Iterable[str] = (),
    version: str = "unknown",
) -> ImportResult:
    """Import a LongMemEval file into ``out`` (docs/corpus-format.md#longmemeval)."""
    keep = kinds(types)
    source = source_block("longmemeval", path, version)

    def convert(position: int, item: Any, source: dict[str, Any]) -> dict[str, Any] | None:
        trajectory = instance(item, f"{path}: question {position}", source)
        kind = trajectory["singleQA"][0]["kind"]
        return trajectory if not keep or kind in keep else None

    return run_import(path, out, convert, source, limit)


def instance(item: Any, where: str, source: dict[str, Any]) -> dict[str, Any]:
    """One question and its haystack as a trajectory (camelCase, as written to disk)."""
    if isinstance(item, dict) and "conversation" in item and "question_id" not in item:
        raise DatasetError(
            f"{where}: a LoCoMo conversation, not a LongMemEval question "
            "(use `seorap import locomo`)"
        )
    qid = safe_id(field_of(item, "question_id", (str, int), where), f"{where}: question_id")
    where = f"{where} ({qid})"
    ids = field_of(item, "haystack_session_ids", list, where)
    dates = field_of(item, "haystack_dates", list, where)
    sessions = field_of(item, "haystack_sessions", list, where)
    if not len(ids) == len(dates) == len(sessions):
        raise DatasetError(
            f"{where}: {len(sessions)} haystack_sessions, {len(dates)} haystack_dates and "
            f"{len(ids)} haystack_session_ids; each session needs its date and id"
        )
    empty = [k for k, turns in enumerate(sessions) if isinstance(turns, list) and not turns]
    states = [
        session(qid, k, ids[k], dates[k], sessions[k], f"{where}: haystack_sessions[{k}]")
        for k in range(len(sessions))
        if k not in empty
    ]
    if not states:
        raise DatasetError(f"{where}: an empty haystack")
    for index, state in enumerate(states):
        state["index"] = index
    return {
        "id": qid,
        "title": f"LongMemEval {qid}",
        "language": "en",
        "source": source,
        "singleQA": [question(item, qid, where)],
        "states": states,
        NOTES: [f"{where}: haystack_sessions[{k}] has no turns; left out" for k in empty],
    }


def question(item: dict[str, Any], qid: str, where: str) -> dict[str, Any]:
    """The item's question: its type (or ``abstention``), its date, its evidence sessions."""
    qtype = field_of(item, "question_type", str, where)
    if qtype not in QUESTION_TYPES:
        raise DatasetError(
            f"{where}: question_type {qtype[:60]!r} is not one of {', '.join(QUESTION_TYPES)}"
        )
    abstention = qid.endswith("_abs")
    answer = item.get("answer")
    if answer is None:
        raise DatasetError(f"{where}: 'answer' is missing")
    out: dict[str, Any] = {
        "question": field_of(item, "question", str, where),
        "answer": answer_text(answer),
        "id": qid,
        "kind": ABSTENTION if abstention else qtype,
        "kindName": f"abstention ({qtype})" if abstention else qtype,
        "askedAt": iso_date(item.get("question_date"), DATE_FORMATS, f"{where}: question_date"),
        "evidence": [str(s) for s in item.get("answer_session_ids") or []],
    }
    if abstention:
        out["abstention"] = True
    return out


def session(qid: str, k: int, sid: object, date: object, turns: Any, where: str) -> dict[str, Any]:
    """One haystack session as a state whose document is a ``chat`` of its turns."""
    if not isinstance(turns, list):
        raise DatasetError(f"{where}: not a list of turns")
    chat = []
    for j, raw in enumerate(turns):
        role = field_of(raw, "role", str, f"{where}[{j}]")
        content = field_of(raw, "content", str, f"{where}[{j}]")
        entry: dict[str, Any] = {"speaker": role, "text": content}
        if raw.get("has_answer") is True:
            entry["hasAnswer"] = True
        chat.append(entry)
    if not any(t["text"].strip() for t in chat):
        raise DatasetError(f"{where}: turns without any text")
    when = iso_date(date, DATE_FORMATS, f"{where.replace('haystack_sessions', 'haystack_dates')}")
    return {
        "index": k,
        "timestamp": when,
        "document": {
            "id": f"{qid}-s{k}",
            "type": "chat",
            "author": {"name": " and ".join(dict.fromkeys(t["speaker"] for t in chat))},
            "title": f"session {k + 1}",
            "sourceId": str(sid),
            "turns": chat,
        },
    }
