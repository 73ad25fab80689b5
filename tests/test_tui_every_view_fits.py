"""Every view at 80×24 and 100×30, read off the rendered cells: the footer keeps F1 and q (and says
"…" when it leaves keys out), no one-line label is cut without "…" (the rendered cells compared
with the label's own text), and no table runs off the screen's right edge unseen."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from rich.cells import get_character_cell_size
from rich.console import Console
from test_tui_support import ref, ref_db_path  # noqa: F401
from textual.widgets import DataTable, Static
from textual.worker import WorkerCancelled

from seorap.tui.factory import make_app
from seorap.tui.widgets.line_table import LineTable
from seorap.tui.widgets.store_table import StoreTable

GLOSSARY = (Path(__file__).resolve().parents[1] / "docs" / "glossary.md").read_text("utf-8")

SIZES = [(80, 24), (100, 30)]
VIEWS = [["1"], ["2"], ["3"], ["4"], ["5"], ["6"], ["7"], ["7", "s"]]


def screen_cells(app) -> list[list[str]]:
    """The screen as rows of cells: a wide character fills its first cell, "" the second."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    rows = []
    for line in console.export_text().splitlines():
        cells: list[str] = []
        for ch in line:
            cells += [ch] + [""] * (get_character_cell_size(ch) - 1)
        rows.append(cells + [" "] * (width - len(cells)))
    return rows


def shown_in(rows: list[list[str]], region) -> str:
    """The text of one screen row within ``region`` (its first row)."""
    return "".join(rows[region.y][region.x : region.x + region.width])


def one_line_labels(screen):
    """Visible Static/Label widgets of one row whose text is one line."""
    for w in screen.query(Static):
        if not w.display or w.region.height != 1 or w.region.width < 2:
            continue
        if isinstance(w, DataTable):
            continue
        text = w.render()
        plain = getattr(text, "plain", str(text))
        if "\n" not in plain.strip("\n") and plain.strip():
            yield w, plain.strip("\n")


def visible_region(w):
    """``w``'s region clipped by the screen (the part a terminal shows)."""
    return w.region.intersection(w.screen.region)


def check_view(app, size) -> list[str]:
    problems = []
    rows = screen_cells(app)
    footer = "".join(rows[-1])
    for key in ("f1 help", "q quit", "palette"):
        if key not in footer:
            problems.append(f"footer lacks {key!r}: {footer!r}")
    for w, source in one_line_labels(app.screen):
        region = visible_region(w)
        if region.height < 1 or region.width < 1:
            continue
        shown = shown_in(rows, region).rstrip()
        if not shown.strip():
            continue
        if " ".join(source.split()) == " ".join(shown.split()):
            continue
        if shown.endswith("…") or shown.lstrip().startswith("…"):
            continue
        if len(source.rstrip()) > len(shown) or source.split()[-1] not in shown:
            problems.append(f"cut without …: {shown!r} of {source!r}")
    for table in [*app.screen.query(DataTable), *app.screen.query(LineTable)]:
        if isinstance(table, StoreTable):  # marks its own cuts '…' at the pane's edge
            continue  # (tests/test_tui_small_sizes.py: test_side_by_side_marks_every_cut_fact)
        if table.display and table.region.width and table.virtual_size.width > size[0]:
            problems.append(f"table {table.id} is {table.virtual_size.width} cells wide")
    return problems


def column_heads(screen) -> set[str]:
    """The column heads of every table on ``screen``."""
    heads = set()
    for table in [*screen.query(DataTable), *screen.query(LineTable)]:
        heads |= {str(c.label).strip() for c in table.columns.values()}
    return heads - {""}


async def _show(app, pilot, keys) -> None:
    await pilot.press(*keys)
    with contextlib.suppress(WorkerCancelled):  # an exclusive worker replaced by a newer one
        await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
async def test_every_view_fits_with_marked_cuts_and_f1_and_q(ref, size):  # noqa: F811
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"])
    problems = {}
    async with app.run_test(size=size) as pilot:
        for keys in VIEWS:
            await _show(app, pilot, keys)
            found = check_view(app, size)
            if found:
                problems["+".join(keys)] = found
    assert not problems, problems


def test_the_footer_keeps_help_and_quit_and_marks_what_it_leaves_out():
    from seorap.tui.widgets.footer import fit_keys, key_width

    class Key:
        def __init__(self, key, description, action):
            self.key_display, self.description, self.action = key, description, action

    keys = [Key("/", "search", "search"), Key("v", "filter", "f"), Key("f1", "help", "help")]
    keys.append(Key("q", "quit", "quit"))
    assert [key_width(k) for k in keys] == [
        10,
        10,
        9,
        8,
    ]  # ' / ' 'search ': key + 2 cells, description + 1
    assert fit_keys(keys, 37) == (keys, False)
    shown, cut = fit_keys(keys, 30)  # 9 + 8 + 1 for "…" leaves 12: the first key, not the second
    assert cut and [k.action for k in shown] == ["search", "help", "quit"]
    shown, cut = fit_keys(keys, 18)
    assert cut and [k.action for k in shown] == ["help", "quit"]


async def test_trajectory_ids_get_room_before_the_type_column(ref):  # noqa: F811
    path, _ = ref
    app = make_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.screen.query_one("#runs-table")
        ids = [str(table.get_row_at(r)[1]) for r in range(table.row_count)]
        assert ids and not any(i.endswith("…") for i in ids)  # the ids whole at 100 columns
        types = [str(table.get_row_at(r)[8]) for r in range(table.row_count)]
        assert any(t.endswith("…") for t in types)  # the type column gave the room


@pytest.mark.parametrize("size", [*SIZES, (160, 45)])
async def test_every_column_head_is_in_the_glossary(ref, size):  # noqa: F811
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"])
    heads: set[str] = set()
    async with app.run_test(size=size) as pilot:
        for keys in VIEWS:
            await _show(app, pilot, keys)
            heads |= column_heads(app.screen)
    assert len(heads) > 25  # the views were drawn
    missing = sorted(h for h in heads if f"`{h}`" not in GLOSSARY)
    assert not missing, f"docs/glossary.md lacks {missing}"


def test_the_live_view_names_each_phase_count_in_its_unit():
    from seorap.tui.screens.live import done_label

    assert done_label("extract") == "documents read"
    assert done_label("write A-c5f8dcb9-aaaaaa") == "documents written"
    assert done_label("score A-c5f8dcb9-aaaaaa") == "trajectories scored"  # was "documents done"
    for label in ("documents read", "documents written", "trajectories scored"):
        assert f"`{label}`" in GLOSSARY
