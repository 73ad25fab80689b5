"""Help for the focused view (F1 / ?): the screen's own HELP text plus the global keys."""

from __future__ import annotations

from rich.style import Style
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from seorap.tui.instant_modes import BuiltAhead
from seorap.tui.widgets.help_text import HelpStyles, HelpText

GLOBAL = """\
## Everywhere
- **1** runs · **2** stepper · **3** questions · **4** score cards · **5** compare · **6** live run
  · **7** demo tour
- **Ctrl+P** command palette (every action), **F1 / ?** this help, **Esc** back toward home,
  **q** (or **Ctrl+Q**) quit — inside a search or prompt, q is typed instead
"""


class HelpScreen(BuiltAhead, ModalScreen[None]):
    """Installed once per view by the app (tui/app.py ``action_help``): composed on the first F1
    and only shown on the next. Its text is one widget (tui/widgets/help_text.py): as a Markdown
    widget the stepper's first F1 took ~300 ms of CPU on a quiet core."""

    BINDINGS = [Binding("escape,f1,question_mark", "dismiss(None)", "close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(self.help_text(), id="help-text")

    def help_text(self) -> HelpText:
        """The text, its headings and code in the app's theme's colours of now."""
        theme = self.app.current_theme
        primary, accent = (Color.parse(c).rich_color for c in (theme.primary, theme.accent))
        styles = HelpStyles(heading=Style(color=primary, bold=True), code=Style(color=accent))
        return HelpText(self.text + "\n" + GLOBAL, styles)

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
        elif self.styled_for is not None:  # another theme: its colours
            self.query_one("#help-text", Static).update(self.help_text())
        self.query_one(VerticalScroll).scroll_home(animate=False)
