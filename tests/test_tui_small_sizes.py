"""Every view at 100×30 and 80×24, read as text (not pictures): the part that tells rows apart is
on screen, every cut is marked '…', the score cards' scatter labels its 0.5 line '0.5' and the bars
keep C3, C6 and L3 (or list them where bars cannot be read), banners take one line, the document's
separator is drawn once after a resize."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from test_tui_support import (  # noqa: F401
    open_score_cards,
    reference_db,
    settle,
)

from seorap.tui.factory import make_app

SIZES = [(100, 30), (80, 24)]
HIRING = "ko-c3-hiring-plan"
LATENCY = "ko-c2-byeolmuri-latency"


def screen_text(app) -> str:
    """The screen as the terminal shows it, one string per row."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


async def _settle(pilot) -> None:
    await settle(pilot)  # workers a key's view starts after the key's turn too


def _cells(table, column: int) -> list[str]:
    return [str(table.get_row_at(r)[column]) for r in range(table.row_count)]


@pytest.fixture(scope="module")
def run_a(tmp_path_factory):
    """Variant A (the stand-in model) on the hiring plan: every question has many answer ranks."""
    path = tmp_path_factory.mktemp("a") / "a.db"
    _, _, ids = reference_db(path, systems=["A", "oracle"], trajectories=[HIRING, LATENCY])
    return path, ids


@pytest.mark.parametrize("size", SIZES)
async def test_runs_fit_with_marked_cuts_and_a_one_line_banner(run_a, size):
    path, _ = run_a
    app = make_app(path)
    async with app.run_test(size=size) as pilot:
        await _settle(pilot)
        shown = screen_text(app)
        table = app.screen.query_one("#runs-table")
        assert "docs" in shown.splitlines()[3]  # the last column's header, on screen
        assert table.virtual_size.width <= size[0]  # every column on screen: nothing cut unseen
        banner = app.screen.query_one("#banner")
        assert banner.region.height == 1 and "(stand-in)" in shown
        for column in (0, 1, 8):  # system, trajectory, type: cut only with a mark
            for cell, full in zip(_cells(table, column), _full(app, column), strict=True):
                assert cell == full or cell.endswith("…") or cell.startswith("…"), (cell, full)
        ids = _full(app, 1)
        # the two trajectories the runs wrote (a run lists only its scope), still read apart
        assert len(set(_cells(table, 1))) == len(set(ids)) == 2


def _full(app, column: int) -> list[str]:
    rows = app.screen.shown()
    return [
        (r.system, r.trajectory_id, "", "", "", "", "", "", r.trajectory_type)[column] for r in rows
    ]


@pytest.mark.parametrize("size", SIZES)
async def test_questions_read_apart_and_their_ranks_are_cut_with_a_mark(run_a, size):
    path, ids = run_a
    app = make_app(path, run_id=ids["A"], trajectory_id=HIRING)
    async with app.run_test(size=size) as pilot:
        await pilot.press("3")
        await _settle(pilot)
        table = app.screen.query_one("#questions-list")
        questions, ranks = _cells(table, 3), _cells(table, 2)
        assert len(questions) == 4 and len(set(questions)) == 4
        full = [q.question for q in app.screen.shown]
        cut = [(q, f) for q, f in zip(questions, full, strict=True) if q != f]
        assert cut and all(q.endswith("…") and q[:-1].rstrip() in f for q, f in cut)
        assert any(r.endswith("…") for r in ranks)  # A's long rank lists, cut with a sign
        assert table.virtual_size.width <= size[0]
        shown = screen_text(app)
        assert all(q in shown for q in questions)


@pytest.mark.parametrize("size", SIZES)
async def test_compare_keeps_the_end_that_tells_two_facts_apart(ref, size):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=size) as pilot:
        await pilot.press("5")
        await _settle(pilot)
        table = app.screen.query_one("#compare-table")
        texts = _cells(table, 5)
        latency = [t for t, traj in zip(texts, _cells(table, 0), strict=True) if "byeol" in traj]
        assert len(latency) == 2 and latency[0] != latency[1]
        assert {t[-5:] for t in latency} == {"180ms", "200ms"}  # the differing end is shown
        assert all(t.startswith("…") for t in latency)  # the cut start is marked
        assert table.virtual_size.width <= size[0]
        shown = screen_text(app)
        assert all(t in shown for t in latency)


@pytest.mark.parametrize("size", SIZES)
async def test_compare_gives_the_trajectory_id_room_before_the_kind(ref, size):
    """A type column gives way first: where an id would be cut, the kind is shown by its first
    letter (named in the title) and the id keeps its cells."""
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=size) as pilot:
        await pilot.press("5")
        await _settle(pilot)
        table = app.screen.query_one("#compare-table")
        trajectories, kinds = _cells(table, 0), _cells(table, 1)
        if size == (100, 30):
            assert "ko-c2-byeolmuri-latency" in trajectories  # 23 cells, whole
        if any(t.endswith("…") for t in trajectories):  # an id is cut only after the kind gave way
            assert app.screen.short_kinds and set(kinds) <= {"c", "q", "f"}
            assert "k: c claim · q question · f fact" in screen_text(app)
            assert min(len(t) for t in trajectories if t.endswith("…")) > 16  # the cells it gave
        if not app.screen.short_kinds:
            assert set(kinds) <= {"claim", "question", "fact"}
        assert table.virtual_size.width <= size[0]


@pytest.mark.parametrize("size", SIZES)
async def test_score_cards_label_the_half_line_and_every_bar_group(ref, size):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"])
    async with app.run_test(size=size) as pilot:
        await open_score_cards(pilot)
        scatter = app.screen.query_one("#scatter").render().plain.splitlines()
        half = [line for line in scatter if "┼" in line]  # the row the two 0.5 lines cross
        assert half and half[0].lstrip().startswith("0.5"), half
        assert not any(line.lstrip().startswith("0┼") for line in scatter)
        box = app.screen.query_one("#bars-box")
        bars = (
            str(app.screen.query_one("#bars-list").render())  # no room for bars: listed
            if box.listed
            else app.screen.query_one("#bars").render().plain
        )
        for name in ("C1", "C3", "C6", "L1", "L3"):
            assert name in bars, name
        assert "C1" in screen_text(app)  # a list scrolls (Tab to it, then ↓)
        table = app.screen.query_one("#variants")
        assert table.virtual_size.width <= size[0]  # the quadrant counts stay on screen
        assert "h/c/b/l" in screen_text(app)


@pytest.mark.parametrize("size", SIZES)
async def test_the_document_separator_is_one_line_after_a_resize(ref, size):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id="ko-c5-garam-db")
    async with app.run_test(size=(160, 45)) as pilot:
        await _settle(pilot)
        await pilot.resize_terminal(*size)
        await pilot.pause()
        await pilot.pause()
        from seorap.tui.widgets.document import DocumentPane

        pane = app.screen.query_one(DocumentPane)
        rules = [s.text for s in pane._strips if s.text.strip().startswith("──")]
        assert len(rules) == 1 and len(rules[0].strip()) <= pane.scrollable_content_region.width


@pytest.mark.parametrize("size", SIZES)
async def test_every_other_view_draws_at_small_sizes(ref, size):
    """The stepper, live view, tour and side by side: drawn, their footers on screen."""
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"])
    async with app.run_test(size=size) as pilot:
        for keys in (["2"], ["6"], ["7"], ["s"]):
            await pilot.press(*keys)
            await _settle(pilot)
            shown = screen_text(app).splitlines()
            assert len(shown) == size[1] and "palette" in shown[-1], keys
        titles = [str(app.screen.query_one(f"#side-{q}-title").content) for q in ("bottleneck",)]
        assert all("…" in t or len(t) < 2 * size[0] for t in titles)


async def test_the_ollama_banner_takes_one_line_and_no_toast_repeats_it(ref):
    from ollama_fake import closed_port_url

    from seorap.engine.config import Config

    path, _ = ref
    host = closed_port_url()
    app = make_app(path, probe_ollama=True, live_config=Config.offline(host=host))
    async with app.run_test(size=(100, 30)) as pilot:
        await _settle(pilot)
        await pilot.pause()
        banner = app.screen.query_one("#banner")
        assert str(banner.content).startswith("start `ollama serve`")  # the fix is never cut
        assert "Ollama not reachable at" in str(banner.content)
        assert banner.region.height == 1 and str(banner.content).endswith("…")
        assert not any("Ollama" in n.message for n in app._notifications)
        await pilot.resize_terminal(160, 45)  # room: each notice on its own line, whole
        await pilot.pause()
        assert "`ollama serve`" in str(banner.content)


async def test_a_view_without_the_banner_still_gets_the_ollama_toast(ref):
    from ollama_fake import closed_port_url

    from seorap.engine.config import Config

    path, ids = ref
    host = closed_port_url()
    app = make_app(
        path,
        run_id=ids["oracle"],
        trajectory_id="ko-c5-garam-db",
        probe_ollama=True,
        live_config=Config.offline(host=host),
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await _settle(pilot)
        assert app.current_mode == "stepper"
        assert any(f"Ollama not reachable at {host}" in n.message for n in app._notifications)


async def test_a_resize_refits_the_questions_and_keeps_the_cursor(run_a):
    path, ids = run_a
    app = make_app(path, run_id=ids["A"], trajectory_id=HIRING)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("3")
        await _settle(pilot)
        await pilot.press("down", "down")
        await pilot.pause()
        table = app.screen.query_one("#questions-list")
        wide = _cells(table, 3)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert table.cursor_row == 2
        narrow = _cells(table, 3)
        assert narrow != wide and all(len(n) <= len(w) for n, w in zip(narrow, wide, strict=True))
        assert table.virtual_size.width <= 80


@pytest.mark.parametrize("size", SIZES)
async def test_side_by_side_marks_every_cut_fact(ref, size):
    """The side-by-side stores are the narrowest tables: a fact cut at the pane's edge ends in
    '…' (it was cut silently), a row that fits is left alone."""
    from rich.style import Style

    from seorap.tui.widgets.store_table import StoreTable

    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"])
    async with app.run_test(size=size) as pilot:
        await pilot.press("7", "s")
        await _settle(pilot)
        cut = 0
        for table in app.screen.query(StoreTable):
            region = table.scrollable_content_region
            scroll_x, scroll_y = table.scroll_offset
            for y in range(1, min(table.row_count - scroll_y + 1, region.height)):
                shown = table.render_line(y).text
                row = table.draw_row(scroll_y + y - 1, Style(), None, None)
                full = row.text
                past = row.crop(scroll_x + region.width, row.cell_length).text  # in cells
                if past.strip():
                    cut += 1
                    assert shown.endswith("…"), (shown, full)
                else:
                    assert "…" not in shown[-1:] or full.rstrip().endswith("…")
        assert cut > 0  # at these sizes the facts do not fit: the test saw real cuts
