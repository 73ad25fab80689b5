"""Judge audit: feed the judge deliberately wrong answers built from the ground truth (docs/metrics.md).

Items are every single question's answer and every final claim (a claim is graded as the answer
to "what is the current state?"). Per item, the kinds built (a kind is skipped where it cannot be
built):

- ``hedged``: the right value next to a wrong one, "<right>, 혹은 <wrong>일 수도 있다"; the wrong
  value is the item with every number changed (n -> n+1, dates by 10 days), or, without numbers, a
  stale claim of the trajectory;
- ``wrong-date``: a date in the item (``M월 D일``, optionally with ``YYYY년``, or ``YYYY-MM-DD``)
  moved by 8-13 days (seeded generator, forward or back);
- ``vague``: the topic without any value: "<subject> 건은 논의를 거쳐 일정과 내용이 조정되었고 현재
  진행 중이다.";
- ``context-free``: the configured answerer's answer to the question with no context at all;
- ``correct`` (control): the expected answer itself — should pass.

A wrong answer "passes" when judged YES. Pass rates per kind should be near 0 (``correct`` near 1);
PARTIAL saturation = share of PARTIAL among the parseable verdicts of the wrong kinds.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from sqlite_utils import Database

from engine.corpus import Corpus, Trajectory
from engine.scoring.verdict import tally

KINDS = ("hedged", "wrong-date", "vague", "context-free", "correct")
WRONG_KINDS = KINDS[:-1]
_KO_DATE = re.compile(r"(?:(\d{4})년\s*)?(\d{1,2})월\s*(\d{1,2})일")
_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_NUM = re.compile(r"\d+")


@dataclass(frozen=True)
class AuditItem:
    trajectory_id: str
    kind: str
    question: str
    expected: str
    answer: str


def _year(trajectory: Trajectory) -> int:
    return trajectory.final.when.year


def shift_dates(text: str, days: int, year: int) -> str | None:
    """The text with its first date moved by ``days``; None when it has no date."""
    m = _ISO_DATE.search(text)
    if m:
        d = date(int(m[1]), int(m[2]), int(m[3])) + timedelta(days=days)
        return text[: m.start()] + d.isoformat() + text[m.end():]
    m = _KO_DATE.search(text)
    if not m:
        return None
    try:
        d = date(int(m[1] or year), int(m[2]), int(m[3])) + timedelta(days=days)
    except ValueError:
        return None
    new = (f"{d.year}년 " if m[1] else "") + f"{d.month}월 {d.day}일"
    return text[: m.start()] + new + text[m.end():]


def wrong_value(text: str, trajectory: Trajectory, year: int) -> str | None:
    moved = shift_dates(text, 10, year)
    if moved is not None:
        return moved
    if _NUM.search(text):
        return _NUM.sub(lambda m: str(int(m[0]) + 1), text)
    stale = [c for s in trajectory.states for c in s.stale_claims]
    return stale[0] if stale else None


def items_for(trajectory: Trajectory, answerer, rng: random.Random) -> list[AuditItem]:
    year = _year(trajectory)
    pairs = [(q.question, q.answer) for q in trajectory.single_qa]
    pairs += [(f"{trajectory.subject or trajectory.title}의 현재 상황은?", c) for c in trajectory.final.claims]
    out = []
    for question, expected in pairs:
        add = lambda kind, answer: out.append(AuditItem(trajectory.id, kind, question, expected, answer))  # noqa: E731
        wrong = wrong_value(expected, trajectory, year)
        if wrong and wrong != expected:
            add("hedged", f"{expected}, 혹은 {wrong}일 수도 있다")
        days = rng.randint(8, 13) * rng.choice((-1, 1))
        moved = shift_dates(expected, days, year)
        if moved is not None:
            add("wrong-date", moved)
        add("vague", f"{trajectory.subject or trajectory.title} 건은 논의를 거쳐 일정과 내용이 조정되었고 현재 진행 중이다.")
        add("context-free", answerer.answer(question, []))
        add("correct", expected)
    return out


@dataclass
class AuditResult:
    judge: str
    by_kind: dict[str, dict] = field(default_factory=dict)
    """kind -> {n, yes, partial, no, unparseable, pass_rate, partial_or_better}."""
    partial_saturation: float | None = None
    verdicts: list[dict] = field(default_factory=list)


def run_audit(corpus: Corpus, judge, answerer, *, seed: int = 0) -> AuditResult:
    rng = random.Random(seed)
    rows = []
    for trajectory in corpus.trajectories:
        for item in items_for(trajectory, answerer, rng):
            v = judge.grade_answer(item.question, item.expected, item.answer)
            rows.append({"trajectory_id": item.trajectory_id, "kind": item.kind, "question": item.question,
                         "expected": item.expected, "candidate": item.answer, "label": v.label,
                         "score": v.score, "rationale": v.rationale, "call_key": v.call_key,
                         "cached": int(v.cached)})
    result = AuditResult(judge=judge.name, verdicts=rows)
    for kind in KINDS:
        t = tally(r["label"] for r in rows if r["kind"] == kind)
        parsed = t.yes + t.partial + t.no
        result.by_kind[kind] = {"n": t.n, "yes": t.yes, "partial": t.partial, "no": t.no,
                                "unparseable": t.unparseable,
                                "pass_rate": t.yes / parsed if parsed else None,
                                "partial_or_better": (t.yes + t.partial) / parsed if parsed else None}
    wrong = tally(r["label"] for r in rows if r["kind"] in WRONG_KINDS)
    result.partial_saturation = wrong.partial_share
    return result


def save_audit(db: Database, result: AuditResult, audit_id: str) -> None:
    """Store the audit's verdicts (run_id = ``audit_id``, kind = ``audit:<kind>``)."""
    from engine.scoring.tables import ensure_tables, now, row_id

    ensure_tables(db)
    db.execute("DELETE FROM verdicts WHERE run_id=? AND scoring=?", [audit_id, result.judge])
    created = now()
    db.table("verdicts").insert_all([
        {**{k: v for k, v in r.items() if k != "kind"}, "kind": f"audit:{r['kind']}",
         "id": row_id(audit_id, result.judge, n), "run_id": audit_id, "scoring": result.judge,
         "judge": result.judge, "setup": "audit", "source": "audit", "k": None, "state_index": None,
         "item": str(n), "created_at": created}
        for n, r in enumerate(result.verdicts)], replace=True)
