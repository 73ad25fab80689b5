"""The quadrant's reason told from the claim journey (engine/scoring/journey.py): where the lost
claims were lost and why, from the evidence each stage stored; written into a trajectory's diagnosis
when the run is scored (docs/metrics.md#claim-journey)."""

from __future__ import annotations

from collections.abc import Sequence

from seorap.engine.scoring import extrinsic
from seorap.engine.scoring.journey import STAGES


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _why_lost(stage: str, claims: list[dict]) -> str:
    """What went wrong at ``stage`` for these claims, from their stored evidence."""
    if stage == "kept":
        stale = any(c["stages"]["kept"].get("why") == "stale value still active" for c in claims)
        return "the stale value stayed active" if stale else "dropped at a later state"
    if stage == "retrieved":
        ranks = [
            f"{c['item']} {'rank ' + str(q['rank']) if q.get('rank') else 'not in the top 10'}"
            f" for {q['question']}"
            for c in claims
            for q in c["stages"]["retrieved"].get("per_question", [])
            if not q["ok"]
        ]
        return f"ranked outside the top {extrinsic.TOP_K} ({', '.join(ranks[:3])})"
    if stage == "used":
        missing = sorted(
            {
                q["missing"]
                for c in claims
                for q in c["stages"]["used"].get("per_question", [])
                if q.get("missing")
            }
        )
        return "the answer left out its value" + (f" ({', '.join(missing[:3])})" if missing else "")
    held = [
        c["stages"]["stored"] for c in claims if c["stages"]["stored"].get("why") == "quarantined"
    ]
    if stage == "stored" and held:
        return f"its only observation was quarantined ({held[0].get('quarantine', '')})"
    return {
        "said": "no document lists it",
        "extracted": "no observation of its document states it",
        "stored": "no fact covered it after its document",
        "credited": "the answer was not judged YES",
    }[stage]


def story(quadrant: str | None, claims: Sequence[dict]) -> str | None:
    """The quadrant told from the claims' loss points: ``compensation: 3 claims lost at kept — the
    stale value stayed active — yet the answer was right``; None when no claim was lost."""
    lost: dict[str, list[dict]] = {}
    for c in claims:
        if c.get("loss"):
            lost.setdefault(c["loss"], []).append(c)
    if not lost:
        return None
    parts = [
        f"{_plural(len(cs), 'claim')} lost at {s} — {_why_lost(s, cs)}"
        for s in STAGES
        if (cs := lost.get(s))
    ]
    tail = " — yet the answer was right" if quadrant == "compensation" else ""
    return f"{quadrant or 'no quadrant'}: " + "; ".join(parts) + tail


def retell(diagnosis: str, quadrant: str | None, journey: dict) -> str:
    """The trajectory's diagnosis with the story of its journey (a card's ``journey`` block) between
    its figures and its detail (``intrinsic 0.80, extrinsic 1.00 — <story>; <detail>``); unchanged
    when no claim was lost."""
    told = story(quadrant, journey["claims"])
    if told is None:
        return diagnosis
    head, _, detail = diagnosis.partition(" — ")
    if quadrant in ("compensation", "bottleneck") or not detail:
        return f"{head} — {told}" + (f"; {detail}" if detail else "")
    return f"{head} — {detail.rstrip('.')}; {told.partition(': ')[2]}"
