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

    def open(self) -> None:
        self.display = True
        self.focus()

    def action_close(self) -> None:
        self.display = False
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
