"""Every (claim, fact text) verdict the views show for one run, gathered view by view: the stored
verdicts themselves (table ``holdings``), the read-time hits (engine/views/readtime.py through the
stepper), the claim journey's stages (engine/views/verdicts.py), the stepper's stale marks and
retrieval marks (engine/views/stepper.py, the ranking as the questions view shows it) and the
tour's cases (engine/views/demo.py); and, fact by fact, the stale facts each view names (stepper,
score card and its diagnosis, questions view). Used by tests/test_views_one_verdict.py; a helper,
not a test module."""

from __future__ import annotations

import re
from collections import defaultdict

from seorap.engine.corpus import Corpus
from seorap.engine.scoring import metrics
from seorap.engine.store.database import facts_at
from seorap.engine.views import step_view
from seorap.engine.views.common import latest_card
from seorap.engine.views.demo import demo_tour, stale_case
from seorap.engine.views.holdings import held_for
from seorap.engine.views.questions import questions_view
from seorap.engine.views.stepper import _stale_claims_until
from seorap.engine.views.verdicts import claim_journeys

STORED = "stored verdict"
JUDGED = {"read-time hit", "journey stored"}
"""Views whose mark is the judge's claim verdict (stored in ``verdicts``; it resolves relative dates
against the documents' dates and reads the corpus glossary), not the stored (claim, text) one."""


def pairs(
    db, corpus: Corpus, run_id: str, only: set[str] | None = None
) -> dict[tuple[str, str], dict[str, bool]]:
    """(claim, text) -> {view name: does it hold}: one entry per view that says something
    (``only``: these trajectory ids)."""
    out: dict[tuple[str, str], dict[str, bool]] = defaultdict(dict)
    for t in corpus.trajectories:
        if only is not None and t.id not in only:
            continue
        for (claim, text), held in held_for(db, run_id, t.id).pairs.items():
            _put(out, claim, text, STORED, held)
        _read_time(db, t, run_id, out)
        _journey(db, t, run_id, out)
        _stepper(db, corpus, t, run_id, out)
    _tour(db, corpus, run_id, out, only)
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
    rankings = {q.item: q.ranking for q in questions_view(db, run_id, t.id).questions}
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
        for c in step.claims:
            _retrieval_mark(c, rankings, out)


def _retrieval_mark(c, rankings, out) -> None:
    """A claim row's retrieval mark (its path: question, rank, fact) against that question's
    ranking as the questions view shows it: the fact at the rank states the claim, every fact
    ranked above it does not (no rank: none of the top ten does)."""
    p = c.path
    if p is None or p.question is None or p.question not in rankings:
        return
    ranking = sorted(rankings[p.question], key=lambda h: h.rank)[:10]
    above = ranking if p.rank is None else ranking[: p.rank - 1]
    for h in above:
        _put(out, c.claim, h.text, "stepper retrieval mark", False)
    if p.rank is not None:
        hit = ranking[p.rank - 1]
        assert hit.fact_id == p.ranked_fact, (c.claim, p)
        _put(out, c.claim, hit.text, "stepper retrieval mark", True)


def _tour(db, corpus, run_id, out, only) -> None:
    """The tour's cases of this run: each lost claim's named fact (kept: the stale one still
    active; retrieved: the best-ranked), and the stale case's facts with the stale claims each
    states (and those it does not)."""
    stops = [s for s in demo_tour(db, corpus).values() if s is not None and s.run_id == run_id]
    for stop in stops:
        if only is not None and stop.trajectory_id not in only:
            continue
        t = corpus.get(stop.trajectory_id)
        for claim, path in stop.lost:
            if path.loss == "kept" and path.fact is not None and "still states" in path.why:
                position, fid = path.fact
                text = next(f.text for f in facts_at(db, run_id, t.id, position) if f.id == fid)
                _put(out, claim, text, "tour", True)
    case = stale_case(db, corpus, current_run=run_id)
    if (
        case is None
        or case.run_id != run_id
        or (only is not None and case.trajectory_id not in only)
    ):
        return
    t = corpus.get(case.trajectory_id)
    last = len(t.states) - 1
    stale = metrics.stale_claims_at(
        [s.claims for s in t.states], [s.stale_claims for s in t.states], last
    )
    for row in case.stale_facts:
        for c in stale:
            _put(out, c, row.text, "tour stale case", c in row.stale_claims)


def stale_fact_views(db, corpus: Corpus, run_id: str, t) -> dict[str, frozenset[str]]:
    """The final store's stale facts as each view names them: the stepper's marks at the last
    document of the last state, the score card (the diagnosis and the tour read it), the questions
    view's ranking marks."""
    card = latest_card(db, run_id, t.id)
    last = _last_of(t, len(t.states) - 1)
    step = step_view(db, corpus, run_id, t.id, last)
    return {
        "stepper": frozenset(f.id for f in step.stale_facts),
        "score card": frozenset((card.get("intrinsic") or {}).get("stale_fact_ids") or ()),
        "questions view": questions_view(db, run_id, t.id).stale_ids,
    }


def diagnosis_stale_count(card: dict) -> int | None:
    """The stale-fact count a bottleneck diagnosis states ("the store holds N stale fact(s)")."""
    m = re.search(r"the store holds (\d+) stale fact", card.get("diagnosis") or "")
    return int(m.group(1)) if m else None


def _last_of(t, state_index: int) -> int:
    return max(a.position for a in t.arrivals() if a.state_index == state_index)


def _text(db, run_id, t, fact_id: str, state_index: int) -> str:
    position = _last_of(t, state_index)
    return next(f.text for f in facts_at(db, run_id, t.id, position) if f.id == fact_id)
