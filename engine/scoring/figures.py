"""Figures the app shows, computed once when a run is scored (table ``score_figures``).

The run report with its bootstrap intervals takes about two seconds per run on a laptop core; the
app's score cards and demo tour read it from here so that no key press computes it (every key
within 100 ms). ``save`` runs at the end of ``score_run``; an override makes the run's stored
figures stale (they are dropped, and the app computes them in a background worker until the run is
scored again).
"""

from __future__ import annotations

import json

from sqlite_utils import Database

from seorap.engine.scoring.rulers import full_vs_filter
from seorap.engine.scoring.schema import RunReport
from seorap.engine.scoring.tables import drop_figures, ensure_tables, now
from seorap.engine.store.queries.scores import figure_rows

KINDS = ("report", "ruler_diff")


def save(db: Database, run_id: str, scoring: str) -> None:
    """Compute and store the run report and the full -> filter diff of one scoring pass."""
    # start-up: numpy loads only when this runs
    from seorap.engine.scoring.report import run_report

    ensure_tables(db)
    report = run_report(db, run_id, scoring=scoring)
    if report is None:
        return
    diff = full_vs_filter(db, run_id, scoring)
    created = now()
    db.table("score_figures").insert_all(
        [
            {
                "run_id": run_id,
                "scoring": scoring,
                "kind": "report",
                "figures": report.model_dump_json(),
                "created_at": created,
            },
            {
                "run_id": run_id,
                "scoring": scoring,
                "kind": "ruler_diff",
                "figures": json.dumps(
                    {"counts": diff.counts(), "moved": diff.moved()}, ensure_ascii=False
                ),
                "created_at": created,
            },
        ],
        pk=("run_id", "scoring", "kind"),
        replace=True,
    )


def drop(db: Database, run_id: str) -> None:
    """Forget a run's stored figures (after an override changed them)."""
    drop_figures(db, run_id)


def load(db: Database, run_id: str, scoring: str) -> dict[str, object]:
    """kind -> parsed figures for one scoring pass ({} when none are stored): ``report`` as a
    RunReport, ``ruler_diff`` as {counts, moved}."""

    if "score_figures" not in db.table_names():
        return {}
    out: dict[str, object] = {}
    for r in figure_rows(db, run_id, scoring):
        out[r["kind"]] = (
            RunReport.model_validate_json(r["figures"])
            if r["kind"] == "report"
            else json.loads(r["figures"])
        )
    return out
