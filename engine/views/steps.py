"""The stepper at the scale of real runs: one step's story in a line, the store ordered and
filtered so the few facts that changed are seen among hundreds, the log with its changes first, and
search that lands on a fact, an observation or a document line.

A real-shaped system writes ~60 facts per document (every observation a create): the one supersede
that matters must be named in the step's title and reachable with one key, not found by scrolling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlite_utils import Database

from seorap.engine.corpus import Trajectory
from seorap.engine.store.queries import facts as facts_q
from seorap.engine.views.lineage import Link
from seorap.engine.views.operations import Operation, short_id
from seorap.engine.views.stepper import StepView, StoreFact

FILTERS = ("all", "changed", "lineage", "stale")
"""The store pane's filters, in the order `v` cycles them: every fact; the facts this step changed;
the facts in a supersede (replacing or replaced, up to this step); the active facts stating a
stale claim."""

FILTER_LABELS = {
    "all": "all facts",
    "changed": "changed at this document",
    "lineage": "lineage only",
    "stale": "stale only",
}


@dataclass(frozen=True)
class StepSummary:
    """What one document did to the store, counted from the store's marks."""

    new: int
    updated: int
    reinforced: int
    superseded: tuple[Link, ...]
    """The supersedes made at this step (old → new; new "" = retracted, None = not recorded)."""
    stale: int
    """Active facts that still state a stale claim after this step."""
    observations: int
    quarantined: int = 0
    """Observations of this step kept out of the store (engine/memory/quarantine.py)."""
    targets: tuple[str, ...] = ()
    """Fact ids the summary points at, in the order a key walks them: each supersede's old fact
    then its replacement, then the updated, reinforced and stale facts."""

    def parts(self) -> list[tuple[str, str]]:
        """(text, kind) pieces of the line; kind names what it counts (new, updated, reinforced,
        superseded, stale, none)."""
        out = []
        if self.new:
            out.append((f"+{self.new} new", "new"))
        if self.updated:
            out.append((f"{self.updated} updated", "updated"))
        if self.reinforced:
            out.append((f"{self.reinforced} reinforced", "reinforced"))
        if self.superseded:
            pairs = [supersede_text(link) for link in self.superseded[:SHOWN_SUPERSEDES]]
            more = len(self.superseded) - SHOWN_SUPERSEDES
            text = f"{len(self.superseded)} superseded: " + ", ".join(pairs)
            out.append((text + (f" +{more}" if more > 0 else ""), "superseded"))
        if self.stale:
            out.append((f"{self.stale} stale", "stale"))
        if self.quarantined:
            out.append((f"{self.quarantined} quarantined", "quarantined"))
        if not out:
            out.append(("no change to the store", "none"))
        return out

    def line(self) -> str:
        return " · ".join(text for text, _ in self.parts())


SHOWN_SUPERSEDES = 3
"""Supersede pairs named in the summary line; more are counted (+N)."""


def supersede_text(link: Link) -> str:
    """'f0030→f0108'; a retraction 'f0030→none'; a link an older database did not record '→?'."""
    new = "?" if link.new is None else short_id(link.new) if link.new else "none"
    return f"{short_id(link.old)}→{new}"


def step_summary(step: StepView) -> StepSummary:
    """The step's summary: facts created, updated, reinforced at this document, the supersedes it
    made, and the active facts stating a stale claim after it."""
    marks = [f.mark for f in step.store]
    links = tuple(
        sorted(
            (link for link in step.links.successor.values() if link.position == step.position),
            key=lambda link: link.old,
        )
    )
    replacing = {link.new for link in links if link.new}
    targets: list[str] = []
    for link in links:
        targets += [link.old] + ([link.new] if link.new else [])
    for mark in ("UPDATED", "REINFORCED"):
        targets += [f.id for f in step.store if f.mark == mark]
    targets += [f.id for f in step.stale_facts]
    new = sum(1 for f in step.store if f.mark == "NEW" and f.id not in replacing)
    return StepSummary(
        new=new,
        updated=marks.count("UPDATED"),
        reinforced=marks.count("REINFORCED"),
        superseded=links,
        stale=len(step.stale_facts),
        observations=len(step.operations),
        quarantined=sum(1 for op in step.operations if op.quarantined),
        targets=tuple(dict.fromkeys(targets)),
    )


def store_order(step: StepView) -> list[StoreFact]:
    """The store, what this step did first: each supersede of this step (the replaced fact, then
    what replaced it), the updated, the reinforced, the active facts stating a stale claim, the
    new, then the rest in store order (active, then superseded earlier). Stable within a group."""
    rank: dict[str, tuple[int, int]] = {}
    links = sorted(
        (link for link in step.links.successor.values() if link.position == step.position),
        key=lambda link: link.old,
    )
    for n, link in enumerate(links):
        rank.setdefault(link.old, (0, 2 * n))
        if link.new:
            rank.setdefault(link.new, (0, 2 * n + 1))
    group = {"UPDATED": 1, "REINFORCED": 2, "SUPERSEDED": 0}

    def key(item: tuple[int, StoreFact]) -> tuple[int, int]:
        n, f = item
        if f.id in rank:
            return rank[f.id]
        if f.mark in group:
            return (group[f.mark], n)
        if f.stale and f.status == "active":
            return (3, n)
        if f.mark:
            return (4, n)
        return (5, n)

    return [f for _, f in sorted(enumerate(step.store), key=key)]


def filter_store(step: StepView, mode: str) -> list[StoreFact]:
    """The store pane's rows under a filter of FILTERS, in ``store_order``."""
    facts = store_order(step)
    if mode == "changed":
        return [f for f in facts if f.mark]
    if mode == "lineage":
        return [f for f in facts if f.replaces or f.successor is not None]
    if mode == "stale":
        return [f for f in facts if f.stale and f.status == "active"]
    return facts


CHANGE_RANK = {"supersede": 0, "update": 1, "reinforce": 2, "create": 4}
"""Operation log order: what changed an existing fact first; an observation with no applied
operation (3) before the creates."""


def operations_order(operations: list[Operation]) -> list[tuple[int, Operation]]:
    """(number in the document's order, from 1, operation), supersedes, updates and reinforces
    first, then observations with no applied operation, then creates; stable within each."""
    numbered = list(enumerate(operations, 1))
    return sorted(numbered, key=lambda item: (CHANGE_RANK.get(item[1].operation, 3), item[0]))


# -- search ---------------------------------------------------------------------------------------

FACT_ID = re.compile(r"^(?:.*/)?(f\d+)$")
"""A query naming a fact: its short id (f0030) or its full id (run/trajectory/f0030)."""


@dataclass(frozen=True)
class Match:
    """One search hit: at arrival ``position``, a fact (key = fact id), an observation (key =
    observation id) or the document (key "")."""

    position: int
    kind: str
    key: str = ""


KIND_ORDER = {"fact": 0, "observation": 1, "document": 2}


def fact_id_query(query: str) -> str | None:
    """The short fact id a query names (``f0030``, ``F0030``, ``run/traj/f0030``), or None."""
    m = FACT_ID.match(query.strip().casefold())
    return m.group(1) if m else None


def search_matches(db: Database, trajectory: Trajectory, run_id: str, query: str) -> list[Match]:
    """Every hit of ``query`` in one trajectory of one run, in arrival order (facts, then
    observations, then the document at each position).

    A fact id (``f0030``) matches the positions where a version of that fact was written. Other
    text (case-insensitive) matches fact versions where they were written, observations, and
    documents (title or text)."""
    q = query.strip().casefold()
    if not q:
        return []
    out: set[Match] = set()
    fid = fact_id_query(q)
    if fid is not None:
        full = f"{run_id}/{trajectory.id}/{fid}"
        for position in facts_q.positions_of_fact(db, run_id, trajectory.id, full):
            out.add(Match(position, "fact", full))
        if out:
            return sorted(out, key=_order)
    for position, fact_id in facts_q.versions_matching(db, run_id, trajectory.id, q):
        out.add(Match(position, "fact", fact_id))
    for position, obs_id in facts_q.observations_matching(db, run_id, trajectory.id, q):
        out.add(Match(position, "observation", obs_id))
    for a in trajectory.arrivals():
        if q in f"{a.document.title}\n{a.document.text}".casefold():
            out.add(Match(a.position, "document"))
    return sorted(out, key=_order)


def _order(m: Match) -> tuple:
    return (m.position, KIND_ORDER.get(m.kind, 3), m.key)


def next_match(matches: list[Match], position: int) -> int:
    """Index of the first match at or after ``position`` (wrapping to the first), -1 if none."""
    if not matches:
        return -1
    return next((n for n, m in enumerate(matches) if m.position >= position), 0)
