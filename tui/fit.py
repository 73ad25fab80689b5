"""Text cut to the width it gets, keeping the part that tells rows apart (docs/design.md#the-app).

A table at 100×30 cannot show a 60-cell Korean fact whole. Cutting every row at its end hides what
differs when the rows differ late: two facts '별무리게임즈 랭크 매칭 API p95 응답 시간 목표는 200ms'
and '… 180ms' both read '별무리게임즈 랭크 매칭 API p9'. So, for a column of texts and a width:

1. a start of whole words every text shares (:func:`seorap.tui.text.shared_start`, the store
   pane's rule) is replaced by '…' once the texts do not fit: '…백업 보관 기간은 5년';
2. each text keeps its **distinguishing point** in view — the first character where it differs
   from the most alike other text of the column. When an end cut would hide it, the start is cut
   instead (at a word start when one is close): '…목표는 200ms'; when the rest is still too long,
   both ends: '…목표는 200ms로 하향…';
3. every cut is marked '…'.

Widths are terminal cells (rich.cells): a Hangul syllable takes two. Results are cached per column
and width, so a key that redraws a table pays for the fitting once.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from rich.cells import cell_len, get_character_cell_size
from rich.console import Console
from rich.text import Text

from seorap.engine.untrusted import visible
from seorap.tui.text import shared_start, without_start

if TYPE_CHECKING:
    from seorap.tui.widgets.line_table import LineTable

ELLIPSIS = "…"
SHOWN_AFTER_POINT = 4
"""Characters from the distinguishing point on that an end cut must still show to be enough."""


def flat(value: object) -> str:
    """One line of literal text: newlines shown as ⏎, control characters made visible."""
    return visible(str(value).replace("\n", " ⏎ "))


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, its end replaced by '…' when cut (wide characters
    counted as two cells, never split)."""
    if cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    room, out = width - 1, []
    for ch in text:
        size = get_character_cell_size(ch)
        if size > room:
            break
        out.append(ch)
        room -= size
    return "".join(out) + ELLIPSIS


def _tail(text: str, width: int) -> str:
    """The longest end of ``text`` in ``width`` cells (no mark)."""
    room, n = width, len(text)
    while n > 0 and get_character_cell_size(text[n - 1]) <= room:
        n -= 1
        room -= get_character_cell_size(text[n])
    return text[n:]


def _common(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def distinguishing_points(texts: Sequence[str]) -> list[int]:
    """For each text, the index of its first character that differs from the most alike other
    (distinct) text of ``texts``; 0 when it is the only one. Neighbours in sorted order are the
    most alike, so this is O(n log n)."""
    distinct = sorted(set(texts))
    point: dict[str, int] = {}
    for i, t in enumerate(distinct):
        before = _common(t, distinct[i - 1]) if i else 0
        after = _common(t, distinct[i + 1]) if i + 1 < len(distinct) else 0
        point[t] = max(before, after)
    return [point[t] for t in texts]


def fit(text: str, width: int, point: int = 0) -> str:
    """``text`` in ``width`` cells with the character at ``point`` (and a few after it) in view;
    cuts marked '…'. See the module's rules."""
    if cell_len(text) <= width:
        return text
    if width < 3 or point <= 0:
        return cut(text, width)
    seen_to = min(len(text), point + SHOWN_AFTER_POINT)
    if cell_len(text[:seen_to]) <= width - 1:
        return cut(text, width)  # the end cut keeps the distinguishing point
    start = text.rfind(" ", 0, point) + 1  # the word the text starts to differ in
    if cell_len(text[start:seen_to]) > width - 2:
        start = point  # a word too long to show from its start
    rest = text[start:]
    if cell_len(rest) + 1 <= width:  # the whole rest fits: give back what context fits before it
        shown = _tail(text[:start], width - 1 - cell_len(rest))
        cut_at, words = start - len(shown), shown.find(" ")
        if cut_at > 0 and text[cut_at - 1] != " " and 0 <= words:
            shown = shown[words + 1 :]  # start at a word, not mid-word
        return ELLIPSIS + shown + rest
    return ELLIPSIS + cut(rest, width - 1)


@lru_cache(maxsize=256)
def _fit_column(texts: tuple[str, ...], width: int) -> tuple[str, tuple[str, ...]]:
    if all(cell_len(t) <= width for t in texts):
        return "", texts
    start = shared_start(list(texts))
    rests = [without_start(t, start) for t in texts]
    points = distinguishing_points(rests)
    return start, tuple(fit(r, width, p) for r, p in zip(rests, points, strict=True))


def fit_column(texts: Sequence[object], width: int) -> tuple[str, list[str]]:
    """(the elided shared start or '', each text fitted to ``width`` cells). Texts are made one
    literal line first (:func:`flat`). Cached per column and width."""
    start, fitted = _fit_column(tuple(flat(t) for t in texts), max(width, 1))
    return start, list(fitted)


def fit_texts(texts: Sequence[object], width: int, style: str = "") -> list[Text]:
    """:func:`fit_column` as literal rich Texts (never parsed as markup)."""
    return [Text(t, style=style) for t in fit_column(texts, width)[1]]


def fitted(text: object, width: int, style: str = "") -> Text:
    """One literal text cut at its end to ``width`` cells, the cut marked '…'."""
    return Text(cut(flat(text), max(width, 1)), style=style)


def clamp_lines(text: Text, width: int, lines: int) -> Text:
    """``text`` wrapped to ``width`` cells in at most ``lines`` lines, the last ending in '…' when
    more was cut (a box of fixed height hid its last lines with no sign). The lines are joined
    with newlines, each within ``width``, so the widget shows them as they are."""
    width = max(width, 1)
    wrapped = text.wrap(Console(width=width, file=io.StringIO()), width)
    if len(wrapped) <= lines:
        return text
    kept = list(wrapped[: max(lines, 1)])
    last = kept[-1].copy()
    last.rstrip()
    last.truncate(width - 1)
    last.append(ELLIPSIS, "dim")
    kept[-1] = last
    return Text("\n").join(kept)


def natural(values: Sequence[object], label: str = "") -> int:
    """A column's natural width: its widest value or its label."""
    return max([cell_len(label), *(cell_len(flat(v)) for v in values)])


def fit_widths(
    naturals: Sequence[int],
    total: int,
    floors: Sequence[int | None],
    last: Sequence[int] = (),
) -> list[int]:
    """Column widths in ``total`` cells: each column's natural width, the widest shrinkable
    columns (a floor, not None) cut first, one cell at a time, never below their floor; the
    columns in ``last`` (an id that tells rows apart) only once every other one is at its floor.
    The sum may stay above ``total`` when every floor is reached (the table then scrolls)."""
    widths = list(naturals)
    shrinkable = [i for i, f in enumerate(floors) if f is not None]
    while (excess := sum(widths) - total) > 0:
        open_ = [i for i in shrinkable if widths[i] > (floors[i] or 0)]
        open_ = [i for i in open_ if i not in last] or open_
        if not open_:
            break
        # what cutting a cell at a time from the widest would do, in one go: the widest columns
        # down together to the next width below them (or their highest floor), as far as the
        # excess goes; a remainder smaller than one cell each comes off the leftmost
        top = max(widths[i] for i in open_)
        widest = [i for i in open_ if widths[i] == top]
        level = max(
            [widths[i] for i in open_ if widths[i] < top] + [floors[i] or 0 for i in widest]
        )
        cells = min(top - level, excess // len(widest))
        for i in widest if cells else widest[:excess]:  # the leftmost first, as max() picked
            widths[i] -= cells or 1
    return widths


def table_room(width: int, columns: int, scrollbar: int = 2, padding: int = 2) -> int:
    """Cells a DataTable of ``columns`` columns has for its cells in a ``width``-cell screen (each
    cell padded by ``padding``, a vertical scrollbar kept)."""
    return width - scrollbar - padding * columns


def narrow_columns(table: LineTable) -> None:
    """Let a DataTable's auto-width columns shrink to the rows added next: ``clear()`` keeps each
    column's widest content, so rows cut for a narrower screen still sat in the old widths."""
    for column in table.columns.values():
        column.content_width = 0


def refill_keeping_cursor(table: LineTable, refill: Callable[[], None]) -> None:
    """Run ``refill`` (which clears and refills ``table`` for a new width) and put the cursor back
    on the row it was on: a resize must not send the user to the first row."""
    row = table.cursor_row
    narrow_columns(table)
    refill()
    if table.row_count and row > 0:
        table.move_cursor(row=min(row, table.row_count - 1), animate=False)
