"""The store at this step: every fact with its mark (NEW/UPDATED/REINFORCED/SUPERSEDED),
confidence, status and lineage (← the fact it replaced, → the fact that replaced it); active facts
that still state a stale claim in red. This step's supersedes come first, then what else it changed
and the stale facts (engine.views.store_order); a filter (`v`) keeps only the changed, the lineage or
the stale facts. A start every fact shares ('다온헬스케어 진료 데이터 ') is shown once in the pane
title and as '…' in the rows. Under 120 columns the marks are abbreviated and the confidence column
goes, so the fact text keeps the width (the confidence is in the detail pane below)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from seorap.engine import views
from seorap.engine.views import StepView, StoreFact, short_id
from seorap.tui.text import one_line, shared_start, without_start
from seorap.tui.widgets.line_table import LineTable

MARK_STYLE = {
    "NEW": "bold green",
    "UPDATED": "bold cyan",
    "REINFORCED": "bold blue",
    "SUPERSEDED": "bold magenta",
}


SHORT_MARK = {
    "NEW": "NEW",
    "UPDATED": "UPD",
    "REINFORCED": "REI",
    "SUPERSEDED": "SUP",
    "STALE": "STL",
}
"""Marks under 120 columns (F1 spells them out)."""
COMPACT_BELOW = 120
"""Terminal width under which the table is compact (the stepper's narrow layout)."""


class StoreTable(LineTable):
    """Row key = fact id (Enter opens its history)."""

    step: reactive[StepView | None] = reactive(None, always_update=True, init=False, repaint=False)
    start = ""
    """The start every fact of the current store shares (elided in the rows)."""
    filter = "all"
    """One of engine.views.FILTERS (`v` cycles them)."""
    compact: bool | None = None
    facts: tuple[StoreFact, ...] | list[StoreFact] = ()
    """The rows shown, in order (the filter applied)."""

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self._columns()

    def _columns(self) -> bool:
        """(Re)make the columns for the terminal's width; True when they changed."""
        compact = self.app.size.width < COMPACT_BELOW
        if compact == self.compact:
            return False
        self.compact = compact
        self.clear(columns=True)
        labels = (
            ("mark", "id", "lineage", "fact")
            if compact
            else ("mark", "conf", "id", "lineage", "fact")
        )
        for label in labels:  # the fact last: cut at the edge
            self.add_column(label, key=label)
        return True

    def on_resize(self) -> None:
        if self._columns() and self.step is not None:
            self.watch_step(self.step)

    def watch_step(self, step: StepView | None) -> None:
        if step is None:
            return
        self._columns()
        self.start = shared_start([f.text for f in step.store])
        self.facts = views.filter_store(step, self.filter)
        self.replace_rows((f.id, self.cells(f, self.start, bool(self.compact))) for f in self.facts)

    def focused_fact(self) -> StoreFact | None:
        facts = self.facts
        return facts[self.cursor_row] if facts and 0 <= self.cursor_row < len(facts) else None

    def select(self, fact_id: str) -> bool:
        """Put the cursor on a fact and scroll it into view; False when it is not in the rows."""
        row = next((n for n, f in enumerate(self.facts) if f.id == fact_id), None)
        if row is None:
            return False
        self.move_cursor(row=row, animate=False, scroll=True)
        return True

    @staticmethod
    def cells(f: StoreFact, start: str = "", compact: bool = False) -> list:
        style = "red" if f.stale else ("dim strike" if f.status != "active" else "")
        label = f.mark or ("STALE" if f.stale else "")
        mark = Text(
            SHORT_MARK.get(label, label) if compact else label,
            MARK_STYLE.get(f.mark, "bold red" if f.stale else ""),
        )
        conf = [] if compact else [Text(f"{f.confidence:.2f}", style)]
        return [
            mark,
            *conf,
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
