"""A view shown before is shown again without Textual's 50 ms hold-back (tui/instant_modes.py;
docs/benchmarks.md, section (h)); its first showing keeps it. What is shown is still read when the
view is shown, and read-ahead reaches only mounted views."""

from __future__ import annotations

import asyncio
import threading
import time

from textual import events
from textual.app import App
from textual.screen import Screen

from seorap.engine import views
from seorap.engine.store import database as store
from seorap.engine.store.database import open_db
from seorap.tui import app as app_module
from seorap.tui.factory import make_app
from seorap.tui.modes import VIEWS, screen_class
from seorap.tui.screens import demo as demo_module
from seorap.tui.widgets.footer import KeysFooter

KEYS = {name: key for name, (key, _, _) in VIEWS.items()}


def delays(monkeypatch) -> list[float]:
    """Every hold-back of frames Textual is asked for (App.delay_update)."""
    calls: list[float] = []
    real = App.delay_update
    monkeypatch.setattr(
        App, "delay_update", lambda self, delay=0.05: calls.append(delay) or real(self, delay)
    )
    return calls


async def test_a_view_shown_before_is_shown_without_a_hold_back(ref, monkeypatch):
    """(Views not built ahead here: their first showing composes them.)"""
    path, ids = ref
    monkeypatch.setattr(app_module, "BUILD_ORDER", ())
    held = delays(monkeypatch)
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        assert app.mode_built("runs") and not app.mode_built("scores")
        await pilot.press("4")
        await pilot.pause()
        assert len(held) == 1  # the first showing composes: Textual hides it 50 ms
        for name in ("runs", "scores", "runs"):
            await pilot.press(KEYS[name])
            await pilot.pause()
            assert app.current_mode == name and type(app.screen) is screen_class(name)
        assert len(held) == 1  # shown before: no switch waited again


async def test_a_view_shown_again_shows_what_is_selected_and_what_the_database_holds(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("3", "4", "1")
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # another trajectory than the one at start
        await pilot.pause()
        wanted = app.ctx.selection.trajectory_id
        await pilot.press("3")
        await pilot.pause()
        assert wanted in str(app.screen.query_one("#q-title").content)
        store.delete_run(open_db(path), ids["oracle-merged"])
        await pilot.press("4")
        await pilot.pause()
        assert ids["oracle-merged"] not in {r.run_id for r in app.screen.reports}
        assert len(app.screen.reports) == len(ids) - 1


async def test_a_hidden_view_reads_ahead_what_was_selected_meanwhile(ref):
    """After a key and a moment without input, the hidden questions view (shown once before, as
    the stepper) lists the trajectory selected meanwhile: `3` then only switches. Timed by the
    app's own clock (the time since the last key when the view reads), not by the test's pauses:
    under load a pause outlasts the moment, and the view had read ahead before it was looked at."""
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("3", "2", "1")
        await pilot.pause()
        questions = app.built_screen("questions")
        before = str(questions.query_one("#q-title").content)
        since_key: list[float] = []
        real = questions.read_ahead

        def read_ahead() -> bool:
            since_key.append(time.monotonic() - app.idle_gc.last_input)
            return real()

        questions.read_ahead = read_ahead
        await pilot.press("down", "down", "down", "enter")
        if not app.idle_gc.idle(app_module.AHEAD_IDLE_S):  # a busy machine may be past it
            assert str(questions.query_one("#q-title").content) == before  # not inside the keys
        sel = app.ctx.selection
        wanted = f"{sel.trajectory_id} · run {sel.run_id}"
        assert wanted not in before
        waited = 0.0
        while wanted not in str(questions.query_one("#q-title").content):  # the user reads
            assert waited < 60, "the hidden view never read ahead"
            await pilot.pause(0.1)
            waited += 0.1
        assert since_key and min(since_key) >= app_module.AHEAD_IDLE_S  # only once keys stopped
        shown = questions.shown_for
        await pilot.press("3")
        await pilot.pause()
        assert app.screen is questions and questions.shown_for is shown  # nothing read again


async def test_read_ahead_reaches_only_mounted_views(ref):
    """The read-ahead worker skips a screen that is not mounted (a view's screen composing, or
    one removed): it once queried the questions' table before it existed (NoMatches)."""
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        unmounted = screen_class("questions")()
        app.view_screens["seorap.tui.screens.questions:QuestionsScreen"] = unmounted
        assert app.built_screen("questions") is None and unmounted not in app.built_screens()
        await pilot.press("down")
        await pilot.pause(0.6)
        assert not unmounted.is_mounted  # never read ahead, nothing raised


async def test_a_worker_ending_as_the_app_closes_reaches_no_view(ref, monkeypatch):
    """The tour's stale-fact worker ends while the app closes, after the tour's widgets are gone
    (its footer takes its time to go): its result is dropped, not shown on a removed screen (under
    load it once ended there and raised NoMatches #demo-compensation)."""
    path, ids = ref
    release = threading.Event()
    real = views.stale_case
    monkeypatch.setattr(views, "stale_case", lambda *a, **k: release.wait(60) and real(*a, **k))

    class SlowToGo(KeysFooter):
        async def on_unmount(self) -> None:
            release.set()  # the worker ends now, while the tour's other widgets are removed
            for _ in range(50):
                await asyncio.sleep(0.02)

    monkeypatch.setattr(demo_module, "KeysFooter", SlowToGo)
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("7")
        await pilot.pause()
        tour = app.screen
        assert tour.stops.get("compensation") is None and tour.stale is None  # the worker waits
    assert release.is_set() and tour.stale is None  # closed without error, nothing shown
    assert app.built_screens() == [] and app.built_screen("demo") is None


async def built(app, pilot, names=app_module.BUILD_ORDER, most_s: float = 20.0) -> None:
    waited = 0.0
    while not all(mounted(app, n) for n in names):
        assert waited < most_s, [n for n in names if not mounted(app, n)]
        await pilot.pause(0.1)
        waited += 0.1


def mounted(app, name: str) -> bool:
    return app.built_screen(name) is not None if name in VIEWS else app.get_screen(name).is_mounted


async def test_views_are_built_ahead_and_shown_without_restyling_the_app(ref, monkeypatch):
    """After the first paint every view is built while the runs view stays on screen; its first
    showing then neither holds frames back nor restyles the whole app (App.refresh_css)."""
    path, ids = ref
    held = delays(monkeypatch)
    restyled: list[str] = []
    real = App.refresh_css
    monkeypatch.setattr(
        App, "refresh_css", lambda self, animate=True: restyled.append("x") or real(self, animate)
    )
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await built(app, pilot)
        assert app.current_mode == "runs" and len(app.screen_stack) == 1
        assert [app.built_screen(n).is_current for n in VIEWS if n != "runs"] == [False] * 6
        held.clear(), restyled.clear()
        for name in ("stepper", "questions", "scores", "compare", "demo", "live", "runs"):
            await pilot.press(KEYS[name])
            await pilot.pause()
            assert app.current_mode == name and type(app.screen) is screen_class(name)
        assert held == [] and restyled == []
        assert "looking for" not in str(app.built_screen("live").query_one("#live-status").content)


async def test_every_views_help_is_built_ahead_and_f1_only_shows_it(ref, monkeypatch):
    """Composing a view's help on its first F1 took 173-194 ms of CPU (the stepper's): each
    built view's help is built ahead too, and the push that builds it goes unnoticed."""
    from seorap.tui.screens.help import HelpScreen

    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        waited = 0.0
        while not app.views_built:
            assert waited < 30, "views and their help not built"
            await pilot.pause(0.1)
            waited += 0.1
        views_shown = [app.screen, *app.built_screens()]
        names = [app.help_screen(type(screen)) for screen in views_shown]
        assert all(app.get_screen(name).is_mounted for name in names)
        assert all(screen.quiet_events == 0 for screen in views_shown)  # suspend/resume came
        composed: list[str] = []
        monkeypatch.setattr(HelpScreen, "compose", lambda self: composed.append("x") or iter(()))
        await pilot.press("2", "f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and "Trajectory stepper" in app.screen.text
        assert composed == []


async def test_building_ahead_goes_unnoticed_by_the_view_on_screen(ref, monkeypatch):
    """The push and pop that build a view ahead reach the view on screen with no suspend, resume
    or repaint (an identical picture would cost a frame, and its resume handlers)."""
    path, ids = ref
    seen: list[str] = []
    real_on_event = Screen.on_event

    async def on_event(self, event):
        if isinstance(event, (events.ScreenSuspend, events.ScreenResume)) and self.is_current:
            seen.append(type(event).__name__)
        await real_on_event(self, event)

    monkeypatch.setattr(Screen, "on_event", on_event)
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        seen.clear()
        runs = app.screen
        await built(app, pilot)
        assert seen == [] and runs.quiet_events == 0 and runs.quiet_repaints == 0


async def test_a_key_for_a_view_being_built_shows_it_once_mounted(ref, monkeypatch):
    path, ids = ref
    monkeypatch.setattr(app_module, "BUILD_ORDER", ())
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        mounted_view = app.build_ahead("scores")
        app.building = "scores"
        app.action_view("scores")
        assert app.current_mode == "runs" and app.view_waiting == "scores"
        await mounted_view
        app.building = None
        app.action_view(app.view_waiting)
        await pilot.pause()
        assert app.current_mode == "scores" and app.view_waiting is None


async def test_view_modules_are_imported_ahead_on_the_event_loops_thread(ref, monkeypatch):
    """Imports in two threads at once see each other's modules half made (an ImportError for a
    partially initialised module, seen under load when a thread warmed the views' modules while a
    key built a view): the app imports ahead on its own thread, and every module is imported."""
    from seorap.tui import import_ahead

    path, ids = ref
    where: dict[str, str] = {}
    real = import_ahead.load

    def recorded(name):
        where[name] = threading.current_thread().name
        return real(name)

    monkeypatch.setattr(import_ahead, "load", recorded)
    monkeypatch.setattr(import_ahead, "is_loaded", lambda name: False)  # as on a first start
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await built(app, pilot)
    wanted = {t.split(":")[0] for _, _, t in VIEWS.values()} | set(app_module.WARM_MODULES)
    assert wanted <= set(where)
    assert {where[m] for m in wanted} == {threading.main_thread().name}


async def test_a_view_built_ahead_as_the_app_closes_does_not_mount(ref, monkeypatch):
    """Closing removes every screen's widgets while messages are still handled: a view whose
    Mount comes then found its charts gone (NoMatches '#scatter-box' in the score cards' on_mount,
    a loaded full suite). Its Mount is dropped once the app no longer runs."""
    from seorap.tui.screens.scores import ScoresScreen

    path, ids = ref
    mounted: list[str] = []
    monkeypatch.setattr(ScoresScreen, "on_mount", lambda self: mounted.append("x"))
    monkeypatch.setattr(app_module, "BUILD_ORDER", ())
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        assert app.is_running
        screen = ScoresScreen()
        with monkeypatch.context() as closing:
            closing.setattr(type(app), "is_running", property(lambda self: False))
            await screen.on_event(events.Mount())  # no widget of it exists: on_mount would fail
        assert mounted == []


async def test_a_view_built_ahead_handles_nothing_once_the_app_stopped(ref, monkeypatch):
    """CI (a loaded full run): closing removed a built-ahead score cards screen's panes before
    the screen handled what was still queued for it, and the handler found '#scatter-box' gone.
    Once the app stops running, a resume, a resize and a worker's result reach no handler."""
    from textual.worker import Worker, WorkerState

    from seorap.tui.screens.scores import ScoresScreen

    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await built(app, pilot)
        screen = next(s for s in app.built_screens() if isinstance(s, ScoresScreen))
        drawn: list[str] = []
        monkeypatch.setattr(screen, "draw", lambda: drawn.append("draw"))
        monkeypatch.setattr(screen, "version", object())  # a resume would read the figures again
        worker = screen.compute([])  # a real compute(), of no run
        await worker.wait()
        await pilot.pause()
        assert drawn == ["draw"]  # running: its result is drawn
        drawn.clear()
        with monkeypatch.context() as closing:
            closing.setattr(type(app), "is_running", property(lambda self: False))
            await screen.on_event(events.ScreenResume())
            await screen.on_event(events.Resize(app.size, app.size))
            screen._done(Worker.StateChanged(worker, WorkerState.SUCCESS))
        assert drawn == []


def test_the_ollama_probes_thread_imports_no_module_of_ours_the_views_import():
    """The Ollama probe imports the model client in its worker thread while the main thread
    imports the views' modules (warm_views). Two threads importing modules that import each
    other can each be handed the other's module half made; the probe's own modules (httpx,
    ollama, seorap.engine.models) must stay apart from the views': none of seorap's modules is
    imported by both. Run in a fresh interpreter, from the app's own imports."""
    import os
    import subprocess
    import sys

    targets = [t.split(":")[0] for _, _, t in VIEWS.values()] + list(app_module.WARM_MODULES)
    code = (
        "import importlib, json, sys\n"
        "import seorap.tui.app\n"
        "base = set(sys.modules)\n"
        "from seorap.engine.config import load_config\n"
        "from seorap.tui.ollama_probe import probe\n"
        "assert not probe(load_config()).reachable  # nothing listens: its imports, for real\n"
        "probe = set(sys.modules) - base\n"
        "for m in list(sys.modules):\n"
        "    if m in probe: del sys.modules[m]\n"
        f"for m in {targets!r}: importlib.import_module(m)\n"
        "views = set(sys.modules) - base\n"
        "print(json.dumps(sorted(m for m in probe & views if m.startswith('seorap'))))\n"
    )
    env = {**os.environ, "OLLAMA_HOST": "http://127.0.0.1:9"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
