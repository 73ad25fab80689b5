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


def tui_classes() -> list[type]:
    """Every screen and widget class the app defines (its modules imported)."""
    import importlib
    import inspect

    from textual.app import App as TextualApp
    from textual.message_pump import MessagePump

    found = []
    for path in sorted(TUI.rglob("*.py")):
        name = ".".join(("seorap", "tui", *path.relative_to(TUI).with_suffix("").parts))
        module = importlib.import_module(name.removesuffix(".__init__"))
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                cls.__module__ == module.__name__
                and issubclass(cls, MessagePump)
                and not issubclass(cls, TextualApp)  # the app checks is_running itself
            ):
                found.append(cls)
    return found


def handlers_of(cls: type) -> dict[str, list[type]]:
    """The handlers ``cls`` defines itself: name → the message classes each handles."""
    from textual.message import Message

    by_name: dict[str, list[type]] = {}
    todo = [Message]
    while todo:  # every message class loaded, by its handler's name
        kind = todo.pop()
        todo.extend(kind.__subclasses__())
        if "handler_name" in vars(kind):  # set for each subclass (not on Message itself)
            by_name.setdefault(kind.handler_name, []).append(kind)
    handled = {}
    for attr, value in vars(cls).items():
        decorated = getattr(value, "_textual_on", None)
        if decorated:
            handled[attr] = [kind for kind, _ in decorated]
        elif attr.startswith("on_") and callable(value) and attr not in ("on_event", "on_unmount"):
            handled[attr] = by_name.get(attr, [])
    return handled


def test_no_screen_or_widget_of_ours_handles_anything_once_the_app_stopped():
    """A class that handles an event takes QuietWhenClosing; a handler of a message that is not
    an event is wrapped by while_running (tui/closing.py says why)."""
    from textual import events

    from seorap.tui.closing import MARK, QuietWhenClosing

    offenders = []
    for cls in tui_classes():
        for attr, kinds in handlers_of(cls).items():
            where = f"{cls.__module__}.{cls.__qualname__}.{attr}"
            assert kinds, f"{where}: handles no message class known"
            if any(issubclass(k, events.Event) for k in kinds) and not issubclass(
                cls, QuietWhenClosing
            ):
                offenders.append(f"{where}: the class lacks QuietWhenClosing")
            if not all(issubclass(k, events.Event) for k in kinds) and not getattr(
                vars(cls)[attr], MARK, False
            ):
                offenders.append(f"{where}: not wrapped by while_running")
    assert offenders == []


def callbacks_given() -> list[tuple[str, str, str]]:
    """(file:line, class, method) of every method of ours handed to ``call_later`` or
    ``call_after_refresh`` in a screen or widget module: ``self.name`` (the calling class's) or
    ``self.query_one(Cls).name``. Any other form fails here, to be read and added."""
    found, odd = [], []
    for path in sorted([*TUI.glob("screens/*.py"), *TUI.glob("widgets/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for call in (n for n in ast.walk(cls) if isinstance(n, ast.Call)):
                func = call.func
                if not (
                    isinstance(func, ast.Attribute)
                    and func.attr in ("call_later", "call_after_refresh")
                    and call.args
                ):
                    continue
                where = f"{path.relative_to(TUI)}:{call.lineno}"
                arg = call.args[0]
                if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name):
                    found.append((where, cls.name, arg.attr))
                elif (
                    isinstance(arg, ast.Attribute)
                    and isinstance(arg.value, ast.Call)
                    and isinstance(arg.value.func, ast.Attribute)
                    and arg.value.func.attr == "query_one"
                    and isinstance(arg.value.args[0], ast.Name)
                ):
                    found.append((where, arg.value.args[0].id, arg.attr))
                else:
                    odd.append(where)
    assert odd == [], "a callback in a form this test does not read"
    return found


def test_every_method_of_ours_run_as_a_callback_is_quiet_once_the_app_stopped():
    """Callbacks still run as the app closes (tui/closing.py: someone may await them), so a
    method of a screen or widget given as one does nothing then."""
    from seorap.tui.closing import MARK

    classes = {cls.__name__: cls for cls in tui_classes()}
    found = callbacks_given()
    assert len(found) >= 5  # the test reads the calls it should
    offenders = [
        f"{where}: {owner}.{name}"
        for where, owner, name in found
        if not getattr(getattr(classes[owner], name), MARK, False)
    ]
    assert offenders == []
