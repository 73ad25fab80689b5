"""A plotext chart that keeps what it drew (docs/design.md#quality-bars: every key ≤ 100 ms).

plotext builds a whole chart as text on every render (~10-15 ms for the score cards' scatter or
bars). ``KeptPlot.show(key, draw)`` names the figure by what it plots (the points, the bars): the
plotting calls run only when the figure changes, and each render is kept per (figure, size,
theme), so `v` back to a run already drawn, a return to the view or a repaint draws no chart
again. A figure without a key is built on every render, as before.

Drawn ahead (the app draws a hidden view's widgets while the user reads another, tui/instant_modes.py),
the chart's text is built in a thread (``build_ahead``): plotext's build and the parse of its ANSI
text are pure Python, 4-17 ms a chart, which a thread gives up every few ms for a key waiting on the
event loop; the loop then only cuts the kept text into lines.

A figure whose drawing depends on the room it gets (``show(key, draw, sized=True)``: ticks and
labels chosen for the plot's rows and columns, tui/screens/scores_fit.py) is drawn with the plot's
size and drawn again when a resize changes it.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from textual.app import RenderResult
from textual.geometry import Size
from textual_plotext import PlotextPlot
from textual_plotext.plot import Plot

from seorap.tui.closing import QuietWhenClosing

RENDERS_KEPT = 16
"""Rendered charts a plot keeps (runs × sizes × themes seen)."""


class KeptPlot(QuietWhenClosing, PlotextPlot):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.figure: Hashable | None = None
        """What the plot holds now (the key given to ``show``)."""
        self._renders: OrderedDict[tuple, RenderResult] = OrderedDict()
        self._sized: tuple[Hashable, Callable[[Plot, Size], None]] | None = None
        """The figure drawn for the plot's size: (key, draw), drawn again on a resize."""
        self._building = threading.Lock()
        """Held while plotext builds this plot's text (the loop's render or ``build_ahead``'s
        thread): one figure object, one build at a time."""

    def show(self, key: Hashable, draw: Callable, sized: bool = False) -> None:
        """Hold the figure ``key``: unless it already does, clear the plot and let ``draw(plt)``
        plot it (``draw(plt, size)`` when ``sized``: the figure is then held per size and drawn
        again when the plot is resized). ``key`` must change whenever what ``draw`` would plot
        changes."""
        self._sized = (key, draw) if sized else None
        figure = (key, self.size) if sized else key
        if figure != self.figure or key is None:
            self.plt.clear_data()
            self.plt.clear_figure()
            draw(self.plt, self.size) if sized else draw(self.plt)
            self.figure = figure
        self.refresh()

    def on_resize(self) -> None:
        if self._sized is not None:
            self.show(*self._sized, sized=True)

    def render(self) -> RenderResult:
        with self._building:
            if self.figure is None:
                return super().render()
            key = (self.figure, self.size, self.app.theme, self.theme)
            kept = self._renders.get(key)
            if kept is None:
                kept = self._renders[key] = super().render()
                while len(self._renders) > RENDERS_KEPT:
                    self._renders.popitem(last=False)
            else:
                self._renders.move_to_end(key)
            return kept

    async def build_ahead(self) -> None:
        """Build and keep the chart of the figure held, at the plot's size, in a thread: the
        render that follows only takes it (a render on the loop meanwhile waits for it)."""
        if self.figure is not None:
            await asyncio.to_thread(self.render)
