"""View 8: compare two runs — the claims, questions and facts that flipped between them."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from engine import views
from tui.text import literal, one_line
from tui.widgets.claims_table import VERDICT_STYLE


def _cell(label: str) -> Text:
    return Text(label, VERDICT_STYLE.get(label, "green" if label == "held" else "dim"))


class CompareScreen(Screen):
    HELP = """\
## Compare two runs
Run A is the selected run, run B the next one (**a** / **b** cycle them). Rows: expected claims of
the final state (in the current judge mode) and questions (top-5 memory answers) whose verdict
differs, and final active facts held by only one run.

- **a** / **b** change run A / run B, **j** judge mode for claims, **k** filter kind (all, claim,
  question, fact), **Enter** opens the trajectory of the row in run A
"""

    BINDINGS = [
        Binding("a", "cycle('a')", "run A"),
        Binding("b", "cycle('b')", "run B"),
        Binding("j", "judge", "judge mode"),
        Binding("k", "kind", "kind filter"),
    ]

    KINDS = [None, "claim", "question", "fact"]

    def __init__(self) -> None:
        super().__init__()
        self.kind = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="compare-title")
        yield DataTable(id="compare-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for label in ("trajectory", "kind", "item", "A", "B", "text"):
            table.add_column(label)
        self.show()

    def on_screen_resume(self) -> None:
        self.show()

    def _runs(self) -> list[str]:
        return [r.run_id for r in views.list_runs(self.app.ctx.db)]

    def show(self) -> None:
        ctx, sel = self.app.ctx, self.app.ctx.selection
        runs = self._runs()
        title = self.query_one("#compare-title", Static)
        if len(runs) < 2:
            title.update(Text("compare needs two runs in this database", "dim"))
            return
        a = sel.run_id if sel.run_id in runs else runs[0]
        if sel.compare_run_id not in runs or sel.compare_run_id == a:
            sel.compare_run_id = runs[(runs.index(a) + 1) % len(runs)]
        flips = views.compare_runs(ctx.db, ctx.corpus, a, sel.compare_run_id, sel.judge_mode)
        shown = [f for f in flips if self.kind is None or f.kind == self.kind]
        text = literal(f"A = {a}   B = {sel.compare_run_id}", "bold")
        counts = {k: sum(1 for f in flips if f.kind == k) for k in ("claim", "question", "fact")}
        text.append(f"   flipped: {counts['claim']} claims ({sel.judge_mode}), "
                    f"{counts['question']} questions, {counts['fact']} facts held by one side"
                    + (f" · showing {self.kind}" if self.kind else ""), "dim")
        title.update(text)
        table = self.query_one(DataTable)
        table.clear()
        for n, f in enumerate(shown):
            table.add_row(literal(f.trajectory_id), Text(f.kind), literal(f.item), _cell(f.a),
                          _cell(f.b), one_line(f.text, 100), key=f"{n}\t{f.trajectory_id}")

    def action_cycle(self, which: str) -> None:
        runs, sel = self._runs(), self.app.ctx.selection
        if len(runs) < 2:
            return
        if which == "a":
            sel.run_id = runs[(runs.index(sel.run_id) + 1) % len(runs)] if sel.run_id in runs else runs[0]
        else:
            current = sel.compare_run_id if sel.compare_run_id in runs else sel.run_id
            sel.compare_run_id = runs[(runs.index(current) + 1) % len(runs)]
            if sel.compare_run_id == sel.run_id:
                sel.compare_run_id = runs[(runs.index(sel.compare_run_id) + 1) % len(runs)]
        self.show()

    def action_judge(self) -> None:
        sel = self.app.ctx.selection
        sel.judge_mode = "filter" if sel.judge_mode == "full" else "full"
        self.show()

    def action_kind(self) -> None:
        self.kind = self.KINDS[(self.KINDS.index(self.kind) + 1) % len(self.KINDS)]
        self.show()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        from tui.messages import OpenTrajectory

        trajectory_id = str(event.row_key.value).split("\t")[1]
        self.post_message(OpenTrajectory(self.app.ctx.selection.run_id, trajectory_id))
