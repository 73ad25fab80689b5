"""What keeps `/`, Esc and the first F1 cheap (issue 36; docs/benchmarks.md): the search bar is
mounted with its view and `/` only shows it, over the header's line, so no pane moves; the footer
is one line that repaints when its keys change, never a layout of the screen; a view's help is one
widget drawing its text, not a Markdown widget per block."""

from __future__ import annotations

import importlib
import io

import pytest
from rich.console import Console
from rich.style import Style
from test_tui_help import SCREENS
from textual.widget import Widget
from textual.widgets import Header, Static

from seorap.tui.factory import make_app
from seorap.tui.screens.help import GLOBAL, HelpScreen
from seorap.tui.screens.stepper import StepperScreen
from seorap.tui.widgets.footer import KeysFooter
from seorap.tui.widgets.help_text import HelpStyles, HelpText, blocks, inline
from seorap.tui.widgets.search_bar import SearchBar

PANES = ("#step-title", "#timeline", "#document", "#store", "#claims", "#detail", "#operations")


def _regions(screen) -> dict[str, object]:
    return {pane: screen.query_one(pane).region for pane in PANES}


def _keys(footer: KeysFooter) -> list[str]:
    return [key.key for key in footer.shown()[0]]


def _layouts(screen) -> list[object]:
    """Every layout of ``screen`` from now on (Textual's public signal)."""
    seen: list[object] = []
    screen.screen_layout_refresh_signal.subscribe(screen, seen.append)
    return seen


@pytest.mark.parametrize("size", [(160, 45), (100, 30)])
async def test_slash_shows_the_mounted_search_bar_over_the_header_and_moves_no_pane(ref, size):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id="ko-c5-garam-db")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StepperScreen)
        bar, footer = screen.query_one(SearchBar), screen.query_one(KeysFooter)
        before, keys = _regions(screen), _keys(footer)
        assert not bar.display and keys
        await pilot.press("slash")
        await pilot.pause()
        assert screen.query_one(SearchBar) is bar and bar.display and bar.has_focus
        assert bar.region == screen.query_one(Header).region  # one line, the header's
        assert _regions(screen) == before  # nothing moved: no pane laid out or redrawn anew
        during = _keys(footer)
        assert not footer.children  # one widget: no key widget to mount, hide or show
        hidden = set(keys) - set(during)
        assert "v" in hidden and "j" in hidden  # the search takes the letter keys: not shown
        assert "f1" in during  # help still works from the search
        await pilot.press(*"garam")
        await pilot.pause()
        layouts = _layouts(screen)
        await pilot.press("escape")
        await pilot.pause()
        assert not bar.display and bar.value == "garam"
        assert _regions(screen) == before
        assert _keys(footer) == keys  # shown as before the search
        assert len(layouts) <= 1  # the bar going: the footer's keys coming back laid nothing out


async def test_a_change_of_keys_repaints_the_footer_and_lays_nothing_out(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(KeysFooter)
        runs_keys = _keys(footer)
        await pilot.press("slash")  # the runs view's search: fewer keys
        await pilot.pause()
        assert len(_keys(footer)) < len(runs_keys)
        layouts = _layouts(app.screen)
        app.screen.set_focus(None)  # the bar loses focus, stays shown: the view's keys come back
        await pilot.pause()
        assert _keys(footer) == runs_keys and layouts == []


async def test_the_first_f1_composes_one_text_widget_and_the_next_only_shows_it(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id="ko-c5-garam-db")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert len(list(help_screen.walk_children(Widget))) <= 4  # the box, the text, scrollbars
        text = help_screen.query_one("#help-text", Static)
        await pilot.press("escape", "f1")
        await pilot.pause()
        assert app.screen is help_screen and help_screen.query_one("#help-text") is text


def _plain(markdown: str, width: int) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(HelpText(markdown, HelpStyles(heading=Style(bold=True), code=Style())))
    return console.export_text()


def test_the_help_text_reads_its_markdown_subset():
    text = """\
## Stepper
One document at a time,
the store after it.

### Keys
- **←/→** previous / next,
  **g** go to a document
- *term*: a `code` span
Lazy line of the item.
"""
    assert blocks(text) == [
        ("h2", "Stepper"),
        ("para", "One document at a time, the store after it."),
        ("h3", "Keys"),
        ("item", "**←/→** previous / next, **g** go to a document"),
        ("item", "*term*: a `code` span Lazy line of the item."),
    ]
    styles = HelpStyles(heading=Style(bold=True), code=Style(underline=True))
    got = inline("**g** go, *term* `a*b` [bold]x[/bold]", styles)
    assert got.plain == "g go, term a*b [bold]x[/bold]"  # markup is text, marks are removed
    assert [(got.plain[s.start : s.end], s.style) for s in got.spans] == [
        ("g", styles.bold),
        ("term", styles.italic),
        ("a*b", styles.code),
    ]
    assert [line.rstrip() for line in _plain(text, 24).splitlines()] == [
        "Stepper",
        "",
        "One document at a time,",
        "the store after it.",
        "",
        "Keys",
        "",
        "• ←/→ previous / next, g",
        "  go to a document",
        "• term: a code span Lazy",
        "  line of the item.",
    ]


def test_every_views_help_is_drawn_with_its_keys_and_no_marks_left():
    for path in SCREENS:
        module, name = path.split(":")
        help_text = getattr(importlib.import_module(module), name).HELP + "\n" + GLOBAL
        shown = _plain(help_text, 86)
        assert "**" not in shown and "`" not in shown and "## " not in shown, name
        assert "Ctrl+P command palette" in " ".join(shown.split()), name
