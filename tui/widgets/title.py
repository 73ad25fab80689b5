"""A title that asks for a layout only when its height may change
(docs/design.md#quality-bars: every key ≤ 100 ms).

``Static.update`` asks for a layout every time. The request travels as a message from the widget
to its screen, and when it arrives after the screen drew the rest of the view's new content (a
worker's result, a new selection), it costs one more layout and frame for a title whose size did
not change. ``Title.update`` asks for one only when the height is not fixed by the stylesheet and
the new text wraps to another number of lines than the one shown.
"""

from __future__ import annotations

from rich.text import Text
from textual.visual import VisualType
from textual.widgets import Static


class Title(Static):
    def update(self, content: VisualType = "", *, layout: bool | None = None) -> None:
        if layout is None:
            layout = self._height_may_change(content)
        super().update(content, layout=layout)

    def _height_may_change(self, content: VisualType) -> bool:
        height = self.styles.height
        if height is not None and not height.is_auto:
            return False  # the stylesheet fixes it
        width = self.content_region.width
        if width <= 0 or not isinstance(content, Text):
            return True  # a string may hold markup: its shown length is not known here
        return len(content.wrap(self.app.console, width)) != self.content_region.height
