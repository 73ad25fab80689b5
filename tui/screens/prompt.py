"""A small typed modal: one line of input, Enter returns it, Esc returns None. With ``check``, a
refused value keeps the modal open and says why under the input (the reader fixes it in place;
the keys typed next still go to the input, never to the app)."""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from seorap.tui.closing import while_running
from seorap.tui.text import literal


class PromptModal(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(
        self,
        question: str,
        detail: str = "",
        value: str = "",
        check: Callable[[str], str | None] | None = None,
    ) -> None:
        super().__init__()
        self.question, self.detail, self.value = question, detail, value
        self.check = check
        """Returns why a value is refused (one sentence), or None to accept it."""

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-box"):
            yield Static(literal(self.question, "bold"))
            if self.detail:
                yield Static(literal(self.detail, "dim"))
            yield Input(value=self.value, id="prompt-input")
            yield Static(id="prompt-error")

    @on(Input.Submitted)
    @while_running
    def _submit(self, event: Input.Submitted) -> None:
        refused = self.check(event.value) if self.check else None
        if refused:
            self.query_one("#prompt-error", Static).update(literal(refused, "bold red"))
            self.query_one(Input).focus()
            return
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
