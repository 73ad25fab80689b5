"""Score-card charts switch to a list where they cannot be read (tui/screens/scores_fit.py,
tui/screens/scores_list.py): bars need 7 columns a group, 10 canvas rows and a title naming the
colours; a scatter needs 5 × 20 cells of canvas, a cell for each distinct point and a title naming
the markers. Rendered at 80×24 and 160×45, with the bundled runs and with more groups and points
than fit."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from test_tui_support import open_score_cards
from textual.geometry import Size

from seorap.tui.factory import make_app
from seorap.tui.screens import scores_fit, scores_list


def screen_text(app) -> str:
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


def test_bars_are_legible_with_seven_columns_a_group_ten_rows_and_a_title():
    titles = scores_list.BAR_TITLES  # 72 and 44 cells
    # 9 groups: 9 × 7 = 63 canvas columns + 6 side cells = 69; 10 rows + 5 frame rows = 15
    assert scores_fit.bars_legible(9, Size(69, 15), titles)
    assert not scores_fit.bars_legible(9, Size(68, 15), titles)  # 62 / 9 = 6.9 columns a group
    assert not scores_fit.bars_legible(9, Size(69, 14), titles)  # 9 rows
    assert scores_fit.first_fitting(titles, 69) == titles[1]  # the 72-cell title is dropped
    assert not scores_fit.bars_legible(2, Size(49, 15), titles)  # 43 canvas: no title fits
    assert scores_fit.bars_legible(2, Size(50, 15), titles)
    assert scores_fit.bars_legible(0, Size(1, 1), titles)  # nothing to draw


def test_a_scatter_is_legible_when_every_point_has_a_cell_of_its_own():
    titles = ["n 2 ●a"]
    # 20 columns, 5 rows: a cell is 1.2 / 19 = 0.063 wide and 1.2 / 4 = 0.3 high
    size = Size(26, 10)
    assert scores_fit.scatter_legible([(0.0, 0.0), (1.0, 1.0)], size, titles)
    assert not scores_fit.scatter_legible([(0.0, 0.0), (0.02, 0.0)], size, titles)  # one cell
    assert scores_fit.scatter_legible([(0.0, 0.0), (0.1, 0.0)], size, titles)
    assert not scores_fit.scatter_legible([(0.0, 0.0), (0.0, 0.05)], size, titles)  # one cell
    assert not scores_fit.scatter_legible([(0.0, 0.0)], Size(25, 10), titles)  # 19 columns
    assert not scores_fit.scatter_legible([(0.0, 0.0)], Size(26, 9), titles)  # 4 rows
    assert not scores_fit.scatter_legible([(0.0, 0.0)], size, ["x" * 21])  # no title fits


def _box_text(app, chart: str) -> str:
    return str(app.screen.query_one(f"#{chart}-list").render())


def _with(report, groups: int = 0, spread: bool = False):
    """``report`` with ``groups`` more categories, or its trajectories spread over distinct
    points 0.01 apart (no scatter has a cell for each)."""
    aggregate = report.aggregate
    if groups:
        first = next(iter(aggregate.by_category.values()))
        more = {f"X{n}": first for n in range(groups)}
        aggregate = aggregate.model_copy(update={"by_category": {**aggregate.by_category, **more}})
    trajectories = report.trajectories
    if spread:
        trajectories = [
            t.model_copy(
                update={"intrinsic": t.intrinsic.model_copy(update={"full": 0.5 + n / 100})}
            )
            for n, t in enumerate(trajectories)
        ]
    return report.model_copy(update={"aggregate": aggregate, "trajectories": trajectories})


async def _redraw(app, pilot, report) -> None:
    screen = app.screen
    screen.reports[screen.current] = report
    screen.draw()
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_charts_or_lists_at_80x24_and_160x45(ref, size):  # noqa: F811
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"])
    async with app.run_test(size=size) as pilot:
        await open_score_cards(pilot)
        screen = app.screen
        report = screen.reports[screen.current]
        groups = {**report.aggregate.by_category, **report.aggregate.by_difficulty}
        bars, scatter = screen.query_one("#bars-box"), screen.query_one("#scatter-box")
        assert scatter.listed is False  # 12 trajectories on 3 spots: drawn at both sizes
        assert "● healthy" in screen_text(app) or "●healthy" in screen_text(app)  # its key
        shown = screen_text(app)
        if size == (160, 45):
            assert bars.listed is False  # 8 columns a group, 12 rows
            assert scores_list.BAR_TITLES[0] in shown
        else:  # 33 canvas columns for 9 groups (3.7 each), 6 rows: a list
            assert bars.listed is True
            listed = _box_text(app, "bars")
            for name, g in groups.items():  # each group, its n, its figures with their range
                assert f"{name}  n {g.n} " in listed
            assert "intrinsic 1.00 (1.00–1.00)" in listed and "extrinsic 0.75 (0.50–1.00)" in listed
            assert "C1  n 2  intrinsic 1.00 (1.00–1.00)" in shown  # two lines a group at 80
            assert "███0." not in shown  # no value printed into a bar

        await _redraw(app, pilot, _with(report, groups=20))  # 29 groups
        assert bars.listed is True  # 160×45: 72 canvas columns / 29 = 2.5 a group
        listed = _box_text(app, "bars")
        assert all(f"X{n} " in listed for n in range(20))
        assert re.search(r"\bC1 +n 2 +(intrinsic )?1.00 \(1.00–1.00\)", screen_text(app))

        await _redraw(app, pilot, _with(report, spread=True))  # 12 points 0.01 apart
        assert scatter.listed is True
        listed = _box_text(app, "scatter")
        lines = [line for line in listed.splitlines() if "int " in line]
        assert len(lines) == len(report.trajectories)
        assert "int 0.50  ext" in listed and "int 0.61  ext" in listed
        width = scatter.size.width - 2
        assert all(len(line) <= width for line in lines)  # the ids fitted, cut with '…'
        assert lines[0] in screen_text(app)
        await _redraw(app, pilot, report)  # and back to the charts' choice for the size
        assert scatter.listed is False
