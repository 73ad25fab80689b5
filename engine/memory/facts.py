"""One trajectory's memory while a run writes it, and the rows one document produces.

:class:`TrajectoryMemory` holds the facts in memory (loaded from the ``facts`` table on resume).
A system changes facts through a :class:`DocumentWrite`; every change is applied in memory at once
(later observations of the same document see it) and becomes rows that :meth:`DocumentWrite.commit`
writes in ONE transaction, together with the ``documents`` row that marks the document done.
"""

from __future__ import annotations

import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import numpy as np
from sqlite_utils import Database

from seorap.engine.corpus import Arrival
from seorap.engine.store import compact
from seorap.engine.store.database import dumps, loads, transaction
from seorap.engine.store.queries.writes import stored_facts
from seorap.engine.store.rows import NO_LOCK, insert_rows


@dataclass
class Fact:
    id: str
    text: str
    confidence: float
    status: str
    """active | superseded."""
    created_at: str
    """Document date of the observation that created it."""
    updated_at: str
    """Document date of the observation behind its last change (the temporal guard compares this)."""
    created_position: int
    updated_position: int
    observation_ids: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    """Distinct authors of the supporting observations, first-seen order."""
    version: int = 1
    vector: np.ndarray | None = None

    def snapshot(self) -> dict:
        return {
            "id": self.id,
            "text": self.text,
            "confidence": round(self.confidence, 6),
            "status": self.status,
            "version": self.version,
            "updated_at": self.updated_at,
            "authors": list(self.authors),
        }

    def row(self, run_id: str, trajectory_id: str) -> dict:
        return {
            "id": self.id,
            "run_id": run_id,
            "trajectory_id": trajectory_id,
            "text": self.text,
            "confidence": self.confidence,
            "status": self.status,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "created_position": self.created_position,
            "updated_position": self.updated_position,
            "observation_ids": dumps(self.observation_ids),
            "authors": dumps(self.authors),
            "author_count": len(self.authors),
            "version": self.version,
        }


@dataclass
class Observation:
    id: str
    text: str
    author: str
    doc_date: str
    position: int
    category: str = ""
    who: str = ""
    what: str = ""
    when_: str = ""
    where_: str = ""
    why: str = ""
    confidence: float | None = None
    """The extractor's confidence (used by append-only variants); None when not given."""
    quarantine: str = ""
    """Why the observation was quarantined (never synthesised: engine/memory/quarantine.py)."""
    vector: np.ndarray | None = None


class VectorIndex:
    """The fact vectors of one trajectory as rows of one preallocated matrix, so the k nearest
    active facts of an observation are one matrix-vector product (no per-observation ``vstack``).

    Rows are appended as facts appear and never move; a superseded fact (or one without a vector
    yet) is masked out. Changed facts are marked with :meth:`touch` and re-read lazily."""

    def __init__(self) -> None:
        self.facts: list[Fact] = []
        self.rows: dict[str, int] = {}
        self.matrix: np.ndarray | None = None
        self.live = np.zeros(0, dtype=bool)
        self.dirty: dict[str, Fact] = {}

    def touch(self, fact: Fact) -> None:
        self.dirty[fact.id] = fact

    def nearest(self, vector: np.ndarray, k: int) -> list[tuple[Fact, float]]:
        """The k active facts most similar to ``vector`` (cosine on L2-normalised vectors), ties
        broken by fact id; (fact, similarity) pairs, most similar first."""
        self._flush()
        n = len(self.facts)
        live = np.flatnonzero(self.live[:n])
        if not live.size or k <= 0 or self.matrix is None:  # a live fact has a row in the matrix
            return []
        sims = (self.matrix[:n] @ vector)[live]
        if live.size > k:  # keep every candidate tied with the k-th so the id tie-break is exact
            keep = sims >= np.partition(sims, live.size - k)[live.size - k]
            live, sims = live[keep], sims[keep]
        order = sorted(
            zip(sims.tolist(), live.tolist()), key=lambda p: (-p[0], self.facts[p[1]].id)
        )
        return [(self.facts[i], sim) for sim, i in order[:k]]

    def _flush(self) -> None:
        for fact in self.dirty.values():
            row = self.rows.get(fact.id)
            if row is None:
                row = self.rows[fact.id] = len(self.facts)
                self.facts.append(fact)
            vector = fact.vector if fact.status == "active" else None
            ok = vector is not None
            if vector is not None:
                self._reserve(row + 1, vector)[row] = vector
            if row >= self.live.size:
                self.live = np.concatenate([self.live, np.zeros(max(64, self.live.size), bool)])
            self.live[row] = ok
        self.dirty.clear()

    def _reserve(self, rows: int, like: np.ndarray) -> np.ndarray:
        """The matrix, grown to hold ``rows`` rows of vectors like ``like``."""
        if self.matrix is None:
            self.matrix = np.zeros((max(64, rows), like.shape[-1]), dtype=like.dtype)
        elif rows > self.matrix.shape[0]:
            grown = np.zeros(
                (max(rows, 2 * self.matrix.shape[0]), self.matrix.shape[1]), dtype=self.matrix.dtype
            )
            grown[: self.matrix.shape[0]] = self.matrix
            self.matrix = grown
        return self.matrix


class TrajectoryMemory:
    """The facts of one (run, trajectory)."""

    def __init__(self, run_id: str, trajectory_id: str, facts: list[Fact] | None = None) -> None:
        self.run_id = run_id
        self.trajectory_id = trajectory_id
        self.facts: dict[str, Fact] = {f.id: f for f in facts or []}
        self.index = VectorIndex()
        for fact in self.facts.values():
            self.index.touch(fact)

    def touch(self, fact: Fact) -> None:
        """Mark a fact whose vector or status was changed outside DocumentWrite (index refresh)."""
        self.index.touch(fact)

    def nearest(self, vector: np.ndarray, k: int) -> list[tuple[Fact, float]]:
        """The k active facts most similar to ``vector``: see :meth:`VectorIndex.nearest`."""
        return self.index.nearest(vector, k)

    @classmethod
    def load(cls, db: Database, run_id: str, trajectory_id: str) -> TrajectoryMemory:
        rows = stored_facts(db, run_id, trajectory_id)
        facts = [
            Fact(
                r["id"],
                r["text"],
                r["confidence"],
                r["status"],
                r["created_at"],
                r["updated_at"],
                r["created_position"],
                r["updated_position"],
                loads(r["observation_ids"], []),
                loads(r["authors"], []),
                r["version"],
            )
            for r in rows
        ]
        return cls(run_id, trajectory_id, facts)

    def active(self) -> list[Fact]:
        return [f for f in self.facts.values() if f.status == "active"]

    def next_fact_id(self) -> str:
        return f"{self.run_id}/{self.trajectory_id}/f{len(self.facts) + 1:04d}"

    def begin(self, arrival: Arrival) -> DocumentWrite:
        return DocumentWrite(self, arrival)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class DocumentWrite:
    """Everything one document does to a memory, applied in memory now and committed once."""

    def __init__(self, memory: TrajectoryMemory, arrival: Arrival) -> None:
        self.memory = memory
        self.arrival = arrival
        self.started = time.perf_counter()
        self.observations: list[dict] = []
        self.versions: list[dict] = []
        self.decisions: list[dict] = []
        self.failures: list[dict] = []
        self.reads: list[dict] = []
        """Read-time lookups after this document (engine/run/readtime.py)."""
        self.questions: list[dict] = []
        """A system's own search for each question, after the trajectory's last document."""
        self.touched: dict[str, Fact] = {}
        self._prefix = f"{memory.run_id}/{memory.trajectory_id}/p{arrival.position:03d}"

    # -- observations -------------------------------------------------------------------------
    def observe(self, text: str, **fields: Any) -> Observation:  # Observation's other fields
        doc = self.arrival.document
        obs = Observation(
            id=f"{self._prefix}/o{len(self.observations) + 1:03d}",
            text=text,
            author=doc.author.name,
            doc_date=self.arrival.timestamp,
            position=self.arrival.position,
            **fields,
        )
        self.observations.append(
            {
                "id": obs.id,
                "run_id": self.memory.run_id,
                "trajectory_id": self.memory.trajectory_id,
                "position": self.arrival.position,
                "state_index": self.arrival.state_index,
                "doc_id": doc.id,
                "seq": len(self.observations) + 1,
                "text": text,
                "category": obs.category,
                "who": obs.who,
                "what": obs.what,
                "when_": obs.when_,
                "where_": obs.where_,
                "why": obs.why,
                "author": doc.author.name,
                "author_role": doc.author.role,
                "doc_date": self.arrival.timestamp,
                "confidence": obs.confidence,
                "quarantine": obs.quarantine or None,
            }
        )
        return obs

    # -- fact changes ---------------------------------------------------------------------------
    def create(
        self,
        text: str,
        confidence: float,
        obs: Observation | None,
        vector: np.ndarray | None = None,
    ) -> Fact:
        date = obs.doc_date if obs else self.arrival.timestamp
        fact = Fact(
            self.memory.next_fact_id(),
            text,
            _clip(confidence),
            "active",
            date,
            date,
            self.arrival.position,
            self.arrival.position,
            vector=vector,
        )
        self.memory.facts[fact.id] = fact
        self.memory.touch(fact)
        self._support(fact, obs)
        self._version(fact, "create", obs)
        return fact

    def change(
        self,
        fact: Fact,
        operation: str,
        obs: Observation | None,
        *,
        text: str | None = None,
        confidence: float | None = None,
        status: str | None = None,
        vector: np.ndarray | None = None,
        touch_date: bool = True,
    ) -> Fact:
        if text is not None and text != fact.text:
            fact.text = text
            fact.vector = vector
        if confidence is not None:
            fact.confidence = _clip(confidence)
        if status is not None:
            fact.status = status
        if touch_date and obs is not None and operation in ("update", "supersede"):
            fact.updated_at = max(fact.updated_at, obs.doc_date)
        fact.updated_position = self.arrival.position
        fact.version += 1
        self.memory.touch(fact)
        self._support(fact, obs)
        self._version(fact, operation, obs)
        return fact

    def _support(self, fact: Fact, obs: Observation | None) -> None:
        if obs is None:
            return
        if obs.id not in fact.observation_ids:
            fact.observation_ids.append(obs.id)
        if obs.author and obs.author not in fact.authors:
            fact.authors.append(obs.author)

    def _version(self, fact: Fact, operation: str, obs: Observation | None) -> None:
        self.touched[fact.id] = fact
        retired = operation == "supersede" and fact.status == "superseded"
        self.versions.append(
            {
                "fact_id": fact.id,
                "version": fact.version,
                "run_id": self.memory.run_id,
                "trajectory_id": self.memory.trajectory_id,
                "position": self.arrival.position,
                "state_index": self.arrival.state_index,
                "text": fact.text,
                "confidence": fact.confidence,
                "status": fact.status,
                "operation": operation,
                "observation_id": obs.id if obs else None,
                "authors": dumps(fact.authors),
                "doc_date": obs.doc_date if obs else self.arrival.timestamp,
                "successor_id": "" if retired else None,
            }
        )

    # -- lineage --------------------------------------------------------------------------------
    def link(self, old_id: str, new_id: str) -> bool:
        """Record that ``new_id`` replaced ``old_id`` (superseded in this document): the successor
        link on the old fact's superseding version. False when this document did not supersede it."""
        for row in reversed(self.versions):
            if row["fact_id"] == old_id and row["successor_id"] is not None:
                row["successor_id"] = new_id
                return True
        return False

    # -- decisions and failures ---------------------------------------------------------------
    def decide(
        self,
        obs: Observation | None,
        *,
        candidates: list[dict],
        raw_operation: str | None,
        operation: str,
        guard: str = "off",
        guard_effect: str = "",
        fact_id: str | None,
        before: list[dict] | None = None,
        after: list[dict] | None = None,
        call_key: str | None = None,
        model_text: str | None = None,
        model_confidence: float | None = None,
        reason: str = "",
    ) -> None:
        if (
            operation == "supersede" and fact_id
        ):  # the model's supersede: the old fact -> the new one
            for snap in before or []:
                if snap.get("id") and snap["id"] != fact_id:
                    self.link(snap["id"], fact_id)
        self.decisions.append(
            {
                "id": f"{self._prefix}/d{len(self.decisions) + 1:03d}",
                "run_id": self.memory.run_id,
                "trajectory_id": self.memory.trajectory_id,
                "position": self.arrival.position,
                "state_index": self.arrival.state_index,
                "observation_id": obs.id if obs else None,
                "candidates": dumps(candidates),
                "raw_operation": raw_operation,
                "operation": operation,
                "guard": guard,
                "guard_effect": guard_effect,
                "fact_id": fact_id,
                "before": dumps(before or []),
                "after": dumps(after or []),
                "call_key": call_key,
                "model_text": model_text,
                "model_confidence": model_confidence,
                "reason": reason,
            }
        )

    def fail(
        self,
        stage: str,
        reason: str,
        raw: str = "",
        observation_id: str | None = None,
        call_key: str | None = None,
        partial: bool = False,
    ) -> None:
        """Record a write failure; ``partial``: the document was still written from what survived
        (an extraction cut at its token limit keeps its complete observations)."""
        self.failures.append(
            {
                "id": f"{self._prefix}/w{len(self.failures) + 1:03d}",
                "run_id": self.memory.run_id,
                "trajectory_id": self.memory.trajectory_id,
                "position": self.arrival.position,
                "stage": stage,
                "reason": reason,
                "raw": raw,
                "observation_id": observation_id,
                "call_key": call_key,
                "partial": int(partial),
            }
        )

    # -- commit ---------------------------------------------------------------------------------
    def document_row(self) -> dict:
        a = self.arrival
        return {
            "run_id": self.memory.run_id,
            "trajectory_id": self.memory.trajectory_id,
            "position": a.position,
            "state_index": a.state_index,
            "doc_id": a.document.id,
            "is_distractor": int(a.is_distractor),
            "timestamp": a.timestamp,
            "observations": len(self.observations),
            "failures": len(self.failures),
            "duration_ms": round((time.perf_counter() - self.started) * 1000, 3),
            "written_at": _now(),
        }

    def commit(self, db: Database, lock: threading.Lock | None = None) -> None:
        """Write every row of this document in one transaction (under ``lock`` when shared)."""
        guard: AbstractContextManager = lock or NO_LOCK
        rid, tid = self.memory.run_id, self.memory.trajectory_id
        with guard, transaction(db):
            compact.insert(db, "observations", self.observations)
            compact.insert(db, "fact_versions", self.versions)
            compact.insert(db, "decisions", self.decisions)
            insert_rows(db, "write_failures", self.failures)
            insert_rows(
                db, "read_lookups", self.reads, replace=True
            )  # a rewritten document's reads
            insert_rows(db, "question_lookups", self.questions, replace=True)
            facts = [f.row(rid, tid) for f in self.touched.values()]
            if facts:
                compact.upsert(db, "facts", facts)
            insert_rows(db, "documents", [self.document_row()])


def _clip(value: float) -> float:
    return max(0.0, min(1.0, float(value)))


def copy_fact(fact: Fact) -> Fact:
    return replace(fact, observation_ids=list(fact.observation_ids), authors=list(fact.authors))
