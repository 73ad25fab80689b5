"""Fact history (view 3)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.corpus import Corpus
from engine.store import loads


@dataclass(frozen=True)
class FactVersion:
    version: int
    position: int
    state_index: int
    operation: str
    text: str
    confidence: float
    status: str
    observation: str
    doc_id: str
    doc_title: str
    doc_date: str
    authors: list[str]


@dataclass(frozen=True)
class FactHistory:
    run_id: str
    trajectory_id: str
    fact_id: str
    versions: list[FactVersion]


def fact_history(db, corpus: Corpus, run_id: str, fact_id: str) -> FactHistory:
    """Every version of one fact with the observation and document that produced it."""
    rows = list(db.query(
        "SELECT v.*, o.text AS obs_text, o.doc_id AS obs_doc FROM fact_versions v "
        "LEFT JOIN observations o ON o.id = v.observation_id "
        "WHERE v.run_id=? AND v.fact_id=? ORDER BY v.version", [run_id, fact_id]))
    trajectory_id = rows[0]["trajectory_id"] if rows else ""
    docs = _documents_by_position(corpus, trajectory_id)
    versions = []
    for r in rows:
        doc_id, title = docs.get(r["position"], ("", ""))
        versions.append(FactVersion(
            r["version"], r["position"], r["state_index"], r["operation"] or "", r["text"] or "",
            r["confidence"] or 0.0, r["status"] or "", r["obs_text"] or "", r["obs_doc"] or doc_id,
            title, r["doc_date"] or "", loads(r["authors"], [])))
    return FactHistory(run_id, trajectory_id, fact_id, versions)


def _documents_by_position(corpus: Corpus, trajectory_id: str) -> dict[int, tuple[str, str]]:
    try:
        t = corpus.get(trajectory_id)
    except KeyError:
        return {}
    return {a.position: (a.document.id, a.document.title) for a in t.arrivals()}
