"""Help for the focused view (F1 / ?): the screen's own HELP text plus the global keys."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

GLOBAL = """\
## Everywhere
- **1** runs · **2** stepper · **3** questions · **4** score cards · **5** compare · **6** live run
  · **7** demo tour
- **Ctrl+P** command palette (every action), **F1 / ?** this help, **Esc** back toward home,
  **q** (or **Ctrl+Q**) quit — inside a search or prompt, q is typed instead
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1,question_mark", "dismiss(None)", "close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(self.text + "\n" + GLOBAL)
