"""DataTable helpers for speed (docs/design.md#quality-bars: a step < 50 ms).

A DataTable measures new rows and column widths on the next idle message, which changes its
virtual size *after* the screen has laid out — a second full layout and re-render of every pane
per step. ``settle`` does that measuring synchronously right after the rows were replaced, so the
screen lays out once. ``replace_rows`` clears and adds all rows in one batch.

``settle`` mirrors the private ``DataTable._on_idle`` of Textual 8.2.8 (pinned exactly in
pyproject.toml). When a Textual release no longer has the names it uses, ``FAST_PATH`` is False and
``settle`` does nothing: Textual measures on idle as usual (one extra layout per step, nothing wrong
on screen); tests/test_textual_private.py checks both.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from textual.widgets import DataTable

PRIVATE_METHODS = ("_on_idle", "_update_column_widths", "_update_dimensions")
PRIVATE_STATE = ("_updated_cells", "_require_update_dimensions", "_new_rows")
"""Private DataTable methods and instance attributes ``settle`` relies on."""


def missing_private_names(table: DataTable | None = None) -> list[str]:
    table = DataTable() if table is None else table
    return ([name for name in PRIVATE_METHODS if not callable(getattr(DataTable, name, None))]
            + [name for name in PRIVATE_STATE if not hasattr(table, name)])


FAST_PATH = not missing_private_names()


def settle(table: DataTable) -> None:
    """Measure pending rows/cells now instead of on idle (same code path Textual runs on idle)."""
    if not FAST_PATH:
        return
    # noqa: SLF001 - mirrors DataTable._on_idle of Textual 8.2 (which only measures)
    if table._updated_cells:
        updated, table._updated_cells = table._updated_cells.copy(), set()
        table._update_column_widths(updated)
    if table._require_update_dimensions:
        table._require_update_dimensions = False
        new_rows = table._new_rows.copy()
        table._new_rows.clear()
        table._update_dimensions(new_rows)
    if hasattr(table, "sync_scrollbars"):  # tui.widgets.one_frame: the scrollbars too, before layout
        table.sync_scrollbars()


def replace_rows(table: DataTable, rows: Iterable[tuple[str, Sequence]]) -> None:
    """Clear the table and add (key, cells) rows, measured at once; keeps the cursor row when it
    still exists."""
    cursor = table.cursor_row
    table.clear()
    for key, cells in rows:
        table.add_row(*cells, key=key)
    settle(table)
    if table.row_count and cursor:
        table.move_cursor(row=min(cursor, table.row_count - 1), animate=False)
