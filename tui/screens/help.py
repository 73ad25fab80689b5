"""Help for the focused view (F1 / ?): the screen's own HELP text plus the global keys."""

from __future__ import annotations

from textual import events
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
    """Installed once per view by the app (tui/app.py ``action_help``): its Markdown is composed
    on the first F1 (stepper: ~300 ms of CPU on a quiet core) and only shown on the next."""

    BINDINGS = [Binding("escape,f1,question_mark", "dismiss(None)", "close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(self.text + "\n" + GLOBAL)

    styled_for: tuple | None = None
    """The app's (theme, focus, colours) when this screen was last hidden."""

    def style_state(self) -> tuple:
        app = self.app
        return (app.theme, app.app_focus, app.ansi_color)

    def on_screen_suspend(self) -> None:
        self.styled_for = self.style_state()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Shown again from its top, and not restyled when nothing its styles depend on changed
        (as tui/instant_modes.py ViewScreen: Textual restyles every widget on a resume)."""
        if self.styled_for is not None and self.styled_for == self.style_state():
            event.refresh_styles = False
        self.query_one(VerticalScroll).scroll_home(animate=False)
