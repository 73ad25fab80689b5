"""What a run cost (the app's accounting panel for the selected run): engine.accounting does the
figures from the call log, the stored counters and the phase timings."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from seorap.engine.run import accounting


@dataclass(frozen=True)
class AccountingView:
    run_id: str
    headers: tuple[str, ...]
    rows: list[tuple[str, ...]]
    """Text cells, one row per role and model, the total last when there are several roles."""
    wall: str
    """One line: wall time per phase."""
    legend: str
    empty: bool
    """No model call and no timed phase recorded (reference systems, runs made before accounting)."""
    figures: accounting.RunAccounting


def accounting_view(db: Database, run_id: str) -> AccountingView:
    acc = accounting.run_accounting(db, run_id)
    headers, rows = accounting.table(acc)
    return AccountingView(
        run_id, headers, rows, accounting.phase_line(acc), accounting.TABLE_LEGEND, acc.empty, acc
    )


def cost_lines(view: AccountingView | None, stored: dict | None) -> list[str] | None:
    """What the run cost as lines for the score cards: from ``view`` (the accounting read now) or,
    without it, from the figures ``stored`` with the report at score time; None when neither."""
    if view is not None:
        return accounting.lines(view.figures)
    if stored is not None:
        return accounting.lines(accounting.from_dict(stored))
    return None
