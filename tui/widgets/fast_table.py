"""DataTable helpers for speed (docs/design.md#quality-bars: a step < 50 ms, every key ≤ 100 ms).

A DataTable measures new rows and column widths on the next idle message, which changes its
virtual size *after* the screen has laid out — a second full layout and re-render of every pane
per step. ``settle`` does that measuring synchronously right after the rows were replaced, so the
screen lays out once. ``replace_rows`` clears and adds all rows in one batch.

Textual restyles every widget of a screen each time the screen is shown again, and a widget each
time it gains or loses focus; a DataTable then drops every row it has rendered, though its styles
mostly came out the same: coming back to the runs view re-rendered each visible cell (~100 ms at
160×45). ``KeepsRenderedRows`` drops them only when the table's styles (its own, its component
classes', the colours it inherits) differ from those its rows were rendered with; ``Table`` is a
DataTable with it.

``settle`` mirrors the private ``DataTable._on_idle`` of Textual 8.2.8 (pinned exactly in
pyproject.toml), and ``KeepsRenderedRows`` the private caches ``DataTable.notify_style_update``
clears. When a Textual release no longer has the names they use, ``FAST_PATH`` is False and both
leave Textual's own path alone (one extra layout per step, rows rendered again on each return,
nothing wrong on screen); tests/test_textual_private.py checks both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from seorap.tui.widgets.one_frame import OneFrameScroll
from seorap.tui.widgets.render_style import StyleOncePerRender
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable

RENDER_CACHES = (
    "_row_render_cache",
    "_cell_render_cache",
    "_row_renderable_cache",
    "_line_cache",
    "_styles_cache",
)
"""What DataTable.notify_style_update clears (with _get_styles_to_render_cell's cache)."""
PRIVATE_METHODS = (
    "_on_idle",
    "_update_column_widths",
    "_update_dimensions",
    "_get_styles_to_render_cell",
    "_render_line",
    "_get_offsets",
)
PRIVATE_STATE = (
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
    *RENDER_CACHES,
)
LINES_KEPT = 4000
"""Lines a row-cursor table keeps across cursor moves (KeepsRenderedRows._render_line)."""
"""Private DataTable methods and instance attributes ``settle`` and ``KeepsRenderedRows`` rely on."""


def missing_private_names(table: DataTable | None = None) -> list[str]:
    table = DataTable() if table is None else table
    return [name for name in PRIVATE_METHODS if not callable(getattr(DataTable, name, None))] + [
        name for name in PRIVATE_STATE if not hasattr(table, name)
    ]


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
    if hasattr(
        table, "sync_scrollbars"
    ):  # tui.widgets.one_frame: the scrollbars too, before layout
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


class KeepsRenderedRows:
    """Mixin for a DataTable (put it first in the bases): rendered rows survive a restyle that
    changed nothing they show."""

    _restyled = False
    _rendered_with: tuple | None = None

    def notify_style_update(self) -> None:
        if not FAST_PATH:
            super().notify_style_update()  # type: ignore[misc]
            return
        Widget.notify_style_update(self)  # type: ignore[arg-type]  # the widget's own style caches
        self._restyled = (
            True  # the rows: decided when drawn, once the component classes are styled too
        )
        self.refresh()  # type: ignore[attr-defined]

    _rendered_widths: tuple = ()

    def render_lines(self, crop: Region) -> list[Strip]:
        if FAST_PATH:
            stale = False
            if self._restyled:
                self._restyled = False
                seen = self._style_signature()
                stale, self._rendered_with = seen != self._rendered_with, seen
            # Column widths measured after rows were drawn (DataTable measures on idle) change no
            # cache key: Textual's own restyles hid that; here the widths are checked themselves.
            widths = self._column_widths()
            if widths != self._rendered_widths:
                stale, self._rendered_widths = True, widths
            if stale:
                for name in RENDER_CACHES:
                    getattr(self, name).clear()
                self._lines = None
                self._get_styles_to_render_cell.cache_clear()  # type: ignore[attr-defined]
        return super().render_lines(crop)  # type: ignore[misc]

    _lines: dict | None = None
    _lines_for: int | None = None

    def _render_line(self, y: int, x1: int, x2: int, base_style):
        """DataTable._render_line, kept per line of a row-cursor table while only the cursor moved.

        DataTable keys each rendered line by the cursor's coordinate, so moving the cursor one row
        draws every visible line again (the timeline: every step). With a row cursor a line depends
        on the cursor only through "is this the cursor's (or the hover's) row", which is the key here.
        """
        if not FAST_PATH or self.cursor_type != "row":  # type: ignore[attr-defined]
            return super()._render_line(y, x1, x2, base_style)  # type: ignore[misc]
        try:
            row_key, _ = self._get_offsets(y)  # type: ignore[attr-defined]
        except LookupError:
            return super()._render_line(y, x1, x2, base_style)  # type: ignore[misc]
        row = -1 if row_key is self._header_row_key else self._row_locations.get(row_key)  # type: ignore[attr-defined]
        if (
            self._lines is None
            or self._lines_for != self._update_count
            or len(self._lines) > LINES_KEPT
        ):  # type: ignore[attr-defined]
            self._lines, self._lines_for = {}, self._update_count  # type: ignore[attr-defined]
        key = (
            y,
            x1,
            x2,
            self.size.width,
            self.cursor_coordinate.row == row,  # type: ignore[attr-defined]
            self.hover_coordinate.row == row,
            base_style,
            self.show_cursor,  # type: ignore[attr-defined]
            self._show_hover_cursor,
            self._pseudo_class_state,
        )  # type: ignore[attr-defined]
        strip = self._lines.get(key)
        if strip is None:
            strip = self._lines[key] = super()._render_line(y, x1, x2, base_style)  # type: ignore[misc]
        return strip

    def _column_widths(self) -> tuple:
        columns = [self._label_column, *self.ordered_columns]  # type: ignore[attr-defined]
        return tuple(column.get_render_width(self) for column in columns)

    def _style_signature(self) -> tuple:
        """What a rendered row depends on besides its cells, cursor and hover (which key the
        DataTable's own caches): the table's rules, its component classes' rules and the style
        it inherits."""
        styles = self.styles  # type: ignore[attr-defined]
        return (
            styles.base.get_rules(),
            styles.inline.get_rules(),
            {name: c.get_rules() for name, c in self._component_styles.items()},  # type: ignore[attr-defined]
            self.rich_style,
            self.background_colors,
        )  # type: ignore[attr-defined]


class Table(StyleOncePerRender, KeepsRenderedRows, OneFrameScroll, DataTable):
    """A DataTable that keeps its rendered rows across restyles that change nothing, draws with
    one style lookup and repaints its scrollbar only when it changed (tui.widgets.one_frame)."""
