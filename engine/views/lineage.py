"""Lineage (stepper, fact history): which fact replaced which, where and why.

Read from the stored successor link (``fact_versions.successor_id``, docs/store.md), never guessed:
a superseding version names the fact that replaced it (``""``: nothing did, the value was retracted);
a database written before the link existed has NULL there and the views say "unknown". The reason
is the one recorded with the decision that superseded the fact (the model's or the reference rule's)
plus the temporal guard's effect, if any.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from seorap.engine.store.database import loads
from seorap.engine.store.queries.facts import supersede_decisions, supersedes

UNKNOWN = "unknown"
"""What a link says when the database predates stored lineage."""


@dataclass(frozen=True)
class Link:
    """One supersede: ``old`` was replaced by ``new`` at arrival ``position``."""

    old: str
    new: str | None
    """The replacing fact id; "" when nothing replaced it; None when not recorded (older database)."""
    position: int
    reason: str = ""
    guard_effect: str = ""

    @property
    def known(self) -> bool:
        return self.new is not None

    def why(self) -> str:
        """Reason and guard effect in one phrase ("" when neither was recorded)."""
        parts = [
            p for p in (self.reason, f"guard {self.guard_effect}" if self.guard_effect else "") if p
        ]
        return "; ".join(parts)


@dataclass(frozen=True)
class Lineage:
    """Every supersede of one (run, trajectory), both ways."""

    successor: dict[str, Link]
    """old fact id -> the link naming what replaced it."""
    replaces: dict[str, list[Link]]
    """new fact id -> the links of the facts it replaced."""

    def upto(self, position: int) -> Lineage:
        """The links made at or before an arrival position (the store as it stood then)."""
        succ = {k: v for k, v in self.successor.items() if v.position <= position}
        reps = {k: [v for v in vs if v.position <= position] for k, vs in self.replaces.items()}
        return Lineage(succ, {k: v for k, v in reps.items() if v})


def lineage(db: Database, run_id: str, trajectory_id: str) -> Lineage:
    """Every recorded supersede of a trajectory with the decision's reason and guard effect."""
    rows = supersedes(db, run_id, trajectory_id)
    why = _reasons(db, run_id, trajectory_id)
    successor: dict[str, Link] = {}
    replaces: dict[str, list[Link]] = {}
    for r in rows:
        reason, effect = why.get((r["position"], r["fact_id"]), ("", ""))
        link = Link(r["fact_id"], r["successor_id"], r["position"], reason, effect)
        successor[r["fact_id"]] = link
        if link.new:
            replaces.setdefault(link.new, []).append(link)
    return Lineage(successor, replaces)


def _reasons(
    db: Database, run_id: str, trajectory_id: str
) -> dict[tuple[int, str], tuple[str, str]]:
    """(position, superseded fact id) -> (reason, guard effect) of the supersede decision: the
    model's decision names the new fact and carries the old one in ``before``; a reference system's
    names the old fact itself."""
    out: dict[tuple[int, str], tuple[str, str]] = {}
    for d in supersede_decisions(db, run_id, trajectory_id):
        value = (d["reason"] or "", d["guard_effect"] or "")
        for snap in loads(d["before"], []) or []:
            if isinstance(snap, dict) and snap.get("id"):
                out.setdefault((d["position"], snap["id"]), value)
        out.setdefault((d["position"], d["fact_id"] or ""), value)
    return out


def successor_text(link: Link | None, doc: int | None = None) -> str:
    """'superseded by f0003 at doc 3', 'superseded at doc 3, nothing replaced it',
    'superseded at doc 3, by unknown (recorded before lineage was stored)'. ``doc`` is 1-based."""
    if link is None:
        return ""
    at = f" at doc {doc if doc is not None else link.position + 1}"
    if link.new is None:
        return f"superseded{at}, replaced by {UNKNOWN} (database written before lineage was stored)"
    if not link.new:
        return f"superseded{at}; nothing replaced it (retracted)"
    return f"superseded by {short(link.new)}{at}"


def replaces_text(links: list[Link]) -> str:
    """'replaces f0001' / 'replaces f0001, f0002'."""
    return "replaces " + ", ".join(short(l.old) for l in links) if links else ""


def short(fact_id: str) -> str:
    return str(fact_id).rsplit("/", 1)[-1]
