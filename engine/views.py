"""Headless read models for the app (SPEC §6): what each screen shows, as plain dataclasses.

Every function here reads the run database (engine.store schema) and the corpus, and returns frozen
dataclasses; none of them imports Textual, so the same views serve the app, tests and benchmarks.
Scoring tables (verdicts, answers, scores...) are optional: when they are absent or empty the views
say so (``scored=False``) instead of inventing figures — the screens then show
"not scored yet — run `seorap score`".

Text in these views is untrusted document/model text; the app renders it literally.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

import sqlite_utils

from engine.corpus import CATEGORY_NAMES, Corpus, Trajectory
from engine.store import facts_at, loads

NOT_SCORED = "not scored yet — run `seorap score`"
REFERENCE_SYSTEMS = ("oracle", "oracle-stale", "oracle-merged", "raw")
QUADRANTS = ("healthy", "compensation", "bottleneck", "both-low")
JUDGE_MODES = ("full", "filter")
"""`full`: the judge sees every active fact; `filter`: only facts above the similarity θ."""
DELTA_LABEL = "Δ (int−ext)"
"""The signed difference everywhere in the app: intrinsic − extrinsic."""
MARKS = {"create": "NEW", "update": "UPDATED", "reinforce": "REINFORCED", "supersede": "UPDATED"}


# ---------------------------------------------------------------------------------------------
# small pure helpers


@lru_cache(maxsize=65536)
def bigrams(text: str) -> frozenset[str]:
    """Character bigrams per whitespace token, punctuation stripped (single chars kept); cached
    (the stepper compares the same claims and lines on every step)."""
    out: set[str] = set()
    for token in re.sub(r"[^\w]+", " ", text.lower()).split():
        out.update(token[i:i + 2] for i in range(len(token) - 1)) if len(token) > 1 else out.add(token)
    return frozenset(out)


def containment(needle: str, haystack: str) -> float:
    """Share of ``needle``'s bigrams found in ``haystack`` (0..1): a cheap lexical 'states it'."""
    grams = bigrams(needle)
    return len(grams & bigrams(haystack)) / len(grams) if grams else 0.0


def quadrant(intrinsic: float | None, extrinsic: float | None, cut: float = 0.5) -> str | None:
    """SPEC §5.3 quadrant of one trajectory; None when either score is missing."""
    if intrinsic is None or extrinsic is None:
        return None
    if intrinsic >= cut and extrinsic >= cut:
        return "healthy"
    if extrinsic >= cut:
        return "compensation"
    if intrinsic >= cut:
        return "bottleneck"
    return "both-low"


def has_rows(db: sqlite_utils.Database, table: str, where: str = "", args: Iterable = ()) -> bool:
    if table not in db.table_names():
        return False
    sql = f"SELECT 1 FROM [{table}]" + (f" WHERE {where}" if where else "") + " LIMIT 1"
    return next(db.query(sql, list(args)), None) is not None


def columns(db: sqlite_utils.Database, table: str) -> set[str]:
    return set(db[table].columns_dict) if table in db.table_names() else set()


# ---------------------------------------------------------------------------------------------
# runs and trajectories (view 1)


@dataclass(frozen=True)
class RunSummary:
    run_id: str
    system: str
    status: str
    created_at: str
    documents: int
    facts: int
    scored: bool

    @property
    def reference(self) -> bool:
        return self.system in REFERENCE_SYSTEMS


@dataclass(frozen=True)
class TrajectoryRow:
    run_id: str
    system: str
    trajectory_id: str
    title: str
    category: str
    difficulty: str
    trajectory_type: str
    documents_done: int
    documents_total: int
    intrinsic: float | None
    extrinsic: float | None

    @property
    def delta(self) -> float | None:
        """Intrinsic − extrinsic (the paper's and the report's signed difference,
        engine.scoring.stats.signed_mean): positive when the store looks better than the answers."""
        if self.intrinsic is None or self.extrinsic is None:
            return None
        return self.intrinsic - self.extrinsic

    @property
    def quadrant(self) -> str | None:
        return quadrant(self.intrinsic, self.extrinsic)

    def haystack(self) -> str:
        return " ".join([self.trajectory_id, self.title, self.system, self.run_id,
                         self.category, CATEGORY_NAMES.get(self.category, ""), self.difficulty,
                         self.trajectory_type, self.quadrant or ""]).lower()


def list_runs(db: sqlite_utils.Database) -> list[RunSummary]:
    docs = _count_by_run(db, "documents")
    facts = _count_by_run(db, "facts")
    scored = set(_scores_table(db))
    return [RunSummary(r["run_id"], r["system"] or "?", r["status"] or "", r["created_at"] or "",
                       docs.get(r["run_id"], 0), facts.get(r["run_id"], 0),
                       any(k[0] == r["run_id"] for k in scored))
            for r in db.query("SELECT * FROM runs ORDER BY created_at, run_id")]


def _count_by_run(db: sqlite_utils.Database, table: str) -> dict[str, int]:
    return {r["run_id"]: r["n"] for r in
            db.query(f"SELECT run_id, COUNT(*) AS n FROM [{table}] GROUP BY run_id")}


def trajectory_rows(db: sqlite_utils.Database, corpus: Corpus,
                    run_ids: Iterable[str] | None = None) -> list[TrajectoryRow]:
    """One row per (run, trajectory) of the corpus, scores from the scoring tables when present."""
    runs = list_runs(db)
    wanted = set(run_ids) if run_ids is not None else {r.run_id for r in runs}
    done = {(r["run_id"], r["trajectory_id"]): r["n"] for r in db.query(
        "SELECT run_id, trajectory_id, COUNT(*) AS n FROM documents GROUP BY run_id, trajectory_id")}
    scores = _scores_table(db)
    rows = []
    for run in (r for r in runs if r.run_id in wanted):
        for t in corpus.trajectories:
            intrinsic, extrinsic = scores.get((run.run_id, t.id), (None, None))
            rows.append(TrajectoryRow(
                run.run_id, run.system, t.id, t.title, t.category, t.difficulty, t.trajectory_type,
                done.get((run.run_id, t.id), 0), sum(1 for _ in t.arrivals()), intrinsic, extrinsic))
    return rows


def filter_rows(rows: Iterable[TrajectoryRow], text: str = "", category: str | None = None,
                difficulty: str | None = None, quadrant_: str | None = None) -> list[TrajectoryRow]:
    """Pure filter: free text over ids/titles/system, and exact category/difficulty/quadrant."""
    words = text.lower().split()
    return [r for r in rows
            if (category is None or r.category == category)
            and (difficulty is None or r.difficulty == difficulty)
            and (quadrant_ is None or r.quadrant == quadrant_)
            and all(w in r.haystack() for w in words)]


SORT_KEYS = ("trajectory", "category", "difficulty", "intrinsic", "extrinsic", "delta", "system")


def sort_rows(rows: Iterable[TrajectoryRow], key: str, reverse: bool = False) -> list[TrajectoryRow]:
    """Sort by one of SORT_KEYS; rows without a score go last either way."""
    attr = {"trajectory": "trajectory_id"}.get(key, key)
    rows = list(rows)
    present = [r for r in rows if getattr(r, attr) is not None]
    missing = [r for r in rows if getattr(r, attr) is None]
    return sorted(present, key=lambda r: (getattr(r, attr), r.trajectory_id), reverse=reverse) + missing


# ---------------------------------------------------------------------------------------------
# scoring tables (owned by engine.scoring; read defensively, absent = not scored)


def latest_scoring(db: sqlite_utils.Database, run_id: str) -> str | None:
    """The most recent scoring setup name of a run (e.g. ``lexical+extractive``), or None."""
    if "scores" not in db.table_names():
        return None
    row = next(db.query("SELECT scoring FROM scores WHERE run_id=? AND trajectory_id != '' "
                        "ORDER BY created_at DESC LIMIT 1", [run_id]), None)
    return row["scoring"] if row else None


def score_cards(db: sqlite_utils.Database) -> dict[tuple[str, str], dict]:
    """(run, trajectory) -> the latest score card (SCORING's JSON), for every scored trajectory."""
    if not {"run_id", "trajectory_id", "card"} <= columns(db, "scores"):
        return {}
    out: dict[tuple[str, str], dict] = {}
    for r in db.query("SELECT * FROM scores WHERE trajectory_id != '' ORDER BY created_at"):
        out[(r["run_id"], r["trajectory_id"])] = {**(loads(r["card"], {}) or {}),
                                                  "scoring": r["scoring"]}
    return out


def _scores_table(db: sqlite_utils.Database) -> dict[tuple[str, str], tuple[float | None, float | None]]:
    """(run, trajectory) -> (intrinsic full, extrinsic compound), as the quadrant uses them."""
    return {key: (card.get("intrinsic_full"), (card.get("extrinsic") or {}).get("compound"))
            for key, card in score_cards(db).items()}


# ---------------------------------------------------------------------------------------------
# trajectory stepper (view 2)


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
class DocLine:
    text: str
    claim: str | None
    """The docClaim this line states (bigram containment ≥ 0.6), if any."""
    spans: tuple[tuple[int, int], ...] = ()
    """(start, end) character offsets in ``text`` of the docClaims' key phrases: every stretch of
    ≥ 6 characters the line shares with a docClaim, and the claims' numbers (sorted, disjoint)."""


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
    """The staleClaim this active fact still states (SCORING's rule, lexical ``holds``), if any."""


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
    written = {r["position"] for r in db.query(
        "SELECT position FROM documents WHERE run_id=? AND trajectory_id=?", [run_id, trajectory.id])}
    out, latest = [], ""
    for a in trajectory.arrivals():
        state = trajectory.states[a.state_index]
        out.append(TimelineEntry(
            a.position, a.state_index, a.document.id, a.document.type, a.document.title,
            a.timestamp, "distractor" if a.is_distractor else state.action, a.is_distractor,
            a.position in written, bool(latest) and a.timestamp < latest and not a.is_distractor))
        latest = max(latest, a.timestamp)
    return out


MIN_SPAN = 6
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


def shared_spans(line: str, claim: str, min_len: int = MIN_SPAN) -> list[tuple[int, int]]:
    """Maximal stretches of ``line`` (≥ ``min_len`` characters, outer spaces trimmed) that also
    occur in ``claim``, left to right, non-overlapping (pure; seeds by ``min_len``-grams)."""
    if len(claim) < min_len:
        return []
    grams = {claim[i:i + min_len] for i in range(len(claim) - min_len + 1)}
    spans, i = [], 0
    while i <= len(line) - min_len:
        if line[i:i + min_len] not in grams:
            i += 1
            continue
        j = i + min_len
        while j < len(line) and line[i:j + 1] in claim:
            j += 1
        start, end = i, j
        while start < end and line[start].isspace():
            start += 1
        while end > start and line[end - 1].isspace():
            end -= 1
        if end - start >= min_len:
            spans.append((start, end))
        i = j
    return spans


def number_spans(line: str, claim: str) -> list[tuple[int, int]]:
    """Where the claim's numbers (3, 3.5, 2026-03 parts, 14:00) appear in the line as whole numbers."""
    wanted = set(_NUMBER.findall(claim))
    return [m.span() for m in _NUMBER.finditer(line) if m.group() in wanted]


def merge_spans(spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    out: list[list[int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return tuple((a, b) for a, b in out)


def claim_spans(line: str, doc_claims: list[str]) -> tuple[tuple[int, int], ...]:
    """The docClaims' key phrases in one line: shared stretches ≥ 6 characters and numbers."""
    return merge_spans(span for c in doc_claims
                       for span in shared_spans(line, c) + number_spans(line, c))


def doc_lines(text: str, doc_claims: list[str], threshold: float = 0.6) -> list[DocLine]:
    """Split a document into lines, mark the lines that state a docClaim and the spans that
    carry a docClaim's key phrase (pure; cached: stepping back and forth re-reads documents)."""
    return list(_doc_lines(text, tuple(doc_claims), threshold))


@lru_cache(maxsize=512)
def _doc_lines(text: str, doc_claims: tuple[str, ...], threshold: float) -> tuple[DocLine, ...]:
    out = []
    for line in text.split("\n"):
        best = max(doc_claims, key=lambda c: containment(c, line), default=None)
        hit = best if best is not None and line.strip() and containment(best, line) >= threshold else None
        out.append(DocLine(line, hit, claim_spans(line, list(doc_claims)) if doc_claims else ()))
    return tuple(out)


def step_view(db: sqlite_utils.Database, corpus: Corpus, run_id: str, trajectory_id: str,
              position: int = 0, judge_mode: str = "full") -> StepView:
    """Everything the stepper shows for one arrival position of one trajectory in one run."""
    t = corpus.get(trajectory_id)
    line = timeline(db, run_id, t)
    position = max(0, min(position, len(line) - 1))
    arrival = next(a for a in t.arrivals() if a.position == position)
    state, doc = t.states[arrival.state_index], arrival.document
    doc_claims = [] if arrival.is_distractor else list(state.doc_claims)
    stale = _stale_claims_until(t, arrival.state_index)
    store = _store_at(db, run_id, t.id, position, stale)
    verdicts = claim_verdicts(db, run_id, t.id, arrival.state_index, judge_mode)
    return StepView(
        run_id, t.id, t.title, t.category, t.difficulty, t.trajectory_type, position,
        arrival.state_index, line, doc.title, doc.type,
        f"{doc.author.name} ({doc.author.role})" if doc.author.role else doc.author.name,
        arrival.timestamp, arrival.is_distractor, line[position].action,
        doc_lines(doc.text, doc_claims), doc_claims, stale, line[position].written,
        operations_at(db, run_id, t.id, position), _failures_at(db, run_id, t.id, position),
        store, _claim_rows(state.claims, doc_claims, store, verdicts), judge_mode,
        verdicts is not None)


def _stale_claims_until(t: Trajectory, state_index: int) -> list[str]:
    """Stale claims of every state up to this one that the current claims do not hold again
    (SCORING's rule: engine.scoring.metrics.stale_claims_at)."""
    from engine.scoring import metrics

    return metrics.stale_claims_at([s.claims for s in t.states], [s.stale_claims for s in t.states],
                                   state_index)


def stale_fact_ids(facts: dict[str, str], stale: list[str]) -> list[str]:
    """Ids of the active facts {id: text} that still state a stale claim: SCORING's own rule
    (engine.scoring.metrics.stale_facts with engine.scoring.lexical.holds, as the score card's
    stale-fact count uses it), so the app and the report always agree."""
    from engine.scoring import lexical, metrics

    return metrics.stale_facts(facts, stale, lexical.holds)


def _store_at(db, run_id: str, trajectory_id: str, position: int, stale: list[str]) -> list[StoreFact]:
    from engine.scoring import lexical

    facts = facts_at(db, run_id, trajectory_id, position)
    flagged = set(stale_fact_ids({f.id: f.text for f in facts if f.status == "active"}, stale))
    out = []
    for f in facts:
        changed = f.position == position
        mark = ("SUPERSEDED" if f.status != "active" else MARKS.get(f.operation, f.operation.upper())) \
            if changed else ""
        hit = next((c for c in stale if lexical.holds(c, f.text)), None) if f.id in flagged else None
        out.append(StoreFact(f.id, f.text, f.confidence, f.status, f.version, mark, hit))
    out.sort(key=lambda f: (f.status != "active", f.id))
    return out


def operations_at(db, run_id: str, trajectory_id: str, position: int) -> list[Operation]:
    obs = {r["id"]: r for r in db.query(
        "SELECT * FROM observations WHERE run_id=? AND trajectory_id=? AND position=? ORDER BY seq",
        [run_id, trajectory_id, position])}
    decisions = list(db.query(
        "SELECT * FROM decisions WHERE run_id=? AND trajectory_id=? AND position=? ORDER BY rowid",
        [run_id, trajectory_id, position]))
    out = [_operation(d, obs.get(d["observation_id"])) for d in decisions]
    decided = {d["observation_id"] for d in decisions}
    out += [_operation(None, o) for oid, o in obs.items() if oid not in decided]
    return out


def _operation(d: dict | None, o: dict | None) -> Operation:
    d = d or {}
    cands = [Candidate(c.get("fact_id", ""), c.get("text", ""), c.get("similarity"))
             for c in loads(d.get("candidates"), [])][:3]
    return Operation(
        (o or {}).get("id", d.get("observation_id", "")), (o or {}).get("text", ""),
        (o or {}).get("category", "") or "", cands, d.get("raw_operation") or "",
        d.get("operation") or "", d.get("guard") or "", d.get("guard_effect") or "",
        d.get("fact_id") or "", _as_text(d.get("before")), _as_text(d.get("after")),
        d.get("reason") or "")


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


def _snapshot(value) -> str:
    if isinstance(value, dict):
        text = str(value.get("text", ""))
        conf = value.get("confidence")
        status = "" if value.get("status", "active") == "active" else f" [{value['status']}]"
        return (f"{text} ({conf:.2f})" if isinstance(conf, (int, float)) else text) + status
    return "" if value is None else str(value)


def short_id(fact_id: str) -> str:
    """The last segment of a fact id (ids are ``run/trajectory/f0005``)."""
    return str(fact_id).rsplit("/", 1)[-1]


def _failures_at(db, run_id: str, trajectory_id: str, position: int) -> list[str]:
    return [f"{r['stage']}: {r['reason']}" for r in db.query(
        "SELECT * FROM write_failures WHERE run_id=? AND trajectory_id=? AND position=?",
        [run_id, trajectory_id, position])]


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


def claim_verdicts(db, run_id: str, trajectory_id: str, state_index: int,
                   judge_mode: str) -> dict[str, Verdict] | None:
    """expected claim -> verdict for one state and judge mode (latest scoring); None if unscored."""
    scoring = latest_scoring(db, run_id)
    if scoring is None or "verdicts" not in db.table_names():
        return None
    rows = list(db.query(
        "SELECT * FROM verdicts WHERE run_id=? AND trajectory_id=? AND scoring=? AND kind='claim' "
        "AND setup=? AND state_index=?", [run_id, trajectory_id, scoring, judge_mode, state_index]))
    if not rows:
        return None
    over = human_overrides(db, [r["id"] for r in rows])
    return {r["expected"]: _verdict(r, over.get(r["id"])) for r in rows}


def _verdict(r: dict, override: dict | None) -> Verdict:
    shown = loads(r.get("candidate"), []) if (r.get("candidate") or "").startswith("[") else []
    label = override["label"] if override else r["label"]
    rationale = r.get("rationale") or ""
    if override:
        rationale = f"overridden by {override.get('who')}: {override.get('reason')} (judge: {r['label']}) · {rationale}"
    return Verdict(r["id"], label or "?", rationale, shown, bool(override), r["label"] or "")


def human_overrides(db, verdict_ids: list[str]) -> dict[str, dict]:
    """verdict id -> its latest human override (SCORING's `overrides` table), if any."""
    if not verdict_ids or "verdict_id" not in columns(db, "overrides"):
        return {}
    marks = ",".join("?" * len(verdict_ids))
    return {r["verdict_id"]: r for r in db.query(
        f"SELECT * FROM overrides WHERE verdict_id IN ({marks}) ORDER BY id", verdict_ids)}


def _claim_rows(claims: list[str], doc_claims: list[str], store: list[StoreFact],
                verdicts: dict[str, Verdict] | None) -> list[ClaimRow]:
    active = [f for f in store if f.status == "active"]
    out = []
    for c in claims:
        v = (verdicts or {}).get(c)
        pool = [f for f in active if f.text in v.shown] if v else active
        best = max(pool, key=lambda f: containment(c, f.text), default=None)
        matched = [best.id] if best is not None and containment(c, best.text) >= (0.5 if v else 0.8) else []
        out.append(ClaimRow(c, c in doc_claims, v.label if v else None, bool(v and v.overridden),
                            matched, v.rationale if v else "", v.id if v else "",
                            len(v.shown) if v else None))
    return out


# ---------------------------------------------------------------------------------------------
# fact history (view 3)


@dataclass(frozen=True)
class FactVersion:
    version: int
    position: int
    state_index: int
    operation: str
    text: str
    confidence: float
    status: str
    observation: str
    doc_id: str
    doc_title: str
    doc_date: str
    authors: list[str]


@dataclass(frozen=True)
class FactHistory:
    run_id: str
    trajectory_id: str
    fact_id: str
    versions: list[FactVersion]


def fact_history(db, corpus: Corpus, run_id: str, fact_id: str) -> FactHistory:
    """Every version of one fact with the observation and document that produced it."""
    rows = list(db.query(
        "SELECT v.*, o.text AS obs_text, o.doc_id AS obs_doc FROM fact_versions v "
        "LEFT JOIN observations o ON o.id = v.observation_id "
        "WHERE v.run_id=? AND v.fact_id=? ORDER BY v.version", [run_id, fact_id]))
    trajectory_id = rows[0]["trajectory_id"] if rows else ""
    docs = _documents_by_position(corpus, trajectory_id)
    versions = []
    for r in rows:
        doc_id, title = docs.get(r["position"], ("", ""))
        versions.append(FactVersion(
            r["version"], r["position"], r["state_index"], r["operation"] or "", r["text"] or "",
            r["confidence"] or 0.0, r["status"] or "", r["obs_text"] or "", r["obs_doc"] or doc_id,
            title, r["doc_date"] or "", loads(r["authors"], [])))
    return FactHistory(run_id, trajectory_id, fact_id, versions)


def _documents_by_position(corpus: Corpus, trajectory_id: str) -> dict[int, tuple[str, str]]:
    try:
        t = corpus.get(trajectory_id)
    except KeyError:
        return {}
    return {a.position: (a.document.id, a.document.title) for a in t.arrivals()}


# ---------------------------------------------------------------------------------------------
# questions and retrieval (view 4)


@dataclass(frozen=True)
class RankedFact:
    fact_id: str
    text: str
    bm25: float
    bm25_norm: float
    dense: float
    hybrid: float
    rank: int
    holds_answer: bool


@dataclass(frozen=True)
class QuestionRow:
    kind: str
    """compound | single."""
    item: str
    question: str
    expected: str
    answer: str
    """The memory answer at top-5."""
    verdict: str | None
    verdict_id: str
    rationale: str
    overridden: bool
    ranking: list[RankedFact]
    depth: dict[int, float | None]
    """k -> judged score of the memory answer with the top-k facts (the depth curve)."""
    baselines: dict[str, str]
    """source (naive-rag, full-context, no-context) -> verdict label."""

    @property
    def answer_ranks(self) -> list[int]:
        return [h.rank for h in self.ranking if h.holds_answer]


@dataclass(frozen=True)
class QuestionsView:
    run_id: str
    trajectory_id: str
    scored: bool
    questions: list[QuestionRow]
    live: str = ""
    """Non-empty when the rankings were computed live (no stored retrievals): names the embedder
    and says that answers and verdicts need `seorap score`."""


def questions_view(db, run_id: str, trajectory_id: str, top_k: int = 5) -> QuestionsView:
    """Each question with its ranking (BM25/dense/hybrid), answer-holding ranks, answer, verdict."""
    scoring = latest_scoring(db, run_id)
    if scoring is None or not {"verdicts", "retrievals", "answers"} <= set(db.table_names()):
        return QuestionsView(run_id, trajectory_id, False, [])
    if not has_rows(db, "retrievals", "run_id=? AND trajectory_id=? AND scoring=?",
                    [run_id, trajectory_id, scoring]):
        return QuestionsView(run_id, trajectory_id, False, [])
    key = [run_id, trajectory_id, scoring]
    verdicts = list(db.query("SELECT * FROM verdicts WHERE run_id=? AND trajectory_id=? AND "
                             "scoring=? AND kind != 'claim'", key))
    rankings = {r["item"]: r for r in db.query(
        "SELECT * FROM retrievals WHERE run_id=? AND trajectory_id=? AND scoring=? AND "
        "source='memory'", key)}
    answers = {(r["item"], r["source"], r["k"]): r["answer"] for r in db.query(
        "SELECT * FROM answers WHERE run_id=? AND trajectory_id=? AND scoring=?", key)}
    over = human_overrides(db, [v["id"] for v in verdicts])
    items = sorted({(v["kind"], v["item"]) for v in verdicts}, key=lambda x: (x[0] != "compound", x[1]))
    out = [_question(kind, item, [v for v in verdicts if v["item"] == item], rankings.get(item),
                     answers, over, top_k) for kind, item in items]
    return QuestionsView(run_id, trajectory_id, True, out)


def live_questions_view(db, corpus: Corpus, run_id: str, trajectory_id: str, embedder=None,
                        settings=None) -> QuestionsView:
    """The questions of a trajectory ranked live over the run's final active facts with
    engine.retrieval.HybridIndex.explain (BM25 / dense / hybrid / rank per fact), for a run with no
    stored retrievals. Answer-holding facts are those SCORING's lexical ruler relates to the
    expected answer (engine.scoring.lexical.related). No answer or verdict is invented: both stay
    empty until `seorap score`. ``embedder`` defaults to the offline hashing embedder."""
    import numpy as np

    from engine.retrieval import HybridIndex
    from engine.scoring.extrinsic import questions as trajectory_questions
    from engine.scoring.lexical import related

    if embedder is None:
        from engine.models.embedders import HashingEmbedder
        embedder = HashingEmbedder()
    t = corpus.get(trajectory_id)
    facts = [f for f in facts_at(db, run_id, trajectory_id) if f.status == "active"]
    qs = trajectory_questions(t)
    index = None
    if facts:
        vectors = np.asarray(embedder.embed([f.text for f in facts]), dtype=np.float32)
        index = HybridIndex.from_settings([f.id for f in facts], [f.text for f in facts], vectors,
                                          settings)
    qvecs = np.asarray(embedder.embed([q.question for q in qs]), dtype=np.float32) if qs else []
    out = []
    for q, qvec in zip(qs, qvecs):
        hits = index.explain(q.question, qvec) if index is not None else []
        ranking = [RankedFact(h.fact_id, h.text, h.bm25, h.bm25_norm, h.dense, h.hybrid, h.rank,
                              related(q.answer, h.text)) for h in hits]
        out.append(QuestionRow(q.kind, q.item, q.question, q.answer, "", None, "", "", False,
                               ranking, {}, {}))
    name = getattr(embedder, "name", type(embedder).__name__)
    note = (f"ranking computed live over {len(facts)} active facts (embedder {name}); "
            f"answers and verdicts: {NOT_SCORED}")
    return QuestionsView(run_id, trajectory_id, False, out, note)


def filter_questions(questions: Iterable[QuestionRow], text: str = "") -> list[QuestionRow]:
    """Pure filter: every word of ``text`` (case-insensitive) in the question, its expected answer,
    the memory answer, the item id, the kind or the verdict."""
    words = text.lower().split()
    return [q for q in questions
            if all(w in " ".join([q.kind, q.item, q.question, q.expected, q.answer,
                                  q.verdict or ""]).lower() for w in words)]


def _question(kind, item, rows, retrieval, answers, over, top_k) -> QuestionRow:
    memory = {v["k"]: v for v in rows if v["source"] == "memory"}
    main = memory.get(top_k) or next(iter(memory.values()), rows[0])
    holders = set(loads(retrieval["answer_fact_ids"], [])) if retrieval else set()
    ranking = [RankedFact(h["fact_id"], h["text"], h["bm25"], h["bm25_norm"], h["dense"],
                          h["hybrid"], h["rank"], h["fact_id"] in holders)
               for h in (loads(retrieval["ranking"], []) if retrieval else [])]
    o = over.get(main["id"])
    return QuestionRow(
        kind, item, main["question"] or "", main["expected"] or "",
        answers.get((item, "memory", main["k"]), main.get("candidate") or ""),
        o["label"] if o else main["label"], main["id"], main["rationale"] or "", bool(o), ranking,
        {k: v["score"] for k, v in sorted(memory.items()) if k is not None},
        {v["source"]: v["label"] for v in rows if v["source"] != "memory"})


# ---------------------------------------------------------------------------------------------
# score cards (view 5): engine.scoring.report does the figures, CIs included


def run_report(db, run_id: str, resamples: int | None = None):
    """SCORING's RunReport for one run (None when the run is not scored or scoring is absent)."""
    try:
        from engine.scoring import report
    except ImportError:
        return None
    kwargs = {} if resamples is None else {"resamples": resamples}
    return report.run_report(db, run_id, **kwargs)


# ---------------------------------------------------------------------------------------------
# compare (view 8): what flipped between two runs


@dataclass(frozen=True)
class Flip:
    trajectory_id: str
    kind: str
    """claim | question | fact."""
    item: str
    text: str
    a: str
    b: str
    """Labels (verdicts) or presence ('held' / '—') in run A and run B."""


def compare_runs(db, corpus: Corpus, run_a: str, run_b: str, judge_mode: str = "full") -> list[Flip]:
    """Claims (final state, judge mode), questions (top-5) whose verdict moved, and final facts
    held by one run and not the other (exact text)."""
    flips: list[Flip] = []
    for t in corpus.trajectories:
        flips += _verdict_flips(db, t.id, run_a, run_b, judge_mode)
        flips += _fact_flips(db, t.id, run_a, run_b)
    return flips


def _final_verdicts(db, run_id, trajectory_id, judge_mode) -> dict[tuple[str, str], tuple[str, str]]:
    scoring = latest_scoring(db, run_id)
    if scoring is None:
        return {}
    out = {}
    for v in db.query("SELECT * FROM verdicts WHERE run_id=? AND trajectory_id=? AND scoring=? AND "
                      "((kind='claim' AND setup=?) OR (source='memory' AND k=5))",
                      [run_id, trajectory_id, scoring, judge_mode]):
        kind = "claim" if v["kind"] == "claim" else "question"
        out[(kind, v["item"])] = (v["expected"] if kind == "claim" else v["question"], v["label"])
    return out


def _verdict_flips(db, trajectory_id, run_a, run_b, judge_mode) -> list[Flip]:
    a = _final_verdicts(db, run_a, trajectory_id, judge_mode)
    b = _final_verdicts(db, run_b, trajectory_id, judge_mode)
    return [Flip(trajectory_id, key[0], key[1], a[key][0], a[key][1], b[key][1])
            for key in sorted(a.keys() & b.keys()) if a[key][1] != b[key][1]]


def _fact_flips(db, trajectory_id, run_a, run_b) -> list[Flip]:
    held_a = {f.text for f in facts_at(db, run_a, trajectory_id) if f.status == "active"}
    held_b = {f.text for f in facts_at(db, run_b, trajectory_id) if f.status == "active"}
    return ([Flip(trajectory_id, "fact", "", t, "held", "—") for t in sorted(held_a - held_b)]
            + [Flip(trajectory_id, "fact", "", t, "—", "held") for t in sorted(held_b - held_a)])


# ---------------------------------------------------------------------------------------------
# demo tour (view 7): the run's own compensation and bottleneck cases


@dataclass(frozen=True)
class TourStop:
    quadrant: str
    run_id: str
    system: str
    trajectory_id: str
    title: str
    intrinsic: float | None
    extrinsic: float | None
    diagnosis: str
    """SCORING's diagnosis sentence for this trajectory, built from this run's data."""


def demo_tour(db, corpus: Corpus) -> dict[str, TourStop | None]:
    """For 'compensation' and 'bottleneck': the scored trajectory with the widest gap, any run."""
    cards = score_cards(db)
    systems = {r.run_id: r.system for r in list_runs(db)}
    out: dict[str, TourStop | None] = {}
    for q in ("compensation", "bottleneck"):
        hits = [(k, c) for k, c in cards.items() if c.get("quadrant") == q]
        hits.sort(key=lambda kc: (-abs(kc[1].get("signed_diff") or 0), kc[0]))
        out[q] = _tour_stop(q, hits[0], systems, corpus) if hits else None
    return out


def _tour_stop(q, hit, systems, corpus) -> TourStop:
    (run_id, trajectory_id), card = hit
    try:
        title = corpus.get(trajectory_id).title
    except KeyError:
        title = trajectory_id
    return TourStop(q, run_id, systems.get(run_id, "?"), trajectory_id, title,
                    card.get("intrinsic_full"), (card.get("extrinsic") or {}).get("compound"),
                    card.get("diagnosis") or "")


# ---------------------------------------------------------------------------------------------
# demo tour fallback: "store wrong, answer right" caught by the stale-fact count


@dataclass(frozen=True)
class StaleFactRow:
    fact_id: str
    text: str
    stale_claims: list[str]
    """The trajectory's stale claims this fact still states (SCORING's lexical ``holds``)."""


@dataclass(frozen=True)
class AnsweredQuestion:
    kind: str
    item: str
    question: str
    answer: str
    verdict: str | None


@dataclass(frozen=True)
class StaleCase:
    """A trajectory whose final store holds stale facts (SCORING's count > 0) while its answers
    scored extrinsic ≥ 0.5: the store is wrong, the answer right, yet it is not in the compensation
    quadrant because intrinsic coverage is recall-only. Every figure and text is the run's own."""

    run_id: str
    system: str
    trajectory_id: str
    title: str
    quadrant: str | None
    intrinsic: float | None
    extrinsic: float | None
    stale_count: int
    """The stored stale-fact count of the trajectory's score card (final state)."""
    stale_facts: list[StaleFactRow]
    questions: list[AnsweredQuestion]
    current_run: bool
    """True when the case comes from the run the app has selected."""


def _stale_count(card: dict) -> int:
    return int((card.get("intrinsic") or {}).get("stale_facts") or 0)


def stale_case(db, corpus: Corpus, current_run: str | None = None, cut: float = 0.5) -> StaleCase | None:
    """The trajectory with stale facts > 0 and extrinsic ≥ ``cut``: from ``current_run`` when it has
    one, else from any scored run; highest extrinsic, then most stale facts, then ids."""
    systems = {r.run_id: r.system for r in list_runs(db)}
    hits = [(k, c) for k, c in score_cards(db).items()
            if _stale_count(c) > 0 and ((c.get("extrinsic") or {}).get("compound") or 0) >= cut
            and k[1] in {t.id for t in corpus.trajectories}]
    if not hits:
        return None
    hits.sort(key=lambda kc: (kc[0][0] != current_run, -(kc[1]["extrinsic"]["compound"]),
                              -_stale_count(kc[1]), kc[0]))
    (run_id, trajectory_id), card = hits[0]
    t = corpus.get(trajectory_id)
    questions = [AnsweredQuestion(q.kind, q.item, q.question, q.answer, q.verdict)
                 for q in questions_view(db, run_id, trajectory_id).questions]
    return StaleCase(run_id, systems.get(run_id, "?"), trajectory_id, t.title, card.get("quadrant"),
                     card.get("intrinsic_full"), card["extrinsic"]["compound"], _stale_count(card),
                     _stale_rows(db, t, run_id, (card.get("intrinsic") or {}).get("stale_fact_ids") or []),
                     questions, run_id == current_run)


def _stale_rows(db, t: Trajectory, run_id: str, fact_ids: list[str]) -> list[StaleFactRow]:
    """The stored stale facts (ids from the score card) with the stale claims each still states."""
    from engine.scoring import lexical, metrics

    last = len(t.states) - 1
    stale = metrics.stale_claims_at([s.claims for s in t.states], [s.stale_claims for s in t.states], last)
    facts = {f.id: f.text for f in facts_at(db, run_id, t.id)}
    return [StaleFactRow(fid, facts.get(fid, ""), [c for c in stale if lexical.holds(c, facts.get(fid, ""))])
            for fid in fact_ids]


# ---------------------------------------------------------------------------------------------
# score cards: the re-scoring diff full vs filter (SPEC §5.4)


@dataclass(frozen=True)
class MovedVerdict:
    change: str
    """credited | penalised | unparseable (engine.scoring.rulers classes)."""
    trajectory_id: str
    item: str
    text: str
    before: str
    after: str


@dataclass(frozen=True)
class RulerDiff:
    before: str
    after: str
    counts: dict[str, int]
    moved: list[MovedVerdict]


def full_vs_filter_diff(db, run_id: str, scoring: str | None = None) -> RulerDiff | None:
    """Every claim verdict the similarity filter moved in one run's (latest) scoring, classified
    by engine.scoring.rulers; None when the run is not scored."""
    try:
        from engine.scoring.rulers import full_vs_filter
    except ImportError:
        return None
    scoring = scoring or latest_scoring(db, run_id)
    if scoring is None:
        return None
    diff = full_vs_filter(db, run_id, scoring)
    return RulerDiff("full", "filter", diff.counts(), [
        MovedVerdict(m["change"], m["trajectory_id"], m["item"], m["text"] or "", m["from"] or "",
                     m["to"] or "") for m in diff.moved()])
