"""The store at this step: every fact with its mark (NEW/UPDATED/REINFORCED/SUPERSEDED),
confidence and status; active facts that still state a stale claim in red."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import DataTable

from engine.views import StepView, StoreFact, short_id
from tui.text import one_line
from tui.widgets.one_frame import OneFrameScroll
from tui.widgets.fast_table import replace_rows

MARK_STYLE = {"NEW": "bold green", "UPDATED": "bold cyan", "REINFORCED": "bold blue",
              "SUPERSEDED": "bold magenta"}


class StoreTable(OneFrameScroll, DataTable):
    """Row key = fact id (Enter opens its history)."""

    step: reactive[StepView | None] = reactive(None, always_update=True, init=False)

    def on_mount(self) -> None:
        self.cursor_type = "row"
        for label in ("mark", "conf", "id", "fact"):  # the fact last: a long one is cut at the edge
            self.add_column(label, key=label)

    def watch_step(self, step: StepView | None) -> None:
        if step is None:
            return
        replace_rows(self, ((f.id, self.cells(f)) for f in step.store))

    @staticmethod
    def cells(f: StoreFact) -> list:
        style = "red" if f.stale else ("dim strike" if f.status != "active" else "")
        mark = Text(f.mark or ("STALE" if f.stale else ""),
                    MARK_STYLE.get(f.mark, "bold red" if f.stale else ""))
        return [mark, Text(f"{f.confidence:.2f}", style), Text(f"{short_id(f.id)}·v{f.version}", "dim"),
                one_line(f.text, 80, style)]
