"""LoCoMo (``locomo10.json``) as a seorap corpus: one trajectory per conversation.

The file is a list of conversations: ``sample_id``; ``conversation`` with ``speaker_a``,
``speaker_b``, ``session_N`` (a list of turns: ``speaker``, ``dia_id``, ``text``, and on a shared
image ``blip_caption``) and ``session_N_date_time`` (``1:56 pm on 8 May, 2023``); ``qa``, a list of
``question``, ``answer``, ``evidence`` (turn ids) and ``category``. The category numbers of the file
are not the order the paper lists the kinds in: :data:`CATEGORIES` is the file's numbering, as the
repository's evaluation code treats it (docs/corpus-format.md#locomo). An adversarial item (5) that
has only ``adversarial_answer`` is kept, marked excluded: it has no answer to score against.
"""

from __future__ import annotations

import re
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

CATEGORIES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
"""The file's ``category`` numbers and what they are."""

DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %d %B %Y")

EXCLUDED = "no answer in the file, only an adversarial_answer (an adversarial item)"

_SESSION = re.compile(r"^session_(\d+)$")


def kinds(wanted: Iterable[str]) -> set[int]:
    """``--types`` for LoCoMo: category numbers or names (``1,temporal``)."""
    names = {name: number for number, name in CATEGORIES.items()}
    out: set[int] = set()
    for raw in wanted:
        token = raw.strip().lower()
        if token.isdigit() and int(token) in CATEGORIES:
            out.add(int(token))
        elif token in names:
            out.add(names[token])
        else:
            known = ", ".join(f"{n} {name}" for n, name in CATEGORIES.items())
            raise DatasetError(f"--types {raw!r}: LoCoMo's kinds are {known}")
    return out


def import_locomo(
    path: Path,
    out: Path,
    limit: int | None = None,
    types: Iterable[str] = (),
    version: str = "unknown",
) -> ImportResult:
    """Import a LoCoMo file into ``out`` (docs/corpus-format.md#locomo)."""
    keep = kinds(types) or set(CATEGORIES)
    source = source_block("locomo", path, version)

    def convert(position: int, item: Any, source: dict[str, Any]) -> dict[str, Any]:
        return conversation(item, f"{path}: conversation {position}", source, keep)

    return run_import(path, out, convert, source, limit)


def conversation(item: Any, where: str, source: dict[str, Any], keep: set[int]) -> dict[str, Any]:
    """One conversation as a trajectory (camelCase, as written to disk)."""
    if isinstance(item, dict) and "question_id" in item and "conversation" not in item:
        raise DatasetError(
            f"{where}: a LongMemEval question, not a LoCoMo conversation "
            "(use `seorap import longmemeval`)"
        )
    sample = safe_id(field_of(item, "sample_id", (str, int), where), f"{where}: sample_id")
    where = f"{where} ({sample})"
    conv = field_of(item, "conversation", dict, where)
    speakers = [
        str(field_of(conv, key, str, f"{where}: conversation"))
        for key in ("speaker_a", "speaker_b")
    ]
    found = _sessions(conv, where)
    empty = [n for n, turns in found if isinstance(turns, list) and not turns]
    states = [
        session(sample, number, turns, conv, f"{where}: conversation.session_{number}")
        for number, turns in found
        if number not in empty
    ]
    if not states:
        raise DatasetError(f"{where}: every session is empty")
    for index, state in enumerate(states):
        state["index"] = index
    qa = field_of(item, "qa", list, where)
    questions = [question(q, f"{where}: qa[{j}]", f"{sample}-q{j}") for j, q in enumerate(qa)]
    return {
        "id": sample,
        "title": f"LoCoMo {sample}: {speakers[0]} and {speakers[1]}",
        "subject": f"{speakers[0]}, {speakers[1]}",
        "language": "en",
        "source": source,
        "singleQA": [q for q in questions if int(q["kind"]) in keep],
        "states": states,
        NOTES: [f"{where}: session_{n} has no turns; left out" for n in empty],
    }


def _sessions(conv: dict[str, Any], where: str) -> list[tuple[int, Any]]:
    """The ``session_N`` lists in N order (the file's keys may come in any order)."""
    found = []
    for key, value in conv.items():
        match = _SESSION.match(key)
        if match:
            found.append((int(match.group(1)), value))
    if not found:
        raise DatasetError(f"{where}: conversation has no session_N turns")
    return sorted(found, key=lambda pair: pair[0])


def session(
    sample: str, number: int, turns: Any, conv: dict[str, Any], where: str
) -> dict[str, Any]:
    """One session as a state whose document is a ``chat`` of its turns."""
    if not isinstance(turns, list):
        raise DatasetError(f"{where}: not a list of turns")
    when = iso_date(conv.get(f"session_{number}_date_time"), DATE_FORMATS, f"{where}_date_time")
    chat = [turn(t, f"{where}[{k}]") for k, t in enumerate(turns)]
    names = list(dict.fromkeys(t["speaker"] for t in chat))
    return {
        "index": 0,
        "timestamp": when,
        "document": {
            "id": f"{sample}-s{number}",
            "type": "chat",
            "author": {"name": " and ".join(names)},
            "title": f"session {number}",
            "sourceId": f"session_{number}",
            "turns": chat,
        },
    }


def turn(raw: Any, where: str) -> dict[str, Any]:
    """One turn: speaker, its id, and its text with a shared image's caption as ``[image: …]``."""
    speaker = field_of(raw, "speaker", str, where)
    text = raw.get("text")
    text = text.strip() if isinstance(text, str) else ""
    caption = raw.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        text = f"{text} [image: {caption.strip()}]".strip()
    if not text:
        raise DatasetError(f"{where}: a turn with neither text nor an image caption")
    out: dict[str, Any] = {"speaker": speaker, "text": text}
    if isinstance(raw.get("dia_id"), str):
        out["id"] = raw["dia_id"]
    return out


def question(raw: Any, where: str, qid: str) -> dict[str, Any]:
    """One question: its category kept as the file numbers it, its answer as text."""
    category = field_of(raw, "category", int, where)
    if category not in CATEGORIES:
        raise DatasetError(f"{where}: category {category} is not one of LoCoMo's 1-5")
    out: dict[str, Any] = {
        "question": field_of(raw, "question", str, where),
        "answer": "",
        "id": qid,
        "kind": str(category),
        "kindName": CATEGORIES[category],
    }
    evidence = raw.get("evidence")
    if isinstance(evidence, list):
        out["evidence"] = [str(e) for e in evidence]
    if raw.get("answer") is not None:
        out["answer"] = answer_text(raw["answer"])
    if isinstance(raw.get("adversarial_answer"), str | int | float):
        out["adversarialAnswer"] = answer_text(raw["adversarial_answer"])
    if not out["answer"].strip():
        out["excluded"] = EXCLUDED if category == 5 else "no answer in the file"
    return out
