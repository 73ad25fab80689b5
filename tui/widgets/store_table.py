"""The store at this step: every fact with its mark (NEW/UPDATED/REINFORCED/SUPERSEDED),
confidence, status and lineage (← the fact it replaced, → the fact that replaced it); active facts
that still state a stale claim in red. The facts this step changed come first. A start every fact
shares ('다온헬스케어 진료 데이터 ') is shown once in the pane title and as '…' in the rows."""

from __future__ import annotations

from rich.text import Text
from seorap.engine.views import StepView, StoreFact, short_id
from seorap.tui.text import one_line, shared_start, without_start
from seorap.tui.widgets.fast_table import KeepsRenderedRows, replace_rows
from seorap.tui.widgets.one_frame import OneFrameScroll
from seorap.tui.widgets.render_style import StyleOncePerRender
from textual.reactive import reactive
from textual.widgets import DataTable

MARK_STYLE = {
    "NEW": "bold green",
    "UPDATED": "bold cyan",
    "REINFORCED": "bold blue",
    "SUPERSEDED": "bold magenta",
}


def changed_first(store: list[StoreFact]) -> list[StoreFact]:
    """The facts this step changed (marked) on top, then active facts stating a stale claim, then
    the rest, each group in store order: a document that touches 3 facts of 200 shows them (and
    the stale ones) without scrolling."""
    rank = {id(f): 0 if f.mark else (1 if f.stale else 2) for f in store}
    return sorted(store, key=lambda f: rank[id(f)])


class StoreTable(StyleOncePerRender, KeepsRenderedRows, OneFrameScroll, DataTable):
    """Row key = fact id (Enter opens its history)."""

    step: reactive[StepView | None] = reactive(None, always_update=True, init=False, repaint=False)
    start = ""
    """The start every fact of the current store shares (elided in the rows)."""

    def on_mount(self) -> None:
        self.cursor_type = "row"
        for label in ("mark", "conf", "id", "lineage", "fact"):  # the fact last: cut at the edge
            self.add_column(label, key=label)

    def watch_step(self, step: StepView | None) -> None:
        if step is None:
            return
        self.start = shared_start([f.text for f in step.store])
        self.facts = changed_first(step.store)
        replace_rows(self, ((f.id, self.cells(f, self.start)) for f in self.facts))

    def focused_fact(self) -> StoreFact | None:
        facts = getattr(self, "facts", [])
        return facts[self.cursor_row] if facts and 0 <= self.cursor_row < len(facts) else None

    @staticmethod
    def cells(f: StoreFact, start: str = "") -> list:
        style = "red" if f.stale else ("dim strike" if f.status != "active" else "")
        mark = Text(
            f.mark or ("STALE" if f.stale else ""),
            MARK_STYLE.get(f.mark, "bold red" if f.stale else ""),
        )
        return [
            mark,
            Text(f"{f.confidence:.2f}", style),
            Text(short_id(f.id), "dim"),
            lineage_cell(f),
            one_line(without_start(f.text, start), 80, style),
        ]


def lineage_cell(f: StoreFact) -> Text:
    """'←f0001' (replaces), '→f0003' (replaced by), '→none' (retracted), '→?' (not recorded)."""
    text = Text()
    if f.replaces:
        text.append("←" + ",".join(short_id(l.old) for l in f.replaces), "cyan")
    if f.successor is not None:
        if text:
            text.append(" ")
        new = f.successor.new
        text.append("→" + ("?" if new is None else short_id(new) if new else "none"), "magenta")
    return text
