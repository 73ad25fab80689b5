"""Score cards (view 5): engine.scoring.report does the figures, CIs included; and the re-scoring
diff full vs filter (docs/metrics.md, Rulers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlite_utils import Database

from seorap.engine.scoring import figures, report, ruler_marks
from seorap.engine.scoring.rulers import full_vs_filter
from seorap.engine.scoring.schema import RunReport
from seorap.engine.views.common import judge_headline, latest_scoring

if TYPE_CHECKING:
    from seorap.engine.scoring.schema import RunReport


def run_report(db: Database, run_id: str, resamples: int | None = None) -> RunReport | None:
    """The RunReport for one run (None when the run is not scored)."""

    if resamples is None:
        return report.run_report(db, run_id)
    return report.run_report(db, run_id, resamples=resamples)


UNRELIABLE_MARK = ruler_marks.UNRELIABLE_MARK
"""Beside a figure built on the labels of a judge found unreliable (engine/scoring/ruler_marks.py)."""


def ruler_mark(report: RunReport) -> str:
    """' [unreliable ruler]' after a figure built on the run's judge's labels when that judge is
    unreliable, else '' (the one mark of every format)."""
    return ruler_marks.suffix(report)


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


def full_vs_filter_diff(db: Database, run_id: str, scoring: str | None = None) -> RulerDiff | None:
    """Every claim verdict the similarity filter moved in one run's (latest) scoring, classified
    by engine.scoring.rulers; None when the run is not scored."""

    scoring = scoring or latest_scoring(db, run_id)
    if scoring is None:
        return None
    diff = full_vs_filter(db, run_id, scoring)
    return RulerDiff(
        "full",
        "filter",
        diff.counts(),
        [
            MovedVerdict(
                m["change"],
                m["trajectory_id"],
                m["item"],
                m["text"] or "",
                m["from"] or "",
                m["to"] or "",
            )
            for m in diff.moved()
        ],
    )


def stored_figures(db: Database, run_id: str) -> tuple[RunReport | None, RulerDiff | None]:
    """(RunReport, RulerDiff) of a run's latest scoring as stored at score time
    (engine.scoring.figures); (None, None) when the run is not scored or its figures are not stored
    (scored before they were kept, or an override made them stale)."""

    scoring = latest_scoring(db, run_id)
    if scoring is None:
        return None, None
    stored = figures.load(db, run_id, scoring)
    report, raw = stored.get("report"), stored.get("ruler_diff")
    diff = None
    if isinstance(raw, dict):  # stored as {counts, moved}
        diff = RulerDiff(
            "full",
            "filter",
            raw["counts"],
            [
                MovedVerdict(
                    m["change"],
                    m["trajectory_id"],
                    m["item"],
                    m["text"] or "",
                    m["from"] or "",
                    m["to"] or "",
                )
                for m in raw["moved"]
            ],
        )
    if not isinstance(report, RunReport):  # load parses it as one
        return None, diff
    return ruler_marks.mark(
        report
    ), diff  # stored before the flags: beside its figures all the same


@dataclass(frozen=True)
class AuditKind:
    kind: str
    ideal: str
    """The right verdict for this kind of answer (NO for the wrong kinds, PARTIAL for missing-one,
    YES for the controls)."""
    n: int
    pass_rate: float | None
    """YES / parseable verdicts."""
    ideal_rate: float | None
    """Right verdicts / parseable verdicts."""


@dataclass(frozen=True)
class JudgeAudit:
    """The judge audit of the judge a run's scoring used (engine/scoring/audit.py) and whether the
    engine lets its figures carry a diagnosis (quadrants, MAD, DivRate)."""

    judge: str
    rules: str | None
    sample: int | None
    """Items per kind for a model judge; None: every item (the lexical judge)."""
    wrong: list[AuditKind]
    """Kinds of wrong answers: their pass rate should be about 0."""
    partial: list[AuditKind]
    """Answers missing one part: PARTIAL is right."""
    controls: list[AuditKind]
    """Right answers (as written, paraphrased): their pass rate should be about 1."""
    partial_saturation: float | None
    separation: float | None
    reliable: bool
    reasons: list[str]

    @property
    def headline(self) -> str:
        """What the engine's decision reads when the judge cannot carry a diagnosis: "judge
        unreliable — see audit", or "judge unverified — …" when nothing shows it either way."""
        return judge_headline("; ".join(self.reasons))


def judge_audit(report: RunReport) -> JudgeAudit | None:
    """The audit of a RunReport as shown beside its score cards; None when the run has none (scored
    before the audit was always on) and the engine has no verdict on its judge either."""
    reasons = list(report.judge_reliability.reasons) if report.judge_reliability is not None else []
    withheld = report.aggregate.judge_unreliable
    if withheld and not any(withheld in r or r in withheld for r in reasons):
        reasons.append(withheld)
    reliable = not withheld and (
        report.judge_reliability is None or report.judge_reliability.reliable
    )
    a = report.audit
    if a is None and reliable:
        return None

    def kinds(pick: Callable[[str], bool]) -> list[AuditKind]:
        return [
            AuditKind(k, f.ideal, f.n, f.pass_rate, f.ideal_rate)
            for k, f in (a.kinds.items() if a is not None else [])
            if pick(f.ideal)
        ]

    return JudgeAudit(
        a.judge if a else "?",
        a.rules if a else None,
        a.sample if a else None,
        kinds(lambda ideal: ideal == "NO"),
        kinds(lambda ideal: ideal == "PARTIAL"),
        kinds(lambda ideal: ideal == "YES"),
        a.partial_saturation if a else None,
        a.separation if a else None,
        bool(reliable),
        reasons,
    )
