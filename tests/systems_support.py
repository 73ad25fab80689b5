"""Small memory systems for the interface tests, reached as ``--system systems_support:NAME``
(the Python-factory way in): append-only stores that keep each document's text as one fact."""

from __future__ import annotations

from seorap.engine.memory.interface import Capabilities, HeldFact, ReportedOperation


class AppendOnly:
    """Each document's text becomes one fact; nothing is ever changed. ``forgetful``: its own
    search returns only the first fact it ever stored (so a later fact is stored but not read)."""

    def __init__(self, name: str, forgetful: bool) -> None:
        self.name = name
        self.forgetful = forgetful
        self.capabilities = Capabilities(
            reports_operations=True,
            keeps_history=False,
            takes_dates=False,
            own_search=forgetful,
            updates_at_write=False,
        )

    def spec(self) -> dict:
        return {"kind": "test", "forgetful": self.forgetful}

    def open(self, run_id: str, trajectory_id: str) -> Store:
        return Store(self.forgetful)


class Store:
    def __init__(self, forgetful: bool) -> None:
        self.forgetful = forgetful
        self.held: list[HeldFact] = []

    def write(self, document):
        fact = HeldFact(f"x{len(self.held) + 1}", document.text.strip())
        self.held.append(fact)
        return [ReportedOperation("ADD", fact.id, fact.text)]

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


def raises():
    raise RuntimeError("no licence key")


def not_a_system():
    return object()
