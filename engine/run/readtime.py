"""Read-time lookups, taken while a run writes (docs/metrics.md#read-time-state).

After each document, while the system's memory is at that state, every expected claim of the
document's state is looked up through the system's own read path: its search when it declares
``own_search``, otherwise seorap's hybrid retrieval over the active facts it holds (``retrieval.top_k``
facts, as in answering). The query is the claim's slot question, never the claim: the claim with its
values removed, from the corpus (``slotQuestions``) or generated (engine/scoring/slot_questions.py),
stored with the row (``query``, ``query_kind``) so the reader reads with the same question. What came back — fact ids in seorap's store,
scores and the arrival position of each fact's current version — is stored in
``read_lookups`` in the document's own transaction, so scoring needs neither the system nor a model
for the lookup (engine/scoring/readtime.py reads it).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from seorap.engine.corpus import Trajectory
from seorap.engine.memory.facts import DocumentWrite
from seorap.engine.memory.foreign import SystemFault
from seorap.engine.memory.interface import NativeMemory, SystemMemory
from seorap.engine.retrieval.hybrid import HybridIndex
from seorap.engine.scoring.extrinsic import DEPTHS, questions
from seorap.engine.scoring.slot_questions import SlotQuestion, question_for
from seorap.engine.store.database import facts_at

if TYPE_CHECKING:
    from sqlite_utils import Database

    from seorap.engine.config import RetrievalConfig
    from seorap.engine.memory import System
    from seorap.engine.memory.foreign import ForeignSystem
    from seorap.engine.models.base import Embedder

OWN = "own search"
OURS = "hybrid"


def read_path(system: System, doc: DocumentWrite) -> tuple[SystemMemory, bool, dict[str, str]]:
    """The system's memory read through the interface, whether its own search is used, and a map
    from its fact ids to ours (identity for a native system)."""
    caps = system.capabilities
    session = getattr(system, "session", None)
    if session is None:
        return NativeMemory(doc.memory), False, {}
    memory = session(doc.memory.run_id, doc.memory.trajectory_id)
    return memory, caps.own_search, _id_map(cast("ForeignSystem", system), doc)  # has a session


def _id_map(system: ForeignSystem, doc: DocumentWrite) -> dict[str, str]:
    return system.id_map(doc.memory.run_id, doc.memory.trajectory_id)


def lookups(
    system: System,
    doc: DocumentWrite,
    trajectory: Trajectory,
    k: int,
    embedder: Embedder,
    settings: RetrievalConfig | None = None,
) -> list[dict]:
    """One row per expected claim of the document's state: what the read path returned."""
    claims = trajectory.states[doc.arrival.state_index].claims
    if not claims:
        return []
    memory, own, ids = read_path(system, doc)
    index = None if own else _index(doc, embedder, settings)
    rows = []
    for n, claim in enumerate(claims):
        asked = question_for(trajectory, claim)
        if own:
            hits = _own_hits(system, memory, asked.text, k, ids, doc)
        else:
            hits = our_hits(index, asked.text, k, embedder, doc.memory.facts)
        rows.append(_row(doc, n, claim, asked, hits, OWN if own else OURS, k))
    return rows


QUESTION_K = max(DEPTHS)
"""Hits kept per question: the deepest k of the depth curve (its shallower ks are prefixes)."""


def question_lookups(system: System, doc: DocumentWrite, trajectory: Trajectory) -> list[dict]:
    """After the trajectory's last document, each question (``extrinsicQA`` and ``singleQA``)
    looked up through the system's own search, when it declares one: its read path for the
    answers and the journey's *retrieved* stage, taken here because the system is gone at score
    time (engine/scoring/answer_path.py reads them). Empty for any other document or system."""
    if doc.arrival.position != list(trajectory.arrivals())[-1].position:
        return []
    memory, own, ids = read_path(system, doc)
    if not own:
        return []
    rows = []
    for q in questions(trajectory):
        hits = _own_hits(system, memory, q.question, QUESTION_K, ids, doc)
        rows.append(
            {
                "id": f"{doc.memory.run_id}/{doc.memory.trajectory_id}/q/{q.item}",
                "run_id": doc.memory.run_id,
                "trajectory_id": doc.memory.trajectory_id,
                "position": doc.arrival.position,
                "kind": q.kind,
                "item": q.item,
                "question": q.question,
                "hits": json.dumps(hits, ensure_ascii=False),
                "source": OWN,
                "k": QUESTION_K,
            }
        )
    return rows


def _index(
    doc: DocumentWrite, embedder: Embedder, settings: RetrievalConfig | None
) -> HybridIndex | None:
    active = doc.memory.active()
    if not active:
        return None
    texts = [f.text for f in active]
    known = [f.vector for f in active if f.vector is not None]
    if len(known) == len(active):  # the write path embedded them already
        vectors = np.vstack(known)
    else:
        vectors = embedder.embed(texts)
    return HybridIndex.from_settings([f.id for f in active], texts, vectors, settings)


def our_hits(
    index: HybridIndex | None, query: str, k: int, embedder: Embedder, facts: Mapping[str, Any]
) -> list[dict]:
    """seorap's read path: the ``k`` best of the indexed facts for ``query`` (``facts``: id ->
    a fact with its ``updated_position``)."""
    if index is None:
        return []
    found = index.search(query, embedder.embed([query])[0], k)
    return [_hit(facts, h.fact_id, h.hybrid) for h in found]


def _own_hits(
    system: System,
    memory: SystemMemory,
    query: str,
    k: int,
    ids: dict[str, str],
    doc: DocumentWrite,
) -> list[dict]:
    try:
        ranked = memory.search(query, k)
    except SystemFault:
        raise
    except Exception as exc:  # noqa: BLE001 - a foreign system's error: one sentence
        raise SystemFault(
            f"system {system.name} failed to search for a claim: {type(exc).__name__}: {exc}"
        ) from exc
    hits = []
    for foreign_id, score in ranked[:k]:
        ours = ids.get(foreign_id)
        if ours is None:
            raise SystemFault(
                f"system {system.name}: its search returned fact {foreign_id!r}, which it never "
                "listed among its facts"
            )
        hits.append(_hit(doc.memory.facts, ours, score))
    return hits


def _hit(facts: Mapping[str, Any], fact_id: str, score: float) -> dict:
    """One returned fact: its id, score and recency (its text at this position is in the store's
    fact versions, so it is not repeated here: :func:`hit_texts`)."""
    fact = facts[fact_id]
    return {"id": fact_id, "score": round(float(score), 6), "recency": fact.updated_position}


def hit_texts(db: Database, run_id: str, trajectory_id: str, position: int) -> dict[str, str]:
    """fact id -> its text after the document at ``position`` (what a read then returned)."""

    return {f.id: f.text for f in facts_at(db, run_id, trajectory_id, position)}


def _row(
    doc: DocumentWrite,
    n: int,
    claim: str,
    asked: SlotQuestion,
    hits: list[dict],
    source: str,
    k: int,
) -> dict:
    a = doc.arrival
    return {
        "id": f"{doc.memory.run_id}/{doc.memory.trajectory_id}/p{a.position:03d}/r{n:02d}",
        "run_id": doc.memory.run_id,
        "trajectory_id": doc.memory.trajectory_id,
        "position": a.position,
        "state_index": a.state_index,
        "item": f"s{a.state_index}/c{n}",
        "claim": claim,
        "query": asked.text,
        "query_kind": asked.kind,
        "hits": json.dumps(hits, ensure_ascii=False),
        "source": source,
        "k": k,
    }
