"""A foreign memory system in seorap's store (docs/systems.md#how-a-foreign-system-is-recorded).

:class:`ForeignSystem` wraps any :class:`~engine.memory.interface.MemorySystem` so the runner
writes it like a native one: per document it hands the system the document, asks for the facts
it holds now and records the difference in the store through a :class:`DocumentWrite`:

- a fact id seen for the first time is an observation plus a created fact;
- a changed text is an ``update``; a fact that turned inactive, or disappeared, is retired
  (``supersede``); an unchanged fact the system reports touching is a ``reinforce``;
- each change is one decision whose ``raw_operation`` is what the system reported (None when it
  reports nothing: then the decision is the store diff, and its reason says so).

Its memory lives in the system, not in seorap: a trajectory it had not finished when a run stopped
restarts from its first document with a fresh memory (``fresh_on_resume``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from seorap.engine.corpus import Trajectory
from seorap.engine.errors import RunCancelled, SeorapError
from seorap.engine.memory.facts import DocumentWrite, Fact
from seorap.engine.memory.interface import (
    Capabilities,
    DocumentFailed,
    DocumentIn,
    HeldFact,
    MemorySystem,
    ReportedOperation,
    SystemMemory,
)
from seorap.engine.safepath import UnsafeName, component, make_dirs, remove_tree
from seorap.engine.untrusted import visible

if TYPE_CHECKING:
    from seorap.engine.run.phases import RunContext

T = TypeVar("T")

DEFAULT_CONFIDENCE = 0.5
"""Stored for a fact whose system does not declare ``reports_confidence`` (the store needs a number;
confidence MAE is n/a for such a run, so it is never scored)."""

RETIRING = {"supersede", "delete", "retire", "remove"}

FACT_TEXT_MAX = 4096
"""Longest fact text (characters) a foreign system may list by default (``fact_text_max``): a
longer one is refused by name, so no unbounded text reaches the store, retrieval or the judge's
analyser, whose time grows faster than the text (docs/store.md, "Another program's output")."""

FACT_ID_MAX = 256
"""Longest fact id (characters) a foreign system may use."""


class SystemFault(SeorapError):
    """A foreign system failed or answered something that breaks the interface (one sentence)."""


class ForeignSystem:
    """Any :class:`MemorySystem`, written by the runner like a native system."""

    fresh_on_resume = True

    def __init__(self, name: str, inner: MemorySystem, fact_text_max: int = FACT_TEXT_MAX) -> None:
        self.name = name
        self.inner = inner
        self.fact_text_max = fact_text_max
        self.uses_llm: bool = bool(getattr(inner, "uses_llm", False))
        """It calls models itself (mem0): the run gives it a model client and an embedder."""
        self.calls_per_document: int | None = getattr(inner, "calls_per_document", None)
        """Chat calls it makes per document, when it declares them (``--plan`` counts them)."""
        self.capabilities: Capabilities = inner.capabilities
        self._open: dict[tuple[str, str], SystemMemory] = {}
        self._ids: dict[tuple[str, str], dict[str, str]] = {}
        self._lock = threading.Lock()
        self._cancelled = False
        """Set by :meth:`cancel`: no memory opens after a stop (its program would outlive it)."""

    def spec(self) -> dict:
        return {
            "kind": "foreign",
            "name": self.name,
            "capabilities": self.capabilities.to_dict(),
            **{k: v for k, v in self.inner.spec().items() if k not in ("kind", "capabilities")},
        }

    # -- sessions -------------------------------------------------------------------------------
    def session(self, run_id: str, trajectory_id: str) -> SystemMemory:
        """The open memory of (run, trajectory), opened fresh the first time it is asked for."""
        key = (run_id, trajectory_id)
        with self._lock:
            if self._cancelled:
                raise RunCancelled("run cancelled; run the same command again to resume")
            if key not in self._open:
                self._open[key] = _guard(
                    lambda: self.inner.open(run_id, trajectory_id), self.name, "open a memory"
                )
                self._ids[key] = {}
            return self._open[key]

    def is_open(self, run_id: str, trajectory_id: str) -> bool:
        return (run_id, trajectory_id) in self._open

    def id_map(self, run_id: str, trajectory_id: str) -> dict[str, str]:
        """The system's fact ids -> ours, for (run, trajectory) as written so far."""
        return dict(self._ids.get((run_id, trajectory_id), {}))

    def finish(self, run_id: str, trajectory_id: str) -> None:
        """Close the memory of (run, trajectory) after its last document."""
        with self._lock:
            memory = self._open.pop((run_id, trajectory_id), None)
        if memory is not None:
            _guard(memory.close, self.name, "close its memory")

    def bind(self, ctx: RunContext) -> None:
        """Give a system that calls models itself the run's context (optional ``bind`` hook)."""
        bind = getattr(self.inner, "bind", None)
        if bind is not None:
            _guard(lambda: bind(ctx), self.name, "start")

    def shutdown(self) -> None:
        """After the run: release what ``bind`` started (optional ``shutdown`` hook)."""
        shutdown = getattr(self.inner, "shutdown", None)
        if shutdown is not None:
            _guard(shutdown, self.name, "shut down")

    def cancel(self) -> None:
        """Close every open memory now (a stop: Ctrl+C, a cancel, another worker's error)."""
        inner_cancel = getattr(self.inner, "cancel", None)
        if inner_cancel is not None:
            inner_cancel()
        with self._lock:
            self._cancelled = True
            memories = list(self._open.values())
            self._open.clear()
        for memory in memories:
            cancel = getattr(memory, "cancel", None)
            try:
                (cancel or memory.close)()
            except Exception:  # noqa: BLE001 - stopping: a system that fails to close is left
                pass

    # -- writing --------------------------------------------------------------------------------
    def write(
        self, doc: DocumentWrite, trajectory: Trajectory, ctx: RunContext | None = None
    ) -> None:
        run_id, tid = doc.memory.run_id, doc.memory.trajectory_id
        if ctx is not None and not self.is_open(run_id, tid):
            self.bind(ctx)
        memory = self.session(run_id, tid)
        d = doc.arrival.document
        date = doc.arrival.timestamp if self.capabilities.takes_dates else ""
        document = DocumentIn(d.id, d.text, date, d.author.name)
        try:
            reported = _guard(lambda: memory.write(document), self.name, f"write document {d.id}")
        except DocumentFailed as failed:
            doc.fail("write", f"system {self.name} could not write document {d.id}: {failed}")
            reported = []
        held = _guard(memory.facts, self.name, f"list its facts after document {d.id}")
        _check_held(held, self.name, d.id, self.capabilities.reports_confidence)
        _check_sizes(held, self.name, d.id, self.fact_text_max)
        apply_held(doc, self._ids[(run_id, tid)], held, reported)


def fresh_store(owner: Path, system: str, run_id: str, trajectory_id: str) -> Path:
    """``<owner>/<run>/<trajectory>/``, empty: a foreign system's own store for one (run,
    trajectory), made fresh each time (ids as names, nothing touched outside the run's folder)."""
    try:
        own = owner / component(run_id, "run id")
        where = own / component(trajectory_id, "trajectory id")
    except UnsafeName as exc:
        raise SystemFault(f"system {system}: {exc}") from None
    try:
        make_dirs(own, owner)
        remove_tree(where, own)
        make_dirs(where, own)
    except OSError as exc:
        raise SystemFault(
            f"system {system}: cannot write its folder {where}: {exc.strerror or exc}"
        ) from None
    return where


def _guard(call: Callable[[], T], name: str, doing: str) -> T:
    """Run one call into a foreign system; anything it raises becomes one located sentence."""
    try:
        return call()
    except (SeorapError, DocumentFailed):
        raise
    except Exception as exc:  # noqa: BLE001 - a foreign system's error, reported as one sentence
        raise SystemFault(
            f"system {name} failed to {doing}: {type(exc).__name__}: {exc}".rstrip(": ")
        ) from exc


def _check_held(held: object, name: str, doc_id: str, confidence: bool = False) -> None:
    if not isinstance(held, list) or not all(isinstance(h, HeldFact) for h in held):
        raise SystemFault(f"system {name} listed its facts after document {doc_id} not as facts")
    seen: set[str] = set()
    for h in held:
        if not isinstance(h.id, str) or not h.id or not isinstance(h.text, str):
            raise SystemFault(
                f"system {name} listed a fact without an id or text after document {doc_id}"
            )
        if h.id in seen:
            raise SystemFault(f"system {name} listed fact {h.id!r} twice after document {doc_id}")
        seen.add(h.id)
        if confidence and not isinstance(h.confidence, int | float):
            raise SystemFault(
                f"system {name} declares reports_confidence but listed fact {h.id!r} without a "
                f"confidence after document {doc_id}"
            )


def _check_sizes(held: list[HeldFact], name: str, doc_id: str, text_max: int) -> None:
    for h in held:
        if len(h.id) > FACT_ID_MAX:
            raise SystemFault(
                f"system {name} listed a fact id of {len(h.id)} characters after document "
                f"{doc_id} (at most {FACT_ID_MAX})"
            )
        if len(h.text) > text_max:
            raise SystemFault(
                f"system {name} listed fact {visible(h.id)!r} with a text of {len(h.text):,} "
                f"characters after document {doc_id}: more than the {text_max:,} a fact may hold "
                "(fact_text_max)"
            )


def apply_held(
    doc: DocumentWrite,
    ids: dict[str, str],
    held: list[HeldFact],
    reported: list[ReportedOperation] | None,
) -> None:
    """Record in ``doc`` how the system's facts changed (``ids``: its fact id -> ours, updated).
    Facts new at this document get our ids in the order of their text, not of the system's listing
    or its ids (mem0's are random): two identical runs get the same ids, so the judge's cache and a
    comparison of the two line up."""
    said = {op.fact_id: op.operation for op in reported or []}
    held = [h for h in held if h.id in ids] + sorted(
        (h for h in held if h.id not in ids), key=lambda h: h.text
    )
    why = (
        "reported by the system" if reported is not None else "store diff (no reported operations)"
    )
    present = set()
    for h in held:
        present.add(h.id)
        fact = doc.memory.facts.get(ids.get(h.id, ""))
        if fact is None:
            ids[h.id] = _created(doc, h, said.get(h.id), why).id
        else:
            _changed(doc, fact, h, said.get(h.id), why)
    for foreign_id, our_id in ids.items():
        fact = doc.memory.facts[our_id]
        if foreign_id not in present and fact.status == "active":
            gone = HeldFact(foreign_id, fact.text, active=False)
            _changed(doc, fact, gone, said.get(foreign_id, "delete"), why)
    for h in held:
        if not h.active and h.superseded_by and h.superseded_by in ids and h.id in ids:
            doc.link(ids[h.id], ids[h.superseded_by])  # a no-op unless retired in this document


def _confidence(h: HeldFact) -> float:
    return DEFAULT_CONFIDENCE if h.confidence is None else float(h.confidence)


def _created(doc: DocumentWrite, h: HeldFact, raw: str | None, why: str) -> Fact:
    obs = doc.observe(h.text, category="reported", what=h.text)
    fact = doc.create(h.text, _confidence(h), obs)
    if not h.active:
        doc.change(fact, "supersede", None, status="superseded")
    doc.decide(
        obs,
        candidates=[],
        raw_operation=raw,
        operation="create",
        fact_id=fact.id,
        after=[fact.snapshot()],
        reason=f"{why}: {h.id}",
    )
    return fact


def _changed(doc: DocumentWrite, fact: Fact, h: HeldFact, raw: str | None, why: str) -> None:
    retire = fact.status == "active" and (not h.active or (raw or "").lower() in RETIRING)
    if retire:
        operation = "supersede"
    elif h.text != fact.text:
        operation = "update"
    elif (raw or "").lower() in ("reinforce", "none", "noop") and raw is not None:
        operation = "reinforce"
    else:
        return
    before = fact.snapshot()
    obs = (
        doc.observe(h.text, category="reported", what=h.text) if operation != "supersede" else None
    )
    doc.change(
        fact,
        operation,
        obs,
        text=h.text,
        confidence=h.confidence,
        status="superseded" if retire else None,
    )
    doc.decide(
        obs,
        candidates=[{"fact_id": fact.id, "text": before["text"], "similarity": None}],
        raw_operation=raw,
        operation=operation,
        fact_id=fact.id,
        before=[before],
        after=[fact.snapshot()],
        reason=f"{why}: {h.id}",
    )
