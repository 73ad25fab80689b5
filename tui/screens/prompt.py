"""A small typed modal: one line of input, Enter returns it, Esc returns None."""

from __future__ import annotations

from seorap.tui.text import literal
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class PromptModal(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, question: str, detail: str = "", value: str = "") -> None:
        super().__init__()
        self.question, self.detail, self.value = question, detail, value

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-box"):
            yield Static(literal(self.question, "bold"))
            if self.detail:
                yield Static(literal(self.detail, "dim"))
            yield Input(value=self.value, id="prompt-input")

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
