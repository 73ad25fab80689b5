"""The fast paths of tui/widgets/one_frame.py, fast_table.py and tui/instant_modes.py follow private
methods of the one Textual release pyproject.toml pins: that release is installed, the names exist
(and the methods they mirror are unchanged), and with the names gone the widgets fall back to
Textual's own path and show the same rows (tests/test_tui_instant_modes.py: views built on first
use)."""

from __future__ import annotations

import hashlib
import inspect
import re
import tomllib
from pathlib import Path

import pytest
import textual
from seorap.tui import instant_modes
from seorap.tui.factory import make_app
from seorap.tui.widgets import fast_table, one_frame
from seorap.tui.widgets.claims_table import ClaimsTable
from seorap.tui.widgets.store_table import StoreTable
from seorap.tui.widgets.timeline import Timeline
from test_tui_support import ref, ref_db_path  # noqa: F401 - fixtures
from textual.app import App
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable

ROOT = Path(__file__).resolve().parents[1]

MIRRORED = {
    # The Textual methods our fast paths copy, by a digest of their source in the pinned release.
    # When a new pin changes one, re-read it against one_frame.py / fast_table.py, then update here.
    (Widget, "_scroll_update"): "edb9f6257285",
    (DataTable, "_on_idle"): "d94152378c36",
    # fast_table.KeepsRenderedRows keeps a row-cursor table's lines across cursor moves: a line
    # depends on the cursor only through "is it the cursor's row" (what _should_highlight decides
    # for a row cursor, and all _render_line passes on)
    (DataTable, "_render_line"): "a32c6991165c",
    (DataTable, "_should_highlight"): "2a8620abc38c",
    # instant_modes.py builds a mode's screen as _init_mode does, and relies on switch_mode asking
    # delay_update before it builds a missing mode and restyling when the CSS counters differ
    (App, "_init_mode"): "962fb98bc495",
    (App, "switch_mode"): "0bea775929e2",
    # ... and on Screen's resume restyling when refresh_styles is set (QuietResume clears it)
    (Screen, "_on_screen_resume"): "f39caa8ec442",
    (Screen, "_on_screen_suspend"): "fc21683dcc6d",
}


def pinned_textual() -> str:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "dependencies"
    ]
    [spec] = [d for d in deps if re.match(r"textual\s*[=<>!~]", d)]
    match = re.fullmatch(r"textual==([\w.]+)", spec.replace(" ", ""))
    assert match, f"textual must be pinned exactly (==), not {spec!r}"
    return match.group(1)


def digest(owner: type, name: str) -> str:
    return hashlib.sha256(inspect.getsource(getattr(owner, name)).encode()).hexdigest()[:12]


def test_the_pinned_textual_is_installed():
    assert textual.__version__ == pinned_textual()


def test_private_names_exist():
    assert one_frame.missing_private_names() == []
    assert fast_table.missing_private_names() == []
    assert one_frame.FAST_PATH and fast_table.FAST_PATH
    assert instant_modes.missing_private_names(App()) == [] and instant_modes.FAST_PATH


@pytest.mark.parametrize("owner,name", list(MIRRORED))
def test_mirrored_methods_are_unchanged(owner, name):
    assert digest(owner, name) == MIRRORED[(owner, name)], (
        f"Textual's {owner.__name__}.{name} changed: re-check tui/widgets/one_frame.py, fast_table.py "
        "and tui/instant_modes.py"
    )


def test_missing_names_are_reported(monkeypatch):
    monkeypatch.delattr(DataTable, "_update_dimensions")
    monkeypatch.delattr(Widget, "_refresh_scrollbars")
    assert fast_table.missing_private_names(object()) == [
        "_update_dimensions",
        "_updated_cells",
        "_require_update_dimensions",
        "_new_rows",
        "_component_styles",
        "_label_column",
        "_header_row_key",
        "_row_locations",
        "_update_count",
        "_show_hover_cursor",
        "_pseudo_class_state",
        *fast_table.RENDER_CACHES,
    ]
    assert one_frame.missing_private_names() == ["_refresh_scrollbars"]


async def _stepper_rows(path, run_id) -> list[list[str]]:
    """The stepper's tables (store, claims, timeline) at three steps, as plain text."""
    app = make_app(path, run_id=run_id, trajectory_id="ko-c5-garam-db")
    seen = []
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("2")
        for _ in range(3):
            await pilot.pause()
            for table in (
                app.screen.query_one(StoreTable),
                app.screen.query_one(ClaimsTable),
                app.screen.query_one(Timeline),
            ):
                seen.append([str(table.row_count)] + [str(c) for c in table.get_row_at(0)])
            await pilot.press("right")
    return seen


async def test_fallback_shows_the_same_rows(ref, monkeypatch):
    path, ids = ref
    fast = await _stepper_rows(path, ids["oracle"])
    monkeypatch.setattr(one_frame, "FAST_PATH", False)
    monkeypatch.setattr(fast_table, "FAST_PATH", False)
    slow = await _stepper_rows(path, ids["oracle"])
    assert slow == fast and all(int(rows[0]) > 0 for rows in fast)


@pytest.mark.parametrize("fast", [True, False])
async def test_settle_measures_now_or_leaves_it_to_textual(fast, monkeypatch):
    monkeypatch.setattr(fast_table, "FAST_PATH", fast)

    class One(App):
        def compose(self):
            yield DataTable()

    async with One().run_test() as pilot:
        table = pilot.app.query_one(DataTable)
        table.add_column("a")
        table.add_row("x")
        fast_table.settle(table)
        assert table._require_update_dimensions is (not fast)  # noqa: SLF001
        await pilot.pause()
        assert table._require_update_dimensions is False and table.row_count == 1  # noqa: SLF001
