"""View 3: every version of one fact — operation, confidence, status, source observation/document."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from engine import views
from tui.text import literal, one_line
from tui.widgets.operations import OP_STYLE


class FactHistoryScreen(Screen):
    HELP = """\
## Fact history
Every version of one fact in arrival order: the operation that produced it (create / update /
reinforce / supersede), its confidence and status, its text, the observation that triggered it and
the source document with its date and authors. **Esc** goes back to the stepper.
"""

    BINDINGS = [Binding("escape", "app.pop_screen", "back")]

    def __init__(self, run_id: str, fact_id: str) -> None:
        super().__init__()
        self.run_id, self.fact_id = run_id, fact_id

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="fact-title")
        yield DataTable(id="fact-versions", cursor_type="row")
        yield Footer()

    def on_mount(self) -> None:
        ctx = self.app.ctx
        history = views.fact_history(ctx.db, ctx.corpus, self.run_id, self.fact_id)
        title = Text("Fact ", "bold")
        title.append_text(literal(self.fact_id, "bold"))
        n = len(history.versions)
        title.append(f" · {n} version{'' if n == 1 else 's'} · run ", "dim")
        title.append_text(literal(self.run_id))
        self.query_one("#fact-title", Static).update(title)
        table = self.query_one(DataTable)
        for label in ("v", "pos", "op", "conf", "status", "text", "observation", "source"):
            table.add_column(label, key=label)
        for v in history.versions:
            table.add_row(
                Text(str(v.version)), Text(str(v.position)),
                Text(v.operation, OP_STYLE.get(v.operation, "")), Text(f"{v.confidence:.2f}"),
                Text(v.status, "" if v.status == "active" else "magenta"), one_line(v.text, 60),
                one_line(v.observation or "—", 40, "dim"),
                one_line(f"{v.doc_id} {v.doc_date} {', '.join(v.authors)}", 44, "dim"))
