"""A view shown before is shown again without Textual's 50 ms hold-back (tui/instant_modes.py;
docs/benchmarks.md, section (h)); its first showing keeps it. What is shown is still read when the
view is shown, and read-ahead reaches only mounted views."""

from __future__ import annotations

from seorap.engine.store import database as store
from seorap.engine.store.database import open_db
from seorap.tui.factory import make_app
from seorap.tui.modes import VIEWS, screen_class
from test_tui_support import ref, ref_db_path  # noqa: F401 - fixtures
from textual.app import App

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
    path, ids = ref
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
    the stepper) lists the trajectory selected meanwhile: `3` then only switches."""
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("3", "2", "1")
        await pilot.pause()
        questions = app.built_screen("questions")
        before = str(questions.query_one("#q-title").content)
        await pilot.press("down", "down", "down", "enter")
        await pilot.pause()
        sel = app.ctx.selection
        wanted = f"{sel.trajectory_id} · run {sel.run_id}"
        assert wanted not in before and str(questions.query_one("#q-title").content) == before
        await pilot.pause(0.8)  # the user reads the step
        assert wanted in str(questions.query_one("#q-title").content)
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
