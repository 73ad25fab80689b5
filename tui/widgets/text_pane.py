"""A scrollable pane showing one rich Text, wrapped once per width (docs/design.md#quality-bars:
a step < 50 ms, every key ≤ 100 ms).

A Static inside a VerticalScroll re-lays out the whole screen twice per step (the Static's new
height changes its container's virtual size). This pane is one scroll view with the Line API: the
text is wrapped into lines when shown (and again when the width changes) and only the visible
lines are drawn. Wrapped lines are kept per (text, width), so a step shown again, or read ahead
while the user was reading (``wrapped``), is not wrapped again. ``text`` holds the last Text shown
(tests read ``text.plain``).

It replaces a RichLog, which measured the whole text's words before wrapping it, read the
widget's style three times per drawn line and keeps nothing once cleared.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from seorap.tui.closing import QuietWhenClosing
from seorap.tui.widgets.render_style import StyleOncePerRender

WRAPS_KEPT = 48
"""Wrapped texts a pane keeps (a step's document or log is wrapped once per width)."""
DRAWN_KEPT = 4000
"""Drawn lines a pane keeps while its text, scroll position, width and style stay the same."""


def text_key(text: Text) -> tuple:
    """What a Text draws as: its characters, styled spans and base style."""
    return (text.plain, tuple(text.spans), text.style, text.justify, text.overflow, text.no_wrap)


class TextPane(QuietWhenClosing, StyleOncePerRender, ScrollView, can_focus=True):
    DEFAULT_CSS = """
    TextPane {
        background: $surface;
        color: $foreground;
        overflow-y: scroll;
        &:focus {
            background-tint: $foreground 5%;
        }
    }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.text = Text()
        self._shown: tuple | None = None
        self._strips: list[Strip] = []
        self._wrapped: OrderedDict[tuple, tuple[list[Strip], int]] = OrderedDict()
        self._drawn: dict[tuple, Strip] = {}

    @property
    def content(self) -> str:
        """The plain text shown (like Static.content for the tests and search)."""
        return self.text.plain

    def show_text(self, text: Text) -> None:
        """Show ``text`` from its top; the text already shown is left as it is (a table's late
        highlight event after a step or a new selection must not cost another frame)."""
        key = text_key(text)
        if key == self._shown and self.text.plain:
            return
        self._shown, self.text = key, text
        self._set_lines()
        self.scroll_to(0, 0, animate=False, immediate=True)

    def wrapped(self, text: Text, width: int | None = None) -> tuple[list[Strip], int]:
        """``text`` wrapped at ``width`` (the pane's by default): its lines and the widest line's
        width, kept for the next time it is shown."""
        width = self.scrollable_content_region.width if width is None else width
        key = (text_key(text), width)
        kept = self._wrapped.get(key)
        if kept is not None:
            self._wrapped.move_to_end(key)
            return kept
        console = self.app.console
        segments = console.render(text, console.options.update_width(width))
        strips = [Strip(line) for line in Segment.split_lines(segments)] or [Strip.blank(width)]
        kept = self._wrapped[key] = (strips, max(strip.cell_length for strip in strips))
        while len(self._wrapped) > WRAPS_KEPT:
            self._wrapped.popitem(last=False)
        return kept

    def _set_lines(self) -> None:
        width = self.scrollable_content_region.width
        if width > 0 and self.text.plain:
            self._strips, widest = self.wrapped(self.text, width)
        else:  # not sized yet: wrapped on the first resize
            self._strips, widest = [], 0
        self._drawn.clear()
        self.virtual_size = Size(widest, len(self._strips))
        self.refresh()

    def scroll_to_offset(self, offset: int) -> None:
        """Scroll so the wrapped line holding character ``offset`` of the text is at the top."""
        width = self.scrollable_content_region.width
        if width <= 0:
            return
        line = len(self.text[:offset].wrap(self.app.console, width)) - 1 if offset else 0
        self.scroll_to(0, line, animate=False, immediate=True)

    def scroll_to_text(self, query: str) -> bool:
        """Scroll to the first occurrence of ``query`` (case-insensitive); False when absent."""
        at = self.text.plain.lower().find(query.strip().lower()) if query.strip() else -1
        if at < 0:
            return False
        line_start = self.text.plain.rfind("\n", 0, at) + 1
        self.scroll_to_offset(line_start)
        return True

    def on_resize(self, event: events.Resize) -> None:
        self._set_lines()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        style = self.rich_style
        index = scroll_y + y
        key = (index, scroll_x, width, style)
        strip = self._drawn.get(key)
        if strip is None:
            if index < len(self._strips):
                strip = self._strips[index].crop_extend(scroll_x, scroll_x + width, style)
            else:
                strip = Strip.blank(width, style)
            if len(self._drawn) > DRAWN_KEPT:
                self._drawn.clear()
            strip = self._drawn[key] = strip.apply_style(style)
        return strip
