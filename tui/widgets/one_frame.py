"""One frame per step for scroll views (docs/design.md#quality-bars: a step < 50 ms).

Textual (8.2) lays a ScrollView out with the compositor's virtual size set to its container size,
which differs from the view's own virtual size whenever the content is taller than the pane, so
every layout pass runs ``Widget._scroll_update``, which refreshes the vertical scrollbar
unconditionally. That refresh arrives *after* the frame of the layout was drawn and costs a
second frame on the next refresh tick (~25 ms on the bundled corpus) that repaints only scrollbars.

``OneFrameScroll`` does the same update but lets the scrollbars' reactives refresh them only when a
value really changed, and ``sync_scrollbars`` gives the scrollbars their new extent right after the
content changed — before the layout — so the layout pass finds nothing to change and a step lands
in one frame. The scrollbars still show the right thumb: any change still refreshes them.

This follows private methods of Textual 8.2.8 (pinned exactly in pyproject.toml). When a Textual
release no longer has them, ``FAST_PATH`` is False and the mixin leaves Textual's own path alone
(one extra frame per step, nothing wrong on screen); tests/test_textual_private.py checks both.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.widget import Widget

PRIVATE_NAMES = ("_scroll_update", "_refresh_scrollbars")
"""The private Widget methods this fast path overrides or calls."""


def missing_private_names() -> list[str]:
    return [name for name in PRIVATE_NAMES if not callable(getattr(Widget, name, None))]


FAST_PATH = not missing_private_names()


class OneFrameScroll:
    """Mixin for a ScrollView subclass (RichLog, DataTable); put it first in the bases."""

    def sync_scrollbars(self) -> None:
        """Set the shown scrollbars' extent now, from the current virtual and container size."""
        if FAST_PATH:
            self.sync_scrollbars_to(self.virtual_size)

    def _scroll_update(self, virtual_size: Size) -> None:
        """Widget._scroll_update of Textual 8.2 without its unconditional scrollbar refresh (the
        reactives refresh a scrollbar when its extent changes)."""
        if not FAST_PATH:
            super()._scroll_update(virtual_size)  # type: ignore[misc]
            return
        self._refresh_scrollbars()
        self.sync_scrollbars_to(virtual_size)
        self.scroll_x = self.validate_scroll_x(self.scroll_x)
        self.scroll_y = self.validate_scroll_y(self.scroll_y)

    def sync_scrollbars_to(self, virtual_size: Size) -> None:
        width, height = self.container_size
        if self.show_vertical_scrollbar and self.styles.scrollbar_size_vertical:
            self.vertical_scrollbar.window_virtual_size = virtual_size.height
            self.vertical_scrollbar.window_size = height - self.scrollbar_size_horizontal
        if self.show_horizontal_scrollbar and self.styles.scrollbar_size_horizontal:
            self.horizontal_scrollbar.window_virtual_size = virtual_size.width
            self.horizontal_scrollbar.window_size = width - self.scrollbar_size_vertical
