"""The document timeline of one trajectory: arrival order, date, expected action, written or not."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from seorap.engine.views import StepView, TimelineEntry
from seorap.tui.text import literal
from seorap.tui.widgets.line_table import LineTable

ACTION_STYLE = {
    "create": "green",
    "update": "cyan",
    "reinforce": "blue",
    "supersede": "magenta",
    "conflict": "red",
    "distractor": "dim",
}


class Timeline(LineTable):
    """One row per arriving document; the cursor is the current step."""

    step: reactive[StepView | None] = reactive(None, always_update=True, init=False, repaint=False)
    """Not repainted on assignment: the rows redraw when they change, and a step that only moves
    the cursor redraws the two rows it left and reached (a whole repaint cost ~4 ms per step)."""

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.add_column("#", key="pos")
        self.add_column("date", key="date")
        self.add_column("action", key="action")
        self._key: tuple | None = None

    def watch_step(self, step: StepView | None) -> None:
        if step is None:
            return
        key = (step.run_id, step.trajectory_id, tuple(e.written for e in step.timeline))
        if key != self._key:
            self._key = key
            self.replace_rows((str(e.position), self._cells(e)) for e in step.timeline)
        if self.cursor_row != step.position:
            self.move_cursor(row=step.position, animate=False)

    def _cells(self, e: TimelineEntry) -> list:
        pos = Text(f"{e.position + 1}{'' if e.written else '·'}", "" if e.written else "dim")
        date = Text(e.timestamp[:10] + (" ↶" if e.late else ""), "bold yellow" if e.late else "")
        return [pos, date, literal(e.action, ACTION_STYLE.get(e.action, ""))]
