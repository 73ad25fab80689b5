"""What a run cost (the app's accounting panel for the selected run): engine.accounting does the
figures from the call log, the stored counters and the phase timings."""

from __future__ import annotations

from dataclasses import dataclass

from seorap.engine.run import accounting
from sqlite_utils import Database


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
