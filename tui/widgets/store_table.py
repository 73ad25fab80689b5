"""The store at this step: every fact with its mark (NEW/UPDATED/REINFORCED/SUPERSEDED),
confidence and status; active facts that still state a stale claim in red. The facts this step
changed come first."""

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


def changed_first(store: list[StoreFact]) -> list[StoreFact]:
    """The facts this step changed (marked) on top, then active facts stating a stale claim, then
    the rest, each group in store order: a document that touches 3 facts of 200 shows them (and
    the stale ones) without scrolling."""
    rank = {id(f): 0 if f.mark else (1 if f.stale else 2) for f in store}
    return sorted(store, key=lambda f: rank[id(f)])


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
        replace_rows(self, ((f.id, self.cells(f)) for f in changed_first(step.store)))

    @staticmethod
    def cells(f: StoreFact) -> list:
        style = "red" if f.stale else ("dim strike" if f.status != "active" else "")
        mark = Text(f.mark or ("STALE" if f.stale else ""),
                    MARK_STYLE.get(f.mark, "bold red" if f.stale else ""))
        return [mark, Text(f"{f.confidence:.2f}", style), Text(f"{short_id(f.id)}·v{f.version}", "dim"),
                one_line(f.text, 80, style)]
