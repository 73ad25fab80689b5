"""Small memory systems for the interface tests, reached as ``--system systems_support:NAME``
(the Python-factory way in): append-only stores that keep each document's text as one fact."""

from __future__ import annotations

from seorap.engine.memory.interface import Capabilities, HeldFact, ReportedOperation


class AppendOnly:
    """Each document's text becomes one fact; nothing is ever changed. ``forgetful``: its own
    search returns only the first fact it ever stored (so a later fact is stored but not read)."""

    def __init__(
        self,
        name: str,
        forgetful: bool,
        *,
        confidence: float | None = None,
        declares_confidence: bool = False,
        reports_operations: bool = True,
    ) -> None:
        self.name = name
        self.forgetful = forgetful
        self.confidence = confidence
        self.reports = reports_operations
        self.capabilities = Capabilities(
            reports_operations=reports_operations,
            keeps_history=False,
            takes_dates=False,
            own_search=forgetful,
            updates_at_write=False,
            reports_confidence=declares_confidence,
        )

    def spec(self) -> dict:
        return {"kind": "test", "forgetful": self.forgetful, "confidence": self.confidence}

    def open(self, run_id: str, trajectory_id: str) -> Store:
        return Store(self.forgetful, self.confidence, self.reports)


class Store:
    def __init__(self, forgetful: bool, confidence: float | None = None, reports=True) -> None:
        self.forgetful = forgetful
        self.confidence = confidence
        self.reports = reports
        self.held: list[HeldFact] = []

    def write(self, document):
        fact = HeldFact(f"x{len(self.held) + 1}", document.text.strip(), True, self.confidence)
        self.held.append(fact)
        return [ReportedOperation("ADD", fact.id, fact.text)] if self.reports else None

    def facts(self):
        return list(self.held)

    def search(self, query: str, k: int):
        return [(self.held[0].id, 1.0)] if self.held else []

    def close(self) -> None:
        return None


def forgetful():
    return AppendOnly("forgetful", forgetful=True)


def append_only():
    return AppendOnly("append-only", forgetful=False)


def confident():
    """Declares ``reports_confidence`` and gives each fact 0.6."""
    return AppendOnly("confident", False, confidence=0.6, declares_confidence=True)


def claims_confidence():
    """Declares ``reports_confidence`` but lists its facts without one (a fault)."""
    return AppendOnly("claims-confidence", False, declares_confidence=True)


def silent():
    """Reports no operations (the store diff stands in for them)."""
    return AppendOnly("silent", False, reports_operations=False)


def talker():
    """Says it calls models itself but declares no calls per document (``--plan`` says so)."""
    system = AppendOnly("talker", False)
    system.uses_llm = True  # type: ignore[attr-defined]
    return system


def raises():
    raise RuntimeError("no licence key")


def not_a_system():
    return object()


class SplitStore(Store):
    """Each document's sentences become facts with random ids (uuid4, as mem0's), listed in
    random order: what an identical run must still give the same fact ids for."""

    def write(self, document):
        import random  # only this test system shuffles
        import uuid  # only this test system draws random ids

        for sentence in [s.strip() for s in document.text.split(".") if s.strip()]:
            self.held.append(HeldFact(uuid.uuid4().hex, sentence, True, None))
        random.shuffle(self.held)
        return None


class Splitting(AppendOnly):
    def open(self, run_id: str, trajectory_id: str) -> Store:
        return SplitStore(False, None, False)


def splitting():
    return Splitting("splitting", forgetful=False, reports_operations=False)
