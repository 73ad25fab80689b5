"""One style lookup per drawing (docs/design.md#quality-bars: a step < 50 ms).

``DOMNode.rich_style`` walks the widget and every ancestor's styles each time it is read, and
DataTable and RichLog read it for every line they draw (RichLog up to three times a line). While a
widget draws, nothing changes its styles, so ``StyleOncePerRender`` reads the style once per
``render_lines`` call and every line of that drawing gets the same value. Outside a drawing the
property is Textual's own. Public API only: nothing to check when Textual changes.
"""

from __future__ import annotations

from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip


class StyleOncePerRender:
    """Mixin for a widget (put it before the widget class in the bases)."""

    _style_now: Style | None = None

    @property
    def rich_style(self) -> Style:
        style = self._style_now
        return super().rich_style if style is None else style  # type: ignore[misc]

    def render_lines(self, crop: Region) -> list[Strip]:
        self._style_now = super().rich_style  # type: ignore[misc]
        try:
            return super().render_lines(crop)  # type: ignore[misc]
        finally:
            self._style_now = None
