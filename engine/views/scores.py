"""Score cards (view 5): engine.scoring.report does the figures, CIs included; and the re-scoring
diff full vs filter (docs/metrics.md, Rulers)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from seorap.engine.views.common import latest_scoring


def run_report(db: Database, run_id: str, resamples: int | None = None):
    """The RunReport for one run (None when the run is not scored)."""
    from seorap.engine.scoring import report

    if resamples is None:
        return report.run_report(db, run_id)
    return report.run_report(db, run_id, resamples=resamples)


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
    from seorap.engine.scoring.rulers import full_vs_filter

    scoring = scoring or latest_scoring(db, run_id)
    if scoring is None:
        return None
    diff = full_vs_filter(db, run_id, scoring)
    return RulerDiff("full", "filter", diff.counts(), [
        MovedVerdict(m["change"], m["trajectory_id"], m["item"], m["text"] or "", m["from"] or "",
                     m["to"] or "") for m in diff.moved()])


def stored_figures(db: Database, run_id: str) -> tuple[object | None, RulerDiff | None]:
    """(RunReport, RulerDiff) of a run's latest scoring as stored at score time
    (engine.scoring.figures); (None, None) when the run is not scored or its figures are not stored
    (scored before they were kept, or an override made them stale)."""
    from seorap.engine.scoring import figures

    scoring = latest_scoring(db, run_id)
    if scoring is None:
        return None, None
    stored = figures.load(db, run_id, scoring)
    report, raw = stored.get("report"), stored.get("ruler_diff")
    diff = None
    if isinstance(raw, dict):  # stored as {counts, moved}
        diff = RulerDiff("full", "filter", raw["counts"], [
            MovedVerdict(m["change"], m["trajectory_id"], m["item"], m["text"] or "", m["from"] or "",
                         m["to"] or "") for m in raw["moved"]])
    return report, diff
