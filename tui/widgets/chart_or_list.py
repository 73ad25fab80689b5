"""A chart where it can be read, its figures as a list where it cannot (the score cards' scatter
and bars, tui/screens/scores_list.py).

``ChartOrList.show(key, draw, legible, listing)``: at every size the box gets, ``legible(size)``
decides; the chart (a :class:`~seorap.tui.widgets.kept_plot.KeptPlot`, drawn for its size) is
shown when it holds, else ``listing(width)`` in a scrolling pane of the same room. A resize
decides again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.widgets import Static

from seorap.tui.closing import QuietWhenClosing
from seorap.tui.widgets.kept_plot import KeptPlot

LIST_PADDING = 3
"""Cells the list pane keeps for its left padding (1) and its scrollbar (2)."""


class ChartOrList(QuietWhenClosing, Vertical):
    DEFAULT_CSS = """
    ChartOrList { width: 1fr; height: 1fr; }
    ChartOrList > KeptPlot { height: 1fr; }
    ChartOrList > VerticalScroll { height: 1fr; padding: 0 0 0 1; }
    ChartOrList Static { height: auto; }
    """

    def __init__(self, chart_id: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chart_id = chart_id
        self._figure: tuple | None = None
        self.listed: bool | None = None
        """True when the figures are shown as a list, False as a chart, None before ``show``."""

    def compose(self) -> ComposeResult:
        yield KeptPlot(id=self.chart_id)
        with VerticalScroll(id=f"{self.chart_id}-list-box") as box:
            box.display = False  # a chart until the room says otherwise
            yield Static(id=f"{self.chart_id}-list")

    def show(
        self,
        key: Hashable,
        draw: Callable,
        legible: Callable[[Size], bool],
        listing: Callable[[int], Text],
    ) -> None:
        """Hold the figure ``key`` (see ``KeptPlot.show``): drawn by ``draw(plt, size)`` when
        ``legible(size)``, else listed as ``listing(width)``."""
        self._figure = (key, draw, legible, listing)
        self._place()

    def on_resize(self) -> None:
        self._place()

    def _place(self) -> None:
        """Chart or list for the room the box has. Before its first layout (no room yet) nothing
        changes: a screen built ahead is laid out once, hidden, and a chart shown or hidden after
        that would only be laid out, and drawn, on the view's first showing."""
        if self._figure is None or not self.size.area:
            return
        key, draw, legible, listing = self._figure
        chart = self.query_one(KeptPlot)
        box = self.query_one(VerticalScroll)
        listed = not legible(self.size)
        chart.display, box.display = not listed, listed
        self.listed = listed
        if listed:
            chart.figure = None  # drawn again when it is shown again
            box.query_one(Static).update(listing(max(self.size.width - LIST_PADDING, 1)))
        else:
            chart.show(key, draw, sized=True)
