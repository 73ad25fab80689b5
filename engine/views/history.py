"""Fact history (view 3)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from seorap.engine.corpus import Corpus
from seorap.engine.store.database import loads
from seorap.engine.store.queries.catalog import columns
from seorap.engine.store.queries.facts import decisions_about, versions_with_observations
from seorap.engine.views.lineage import Link, lineage


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
    reason: str = ""
    """Why this version was written: the decision's reason and guard effect, when recorded."""


@dataclass(frozen=True)
class FactHistory:
    run_id: str
    trajectory_id: str
    fact_id: str
    versions: list[FactVersion]
    successor: Link | None = None
    """What replaced this fact (superseded facts), with where and why."""
    replaces: tuple[Link, ...] = ()
    """The facts this one replaced: walk the chain back through them."""


def fact_history(db: Database, corpus: Corpus, run_id: str, fact_id: str) -> FactHistory:
    """Every version of one fact with the observation and document that produced it."""
    rows = versions_with_observations(db, run_id, fact_id)
    trajectory_id = rows[0]["trajectory_id"] if rows else ""
    docs = _documents_by_position(corpus, trajectory_id)
    why = _reasons(db, run_id, fact_id)
    versions = []
    for r in rows:
        doc_id, title = docs.get(r["position"], ("", ""))
        versions.append(
            FactVersion(
                r["version"],
                r["position"],
                r["state_index"],
                r["operation"] or "",
                r["text"] or "",
                r["confidence"] or 0.0,
                r["status"] or "",
                r["obs_text"] or "",
                r["obs_doc"] or doc_id,
                title,
                r["doc_date"] or "",
                loads(r["authors"], []),
                why.get(r["position"], ""),
            )
        )
    links = lineage(db, run_id, trajectory_id) if rows else None
    return FactHistory(
        run_id,
        trajectory_id,
        fact_id,
        versions,
        links.successor.get(fact_id) if links else None,
        tuple(links.replaces.get(fact_id, ())) if links else (),
    )


def _reasons(db: Database, run_id: str, fact_id: str) -> dict[int, str]:
    """position -> the reason (and guard effect) of the decision that changed ``fact_id`` there."""
    if "reason" not in columns(db, "decisions"):
        return {}
    out: dict[int, str] = {}
    for d in decisions_about(db, run_id, fact_id):
        text = "; ".join(
            p
            for p in (d["reason"] or "", f"guard {d['guard_effect']}" if d["guard_effect"] else "")
            if p
        )
        if text:
            out.setdefault(d["position"], text)
    return out


def _documents_by_position(corpus: Corpus, trajectory_id: str) -> dict[int, tuple[str, str]]:
    try:
        t = corpus.get(trajectory_id)
    except KeyError:
        return {}
    return {a.position: (a.document.id, a.document.title) for a in t.arrivals()}
