"""Fact history (view 3)."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from sqlite_utils import Database

from seorap.engine.corpus import Corpus
from seorap.engine.store.database import loads
from seorap.engine.store.queries.catalog import columns
from seorap.engine.store.queries.facts import decisions_about, versions_with_observations
from seorap.engine.views.lineage import Link, lineage


@dataclass(frozen=True)
class DiffPart:
    """A run of words in a word diff: ``kind`` is "same", "removed" or "added"."""

    kind: str
    text: str


def version_diff(before: str, after: str) -> tuple[DiffPart, ...]:
    """The words of ``after`` against ``before``, split at whitespace: runs both share, runs only
    ``before`` has (removed) and runs only ``after`` has (added), in reading order."""
    a, b = before.split(), after.split()
    parts: list[DiffPart] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            parts.append(DiffPart("same", " ".join(a[i1:i2])))
            continue
        if i2 > i1:
            parts.append(DiffPart("removed", " ".join(a[i1:i2])))
        if j2 > j1:
            parts.append(DiffPart("added", " ".join(b[j1:j2])))
    return tuple(parts)


def trimmed(parts: tuple[DiffPart, ...], keep: int = 3) -> tuple[DiffPart, ...]:
    """``parts`` with every unchanged run longer than ``2 * keep`` words cut to the ``keep`` words
    next to each change and "…" (the run before the first change keeps only its end, the run after
    the last only its start), so a one-word change in a long fact reads at a glance."""
    out = []
    for n, part in enumerate(parts):
        words = part.text.split(" ")
        if part.kind != "same" or len(words) <= 2 * keep:
            out.append(part)
            continue
        head = words[:keep] if n > 0 else []
        tail = words[-keep:] if n < len(parts) - 1 else []
        out.append(DiffPart("same", " ".join([*head, "…", *tail])))
    return tuple(out)


DIFF_MARKS = {"removed": ("[-", "-]"), "added": ("{+", "+}"), "same": ("", "")}
"""How a diff reads without colour: [-removed words-] {+added words+}."""


def marked(parts: tuple[DiffPart, ...]) -> str:
    """A word diff as one line of plain text with the changed runs marked (see :data:`DIFF_MARKS`)."""
    return " ".join(DIFF_MARKS[p.kind][0] + p.text + DIFF_MARKS[p.kind][1] for p in parts)


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
    diff: tuple[DiffPart, ...] = ()
    """This version's text against the version before it, word by word (empty for the first)."""

    @property
    def changed(self) -> bool:
        """Whether the diff from the version before removes or adds any word."""
        return any(p.kind != "same" for p in self.diff)


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
    versions: list[FactVersion] = []
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
                version_diff(versions[-1].text, r["text"] or "") if versions else (),
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
