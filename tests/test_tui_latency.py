"""What keeps every key within its budget (docs/benchmarks.md, section (h)): full garbage collections
wait for an idle moment, and a view's footer is not repainted when its keys did not change."""

from __future__ import annotations

import gc

from seorap.tui import idle_gc
from seorap.tui.factory import make_app
from seorap.tui.widgets.footer import KeysFooter


def test_full_collections_wait_for_idle_and_settings_come_back():
    before = gc.get_threshold()
    collector = idle_gc.IdleCollector()
    collector.start()
    try:
        assert gc.get_threshold()[2] == idle_gc.THRESHOLD_2  # never automatic
        assert gc.get_freeze_count() > 0  # what lives as long as the app is not walked again
        gc.collect(1)  # a young collection: generation 2's count moves, garbage may wait
        collector.touched()
        assert not collector.tick()  # a key was just pressed: not now
        collector.last_input -= idle_gc.IDLE_S + 0.1
        assert gc.get_count()[2] > 0
        assert collector.tick() and collector.collections == 1
        assert not collector.tick()  # nothing collected young since: nothing to do
    finally:
        collector.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


async def test_the_app_collects_off_the_key_path_and_restores_on_exit(ref):
    path, ids = ref
    before = gc.get_threshold()
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        assert gc.get_threshold()[2] == idle_gc.THRESHOLD_2
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


async def test_returning_to_a_view_keeps_its_footer_keys(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(KeysFooter)
        keys = footer.shown()
        assert keys[0]  # the footer shows the view's keys
        painted = []
        footer.refresh = lambda *a, **k: painted.append(1)  # type: ignore[method-assign]
        await pilot.press("4")
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        assert footer.shown() == keys and not painted  # the same keys: not even repainted


async def test_the_tour_finds_its_stale_case_once_in_a_worker(ref, monkeypatch):
    """`7` puts the tour up from the stored score cards; the stale-fact case (the lexical judge over
    its facts) is found in a worker once per database state, and the side-by-side reuses it."""
    from seorap.engine import views

    calls = []
    real = views.stale_case

    def counted(*args, **kwargs):
        calls.append(args[2:])
        return real(*args, **kwargs)

    monkeypatch.setattr(views, "stale_case", counted)
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("7")
        tour = app.screen
        if tour.stops.get("compensation") is not None:
            return  # a real compensation case: no fallback to find
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert tour.stale is not None and "OFFERED INSTEAD" in str(
            tour.query_one("#demo-compensation").content
        )
        await pilot.press("1", "7", "s")
        await pilot.pause()
        assert app.screen.stale is tour.stale
        assert len(calls) == 1


async def test_side_by_side_is_mounted_once_and_the_idle_live_bar_does_not_animate(ref):
    from textual.widgets import ProgressBar

    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("7", "s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        first = app.screen
        await pilot.press("escape", "s")
        await pilot.pause()
        assert app.screen is first  # pushed again, not composed again
        await pilot.press("6")
        await pilot.pause()
        bar = app.screen.query_one(ProgressBar)
        assert bar.total is not None  # an indeterminate bar redraws 15 times a second while idle


async def test_enter_fills_the_stepper_before_its_first_frame_and_a_same_step_is_not_rebuilt(
    ref, monkeypatch
):
    from seorap.engine import views
    from seorap.tui.screens.stepper import StepperScreen

    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    shown: list[tuple[str, str | None]] = []
    display = app._display  # noqa: SLF001 - the frames the app hands to its display

    def recorded(screen, renderable):
        step = getattr(app.stepper, "step", None)
        shown.append((type(screen).__name__, step.trajectory_id if step else None))
        return display(screen, renderable)

    app._display = recorded  # noqa: SLF001
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("enter", "1", "down", "down", "down")  # the stepper is mounted, then back
        await pilot.pause()
        shown.clear()
        await pilot.press("enter")
        await pilot.pause()
        wanted = app.ctx.selection.trajectory_id
        first = next(t for name, t in shown if name == "StepperScreen")
        assert first == wanted  # the first frame of the switch shows the new trajectory
        calls = []
        real = views.step_view
        monkeypatch.setattr(views, "step_view", lambda *a, **k: calls.append(a) or real(*a, **k))
        assert isinstance(app.screen, StepperScreen)
        await pilot.press("home", "home")
        await pilot.pause()
        # Only the stepper's own run counts: the side by side may fill ahead meanwhile, for the
        # stale-fact case of another run (it did on a loaded CI machine).
        own = [a for a in calls if a[2] == ids["oracle"]]
        assert len(own) <= 1  # the first step once, not again for the same step


async def _runs_line_then_score_cards(app, pilot):
    """The runs table and its second line as drawn, then `4`: the runs view is hidden."""
    from seorap.tui.widgets.line_table import LineTable

    await pilot.pause()
    table = app.screen.query_one("#runs-table", LineTable)
    before = table.render_line(1)
    await pilot.press("4")
    await pilot.pause()
    return table, before


async def test_a_table_keeps_its_rendered_rows_when_a_restyle_changes_nothing_and_not_otherwise(
    ref, monkeypatch
):
    """Coming back to a view restyles its widgets (Textual): the runs table keeps the rows it drew;
    a theme change, which changes its colours, draws them again in the new colours."""
    from seorap.tui.widgets.line_table import LineTable

    path, ids = ref
    cells = []
    real = LineTable.draw_row
    monkeypatch.setattr(
        LineTable, "draw_row", lambda self, *a, **k: cells.append(self) or real(self, *a, **k)
    )
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        table, before = await _runs_line_then_score_cards(app, pilot)
        cells.clear()
        await pilot.press("1")
        await pilot.pause()
        assert app.screen.query_one("#runs-table") is table
        # restyled and focused again, the same styles: no cell drawn anew (other views' tables
        # may be drawn meanwhile: views are built ahead)
        assert table not in cells
        assert table.render_line(1) == before
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        assert table in cells  # new colours: drawn again
        after = table.render_line(1)
        assert after.text == before.text and after != before


async def test_a_view_hidden_while_the_theme_changed_is_restyled_when_shown_again(ref):
    """A theme changed while a view was hidden: shown again, its table draws in the new colours,
    and keeps those rows afterwards."""
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        table, before = await _runs_line_then_score_cards(app, pilot)
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        after = table.render_line(1)
        assert after.text == before.text and after != before  # the new theme's colours
        await pilot.press("4", "1")
        await pilot.pause()
        assert table.render_line(1) == after


async def test_a_step_redraws_only_the_timeline_rows_the_cursor_left_and_reached(ref, monkeypatch):
    """The timeline's rows do not change on a step, only its cursor: the two rows it left and
    reached are drawn again, not every line of the table (a whole repaint redrew all of them:
    ~4 ms a step)."""
    from seorap.tui.widgets.line_table import LineTable
    from seorap.tui.widgets.timeline import Timeline

    path, ids = ref
    rows, lines = [], []
    real_row, real_line = LineTable.draw_row, Timeline.render_line

    def row(self, index, *a, **k):
        if isinstance(self, Timeline):
            rows.append(str(index))
        return real_row(self, index, *a, **k)

    monkeypatch.setattr(LineTable, "draw_row", row)
    monkeypatch.setattr(
        Timeline, "render_line", lambda self, y: lines.append(y) or real_line(self, y)
    )
    app = make_app(path, run_id=ids["oracle"], trajectory_id="ko-c5-garam-db")
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("2")
        await pilot.pause()
        rows.clear(), lines.clear()
        await pilot.press("right")
        await pilot.pause()
        assert app.stepper.step.position == 1
        assert sorted(set(rows)) == ["0", "1"]
        assert len(lines) <= 4  # those two lines (each drawn at most twice), not the pane's 40


async def test_while_the_user_reads_a_step_the_steps_either_side_are_read_ahead(ref, monkeypatch):
    """A pause on a step reads the next and the previous step and wraps their document and log,
    so → and ← only show them; a step seen before is not read again."""
    import asyncio

    from seorap.engine import views
    from seorap.tui.widgets.document import DocumentPane

    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id="ko-c5-garam-db")
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("2", "right")
        await pilot.pause()
        await asyncio.sleep(1.5)  # AHEAD_IDLE_S, then one piece per PREBUILD_GAP_S
        await pilot.pause()
        read, wrapped = [], []
        real_view, console = views.step_view, app.console
        real_render = console.render
        monkeypatch.setattr(
            views, "step_view", lambda *a, **k: read.append(a[3:5]) or real_view(*a, **k)
        )
        monkeypatch.setattr(
            console,
            "render",
            lambda r, *a, **k: wrapped.append(getattr(r, "plain", None)) or real_render(r, *a, **k),
        )
        await pilot.press("right")
        await pilot.pause()
        document = app.stepper.query_one(DocumentPane).text.plain
        assert app.stepper.step.position == 2 and read == []
        assert document not in wrapped  # wrapped while the user read doc 2
        await pilot.press("left", "left")
        await pilot.pause()
        assert app.stepper.step.position == 0 and read == []


async def test_a_row_the_cursor_rests_on_is_read_ahead_of_enter(ref, monkeypatch):
    """Resting on a row of the runs view, the stepper reads that trajectory's first step (and
    wraps its document) before Enter is pressed."""
    import asyncio

    from seorap.engine import views

    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("2", "1")  # the stepper is built when first shown
        await pilot.pause()
        await pilot.press("down", "down")
        await asyncio.sleep(1.0)
        for _ in range(600):  # under load the read-ahead may take longer than the second
            if len({key[:2] for key in app.stepper.views_kept}) >= 2:  # the row's step is kept
                break
            await pilot.pause(0.05)
        await pilot.pause()
        read = []
        real = views.step_view
        monkeypatch.setattr(
            views, "step_view", lambda *a, **k: read.append(a[3:5]) or real(*a, **k)
        )
        await pilot.press("enter")
        await pilot.pause()
        trajectory = app.ctx.selection.trajectory_id
        assert app.stepper.step.trajectory_id == trajectory
        # its first step was not read for Enter (the stepper reading its next steps ahead once
        # idle is its own read-ahead: under load that can start before this line)
        assert (trajectory, 0) not in read and all(position > 0 for _, position in read)


async def test_questions_of_a_new_selection_land_in_one_layout_and_no_late_frame(ref):
    """`3` pressed at once after another trajectory was opened: the view is filled before the
    switch, and neither the table's late highlight event (the detail pane shown again) nor its
    scrollbar (refreshed after the layout) costs another frame. Public API only, the resume
    restyles every widget and the scrollbars repaint after the layout: 5 frames (3 when our code
    reached into Textual's privates to skip both; the key's time is in docs/benchmarks.md (h))."""
    import asyncio

    from seorap.tui.widgets.text_pane import TextPane

    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    frames = []
    display = app._display  # noqa: SLF001

    def recorded(screen, renderable):
        frames.append(type(screen).__name__)
        return display(screen, renderable)

    app._display = recorded  # noqa: SLF001
    async with app.run_test(size=(100, 30)) as pilot:
        await asyncio.sleep(2.5)  # the views are built ahead first (a person reads the runs view)
        await pilot.press("3", "1", "down", "down", "enter")
        await pilot.pause()
        await asyncio.sleep(0.1)  # the stepper's frames are drawn; the app reads ahead after 0.3 s
        frames.clear()
        await pilot.press("3")
        await pilot.pause()
        pane = app.screen.query_one(TextPane)
        assert app.ctx.selection.trajectory_id in str(app.screen.query_one("#q-title").content)
        assert pane.content and frames.count("QuestionsScreen") <= 5


async def test_steps_are_read_ahead_off_the_event_loop_and_end_and_help_only_show(ref, monkeypatch):
    """Issue 36: the stepper reads steps ahead in its reader thread (the event loop takes keys
    meanwhile), End and Home included, so End then reads nothing; F1 composes a view's help once
    and shows the same screen again."""
    import asyncio
    import sys
    import threading

    from seorap.engine import views

    path, ids = ref
    where: list[str] = []
    real = views.step_view

    def step_view(*a, **k):
        caller = sys._getframe(1).f_code.co_name  # noqa: SLF001 - the stepper's callers only
        if caller == "read_step":  # the stepper's reads, not the side by side's own step views
            where.append(threading.current_thread().name)
        return real(*a, **k)

    monkeypatch.setattr(views, "step_view", step_view)
    app = make_app(path, run_id=ids["oracle"], trajectory_id="ko-c5-garam-db")
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("2")
        await pilot.pause()
        for _ in range(600):  # the judge's analyser ready: step keys no longer change with it
            if views.judge_warm():
                break
            await asyncio.sleep(0.1)
        await pilot.press("right", "left")  # read again once ready (its key changed)
        await asyncio.sleep(2.5)  # AHEAD_IDLE_S, then one step per pass
        await pilot.pause()
        loop = threading.current_thread().name
        assert any(name.startswith("step reader") for name in where), where  # read ahead there
        where.clear()
        await pilot.press("end")
        await pilot.pause()
        assert app.stepper.step.position == app.stepper.step.last_position and loop not in where
        await pilot.press("f1")
        await pilot.pause()
        help_screen = app.screen
        await pilot.press("escape", "f1")
        await pilot.pause()
        assert app.screen is help_screen


async def test_the_score_cards_charts_are_laid_out_and_drawn_ahead(ref, monkeypatch):
    """Issue 36: the score cards, built ahead, placed chart or list while their boxes had no size,
    and a chart shown at the first layout was only laid out (and drawn: four plotext renders,
    ~45 ms) on the first `4`. A box places nothing before it has room, so the charts are in the
    hidden screen's layout and drawn with it; `4` draws no chart."""
    import asyncio

    from seorap.tui.widgets.kept_plot import KeptPlot

    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        for _ in range(600):
            if app.views_built:
                break
            await asyncio.sleep(0.1)
        scores = next(s for s in app.built_screens() if type(s).__name__ == "ScoresScreen")
        plots = list(scores.query(KeptPlot))
        assert plots and all(p.size.area and p._renders for p in plots)  # noqa: SLF001
        drawn: list[str] = []
        real = KeptPlot.render

        def render(self):
            key = (self.figure, self.size, self.app.theme, self.theme)
            if key not in self._renders:  # noqa: SLF001
                drawn.append(self.id)
            return real(self)

        monkeypatch.setattr(KeptPlot, "render", render)
        await pilot.press("4")
        await pilot.pause()
        assert app.screen is scores and drawn == []


async def test_the_runs_view_line_under_the_filters_is_set_only_when_it_changes(ref, monkeypatch):
    """Issue 36: ↓ set the line naming the highlighted row's run on every row, a frame of its own
    (16 ms after the cursor's) when it read the same."""
    from textual.widgets import Static

    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        line = app.screen.query_one("#filters", Static)
        updates: list[object] = []
        real = Static.update

        def update(self, *a, **k):
            if self is line:
                updates.append(a)
            return real(self, *a, **k)

        monkeypatch.setattr(Static, "update", update)
        await pilot.press("down", "down")
        await pilot.pause()
        assert updates == []  # the rows of one run: the line reads the same


def test_the_libraries_imported_ahead_first_are_those_a_view_imports():
    """Issue 36: the score cards' module was one 22-25 ms import with its chart renderer; the
    renderer's libraries are imported ahead on their own first (tui/app.py, WARM_FIRST). A name
    there that no view imports any more would only cost time."""
    import subprocess
    import sys

    from seorap.tui.app import WARM_FIRST

    code = (
        "import sys, seorap.tui.screens.scores as s; "
        f"print(all(m in sys.modules for m in {WARM_FIRST!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


async def test_the_score_cards_take_their_size_class_before_their_panes_mount(ref, monkeypatch):
    """Set on mount, the class a short terminal asks for styled every pane of the score cards again
    in the mount's turn: the loop's longest hold at 100×30 (22-31 ms, docs/benchmarks.md (h))."""
    from seorap.tui.screens import scores

    seen: list[bool] = []
    fit = scores.ScoresScreen._fit_size

    def watched(self) -> bool:
        seen.append(self.has_class("-short"))
        return fit(self)

    monkeypatch.setattr(scores.ScoresScreen, "_fit_size", watched)
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("4")
        await pilot.pause()
        assert isinstance(app.screen, scores.ScoresScreen) and app.screen.has_class("-short")
    assert seen and seen[0]  # short already when the panes were first fitted (on mount)
