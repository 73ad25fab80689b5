"""Judge audit: feed the judge answers built from the ground truth whose right verdict is known, and
count what it gives them (docs/metrics.md#judge-audit).

Items are every single question's answer and every final claim (a claim is graded as the answer
to "what is the current state?"). Per item, the kinds built (a kind is skipped where it cannot be
built from that item):

wrong answers (right verdict NO):
- ``hedged``: "<right>, 혹은 <wrong>일 수도 있다"; <wrong> = the item with every number changed
  (n -> n+1, dates by 10 days), or, without numbers, a stale claim of the trajectory;
- ``multi-value``: the right value and a wrong one as an unmarked list, "<right> / <wrong>" (the
  wrong one as for ``hedged`` when the item has numbers, else its closest superseded claim);
- ``stale-firm``: the trajectory's superseded claim closest to the item, stated firmly ("확정: …");
- ``retracted``: the right statement, then retracted, cancelled or negated (three templates,
  seeded);
- ``wrong-date``: a date of the item moved by 8-13 days (seeded, forward or back);
- ``vague``: the topic without any value;
- ``context-free``: the configured answerer's answer with no context at all;

one element missing (right verdict PARTIAL):
- ``missing-one``: the last clause dropped (or, in one clause, its last value stated only once,
  never an end of a span);

controls (right verdict YES):
- ``correct``: the expected statement itself;
- ``paraphrase``: built by rule: clauses in reverse order, or the topic particle swapped
  (는 -> 가, 은 -> 이) and the ending changed (한다 -> 합니다, a bare noun + 이다).

Pass rate = YES / parseable per kind (near 0 for the wrong kinds, near 1 for the controls);
``ideal_rate`` = share of parseable verdicts that are the right verdict. PARTIAL saturation = PARTIAL
/ parseable over the wrong kinds. The lexical judge sees every item; a model judge a seeded sample
(default 20 per kind). Whether a run's figures can be trusted to its judge is decided by
diagnosis.judge_unreliable (with this audit's figures).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field
from sqlite_utils import Database

from seorap.engine.corpus import Corpus, Trajectory
from seorap.engine.scoring import audit_en, lexical
from seorap.engine.scoring import audit_heldout as heldout
from seorap.engine.scoring.tables import ensure_tables, now, row_id
from seorap.engine.scoring.verdict import tally
from seorap.engine.store import compact
from seorap.engine.store.queries.verdicts import delete_scored
from seorap.engine.store.txn import checked

if TYPE_CHECKING:
    from seorap.engine.scoring.answerers import Answerer
    from seorap.engine.scoring.judges import Judge

WRONG_KINDS = (
    "hedged",
    "multi-value",
    "stale-firm",
    "retracted",
    "wrong-date",
    "vague",
    "context-free",
    *heldout.WRONG,
)
PARTIAL_KINDS = ("missing-one",)
CONTROL_KINDS = ("correct", "paraphrase", *heldout.CONTROLS)
KINDS = WRONG_KINDS + PARTIAL_KINDS + CONTROL_KINDS
IDEAL = {
    **{k: "NO" for k in WRONG_KINDS},
    "missing-one": "PARTIAL",
    **{k: "YES" for k in CONTROL_KINDS},
}
DEFAULT_SAMPLE = 20
"""Items per kind a model judge is audited on (seeded sample); the lexical judge sees all."""

_KO_DATE = re.compile(r"(?:(\d{4})년\s*)?(\d{1,2})월\s*(\d{1,2})일")
_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_NUM = re.compile(r"\d+")
_CLAUSE = re.compile(r",(?!(?<=\d,)\d)\s*")
RETRACTIONS = (
    "{e}. 그러나 이 계획은 취소됐다.",
    "{e} — 이 내용은 철회되었다.",
    "{e}였지만 지금은 아니다.",
)


@dataclass(frozen=True)
class AuditItem:
    trajectory_id: str
    kind: str
    question: str
    expected: str
    answer: str | None
    """None for ``context-free`` until the answerer is asked (only for sampled items)."""
    answer_date: date | None = None
    """The date the answer's relative dates are read against (``week-off``)."""


def _year(trajectory: Trajectory) -> int:
    return trajectory.final.when.year


def shift_dates(text: str, days: int, year: int) -> str | None:
    """The text with its first date moved by ``days``; None when it has no date."""
    m = _ISO_DATE.search(text)
    if m:
        d = date(int(m[1]), int(m[2]), int(m[3])) + timedelta(days=days)
        return text[: m.start()] + d.isoformat() + text[m.end() :]
    m = _KO_DATE.search(text)
    if not m:
        return None
    try:
        d = date(int(m[1] or year), int(m[2]), int(m[3])) + timedelta(days=days)
    except ValueError:
        return None
    new = (f"{d.year}년 " if m[1] else "") + f"{d.month}월 {d.day}일"
    return text[: m.start()] + new + text[m.end() :]


def _stale(trajectory: Trajectory) -> list[str]:
    final = set(trajectory.final.claims)
    out: list[str] = []
    for s in trajectory.states:
        out += [c for c in s.stale_claims if c not in final and c not in out]
    return out


def wrong_value(text: str, trajectory: Trajectory, year: int) -> str | None:
    moved = shift_dates(text, 10, year)
    if moved is not None:
        return moved
    if _NUM.search(text):
        return _NUM.sub(lambda m: str(int(m[0]) + 1), text)
    stale = _stale(trajectory)
    return stale[0] if stale else None


SAME_SLOT = 0.5
"""A superseded claim counts as the item's own (same slot) when at least this share of its
character bigrams appear in the question and expected answer."""


def closest_stale(expected: str, question: str, trajectory: Trajectory) -> str | None:
    """The superseded claim that shares most with the item (character bigrams of question +
    expected); None when the trajectory has none, when it shares less than ``SAME_SLOT`` (another
    slot), or when it states the item anyway."""

    best = max(
        ((lexical.recall(c, f"{question} {expected}"), c) for c in _stale(trajectory)), default=None
    )
    if best is None or best[0] < SAME_SLOT or lexical.holds(expected, best[1]):
        return None
    return best[1]


def drop_one(expected: str) -> str | None:
    """The expected statement with one element missing: its last clause dropped, or, in a single
    clause holding two or more values, its last value that is stated only once removed (values as
    the judge reads them: 6월 15일 월요일 is one date, not a date and a weekday; a span's two ends
    are one element, never dropped). None when it has one element."""

    clauses = [c for c in _CLAUSE.split(expected) if c.strip()]
    if len(clauses) >= 2:
        return ", ".join(clauses[:-1])
    vals = [v for v in lexical.judged_values(expected) if v.type != "name"]
    if len(vals) < 2:
        return None
    ends = _span_ends(expected, vals)
    for v in reversed(vals):
        if sum(lexical.same(v, w) for w in vals) == 1 and v not in ends:
            return " ".join((expected[: v.start] + expected[v.end :]).split())
    return None


_SPAN = re.compile(r"^\s*(?:[~∼–\-]|부터|에서)\s*$")


def _span_ends(text: str, vals: list) -> list:
    """The values that end a span (오전 2시부터 7시까지, 9~11시): a span is one element, and an
    answer asked for one end of it needs no other, so neither end is dropped."""
    out = []
    for a, b in zip(vals, vals[1:], strict=False):
        if a.type == b.type and _SPAN.match(text[a.end : b.start]):
            out += [a, b]
    return out


def _has_final_consonant(ch: str) -> bool:
    return "가" <= ch <= "힣" and (ord(ch) - 0xAC00) % 28 != 0


def paraphrase(expected: str) -> str | None:
    """A correct paraphrase by rule (module docstring); None when no rule changes the text."""
    clauses = [c.strip() for c in _CLAUSE.split(expected.rstrip(". ")) if c.strip()]
    if len(clauses) >= 2:
        out = ", ".join(reversed(clauses))
        return out if out != expected else None
    text = expected.rstrip(". ")
    swapped = re.sub(
        r"(?<=[가-힣])([은는]) ", lambda m: "이 " if m[1] == "은" else "가 ", text, count=1
    )
    if swapped.endswith("한다"):
        swapped = swapped[:-2] + "합니다"
    elif swapped.endswith("했다"):
        swapped = swapped[:-2] + "했습니다"
    elif swapped and "가" <= swapped[-1] <= "힣" and not swapped.endswith("다"):
        swapped += "이다" if _has_final_consonant(swapped[-1]) else "다"
    return swapped if swapped != expected else None


def items_for(trajectory: Trajectory, rng: random.Random) -> list[AuditItem]:
    if trajectory.language != "ko":  # English wording and dates (engine/scoring/audit_en.py)
        return [AuditItem(*built) for built in audit_en.items_for(trajectory, rng)]
    year = _year(trajectory)
    pairs = [(q.question, q.answer) for q in trajectory.single_qa]
    pairs += [
        (f"{trajectory.subject or trajectory.title}의 현재 상황은?", c)
        for c in trajectory.final.claims
    ]
    out: list[AuditItem] = []
    for question, expected in pairs:

        def add(
            kind: str, answer: str | None, question: str = question, expected: str = expected
        ) -> None:
            out.append(AuditItem(trajectory.id, kind, question, expected, answer))

        wrong = wrong_value(expected, trajectory, year)
        stale = closest_stale(expected, question, trajectory)
        if wrong and wrong != expected:
            add("hedged", f"{expected}, 혹은 {wrong}일 수도 있다")
        other = wrong if wrong and wrong != expected and _NUM.search(expected) else stale
        if other:
            add("multi-value", f"{expected} / {other}")
        if stale:
            add("stale-firm", f"확정: {stale}")
        add("retracted", rng.choice(RETRACTIONS).format(e=expected.rstrip(". ")))
        days = rng.randint(8, 13) * rng.choice((-1, 1))
        moved = shift_dates(expected, days, year)
        if moved is not None:
            add("wrong-date", moved)
        add(
            "vague",
            f"{trajectory.subject or trajectory.title} 건은 논의를 거쳐 일정과 내용이 조정되었고 현재 진행 중이다.",
        )
        add("context-free", None)
        missing = drop_one(expected)
        if missing:
            add("missing-one", missing)
        add("correct", expected)
        para = paraphrase(expected)
        if para:
            add("paraphrase", para)
        asked_on = trajectory.final.when.date()
        key = f"{trajectory.id}/{question}/{expected}"
        for kind, answer, on in heldout.held_out(expected, wrong, key, year, asked_on):
            out.append(AuditItem(trajectory.id, kind, question, expected, answer, on))
    return out


class KindFigures(BaseModel):
    kind: str
    ideal: str
    """The right verdict for this kind (NO, PARTIAL or YES)."""
    n: int = 0
    yes: int = 0
    partial: int = 0
    no: int = 0
    unparseable: int = 0
    pass_rate: float | None = None
    """YES / parseable."""
    ideal_rate: float | None = None
    """Right verdicts / parseable."""
    partial_share: float | None = None
    """PARTIAL / parseable."""


class AuditFigures(BaseModel):
    judge: str
    rules: str | None = None
    """The judge's rules (lexical) or prompt version (model)."""
    seed: int = 0
    sample: int | None = None
    """Items per kind (seeded sample) for a model judge; null: every item (lexical judge)."""
    kinds: dict[str, KindFigures] = Field(default_factory=dict)
    partial_saturation: float | None = None
    """PARTIAL / parseable over the wrong kinds."""
    wrong_pass: float | None = None
    """YES / parseable over the wrong kinds pooled."""
    control_pass: float | None = None
    """YES / parseable over the controls (correct, paraphrase) pooled."""
    separation: float | None = None
    """control_pass minus the highest pass rate of any wrong kind: how well it tells right from wrong."""


@dataclass
class AuditResult:
    judge: str
    rules: str | None = None
    seed: int = 0
    sample: int | None = None
    verdicts: list[dict] = field(default_factory=list)

    @property
    def by_kind(self) -> dict[str, dict]:
        return {k: v.model_dump() for k, v in self.figures().kinds.items()}

    @property
    def partial_saturation(self) -> float | None:
        return self.figures().partial_saturation

    def figures(self) -> AuditFigures:
        return figures_from_rows(
            self.verdicts, judge=self.judge, rules=self.rules, seed=self.seed, sample=self.sample
        )


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def audit_lines(figures: AuditFigures | None) -> list[str]:
    """The audit in two report lines: pass rate (YES) per kind, then saturation and separation."""
    if figures is None:
        return []
    pct: Callable[[float | None], str] = lambda x: "—" if x is None else f"{x:.0%}"  # noqa: E731
    scope = "every item" if figures.sample is None else f"sample {figures.sample}/kind"
    kinds = [f"{k} {pct(f.pass_rate)}" for k, f in figures.kinds.items() if k in WRONG_KINDS]
    missing = figures.kinds.get("missing-one")
    controls = [f"{k} {pct(f.pass_rate)}" for k, f in figures.kinds.items() if k in CONTROL_KINDS]
    return [
        f"judge audit ({figures.judge}, {figures.rules or 'no rules version'}, {scope}), pass rate = YES: "
        + " · ".join(kinds)
        + " (should be ~0)"
        + (f" · missing-one PARTIAL {pct(missing.ideal_rate)} (should be ~100%)" if missing else "")
        + " · controls "
        + " · ".join(controls)
        + " (should be ~100%)",
        f"judge PARTIAL saturation {pct(figures.partial_saturation)} (audit wrong answers) · separation "
        f"{pct(figures.separation)} (controls minus worst wrong kind)",
    ]


def figures_from_rows(
    rows: list[dict],
    *,
    judge: str,
    rules: str | None = None,
    seed: int = 0,
    sample: int | None = None,
) -> AuditFigures:
    out = AuditFigures(judge=judge, rules=rules, seed=seed, sample=sample)
    for kind in KINDS:
        t = tally(r["label"] for r in rows if r["kind"] == kind)
        if not t.n:
            continue
        parsed = t.yes + t.partial + t.no
        right = {"YES": t.yes, "PARTIAL": t.partial, "NO": t.no}[IDEAL[kind]]
        out.kinds[kind] = KindFigures(
            kind=kind,
            ideal=IDEAL[kind],
            n=t.n,
            yes=t.yes,
            partial=t.partial,
            no=t.no,
            unparseable=t.unparseable,
            pass_rate=_share(t.yes, parsed),
            ideal_rate=_share(right, parsed),
            partial_share=_share(t.partial, parsed),
        )
    wrong = tally(r["label"] for r in rows if r["kind"] in WRONG_KINDS)
    control = tally(r["label"] for r in rows if r["kind"] in CONTROL_KINDS)
    out.partial_saturation = wrong.partial_share
    out.wrong_pass = _share(wrong.yes, wrong.yes + wrong.partial + wrong.no)
    out.control_pass = _share(control.yes, control.yes + control.partial + control.no)
    worst = [
        f.pass_rate for k, f in out.kinds.items() if k in WRONG_KINDS and f.pass_rate is not None
    ]
    if out.control_pass is not None and worst:
        out.separation = out.control_pass - max(worst)
    return out


def run_audit(
    corpus: Corpus,
    judge: Judge,
    answerer: Answerer,
    *,
    seed: int = 0,
    sample: int | None = None,
    trajectory_ids: set[str] | None = None,
) -> AuditResult:
    """Build the items, keep a seeded sample of ``sample`` per kind (None: all), ask the answerer for
    the context-free answers of the kept items only, and judge them."""
    rng = random.Random(seed)
    items = [
        item
        for t in corpus.trajectories
        if trajectory_ids is None or t.id in trajectory_ids
        for item in items_for(t, rng)
    ]
    if sample is not None:
        pick = random.Random(seed)
        kept: list[AuditItem] = []
        for kind in KINDS:
            of_kind = [i for i in items if i.kind == kind]
            chosen = set(pick.sample(range(len(of_kind)), min(sample, len(of_kind))))
            kept += [i for n, i in enumerate(of_kind) if n in chosen]
        items = kept
    rows = []
    for item in items:
        answer = item.answer if item.answer is not None else answerer.answer(item.question, [])
        v = judge.grade_answer(item.question, item.expected, answer, answer_date=item.answer_date)
        rows.append(
            {
                "trajectory_id": item.trajectory_id,
                "kind": item.kind,
                "question": item.question,
                "expected": item.expected,
                "candidate": answer,
                "label": v.label,
                "score": v.score,
                "rationale": v.rationale,
                "call_key": v.call_key,
                "cached": int(v.cached),
            }
        )
    return AuditResult(judge=judge.name, rules=judge.rules, seed=seed, sample=sample, verdicts=rows)


def save_audit(
    db: Database, result: AuditResult, audit_id: str, *, scoring: str | None = None
) -> None:
    """Store the audit's verdicts (run_id = ``audit_id``, kind = ``audit:<kind>``, scoring = the
    scoring setup it audits, or the judge's name for a stand-alone audit)."""

    scoring = scoring or result.judge
    ensure_tables(db)
    created = now()
    with checked(db):  # replaced whole, under the writer lease when one is held
        delete_scored(db, "verdicts", audit_id, scoring)
        compact.insert(
            db,
            "verdicts",
            [
                {
                    **{k: v for k, v in r.items() if k != "kind"},
                    "kind": f"audit:{r['kind']}",
                    "id": row_id(audit_id, scoring, n),
                    "run_id": audit_id,
                    "scoring": scoring,
                    "judge": result.judge,
                    "rules": result.rules,
                    "setup": "audit",
                    "source": "audit",
                    "k": None,
                    "state_index": None,
                    "item": str(n),
                    "created_at": created,
                }
                for n, r in enumerate(result.verdicts)
            ],
            replace=True,
        )


# ---- what the report says about the judge ---------------------------------------------------------


class Reliability(BaseModel):
    """Whether a run's judge can carry diagnoses, as decided once per scoring pass by
    engine/scoring/diagnosis.py ``judge_unreliable`` (the run's answers and this audit)."""

    reliable: bool = True
    reasons: list[str] = Field(default_factory=list)
    """One sentence per limit crossed, with the figure."""

    @classmethod
    def from_reason(cls, reason: str | None) -> Reliability:
        """From the stored decision (``judge_unreliable``: the reasons joined with "; ", or None)."""
        return cls(reliable=not reason, reasons=[r for r in (reason or "").split("; ") if r])
