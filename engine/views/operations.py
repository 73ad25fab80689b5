"""Trajectory stepper (view 2): the write path's operations, failures and fact snapshots at one step."""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlite_utils import Database

from seorap.engine.memory.grounding import ungrounded
from seorap.engine.store.database import loads
from seorap.engine.store.queries.writes import decisions_at, failures_at, observations_at


@dataclass(frozen=True)
class Candidate:
    fact_id: str
    text: str
    similarity: float | None


@dataclass(frozen=True)
class Operation:
    """One observation of this step and what the write path did with it."""

    observation_id: str
    observation: str
    category: str
    candidates: list[Candidate]
    raw_operation: str
    operation: str
    guard: str
    guard_effect: str
    fact_id: str
    before: str
    after: str
    reason: str = ""
    """The model's (or the reference system's) stated reason, when recorded."""
    before_facts: tuple[dict, ...] = ()
    """Snapshots {id, text, confidence, status, ...} of the facts before the change."""
    after_facts: tuple[dict, ...] = ()
    """Snapshots after it (a supersede: the old fact, now superseded, then the new one)."""
    ungrounded: str = ""
    """Why the observation is not grounded in its document ("the value '19:31' is not in the
    document"; engine/memory/grounding.py), or "" when it is (or no document was given)."""
    quarantined: str = ""
    """Why the run kept the observation out of the store ("loop: template (…)", "ungrounded: …";
    engine/memory/quarantine.py), as stored; "" when it was synthesised."""


def operations_at(
    db: Database,
    run_id: str,
    trajectory_id: str,
    position: int,
    document: str | None = None,
    date: str | None = None,
) -> list[Operation]:
    """The step's operations; with the ``document`` text (and its ``date``), each observation's
    grounding too."""
    obs = {r["id"]: r for r in observations_at(db, run_id, trajectory_id, position)}
    decisions = decisions_at(db, run_id, trajectory_id, position)
    out = [_operation(d, obs.get(d["observation_id"])) for d in decisions]
    decided = {d["observation_id"] for d in decisions}
    out += [_operation(None, o) for oid, o in obs.items() if oid not in decided]
    if document is None:
        return out
    return [
        replace(op, ungrounded=ungrounded(op.observation, document, date) or "")
        if op.observation
        else op
        for op in out
    ]


def _operation(d: dict | None, o: dict | None) -> Operation:
    d = d or {}
    cands = [
        Candidate(c.get("fact_id", ""), c.get("text", ""), c.get("similarity"))
        for c in loads(d.get("candidates"), [])
    ][:3]
    return Operation(
        (o or {}).get("id", d.get("observation_id", "")),
        (o or {}).get("text", ""),
        (o or {}).get("category", "") or "",
        cands,
        d.get("raw_operation") or "",
        d.get("operation") or "",
        d.get("guard") or "",
        d.get("guard_effect") or "",
        d.get("fact_id") or "",
        _as_text(d.get("before")),
        _as_text(d.get("after")),
        d.get("reason") or "",
        _snapshots(d.get("before")),
        _snapshots(d.get("after")),
        quarantined=(o or {}).get("quarantine") or "",
    )


def _snapshots(value: str | None) -> tuple[dict, ...]:
    try:
        parsed = loads(value, [])
    except ValueError:
        return ()
    parsed = parsed if isinstance(parsed, list) else [parsed]
    return tuple(p for p in parsed if isinstance(p, dict))


def _as_text(value: str | None) -> str:
    """before/after columns hold JSON (a fact snapshot) or plain text."""
    if not value:
        return ""
    try:
        parsed = loads(value)
    except ValueError:
        return value
    if isinstance(parsed, list):
        return " | ".join(_snapshot(p) for p in parsed)
    return _snapshot(parsed)


def _snapshot(value: object) -> str:
    if isinstance(value, dict):
        text = str(value.get("text", ""))
        conf = value.get("confidence")
        status = "" if value.get("status", "active") == "active" else f" [{value['status']}]"
        return (f"{text} ({conf:.2f})" if isinstance(conf, (int, float)) else text) + status
    return "" if value is None else str(value)


def short_id(fact_id: str) -> str:
    """The last segment of a fact id (ids are ``run/trajectory/f0005``)."""
    return str(fact_id).rsplit("/", 1)[-1]


def _failures_at(db: Database, run_id: str, trajectory_id: str, position: int) -> list[str]:
    return [
        f"{r['stage']}: {r['reason']}" for r in failures_at(db, run_id, trajectory_id, position)
    ]
