"""A screen built ahead leaves the event loop to the screen shown (tui/instant_modes.py
``BuiltAhead``; issue 36: no work ahead holds the loop over 20 ms, docs/benchmarks.md (h))."""

from __future__ import annotations

import asyncio

from textual.app import App
from textual.geometry import Size
from textual.screen import Screen

from seorap.tui.factory import make_app
from seorap.tui.instant_modes import BuiltAhead, breakpoint_classes
from seorap.tui.screens.stepper import StepperScreen


class Hidden(BuiltAhead, Screen):
    HORIZONTAL_BREAKPOINTS = [(0, "-small"), (90, "-mid"), (120, "-large")]
    VERTICAL_BREAKPOINTS = [(36, "-tall")]


async def test_a_hidden_screen_handles_one_event_a_turn_of_the_loop():
    """Textual handles every event a node has queued in one turn of the loop: a screen built ahead
    laid itself out twice (its resume, its first resize) in one turn, ~25 ms a key waited."""
    app = App()
    async with app.run_test(size=(100, 30)) as pilot:
        app.install_screen(Hidden(), "hidden")
        app.push_screen("hidden")
        app.pop_screen()
        await pilot.pause()
        hidden = app.get_screen("hidden")
        assert hidden.is_mounted and not hidden.is_current
        order: list[str] = []
        loop = asyncio.get_running_loop()

        def first() -> None:
            order.append("first")
            loop.call_soon(order.append, "the loop")

        hidden.call_later(first)
        hidden.call_later(order.append, "second")
        await pilot.pause()
        assert order == ["first", "the loop", "second"]


async def test_breakpoint_classes_are_those_textual_sets():
    app = App()
    async with app.run_test(size=(100, 30)):
        screen = Hidden()
        assert breakpoint_classes(screen, Size(100, 30)) == {
            "-small": False,
            "-mid": True,
            "-large": False,
            "-tall": False,
        }
        assert breakpoint_classes(screen, Size(89, 36))["-small"]
        assert breakpoint_classes(screen, Size(120, 40)) == {
            "-small": False,
            "-mid": False,
            "-large": True,
            "-tall": True,
        }
        app.install_screen(screen, "hidden")  # and Textual, on the screen's first resize, agrees
        await app.push_screen("hidden")
        await asyncio.sleep(0.1)
        assert screen.has_class("-mid") and not screen.has_class("-tall")


async def test_the_stepper_built_ahead_has_its_size_class_before_its_panes_mount(ref, monkeypatch):
    """Set by Textual on the screen's first resize, the class restyled every pane mounted (a 13 ms
    part of the hold above)."""
    seen: list[bool] = []
    mounted = StepperScreen.on_mount

    def watched(self) -> None:
        seen.append(self.has_class("-narrow"))
        mounted(self)

    monkeypatch.setattr(StepperScreen, "on_mount", watched)
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("2")
        await pilot.pause()
        assert isinstance(app.screen, StepperScreen) and app.screen.has_class("-narrow")
    assert seen == [True]
