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
from rich.text import Text
from textual.widgets import DataTable, Static
from textual.worker import WorkerCancelled

from seorap.tui.factory import make_app
from seorap.tui.widgets.line_table import LineTable
from seorap.tui.widgets.store_table import StoreTable
from seorap.tui.widgets.text_pane import TextPane

GLOSSARY = (Path(__file__).resolve().parents[1] / "docs" / "glossary.md").read_text("utf-8")

SIZES = [(80, 24), (100, 30)]
VIEWS = [
    ["1"],
    ["2"],
    ["2", "end", "f"],
    ["escape", "3"],
    ["4"],
    ["5"],
    ["6"],
    ["7"],
    ["7", "s"],
    ["f1"],
]


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


def texts(screen):
    """Visible text widgets (Static, Label, the text panes; not tables) with the text they show."""
    for w in [*screen.query(Static), *screen.query(TextPane)]:
        if not w.display or w.region.width < 2 or isinstance(w, DataTable):
            continue
        plain = w.text.plain if isinstance(w, TextPane) else getattr(w.render(), "plain", None)
        if plain is not None and plain.strip():
            yield w, plain


def visible_region(w):
    """The part of ``w``'s content a terminal shows: clipped by its containers and the screen."""
    geometry = w.screen.find_widget(w)
    region = w.scrollable_content_region.intersection(geometry.visible_region)
    return region.intersection(w.screen.region)


def _squash(text: str) -> str:
    return "".join(text.split())


def whole_in_view(w) -> bool:
    """True when all of ``w``'s text should be on screen: a text pane that does not scroll, or a
    widget no container clips (or clips without scrolling the rest into view)."""
    if isinstance(w, TextPane):
        return w.max_scroll_y == 0 and w.max_scroll_x == 0
    geometry = w.screen.find_widget(w)
    if geometry.visible_region == geometry.region:
        return True
    return not any(a.max_scroll_y > 0 or a.max_scroll_x > 0 for a in w.ancestors_with_self)


def cut_unmarked(source: str, shown: str, whole: bool) -> str | None:
    """How ``shown`` (the rendered cells of a text, its rows joined) differs from ``source`` other
    than by wrapping and by cuts marked '…': each stretch between marks must be a run of the source
    (white space aside: wrapping moves it), in order; when ``whole`` (nothing scrolls out of
    view), a source start or end not shown must be marked too. None when it holds."""
    src, pos, marked = _squash(source), 0, True  # marked: the stretch follows a '…' (or starts)
    pieces = shown.split("…")
    for n, piece in enumerate(_squash(p) for p in pieces):
        if not piece:
            marked = True
            continue
        at = src.find(piece, pos)
        if at < 0:
            return f"not one run of the text: {piece[:40]!r}"
        if at > pos and n == 0 and whole:
            return f"its start is cut without '…': shown from {piece[:20]!r}"
        pos, marked = at + len(piece), False
    if whole and pos < len(src) and not marked:
        return f"its end is cut without '…' after {shown.rstrip()[-20:]!r}"
    return None


def text_problems(app, rows: list[list[str]] | None = None) -> list[str]:
    """Every text on screen whose rendered cells are not its source text, wrapped, with each cut
    marked '…' (:func:`cut_unmarked`); one-line labels and wrapped paragraphs alike."""
    rows = screen_cells(app) if rows is None else rows
    problems = []
    for w, source in texts(app.screen):
        region = visible_region(w)
        if region.height < 1 or region.width < 1:
            continue
        shown = "\n".join(
            "".join(rows[y][region.x : region.right]) for y in range(region.y, region.bottom)
        )
        if not shown.strip():
            continue
        why = cut_unmarked(source, shown, whole_in_view(w))
        if why:
            problems.append(f"{type(w).__name__}#{w.id}: {why} (text {source[:60]!r})")
    return problems


def check_view(app, size) -> list[str]:
    problems = []
    rows = screen_cells(app)
    footer = "".join(rows[-1])
    for key in ("f1 help", "q quit", "palette"):
        if key not in footer:
            problems.append(f"footer lacks {key!r}: {footer!r}")
    problems += text_problems(app, rows)
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


async def test_at_80_columns_ids_are_cut_only_once_system_quadrant_and_type_are_at_floor(ref):  # noqa: F811
    from rich.cells import cell_len

    from seorap.tui.screens.runs import COLUMNS

    path, _ = ref
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.screen.query_one("#runs-table")
        rows = [[str(c) for c in table.get_row_at(r)] for r in range(table.row_count)]
        ids = [row[1] for row in rows]
        assert any(i.endswith("…") for i in ids)  # 80 columns cannot hold them whole
        for n in (0, 7, 8):  # system, quadrant, type: at their floors first
            assert max(cell_len(row[n]) for row in rows) == COLUMNS[n][3], COLUMNS[n]
        assert max(cell_len(i) for i in ids) >= COLUMNS[1][3]  # the ids no less than theirs
        trajectories = {k.split("\t")[1] for k in table.row_keys}
        assert len(set(ids)) == len(trajectories)  # and still tell the trajectories apart


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


PARAGRAPH = "다온헬스케어 진료 데이터 백업 보관 기간은 5년으로 정한다"


def test_the_cut_check_reads_wrapped_text_as_its_source():
    rows = "다온헬스케어 진료\n데이터 백업 보관\n기간은 5년으로\n정한다"
    assert cut_unmarked(PARAGRAPH, rows, whole=True) is None  # wrapped whole
    assert "end is cut" in cut_unmarked(PARAGRAPH, "다온헬스케어 진료\n데이터 백업 보관", True)
    assert cut_unmarked(PARAGRAPH, "다온헬스케어 진료\n데이터 백업 보…", True) is None
    assert "one run" in cut_unmarked(PARAGRAPH, "다온헬스케어 진\n데이터 백업 보관", True)
    assert "start is cut" in cut_unmarked(
        PARAGRAPH, "데이터 백업 보관\n기간은 5년으로 정한다", True
    )
    assert cut_unmarked(PARAGRAPH, "…데이터 백업 보관\n기간은 5년으로 정한다", True) is None
    assert (
        cut_unmarked(PARAGRAPH, "데이터 백업 보관\n기간은 5년으로", whole=False) is None
    )  # scrolls
    assert cut_unmarked(PARAGRAPH, "다온헬스케어…5년으로 정한다", True) is None  # a middle cut
    assert "one run" in cut_unmarked(PARAGRAPH, "다온헬스케어 5년으로 정한다", True)


async def test_the_cut_check_catches_a_wrapped_paragraph_cut_by_its_box():
    from textual.app import App

    from seorap.tui.fit import clamp_lines

    class Boxes(App):
        CSS = """
        Static { width: 20; margin-bottom: 1; }
        #short, #clamped { height: 2; }
        #clipped { text-wrap: nowrap; text-overflow: clip; }
        #ellipsis { text-wrap: nowrap; text-overflow: ellipsis; }
        """

        def compose(self):
            for name in ("whole", "short", "clipped", "ellipsis"):
                yield Static(PARAGRAPH, id=name)
            yield Static(clamp_lines(Text(PARAGRAPH), 20, 2), id="clamped")

    app = Boxes()
    async with app.run_test(size=(40, 20)) as pilot:
        await pilot.pause()
        cut = {p.split(":")[0] for p in text_problems(app)}
        assert cut == {"Static#short", "Static#clipped"}, text_problems(app)
        rows = screen_cells(app)  # Hangul takes two cells: 20 hold 9 syllables and 2 spaces
        clamped = app.query_one("#clamped").region
        shown = ["".join(r[clamped.x : clamped.right]).rstrip() for r in rows[clamped.y :][:2]]
        assert shown == ["다온헬스케어 진료", "데이터 백업 보관…"]  # the rest of line 2 wrapped
