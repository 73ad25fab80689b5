"""The score cards at the size they get (100×30, 80×24): chart ticks and labels that survive few
rows and columns, and a runs table whose last columns stay on screen.

plotext puts a tick's label on the row nearest the tick; two ticks on one row keep the last label,
so at 6 rows the line at 0.5 read '0'. Ticks are thinned to what the rows can hold two rows apart.
A label wider than its group's slot is dropped by plotext, so at 100 columns 'C3 n2', 'C6 n2' and
'L3 n4' vanished: groups are labelled by name alone when the slots are narrow (their n is listed
under Rulers). When even that cannot be read, a chart gives way to its figures as a list
(:func:`bars_legible`, :func:`scatter_legible`, tui/widgets/chart_or_list.py). Below WIDE columns the table of runs shows its scores without their CIs and the
quadrant counts in one column (h/c/b/l), so its last columns stay on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from seorap.engine import views
from seorap.engine.fmt import figure
from seorap.tui.fit import cut

if TYPE_CHECKING:
    from textual.geometry import Size

    from seorap.engine.scoring.schema import Interval

FRAME_ROWS = 5
"""Rows of a plot that are not its canvas: the title, the frame's two lines, x ticks, x label."""
TICK_GAP_ROWS = 2
"""Canvas rows wanted between two tick labels (one row apart, rounding can put both on one)."""
SPAN = 1.2
"""The scores' axes run from -0.05 to 1.15."""
SHORT = 36
"""Below this many rows the lower panes of the score cards give their rows to the charts."""
WIDE = 110
"""From this many columns the runs table shows each score with its 95% CI."""
SLOT_CELLS = 11
"""Cells a bar group needs for 'C1 n2' and a value over each of its two bars."""
LABEL_CELLS = 7
"""Cells a bar group needs for plotext to keep its label 'C1 n2'."""


SIDE_CELLS = 6
"""Columns of a plot that are not its canvas: the y ticks' labels ('0.75') and the frame's sides.
plotext drops a title wider than the canvas (it showed none rather than a cut one)."""
BAR_ROWS = 10
"""Canvas rows a bar chart needs to be read: the axis runs 0 to 1.3, so a row is 0.13 of a score,
bars 0.25 apart differ by two rows, and each 0.25 has its tick labelled."""
SCATTER_ROWS = 5
"""Canvas rows a scatter needs: 0, 0.5 and 1 labelled apart (:func:`score_ticks`)."""
SCATTER_COLUMNS = 20
"""Canvas columns a scatter needs: 0, 0.25 … 1 labelled under it, a point's '×k' beside it."""


def canvas_rows(height: int) -> int:
    return max(height - FRAME_ROWS, 0)


def canvas_columns(width: int) -> int:
    return max(width - SIDE_CELLS, 0)


def first_fitting(titles: list[str], width: int) -> str | None:
    """The first of ``titles`` plotext shows whole in a plot ``width`` cells wide (None: none)."""
    return next((t for t in titles if cell_len(t) <= canvas_columns(width)), None)


def bars_legible(groups: int, size: Size, titles: list[str]) -> bool:
    """A bar chart of ``groups`` pairs can be read at ``size``: each group has LABEL_CELLS
    columns (its label 'C1 n2' kept, two bars and a gap), the canvas BAR_ROWS rows, and a title
    naming the colours fits. Otherwise the figures are listed (tui/screens/scores_list.py)."""
    if not groups:
        return True
    slot = canvas_columns(size.width) / groups
    return (
        slot >= LABEL_CELLS
        and canvas_rows(size.height) >= BAR_ROWS
        and first_fitting(titles, size.width) is not None
    )


def _cell(value: float, cells: int) -> int:
    """The canvas cell (0 … cells-1) a score falls in on an axis from -0.05 to 1.15."""
    return round((value + 0.05) / SPAN * max(cells - 1, 0))


def scatter_legible(spots: list[tuple[float, float]], size: Size, titles: list[str]) -> bool:
    """A scatter of ``spots`` (distinct points) can be read at ``size``: SCATTER_ROWS rows and
    SCATTER_COLUMNS columns of canvas, every spot in a cell of its own (two spots in one cell
    would draw as one point) and a title naming the markers fits."""
    rows, columns = canvas_rows(size.height), canvas_columns(size.width)
    if rows < SCATTER_ROWS or columns < SCATTER_COLUMNS:
        return False
    cells = {(_cell(x, columns), _cell(y, rows)) for x, y in spots}
    return len(cells) == len(set(spots)) and first_fitting(titles, size.width) is not None


def score_ticks(height: int) -> list[float]:
    """The ticks a plot of ``height`` rows can label apart: 0, 0.25 … 1, else 0, 0.5, 1, else only
    0.5 (the quadrant line, always labelled)."""
    rows = canvas_rows(height)
    for ticks in ([0, 0.25, 0.5, 0.75, 1.0], [0, 0.5, 1.0]):
        gap = ticks[1] - ticks[0]
        if rows * gap / SPAN >= TICK_GAP_ROWS:
            return ticks
    return [0.5]


def bar_labels(names: list[str], ns: list[int], width: int) -> tuple[list[str], bool, str]:
    """(the groups' labels, roomy, the x label): values over the bars when each group has
    SLOT_CELLS cells; 'C1 n2' when it has LABEL_CELLS, else the bare name ('C1'), which plotext
    keeps in a 4-cell slot."""
    slot = width / max(len(names), 1)
    if slot >= SLOT_CELLS:
        return [f"{name} n{n}" for name, n in zip(names, ns, strict=True)], True, ""
    if slot >= LABEL_CELLS:
        return (
            [f"{name} n{n}" for name, n in zip(names, ns, strict=True)],
            False,
            "too narrow for values on the bars: they are listed under Rulers",
        )
    return list(names), False, "n and values: under Rulers"


WIDE_QUADRANTS = ["healthy", "comp.", "bottl.", "low"]


def variant_columns(width: int) -> list[str]:
    """The runs table's headers at ``width`` columns: scores with their CIs and a column per
    quadrant when WIDE, else the bare scores and one column of quadrant counts."""
    if width >= WIDE:
        return ["system", "intrinsic [95% CI]", "extrinsic [95% CI]", *FIGURES, *WIDE_QUADRANTS]
    return ["system", "int", "ext", *FIGURES, "h/c/b/l"]


FIGURES = ["MAD", "DivRate", "r", "κ"]


def quadrant_cells(counts: dict[str, int] | None, wide: bool, colors: dict[str, str]) -> list[Text]:
    """The quadrant counts of a run, each in its quadrant's colour (``colors``): a cell each when
    ``wide``, else one cell '12/0/0/0' (healthy/compensation/bottleneck/both-low); 'unreliable'
    when the judge cannot carry quadrants (``counts`` None)."""
    if counts is None:
        return [Text("unreliable", "red"), *[Text("—", "dim")] * (3 if wide else 0)]
    if wide:
        return [Text(str(counts.get(q, 0)), colors[q]) for q in views.QUADRANTS]
    text = Text()
    for n, q in enumerate(views.QUADRANTS):
        if n:
            text.append("/", "dim")
        text.append(str(counts.get(q, 0)), colors[q])
    return [text]


def score_cell(iv: Interval | None, wide: bool, ci: Callable[[Interval | None], str]) -> Text:
    """A run's mean score: with its CI (``ci(iv)``) when wide, else the figure alone."""
    return Text(ci(iv) if wide else figure(None if iv is None else iv.mean))


RUN_LABEL_CELLS = 24
"""The widest run label in the runs-per-row table: a recorded run's label (85 cells) pushed the
figures off screen; cut with '…', it is whole in the status line above the cards."""


def run_label_cell(label: str) -> str:
    """A run's label for the table, at most RUN_LABEL_CELLS cells, its cut marked '…'."""
    return cut(label, RUN_LABEL_CELLS)
