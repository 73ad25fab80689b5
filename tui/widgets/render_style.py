"""One style lookup per drawing (docs/design.md#quality-bars: a step < 50 ms).

``DOMNode.rich_style`` walks the widget and every ancestor's styles each time it is read, and
DataTable and RichLog read it for every line they draw (RichLog up to three times a line). While a
widget draws, nothing changes its styles, so ``StyleOncePerRender`` reads the style once per
``render_lines`` call and every line of that drawing gets the same value. Outside a drawing the
property is Textual's own. Public API only: nothing to check when Textual changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip

if TYPE_CHECKING:  # the type checker reads the mixin as the Widget it extends (super() is typed)
    from textual.widget import Widget as _WidgetHost
else:
    _WidgetHost = object


class StyleOncePerRender(_WidgetHost):
    """Mixin for a widget (put it before the widget class in the bases)."""

    _style_now: Style | None = None

    @property
    def rich_style(self) -> Style:
        style = self._style_now
        return super().rich_style if style is None else style

    def render_lines(self, crop: Region) -> list[Strip]:
        self._style_now = super().rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._style_now = None
