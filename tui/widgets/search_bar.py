"""A one-line search input that appears on `/` and reports what was typed.

It opens over the header's line (its own layer, tui/seorap.tcss), one line without a border: opening
it moves nothing. Docked above the view as a three-line box, it moved every pane down and back up
again on Esc, a layout and a redraw of the whole view each time (in the stepper, with the footer
recomposed, ~100 ms of CPU per `/` and per Esc; docs/benchmarks.md, issue 36)."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input

from seorap.tui.closing import while_running


class SearchBar(Input):
    """Hidden until opened; Enter submits, Esc closes (keeping the current query)."""

    BINDINGS = [Binding("escape", "close", "close search", show=False)]

    def __init__(self, placeholder: str, id: str) -> None:
        super().__init__(placeholder=placeholder, id=id, compact=True)

    @dataclass
    class QueryChanged(Message):
        query: str

    @dataclass
    class Closed(Message):
        """Enter or Esc: the search is done (a screen may report how it went)."""

        query: str

    returns_to: Widget | None = None
    """The widget focused when the bar opened: focus goes back to it on close."""

    def open(self) -> None:
        if self.screen.focused is not self:
            self.returns_to = self.screen.focused
        self.display = True
        self.focus()

    def action_close(self) -> None:
        """Hide the bar, give focus back to the pane it was opened from (focus went to the first
        pane, whichever was in use), and report the query (a screen may then move focus to the
        pane of the hit)."""
        self.display = False
        back, self.returns_to = self.returns_to, None
        if back is not None and back.is_attached and back.display and back.focusable:
            back.focus()
        else:
            self.screen.focus_next()
        self.post_message(self.Closed(self.value))

    @on(Input.Changed)
    @while_running
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.QueryChanged(event.value))

    @on(Input.Submitted)
    @while_running
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_close()
