"""Run labels are shortened in tables and whole in the views' status lines (issue 37): a recorded
run's label ('A (recorded: MODEL (SIZE), MACHINE, DATE)', 85 cells) reads 'A (recorded)' in the
runs table, the score cards' runs table and the live log; the runs view names the highlighted
row's run in full under its filters, the score cards above the charts."""

from __future__ import annotations

import contextlib
import json

import pytest
from test_tui_every_view_fits import check_view, screen_cells
from textual.worker import WorkerCancelled

from seorap.engine.store.database import open_db
from seorap.engine.views.runs import RunSummary
from seorap.tui.factory import make_app

RECORDING = {
    "model": "qwen2.5-coder:0.5b-instruct-q4_K_M",
    "size": "0.5B, Q4_K_M, 491 MB",
    "machine": "2-core x86_64 CPU",
    "date": "2026-12-03",
}
FULL = (
    "oracle-stale (recorded: qwen2.5-coder:0.5b-instruct-q4_K_M (0.5B, Q4_K_M, 491 MB), "
    "2-core x86_64 CPU, 2026-12-03)"
)


def test_a_recorded_run_has_a_short_label_for_tables():
    run = RunSummary("r", "A", "done", "", 0, 0, True, False, "recorded: m (s), x, d")
    assert run.label == "A (recorded: m (s), x, d)" and run.short_label == "A (recorded)"
    standin = RunSummary("r", "A", "done", "", 0, 0, True, True)
    assert standin.label == standin.short_label == "A (stand-in)"


def _recorded(path, run_id) -> None:
    db = open_db(path)
    manifest = json.loads(db["runs"].get(run_id)["manifest"] or "{}")
    db["runs"].update(run_id, {"manifest": json.dumps({**manifest, "recording": RECORDING})})


async def _show(app, pilot, *keys) -> None:
    await pilot.press(*keys)
    with contextlib.suppress(WorkerCancelled):
        await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


def _joined(app) -> str:
    """The screen's text with its rows joined (a wrapped label read whole)."""
    return " ".join("".join(row).strip() for row in screen_cells(app))


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_run_labels_short_in_tables_and_full_above_them(ref, size):  # noqa: F811
    path, ids = ref
    run = ids["oracle-stale"]
    _recorded(path, run)
    app = make_app(path, run_id=run)
    async with app.run_test(size=size) as pilot:
        await _show(app, pilot, "1")
        table = app.screen.query_one("#runs-table")
        systems = {str(table.get_row_at(r)[0]) for r in range(table.row_count)}
        assert not any("qwen" in s for s in systems), systems  # never the recording in a cell
        row = next(r for r in range(table.row_count) if "stale" in str(table.get_row_at(r)[0]))
        table.move_cursor(row=row)
        await pilot.pause()
        filters = str(app.screen.query_one("#filters").render())
        assert f"run {run}: {FULL}" in filters  # the detail names the run in full
        assert FULL in _joined(app) and not check_view(app, size)

        await _show(app, pilot, "4")
        table = app.screen.query_one("#variants")
        assert "oracle-stale (recorded)" in {str(table.get_row_at(r)[0]) for r in range(3)}
        assert FULL in _joined(app) and not check_view(app, size)  # the status line: whole
