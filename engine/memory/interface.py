"""One interface for every memory system in the drawer (docs/systems.md).

A system is written one document at a time into a fresh, isolated memory per (run, trajectory) and
read back through the facts it holds now and, when it has one, its own search. What it can tell us
it declares as :class:`Capabilities`; everything downstream (store, scoring, reports, the app) reads
those, never the system's name, and a metric a system cannot support reads "n/a (why)".

Our variants and the reference systems are *native*: they write into seorap's store directly
(engine/memory/facts.py) and are read through :class:`NativeMemory`. Any other system implements
:class:`MemorySystem` and is mapped onto the store by engine/memory/foreign.py: its reported
operations become decisions, the facts it holds become facts and versions (a store diff when it
reports no operations).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from seorap.engine.memory.facts import TrajectoryMemory

PROTOCOL_VERSION = 1
"""Version of this interface and of the JSON-lines protocol that carries it (engine/memory/jsonl.py)."""


@dataclass(frozen=True)
class Capabilities:
    """What a system declares it can do. A missing capability turns the metrics that need it into
    "n/a (why)" rather than a misleading number."""

    reports_operations: bool = False
    """It says what it did with each document (create, update, reinforce, supersede, delete...).
    Without it, the operations are the store diff: the facts before and after the document."""
    keeps_history: bool = False
    """Its facts carry their earlier versions (lineage in the app, version rows in the store)."""
    takes_dates: bool = False
    """It is given each document's date and may use it (temporal checks apply)."""
    own_search: bool = False
    """It answers ``search(query, k)``; without it seorap's hybrid retrieval runs over its facts."""
    updates_at_write: bool = True
    """It may change or retire a fact when writing; False for an append-only store (UDR is n/a:
    such a store leaves conflicts to read time)."""
    reports_confidence: bool = False
    """Each fact it lists carries its own confidence (0..1). Without it confidence MAE is n/a: seorap
    stores such a fact at 0.5 only so the store stays whole, never to score it."""

    def to_dict(self) -> dict[str, bool]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict | None) -> Capabilities:
        known = {f.name for f in fields(cls)}
        return cls(**{k: bool(v) for k, v in (data or {}).items() if k in known})

    def missing(self) -> list[str]:
        """Names of the capabilities this system does not have (for the report's n/a reasons)."""
        return [k for k, v in self.to_dict().items() if not v]


NA_REASONS = {
    "reports_operations": "the system reports no operations; they are read from the store diff",
    "keeps_history": "the system keeps no fact history",
    "takes_dates": "the system is not told document dates, so temporal checks do not apply",
    "updates_at_write": "append-only: the system never changes a fact when writing",
    "reports_confidence": "the system reports no confidence for its facts",
}
"""Why a metric is n/a when a capability is missing: one clause per capability."""


@dataclass(frozen=True)
class DocumentIn:
    """One document as a system receives it."""

    id: str
    text: str
    date: str
    """ISO date-time of the document (a system without ``takes_dates`` is not given it)."""
    author: str = ""


@dataclass(frozen=True)
class ReportedOperation:
    """What the system says it did with one fact: ``create``, ``update``, ``reinforce``,
    ``supersede`` or ``delete`` (other words are kept as reported and read as the store diff)."""

    operation: str
    fact_id: str
    text: str = ""


@dataclass
class HeldFact:
    """One fact a system holds now."""

    id: str
    text: str
    active: bool = True
    confidence: float | None = None
    versions: list[str] = field(default_factory=list)
    """Earlier texts, oldest first (a system with ``keeps_history``)."""
    last_document: str | None = None
    """The id of the document that last changed it, when the system knows."""
    superseded_by: str | None = None
    """For a retired fact: the id of the fact that replaced it, when the system knows (graphiti's
    invalidating edge); the store links the two (lineage in the app and the report)."""


class DocumentFailed(Exception):
    """Raised by :meth:`SystemMemory.write` when one document could not be written and the memory
    is as it was before it (a model that could not produce the structure the system asked for):
    the run records a write failure for that document and goes on, as it does for our systems."""


@runtime_checkable
class SystemMemory(Protocol):
    """One system's memory of one (run, trajectory)."""

    def write(self, document: DocumentIn) -> list[ReportedOperation] | None:
        """Write one document; the operations it reports (None: it reports none). Raises
        :class:`DocumentFailed` when this document could not be written (the run goes on)."""
        ...

    def facts(self) -> list[HeldFact]:
        """Every fact it holds now, active or retired."""
        ...

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        """Ranked (fact id, score), best first (only called with ``own_search``)."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class MemorySystem(Protocol):
    """A memory system seorap can put under its rulers."""

    name: str
    capabilities: Capabilities

    def spec(self) -> dict:
        """What identifies this system's behaviour (part of the run id's hash)."""
        ...

    def open(self, run_id: str, trajectory_id: str) -> SystemMemory:
        """A fresh, isolated memory for one (run, trajectory)."""
        ...


class NativeMemory:
    """A native system's memory, read through the interface: the facts of the store as written so
    far in this run (seorap's hybrid retrieval searches them; native systems have no own search)."""

    def __init__(self, memory: TrajectoryMemory) -> None:
        self.memory = memory

    def write(self, document: DocumentIn) -> list[ReportedOperation] | None:
        raise NotImplementedError("a native system writes into the store through DocumentWrite")

    def facts(self) -> list[HeldFact]:
        return [
            HeldFact(
                f.id,
                f.text,
                f.status == "active",
                f.confidence,
                last_document=str(f.updated_position),
            )
            for f in self.memory.facts.values()
        ]

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        return []

    def close(self) -> None:
        return None
