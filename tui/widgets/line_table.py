"""A table on Textual's public Line API (docs/design.md#quality-bars: a step < 50 ms, every key
≤ 100 ms).

Textual's DataTable renders every cell of every added row through Rich to measure it (on the next
idle message, which lays the screen out a second time) and draws a cell at a time: ~22 ms per step
for the stepper's store of 237 facts. ``LineTable`` keeps its own row model (keys, cells, column
widths from the cells' cell lengths) and, like tui/widgets/text_pane.py, draws only the visible
rows in ``render_line``, one Rich render per row, kept while the row, the cursor and the styles it
was drawn with stay the same (a restyle that changes nothing redraws nothing).

It offers the part of DataTable's interface the app uses — columns with labels, keys and widths,
rows with keys, a row cursor, one cell updated, a header, zebra stripes, the cursor moved and
scrolled into view — and posts DataTable's own public ``RowHighlighted`` / ``RowSelected``
messages, so a screen handles either table alike. Strings are read as Rich markup, as DataTable
reads them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets.data_table import CellKey, ColumnKey, RowKey

from seorap.tui.closing import QuietWhenClosing, while_running
from seorap.tui.widgets.render_style import StyleOncePerRender

LINES_KEPT = 4000
"""Drawn rows a table keeps (per row, cursor state and styles)."""


def as_text(cell: object) -> Text:
    """A cell as one line of Text (DataTable's reading: markup for str, two decimals for float)."""
    if isinstance(cell, Text):
        return cell
    if isinstance(cell, str):
        return Text.from_markup(cell)
    if isinstance(cell, float):
        return Text(f"{cell:.2f}")
    return Text(str(cell))


@dataclass
class LineColumn:
    key: str
    label: Text
    width: int | None = None
    """Fixed width; None: as wide as the widest of the label and the cells."""
    content_width: int = field(default=0)


class LineTable(QuietWhenClosing, StyleOncePerRender, ScrollView, can_focus=True):
    """Rows of Text cells with a row cursor; row keys are str."""

    COMPONENT_CLASSES = {
        "line-table--header",
        "line-table--cursor",
        "line-table--even-row",
    }
    DEFAULT_CSS = """
    LineTable {
        background: $surface;
        color: $foreground;
        height: auto;
        max-height: 100%;
        &:focus {
            background-tint: $foreground 5%;
            & > .line-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .line-table--header {
                background-tint: $foreground 5%;
            }
        }
        & > .line-table--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .line-table--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .line-table--even-row {
            background: $surface-lighten-1 50%;
        }
        &:dark > .line-table--even-row {
            background: $surface-darken-1 40%;
        }
        & > .line-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """
    BINDINGS = [
        Binding("enter", "select_cursor", "Select", show=False),
        Binding("up", "cursor_up", "Cursor up", show=False),
        Binding("down", "cursor_down", "Cursor down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home,ctrl+home", "first", "Top", show=False),
        Binding("end,ctrl+end", "last", "Bottom", show=False),
        Binding("left", "scroll_left", "Scroll left", show=False),
        Binding("right", "scroll_right", "Scroll right", show=False),
    ]

    def __init__(
        self,
        *,
        cursor_type: str = "row",
        zebra_stripes: bool = False,
        show_header: bool = True,
        cell_padding: int = 1,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.cursor_type = cursor_type
        self.zebra_stripes = zebra_stripes
        self.show_header = show_header
        self.cell_padding = cell_padding
        self.columns: dict[str, LineColumn] = {}
        self.rows: dict[str, int] = {}
        """Row key -> row index (``key in table.rows``)."""
        self.row_keys: list[str] = []
        self.row_cells: list[list[Text]] = []
        self.cursor_row = 0
        self.version = 0
        """Bumped on any change of rows or columns: the key of the drawn rows."""
        self.drawn: dict[tuple, Strip] = {}
        self.widths: list[int] = []
        self.paint: tuple[Style, ...] = ()
        self.highlight_pending = False

    # -- the model ---------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.row_keys)

    @property
    def ordered_columns(self) -> list[LineColumn]:
        return list(self.columns.values())

    @property
    def cursor_coordinate(self) -> Coordinate:
        return Coordinate(self.cursor_row, 0)

    @property
    def cursor_key(self) -> str | None:
        """The cursor row's key (None when the table is empty)."""
        return self.row_keys[self.cursor_row] if 0 <= self.cursor_row < self.row_count else None

    def coordinate_to_cell_key(self, coordinate: Coordinate) -> CellKey:
        columns = self.ordered_columns
        column = columns[coordinate.column].key if coordinate.column < len(columns) else ""
        return CellKey(RowKey(self.row_keys[coordinate.row]), ColumnKey(column))

    def add_column(self, label: object, *, width: int | None = None, key: str | None = None) -> str:
        key = str(len(self.columns)) if key is None else key
        self.columns[key] = LineColumn(key, as_text(label), width)
        self.changed()
        return key

    def add_row(self, *cells: object, key: str | None = None) -> str:
        key = str(len(self.row_keys)) if key is None else key
        self.rows[key] = len(self.row_keys)
        self.row_keys.append(key)
        self.row_cells.append([as_text(cell) for cell in cells])
        self.changed(self.row_cells[-1:])
        return key

    def add_rows(self, rows: Iterable[Sequence[object]]) -> None:
        for cells in rows:
            self.add_row(*cells)

    def replace_rows(self, rows: Iterable[tuple[str, Sequence[object]]]) -> None:
        """Clear the rows and add (key, cells) rows; the cursor stays on its row number (the last
        row when fewer remain)."""
        self.rows, self.row_keys, self.row_cells = {}, [], []
        for key, cells in rows:
            self.rows[key] = len(self.row_keys)
            self.row_keys.append(key)
            self.row_cells.append([as_text(cell) for cell in cells])
        self.cursor_row = max(0, min(self.cursor_row, self.row_count - 1))
        self.changed()

    def clear(self, columns: bool = False) -> LineTable:
        self.rows, self.row_keys, self.row_cells = {}, [], []
        self.cursor_row = 0
        if columns:
            self.columns = {}
        self.changed()
        return self

    def update_cell(self, row_key: str, column_key: str, value: object) -> None:
        row = self.rows[str(row_key)]
        column = list(self.columns).index(str(column_key))
        self.row_cells[row][column] = as_text(value)
        self.changed()

    def get_row_at(self, row: int) -> list[Text]:
        return list(self.row_cells[row])

    def get_row(self, row_key: str) -> list[Text]:
        return self.get_row_at(self.rows[str(row_key)])

    def get_cell(self, row_key: str, column_key: str) -> Text:
        return self.get_row(row_key)[list(self.columns).index(str(column_key))]

    def changed(self, rows: Sequence[list[Text]] | None = None) -> None:
        """Rows or columns changed: measure the columns (cell lengths, no rendering: only
        ``rows`` when rows were just added), size the view and draw again; the cursor row is
        announced once per batch of changes."""
        self.version += 1
        self.drawn.clear()
        for n, column in enumerate(self.columns.values()):
            measured = self.row_cells if rows is None else rows
            widest = max((cells[n].cell_len for cells in measured if n < len(cells)), default=0)
            column.content_width = widest if rows is None else max(column.content_width, widest)
        self.widths = [
            c.width or max(c.label.cell_len, c.content_width) for c in self.columns.values()
        ]
        header = 1 if self.show_header else 0
        total = sum(self.widths) + 2 * self.cell_padding * len(self.widths)
        self.virtual_size = Size(total, self.row_count + header)
        self.refresh()
        if self.row_count and not self.highlight_pending:
            self.highlight_pending = True
            self.call_later(self.announce_cursor)

    @while_running
    def announce_cursor(self) -> None:
        self.highlight_pending = False
        key = self.cursor_key
        if key is not None and self.cursor_type != "none":
            # DataTable's own row messages, so screens handle both alike; they type the sender
            # as a DataTable, which LineTable stands in for without being one
            self.post_message(DataTable.RowHighlighted(self, self.cursor_row, RowKey(key)))  # type: ignore[arg-type]

    # -- the cursor --------------------------------------------------------------------------

    def move_cursor(
        self,
        *,
        row: int | None = None,
        column: int | None = None,
        animate: bool = False,
        scroll: bool = True,
    ) -> None:
        if row is None or not self.row_count:
            return
        row = max(0, min(row, self.row_count - 1))
        if scroll:
            self.scroll_to_row(row)
        if row != self.cursor_row:
            self.refresh_row(self.cursor_row)
            self.cursor_row = row
            self.refresh_row(row)
            self.announce_cursor()

    def refresh_row(self, row: int) -> None:
        """Draw one row again (the cursor left or reached it), not the whole table."""
        y = row - self.scroll_offset.y + (1 if self.show_header else 0)
        self.refresh(Region(0, y, self.scrollable_content_region.width, 1))

    def scroll_to_row(self, row: int) -> None:
        """Scroll the least that shows ``row`` below the header."""
        header = 1 if self.show_header else 0
        rows_shown = max(1, self.scrollable_content_region.height - header)
        top = self.scroll_offset.y
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + rows_shown:
            self.scroll_to(y=row - rows_shown + 1, animate=False, immediate=True)

    def action_cursor_up(self) -> None:
        self.move_cursor(row=self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(row=self.cursor_row + 1)

    def action_page_up(self) -> None:
        self.move_cursor(row=self.cursor_row - max(1, self.scrollable_content_region.height - 1))

    def action_page_down(self) -> None:
        self.move_cursor(row=self.cursor_row + max(1, self.scrollable_content_region.height - 1))

    def action_first(self) -> None:
        self.move_cursor(row=0)

    def action_last(self) -> None:
        self.move_cursor(row=self.row_count - 1)

    def action_select_cursor(self) -> None:
        key = self.cursor_key
        if key is not None and self.cursor_type != "none":
            # (as in announce_cursor: a DataTable message from its stand-in)
            self.post_message(DataTable.RowSelected(self, self.cursor_row, RowKey(key)))  # type: ignore[arg-type]

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        header = 1 if self.show_header else 0
        if offset is None or offset.y < header or self.cursor_type == "none":
            return
        row = self.scroll_offset.y + offset.y - header
        if 0 <= row < self.row_count:
            self.move_cursor(row=row, scroll=False)
            self.action_select_cursor()

    # -- drawing -----------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        """The styles every line of this drawing shares, looked up once."""
        self.paint = (
            self.get_component_rich_style("line-table--header"),
            self.get_component_rich_style("line-table--cursor"),
            self.get_component_rich_style("line-table--even-row"),
        )
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        base = self.rich_style
        header = 1 if self.show_header else 0
        if not self.paint:
            return Strip.blank(width, base)
        header_style, cursor_style, even_style = self.paint
        under: Style | None
        if y < header:
            index, post, under = -1, None, header_style
        else:
            index = scroll_y + y - header
            if index >= self.row_count:
                return Strip.blank(width, base)
            cursor = index == self.cursor_row and self.cursor_type != "none"
            post = cursor_style if cursor else None
            under = even_style if self.zebra_stripes and index % 2 == 0 else None
        key = (index, self.version, base, under, post)
        strip = self.drawn.get(key)
        if strip is None:
            if len(self.drawn) > LINES_KEPT:
                self.drawn.clear()
            strip = self.drawn[key] = self.draw_row(index, base, under, post)
        return cut_marked(strip, scroll_x, width, base)

    def draw_row(self, index: int, base: Style, under: Style | None, post: Style | None) -> Strip:
        """One row (or the header, index -1) at the table's full width."""
        cells = [c.label for c in self.columns.values()] if index < 0 else self.row_cells[index]
        pad = " " * self.cell_padding
        line = Text(no_wrap=True, overflow="crop", end="")
        for n, width in enumerate(self.widths):
            cell = cells[n] if n < len(cells) else Text()
            line.append(pad)
            if cell.cell_len > width:
                cell = cell.copy()
                cell.truncate(width)
            line.append_text(cell)
            line.append(pad + " " * (width - min(cell.cell_len, width)))
        total = max(self.virtual_size.width, 1)
        segments = list(line.render(self.app.console))
        row_style = base + under if under is not None else base
        segments = list(Segment.apply_style(segments, row_style, post))
        return Strip(segments, cell_len(line.plain)).crop_extend(0, total, row_style)


def cut_marked(strip: Strip, start: int, width: int, base: Style) -> Strip:
    """The ``width`` cells of ``strip`` from ``start``; when text goes on past the right edge, its
    last cell becomes '…', so a cut is never silent (a row that only pads on is not marked)."""
    visible = strip.crop_extend(start, start + width, base)
    end = start + width
    if width < 2 or strip.cell_length <= end or not strip.crop(end, strip.cell_length).text.strip():
        return visible
    kept = visible.crop(0, width - 1)
    segments = list(kept)
    style = segments[-1].style if segments else base
    return Strip([*segments, Segment("…", style)], width)
