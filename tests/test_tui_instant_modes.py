"""Views are built ahead while the user reads, and a built view is shown without Textual's 50 ms
hold-back (tui/instant_modes.py; docs/benchmarks.md, section (h)). What is shown is still read when
the view is shown: building ahead starts no run, no worker and shows no stale data."""

from __future__ import annotations

import asyncio

from seorap.engine.store import database as store
from seorap.engine.store.database import open_db
from seorap.tui import instant_modes
from seorap.tui.factory import make_app
from seorap.tui.modes import KEPT_SCREENS, VIEWS, screen_class
from test_tui_support import ref, ref_db_path  # noqa: F401 - fixtures
from textual.app import App

KEYS = {name: key for name, (key, _, _) in VIEWS.items()}


async def built_ahead(app, pilot, timeout: float = 20.0) -> None:
    """Wait (no key pressed) until the app has built every view."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not app.prebuilt:
        assert asyncio.get_running_loop().time() < deadline, "views were not built ahead in time"
        await pilot.pause(0.05)
    await pilot.pause()


def delays(monkeypatch) -> list[float]:
    """Every hold-back of frames Textual is asked for (App.delay_update)."""
    calls: list[float] = []
    real = App.delay_update
    monkeypatch.setattr(
        App, "delay_update", lambda self, delay=0.05: calls.append(delay) or real(self, delay)
    )
    return calls


async def test_every_view_is_built_ahead_and_shown_without_a_hold_back(ref, monkeypatch):
    path, ids = ref
    held = delays(monkeypatch)
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await built_ahead(app, pilot)
        assert all(app.mode_built(mode) for mode in VIEWS)
        assert all(app.is_screen_installed(name) for name in KEPT_SCREENS)
        assert [w.group for w in app.workers if w.group != "warm"] == []  # built, nothing computed
        for name in ("stepper", "questions", "scores", "compare", "live", "demo", "runs"):
            await pilot.press(KEYS[name])
            await pilot.pause()
            assert app.current_mode == name and type(app.screen) is screen_class(name)
        assert held == []  # not one switch waited Textual's 50 ms


async def test_a_view_built_ahead_shows_what_is_selected_and_what_the_database_holds_when_shown(
    ref,
):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await built_ahead(app, pilot)
        await pilot.press("down", "down", "enter")  # another trajectory than the one at start
        await pilot.pause()
        wanted = app.ctx.selection.trajectory_id
        await pilot.press("3")
        await pilot.pause()
        assert wanted in str(app.screen.query_one("#q-title").content)
        # the score cards were built with three scored runs; one is removed before they are shown
        store.delete_run(open_db(path), ids["oracle-merged"])
        await pilot.press("4")
        await pilot.pause()
        assert ids["oracle-merged"] not in {r.run_id for r in app.screen.reports}
        assert len(app.screen.reports) == len(ids) - 1


async def test_building_the_live_view_ahead_starts_no_run(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    app.ctx.live_autostart = ["A"]  # what a reachable Ollama queues: started when the view is shown
    async with app.run_test(size=(160, 45)) as pilot:
        await built_ahead(app, pilot)
        live = app.built_screen("live")
        assert live is not None and not live.busy() and app.ctx.live_autostart == ["A"]


async def test_without_the_private_names_views_are_built_on_first_use(ref, monkeypatch):
    monkeypatch.setattr(instant_modes, "FAST_PATH", False)
    path, ids = ref
    held = delays(monkeypatch)
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await built_ahead(app, pilot)
        assert not app.is_screen_installed(next(iter(KEPT_SCREENS)))
        await pilot.press("4")
        await pilot.pause()
        assert app.current_mode == "scores" and app.screen.reports
        await pilot.press("1", "4")
        await pilot.pause()
        assert len(held) == 3  # Textual's own path: every switch holds frames back


async def test_a_hidden_view_reads_ahead_what_was_selected_meanwhile(ref):
    """After a key and a moment without input, the hidden questions view lists the trajectory
    selected meanwhile: `3` then only switches."""
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await built_ahead(app, pilot)
        questions = app.built_screen("questions")
        before = str(questions.query_one("#q-title").content)
        await pilot.press("down", "down", "down", "enter")
        await pilot.pause()
        sel = app.ctx.selection
        wanted = f"{sel.trajectory_id} · run {sel.run_id}"
        assert wanted not in before and str(questions.query_one("#q-title").content) == before
        await pilot.pause(0.6)  # the user reads the step
        assert wanted in str(questions.query_one("#q-title").content)
        shown = questions.shown_for
        await pilot.press("3")
        await pilot.pause()
        assert app.screen is questions and questions.shown_for is shown  # nothing read again


async def test_no_view_is_built_once_the_app_is_shutting_down(ref):
    """Quitting while views are built ahead: App._close_all walks the screen stacks, and a view
    built meanwhile changed them under it ('dictionary changed size during iteration', seen once
    in a test run). Shutting down (App._shutdown clears _running first), nothing is built."""
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)):
        app._running = False  # noqa: SLF001 - what App._shutdown does first
        try:
            assert app.prebuild("questions") is False and not app.mode_built("questions")
            assert app.prebuild_installed("side-by-side-test", lambda: None) is False
        finally:
            app._running = True  # noqa: SLF001
