"""Trajectory stepper (view 2)."""

from __future__ import annotations

from dataclasses import dataclass

import sqlite_utils
from sqlite_utils import Database

from seorap.engine.corpus import Corpus, Trajectory
from seorap.engine.corpus.trajectory import Arrival
from seorap.engine.scoring import holding, lexical, metrics
from seorap.engine.scoring.holding import Held
from seorap.engine.store.database import facts_at
from seorap.engine.store.queries.facts import positions_matching
from seorap.engine.store.queries.writes import written_positions
from seorap.engine.views.claim_path import ClaimPath, card_journeys, card_paths, contested
from seorap.engine.views.common import MARKS, containment, latest_card
from seorap.engine.views.doclines import DocLine, doc_lines
from seorap.engine.views.holdings import held_for
from seorap.engine.views.lineage import Lineage, Link, lineage
from seorap.engine.views.operations import Operation, _failures_at, operations_at
from seorap.engine.views.readtime import ReadTime, read_times
from seorap.engine.views.truth import (
    GroundTruth,
    LateMark,
    OpCount,
    ground_truth,
    late_mark,
    op_count,
)
from seorap.engine.views.verdicts import Verdict, claim_verdicts


@dataclass(frozen=True)
class TimelineEntry:
    position: int
    state_index: int
    doc_id: str
    doc_type: str
    title: str
    timestamp: str
    action: str
    is_distractor: bool
    written: bool
    late: bool
    """The document is dated before a document that arrived earlier (late-arriving)."""


@dataclass(frozen=True)
class StoreFact:
    id: str
    text: str
    confidence: float
    status: str
    version: int
    mark: str
    """NEW | UPDATED | REINFORCED | SUPERSEDED when this step changed the fact, else ''."""
    stale: str | None
    """The staleClaim this active fact still states (the (claim, text) verdict stored at score time,
    engine/scoring/holding.py), if any."""
    successor: Link | None = None
    """For a superseded fact: the stored link to what replaced it (and why)."""
    replaces: tuple[Link, ...] = ()
    """The facts this one replaced (links made up to this step)."""
    change: str = ""
    """Why this step changed the fact: the decision's reason and guard effect ("" when unchanged)."""


@dataclass(frozen=True)
class ClaimRow:
    claim: str
    is_doc_claim: bool
    verdict: str | None
    """YES | PARTIAL | NO | UNPARSEABLE from the judge; None when not scored."""
    overridden: bool
    matched: list[str]
    """The fact that best states the claim among those the judge saw (bigram containment ≥ 0.5);
    unscored: an active fact containing ≥ 0.8 of the claim's bigrams."""
    rationale: str
    verdict_id: str = ""
    shown: int | None = None
    """How many facts the judge saw for this claim (None when unscored)."""
    best_cosine: float | None = None
    """filter@θ: the claim's highest cosine with any active fact (stored with the verdict)."""
    best_fact: str = ""
    """filter@θ: the fact id that cosine came from."""
    threshold: float | None = None
    """filter@θ: θ (None under full)."""
    read: ReadTime | None = None
    """What this claim's read returned after this document (None: not recorded)."""
    journey: dict | None = None
    """The claim's journey from the score card (engine/scoring/journey.py); None: not recorded."""
    path: ClaimPath | None = None
    """The journey as the stepper shows and follows it (engine/views/claim_path.py)."""
    contested: str | None = None
    """"who: reason" when the gold ledger contests this claim (docs/metrics.md#gold-ledger)."""


@dataclass(frozen=True)
class StepView:
    run_id: str
    trajectory_id: str
    title: str
    category: str
    difficulty: str
    trajectory_type: str
    position: int
    state_index: int
    timeline: list[TimelineEntry]
    doc_title: str
    doc_type: str
    doc_author: str
    doc_date: str
    is_distractor: bool
    expected_action: str
    lines: list[DocLine]
    doc_claims: list[str]
    stale_claims: list[str]
    written: bool
    operations: list[Operation]
    failures: list[str]
    store: list[StoreFact]
    claims: list[ClaimRow]
    judge_mode: str
    scored: bool
    truth: GroundTruth | None = None
    """The corpus's change for this state (None for a distractor)."""
    ops: OpCount | None = None
    """Expected vs applied operation and how op accuracy counts it (None for a distractor)."""
    late: LateMark | None = None
    """Set when the document is dated before one that arrived earlier."""
    links: Lineage = Lineage({}, {})
    """Supersedes recorded up to this step."""
    stale_checked: bool = True
    """False when the store's facts were not checked against the stale claims (``step_view``'s
    ``stale_checks``: the judge was still loading and no verdict was stored); no fact is marked
    stale then."""
    verdicts_note: str = ""
    """How the stale marks' (claim, text) verdicts were had: "" when stored at score time under
    today's rules, else in words (computed on read for a run scored before they were stored, or
    not scored; stored under older rules)."""

    @property
    def entry(self) -> TimelineEntry:
        return self.timeline[self.position]

    @property
    def last_position(self) -> int:
        return len(self.timeline) - 1

    @property
    def stale_facts(self) -> list[StoreFact]:
        return [f for f in self.store if f.stale and f.status == "active"]


def timeline(db: sqlite_utils.Database, run_id: str, trajectory: Trajectory) -> list[TimelineEntry]:
    written = written_positions(db, run_id, trajectory.id)
    out, latest = [], ""
    for a in trajectory.arrivals():
        state = trajectory.states[a.state_index]
        out.append(
            TimelineEntry(
                a.position,
                a.state_index,
                a.document.id,
                a.document.type,
                a.document.title,
                a.timestamp,
                "distractor" if a.is_distractor else state.action or "",
                a.is_distractor,
                a.position in written,
                bool(latest) and a.timestamp < latest and not a.is_distractor,
            )
        )
        latest = max(latest, a.timestamp)
    return out


def step_view(
    db: sqlite_utils.Database,
    corpus: Corpus,
    run_id: str,
    trajectory_id: str,
    position: int = 0,
    judge_mode: str = "full",
    stale_checks: bool = True,
) -> StepView:
    """Everything the stepper shows for one arrival position of one trajectory in one run;
    ``stale_checks`` False: no fact checked against the stale claims (``StepView.stale_checked``)."""
    t = corpus.get(trajectory_id)
    line = timeline(db, run_id, t)
    position = max(0, min(position, len(line) - 1))
    arrival = next(a for a in t.arrivals() if a.position == position)
    state, doc = t.states[arrival.state_index], arrival.document
    doc_claims = [] if arrival.is_distractor else list(state.doc_claims)
    stale = _stale_claims_until(t, arrival.state_index)
    links = lineage(db, run_id, t.id).upto(position)
    when = arrival.timestamp
    operations = operations_at(db, run_id, t.id, position, document=doc.text, date=when)
    store, held = _store_at(db, run_id, t.id, position, stale, stale_checks, links, operations)
    verdicts = claim_verdicts(db, run_id, t.id, arrival.state_index, judge_mode)
    entry, truth, ops = line[position], None, None
    if not arrival.is_distractor:
        truth = ground_truth(t, arrival.state_index)
        ops = op_count(state.action or "", [o.operation for o in operations], entry.written)
    return StepView(
        run_id,
        t.id,
        t.title,
        t.category or "",
        t.difficulty or "",
        t.trajectory_type or "",
        position,
        arrival.state_index,
        line,
        doc.title,
        doc.type,
        f"{doc.author.name} ({doc.author.role})" if doc.author.role else doc.author.name,
        arrival.timestamp,
        arrival.is_distractor,
        entry.action,
        doc_lines(doc.text, doc_claims),
        doc_claims,
        stale,
        entry.written,
        operations,
        _failures_at(db, run_id, t.id, position),
        store,
        _claims_at(db, corpus, run_id, t, arrival, doc_claims, store, verdicts),
        judge_mode,
        verdicts is not None,
        truth,
        ops,
        _late_at(db, run_id, t.id, position, arrival.timestamp, entry, operations),
        links,
        stale_checked=stale_checks or held.stored or not stale,
        verdicts_note=held.note,
    )


def _late_at(
    db: Database,
    run_id: str,
    trajectory_id: str,
    position: int,
    timestamp: str,
    entry: TimelineEntry,
    operations: list[Operation],
) -> LateMark | None:
    """The late-arrival mark of a document that arrived late and was written, else None."""
    if not (entry.late and entry.written):
        return None
    return late_mark(
        db,
        run_id,
        trajectory_id,
        position,
        timestamp,
        [(o.guard, o.guard_effect) for o in operations],
    )


def _claims_at(
    db: Database,
    corpus: Corpus,
    run_id: str,
    t: Trajectory,
    arrival: Arrival,
    doc_claims: list[str],
    store: list[StoreFact],
    verdicts: dict[str, Verdict] | None,
) -> list[ClaimRow]:
    """The claims pane's rows: each expected claim of the arrival's state with its verdict, its
    read-time lookup, its journey and whether it is contested."""
    card = latest_card(db, run_id, t.id) if verdicts is not None else {}
    return _claim_rows(
        t.states[arrival.state_index].claims,
        doc_claims,
        store,
        verdicts,
        read_times(
            db,
            run_id,
            t.id,
            arrival.position,
            arrival.state_index,
            {f.id: f.text for f in store},
        ),
        card_journeys(card) if verdicts is not None else None,
        card_paths(card, t),  # under the card's judge: engine/views/claim_path.py
        contested(db, corpus, t.id),
    )


def _stale_claims_until(t: Trajectory, state_index: int) -> list[str]:
    """Stale claims of every state up to this one that the current claims do not hold again
    (the scoring rule: engine.scoring.metrics.stale_claims_at)."""

    return metrics.stale_claims_at(
        [s.claims for s in t.states], [s.stale_claims for s in t.states], state_index
    )


def judge_apart() -> None:
    """From now on the lexical judge's morpheme analyser runs in a child process, started here
    and warming up at once (engine.scoring.lexical.analyser): a program that must keep answering
    (the app) never holds its interpreter for kiwipiepy's seconds of loading. Nothing happens when
    the analyser is loaded in this process already."""

    if not lexical.warm():
        lexical.use_process()


def judge_pause() -> None:
    """Stop the analyser process's warm-up while a person types (a judgement resumes it)."""

    lexical.pause_process()


def judge_resume() -> None:
    lexical.resume_process()


judge_no_wait = lexical.no_wait
"""In this block, a judgement that would wait for the analyser process raises JudgeNotReady."""
JudgeNotReady = lexical.NotReady


def warm_judge() -> None:
    """Load the lexical judge's morpheme analyser (kiwipiepy: about 1.5 s building its model, then
    about 3 s on its first sentence) so that the first stale-fact check a screen makes does not
    pay for it; the app calls this in a worker once it has been idle for a moment."""

    lexical.holds("서랍을 열었다", "서랍을 열었다")


def judge_warm() -> bool:
    """The lexical judge is loaded (by ``warm_judge`` or by any judging before it): a stale-fact
    check no longer waits seconds for it."""

    return lexical.warm()


def stale_fact_ids(
    facts: dict[str, str], stale: list[str], holds: metrics.Holds = holding.verdict
) -> list[str]:
    """Ids of the active facts {id: text} that still state a stale claim: the scoring's own rule
    (engine.scoring.metrics.stale_facts, as the score card's stale-fact count uses it) over the
    verdicts ``holds`` gives — a view passes the stored ones (engine/views/holdings.py), so the app
    and the report always agree."""

    return metrics.stale_facts(facts, stale, holds)


def _store_at(
    db: Database,
    run_id: str,
    trajectory_id: str,
    position: int,
    stale: list[str],
    stale_checks: bool,
    links: Lineage,
    operations: list[Operation],
) -> tuple[list[StoreFact], Held]:
    """The store after ``position`` with each active fact's stale mark, read from the verdicts
    stored at score time (``held``); with none stored, computed on read unless ``stale_checks`` is
    False (the judge is still loading: no fact marked)."""
    held = held_for(db, run_id, trajectory_id)
    if not (stale_checks or held.stored):  # stored verdicts need no judge
        stale = []
    facts = facts_at(db, run_id, trajectory_id, position)
    active = {f.id: f.text for f in facts if f.status == "active"}
    flagged = set(stale_fact_ids(active, stale, held))
    why = _changes(operations, links)
    out = []
    for f in facts:
        changed = f.position == position
        mark = (
            ("SUPERSEDED" if f.status != "active" else MARKS.get(f.operation, f.operation.upper()))
            if changed
            else ""
        )
        hit = next((c for c in stale if held(c, f.text)), None) if f.id in flagged else None
        out.append(
            StoreFact(
                f.id,
                f.text,
                f.confidence,
                f.status,
                f.version,
                mark,
                hit,
                links.successor.get(f.id) if f.status != "active" else None,
                tuple(links.replaces.get(f.id, ())),
                why.get(f.id, "") if changed else "",
            )
        )
    out.sort(key=lambda f: (f.status != "active", f.id))
    return out, held


def _changes(operations: list[Operation], links: Lineage) -> dict[str, str]:
    """fact id -> why this step's decision changed it (reason; guard effect)."""
    out: dict[str, str] = {}
    said = [
        (
            op,
            "; ".join(
                p for p in (op.reason, f"guard {op.guard_effect}" if op.guard_effect else "") if p
            ),
        )
        for op in operations
        if op.fact_id
    ]
    for op, text in said:
        if text:
            out.setdefault(op.fact_id, text)
    for op, text in said:  # a model's supersede names the new fact; the old one shares its reason
        for link in (
            links.replaces.get(op.fact_id, []) if op.operation == "supersede" and text else []
        ):
            out.setdefault(link.old, text)
    return out


def _claim_rows(
    claims: list[str],
    doc_claims: list[str],
    store: list[StoreFact],
    verdicts: dict[str, Verdict] | None,
    reads: dict[str, ReadTime] | None = None,
    journeys: dict[str, dict] | None = None,
    paths: dict[str, ClaimPath] | None = None,
    contests: dict[str, str] | None = None,
) -> list[ClaimRow]:
    active = [f for f in store if f.status == "active"]
    out = []
    for c in claims:
        v = (verdicts or {}).get(c)
        pool = [f for f in active if f.text in v.shown] if v else active
        best = max(pool, key=lambda f: containment(c, f.text), default=None)
        matched = (
            [best.id]
            if best is not None and containment(c, best.text) >= (0.5 if v else 0.8)
            else []
        )
        out.append(
            ClaimRow(
                c,
                c in doc_claims,
                v.label if v else None,
                bool(v and v.overridden),
                matched,
                v.rationale if v else "",
                v.id if v else "",
                len(v.shown) if v else None,
                v.best_cosine if v else None,
                v.best_fact if v else "",
                v.threshold if v else None,
                (reads or {}).get(c),
                (journeys or {}).get(c),
                (paths or {}).get(c),
                (contests or {}).get(c),
            )
        )
    return out


def fact_positions_matching(db: Database, run_id: str, trajectory_id: str, query: str) -> set[int]:
    """Arrival positions where a fact version containing ``query`` (case-insensitive) was written."""
    return positions_matching(db, run_id, trajectory_id, query.strip().casefold())
