"""A scrollable pane showing one rich Text, wrapped once per update (docs/design.md#quality-bars:
step latency).

A Static inside a VerticalScroll re-lays out the whole screen twice per step (the Static's new
height changes its container's virtual size); this pane is a single scroll view (RichLog) whose
content is wrapped once when written, so a step costs one layout and only visible lines render.
The text is re-wrapped on resize. ``text`` holds the last Text shown (tests read ``text.plain``).
One frame per step: see tui.widgets.one_frame (the scrollbars get their new extent right after
the text is written, before the layout).
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import RichLog

from seorap.tui.widgets.one_frame import OneFrameScroll


class TextPane(OneFrameScroll, RichLog):
    def __init__(self, **kwargs) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, auto_scroll=False, min_width=1,
                         **kwargs)
        self.text = Text()

    @property
    def content(self) -> str:
        """The plain text shown (like Static.content for the tests and search)."""
        return self.text.plain

    def show_text(self, text: Text) -> None:
        self.text = text
        self.clear()
        self.write(text, scroll_end=False)
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.sync_scrollbars()

    def on_resize(self, event: events.Resize) -> None:
        if self.text.plain:
            self.clear()
            self.write(self.text, scroll_end=False)
            self.sync_scrollbars()
