"""Trajectory stepper (view 2): what each expected claim's read returned after this document, and,
when scored, what the reader concluded and the verdict (docs/metrics.md#read-time-state)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from seorap.engine.store.database import facts_at, loads
from seorap.engine.store.queries.catalog import readable_names
from seorap.engine.store.queries.writes import last_position_of, read_lookups_at
from seorap.engine.views.common import latest_card


@dataclass(frozen=True)
class ReadHit:
    fact_id: str
    text: str
    score: float


@dataclass(frozen=True)
class ReadTime:
    source: str
    """``own search`` (the system's) or ``hybrid`` (seorap's over its facts)."""
    hits: tuple[ReadHit, ...]
    reading: str | None = None
    """What the reader concluded from the hits (None: this read was not scored — only the reads
    after a state's last document are)."""
    label: str | None = None
    stale: bool = False
    query: str = ""
    """The slot question the lookup asked (the claim without its values); empty for a lookup
    stored before slot questions (asked with the claim itself)."""


def read_times(
    db: Database,
    run_id: str,
    trajectory_id: str,
    position: int,
    state_index: int,
    texts: dict[str, str] | None = None,
) -> dict[str, ReadTime]:
    """expected claim -> its read after the document at ``position`` ({} for older runs);
    ``texts``: fact id -> text at that position when the caller has read them already."""
    if "read_lookups" not in readable_names(db):
        return {}
    rows = read_lookups_at(db, run_id, trajectory_id, position)
    if not rows:
        return {}
    last = _last_of_state(db, run_id, trajectory_id, state_index) == position
    judged = _judged(db, run_id, trajectory_id, state_index) if last else {}
    if texts is None:
        texts = {f.id: f.text for f in facts_at(db, run_id, trajectory_id, position)}
    out = {}
    for r in rows:
        hits = tuple(
            ReadHit(h["id"], h.get("text", texts.get(h["id"], "")), float(h.get("score") or 0.0))
            for h in loads(r["hits"], [])
        )
        j = judged.get(r["item"])
        out[r["claim"]] = ReadTime(
            r["source"] or "",
            hits,
            j.get("reading") if j else None,
            j.get("label") if j else None,
            bool(j.get("stale")) if j else False,
            r.get("query") or (j.get("query") if j else "") or "",
        )
    return out


def _last_of_state(db: Database, run_id: str, trajectory_id: str, state_index: int) -> int | None:
    return last_position_of(db, run_id, trajectory_id, state_index)


def _judged(db: Database, run_id: str, trajectory_id: str, state_index: int) -> dict[str, dict]:
    """item -> the scored read of this state (latest scoring), from the score card."""
    card = latest_card(db, run_id, trajectory_id)
    rows = (card.get("read_time") or {}).get("rows") or []
    return {r["item"]: r for r in rows if r.get("state_index") == state_index}
