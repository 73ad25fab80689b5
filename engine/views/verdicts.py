"""Trajectory stepper (view 2): the judge's claim verdicts for one state, human overrides applied."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from seorap.engine.store.database import loads
from seorap.engine.store.queries.catalog import readable_names
from seorap.engine.store.queries.scores import run_card
from seorap.engine.store.queries.verdicts import claim_verdicts_at
from seorap.engine.views.common import human_overrides, latest_card, latest_scoring


@dataclass(frozen=True)
class Verdict:
    id: str
    label: str
    rationale: str
    shown: list[str]
    """The fact texts the judge saw (all active facts under ``full``, the filtered ones under
    ``filter``)."""
    overridden: bool = False
    raw_label: str = ""
    best_cosine: float | None = None
    """filter@θ: the claim's highest cosine with any active fact (NULL in older databases)."""
    best_fact: str = ""
    threshold: float | None = None
    """filter@θ: θ of the scoring pass."""


def claim_verdicts(
    db: Database, run_id: str, trajectory_id: str, state_index: int, judge_mode: str
) -> dict[str, Verdict] | None:
    """expected claim -> verdict for one state and judge mode (latest scoring); None if unscored."""
    scoring = latest_scoring(db, run_id)
    if scoring is None or "verdicts" not in readable_names(db):
        return None
    rows = claim_verdicts_at(db, run_id, trajectory_id, scoring, judge_mode, state_index)
    if not rows:
        return None
    over = human_overrides(db, [r["id"] for r in rows])
    theta = _threshold(db, run_id, scoring) if judge_mode == "filter" else None
    return {r["expected"]: _verdict(r, over.get(r["id"]), theta) for r in rows}


def _threshold(db: Database, run_id: str, scoring: str) -> float | None:
    card = run_card(db, run_id, scoring)
    return (loads(card, {}) or {}).get("filter_threshold") if card is not None else None


def _verdict(r: dict, override: dict | None, threshold: float | None = None) -> Verdict:
    shown = loads(r.get("candidate"), []) if (r.get("candidate") or "").startswith("[") else []
    label = override["label"] if override else r["label"]
    rationale = r.get("rationale") or ""
    if override:
        rationale = f"overridden by {override.get('who')}: {override.get('reason')} (judge: {r['label']}) · {rationale}"
    return Verdict(
        r["id"],
        label or "?",
        rationale,
        shown,
        bool(override),
        r["label"] or "",
        r.get("best_cosine"),
        r.get("best_fact") or "",
        threshold,
    )


def claim_journeys(db: Database, run_id: str, trajectory_id: str) -> dict[str, dict]:
    """expected claim -> its journey (engine/scoring/journey.py) from the latest scoring's card;
    empty when unscored or scored before the journey."""
    journey = latest_card(db, run_id, trajectory_id).get("journey")
    return {c["claim"]: c for c in (journey or {}).get("claims", [])}
