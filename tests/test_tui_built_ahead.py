"""A screen built ahead leaves the event loop to the screen shown (tui/instant_modes.py
``BuiltAhead``; issue 36: no work ahead holds the loop over 20 ms, docs/benchmarks.md (h))."""

from __future__ import annotations

import asyncio

from textual.app import App
from textual.screen import Screen

from seorap.tui.instant_modes import BuiltAhead


class Hidden(BuiltAhead, Screen):
    pass


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

        await app.push_screen("hidden")  # shown: its events are the key's, handled at once
        await pilot.pause()
        order.clear()
        hidden.call_later(first)
        hidden.call_later(order.append, "second")
        await pilot.pause()
        assert order == ["first", "second", "the loop"]
