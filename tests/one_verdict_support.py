"""Every (claim, fact text) verdict the views show for one run, gathered view by view: the
read-time hits (engine/views/readtime.py through the stepper), the claim journey's stages
(engine/views/verdicts.py) and the stepper's stale marks (engine/views/stepper.py). Used by
tests/test_views_one_verdict.py; a helper, not a test module."""

from __future__ import annotations

from collections import defaultdict

from seorap.engine.corpus import Corpus
from seorap.engine.store.database import facts_at
from seorap.engine.views import step_view
from seorap.engine.views.common import latest_card
from seorap.engine.views.stepper import _stale_claims_until
from seorap.engine.views.verdicts import claim_journeys


def pairs(db, corpus: Corpus, run_id: str) -> dict[tuple[str, str], dict[str, bool]]:
    """(claim, text) -> {view name: does it hold}: one entry per view that says something."""
    out: dict[tuple[str, str], dict[str, bool]] = defaultdict(dict)
    for t in corpus.trajectories:
        _read_time(db, t, run_id, out)
        _journey(db, t, run_id, out)
        _stepper(db, corpus, t, run_id, out)
    return out


def _put(out, claim: str, text: str, view: str, held: bool) -> None:
    out[(claim, text)].setdefault(view, held)


def _read_time(db, t, run_id, out) -> None:
    card = latest_card(db, run_id, t.id)
    for row in (card.get("read_time") or {}).get("rows") or []:
        position = _last_of(t, row["state_index"])
        texts = {f.id: f.text for f in facts_at(db, run_id, t.id, position)}
        for h in row.get("hit_verdicts") or []:
            _put(out, row["claim"], texts[h["id"]], "read-time hit", h["label"] == "YES")


def _journey(db, t, run_id, out) -> None:
    for claim, j in claim_journeys(db, run_id, t.id).items():
        stages = j["stages"]
        stored = stages["stored"]
        if stored.get("fact") and stored["status"] == "pass":
            text = _text(db, run_id, t, stored["fact"], stored["state"])
            _put(out, claim, text, "journey stored", True)
        kept = stages["kept"]
        if kept["status"] == "fail" and kept.get("why") == "stale value still active":
            text = _text(db, run_id, t, kept["fact"], kept["state"])
            _put(out, claim, text, "journey kept", True)
        for q in stages["retrieved"].get("per_question") or []:
            if q.get("fact"):
                _put(
                    out,
                    claim,
                    _text(db, run_id, t, q["fact"], len(t.states) - 1),
                    "journey retrieved",
                    True,
                )


def _stepper(db, corpus, t, run_id, out) -> None:
    for a in t.arrivals():
        if a.is_distractor:
            continue
        step = step_view(db, corpus, run_id, t.id, a.position)
        stale = _stale_claims_until(t, a.state_index)
        for f in step.store:
            if f.status != "active":
                continue
            if f.stale is not None:
                _put(out, f.stale, f.text, "stepper stale mark", True)
                continue
            for c in stale:
                _put(out, c, f.text, "stepper stale mark", False)


def _last_of(t, state_index: int) -> int:
    return max(a.position for a in t.arrivals() if a.state_index == state_index)


def _text(db, run_id, t, fact_id: str, state_index: int) -> str:
    position = _last_of(t, state_index)
    return next(f.text for f in facts_at(db, run_id, t.id, position) if f.id == fact_id)
