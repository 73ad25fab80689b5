"""A screen half mounted when the app closes raises nothing (tui/closing.py).

Views are built ahead while the user reads; a quit key (or a test's end) can come while one is
mounting. Closing removes the widgets children first, and a widget whose Mount was still queued
ran its handler with its children gone: CI saw Textual's Header raise NoMatches for its
HeaderTitle in one full run. The race is made here on purpose: a screen is pushed and the app
closed after 0, 1, 2 ... turns of the event loop, so that some closes land mid-mount."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Header, Static

from seorap.tui.closing import AppHeader

TUI = Path(__file__).resolve().parent.parent / "tui"
TURNS = 40


def screen_with(header: type[Header]) -> Screen:
    class Page(Screen):
        def compose(self) -> ComposeResult:
            yield header()
            for n in range(40):
                yield Static(f"줄 {n}")

    return Page()


async def closes_mid_mount(header: type[Header]) -> list[str]:
    """The errors of closing the app after each number of event-loop turns since the push."""
    errors = []
    for turns in range(TURNS):
        app: App[None] = App()
        try:
            async with app.run_test():
                app.push_screen(screen_with(header))
                for _ in range(turns):
                    await asyncio.sleep(0)
        except Exception as error:  # noqa: BLE001 - the test counts what closing raised
            errors.append(f"{turns}: {type(error).__name__}")
    return errors


async def test_the_apps_header_mounted_as_the_app_closes_raises_nothing():
    assert await closes_mid_mount(AppHeader) == []


@pytest.mark.filterwarnings("ignore:coroutine .* was never awaited:RuntimeWarning")
async def test_the_race_is_real_textuals_header_raises_in_it():
    """Textual's own Header in the same race: if this stops failing, the race above is not
    exercised any more (or Textual fixed it) and the test above proves nothing."""
    errors = await closes_mid_mount(Header)
    assert errors, "no close landed mid-mount"
    assert all(error.endswith("NoMatches") for error in errors)


def test_header_is_used_only_as_the_apps_header():
    """No module of the app composes Textual's Header itself (tui/closing.py keeps it quiet)."""
    offenders = []
    for path in sorted(TUI.rglob("*.py")):
        if path.name == "closing.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual"):
                if any(alias.name == "Header" for alias in node.names):
                    offenders.append(f"{path.relative_to(TUI)}:{node.lineno}")
    assert offenders == []
