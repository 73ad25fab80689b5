"""Expected claims of this state with the judge's verdicts (in the selected judge mode) and the
facts they matched; docClaims (what this document newly says) are marked ▸."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import DataTable

from engine.views import ClaimRow, StepView, short_id
from tui.text import one_line
from tui.widgets.one_frame import OneFrameScroll
from tui.widgets.fast_table import replace_rows

VERDICT_STYLE = {"YES": "bold green", "PARTIAL": "bold yellow", "NO": "bold red",
                 "UNPARSEABLE": "bold magenta"}


class ClaimsTable(OneFrameScroll, DataTable):
    """Row key = claim index within the state."""

    step: reactive[StepView | None] = reactive(None, always_update=True, init=False)

    def on_mount(self) -> None:
        self.cursor_type = "row"
        for label in ("verdict", "matched", "claim"):  # the claim last: cut at the pane's edge
            self.add_column(label, key=label)

    def watch_step(self, step: StepView | None) -> None:
        if step is None:
            return
        replace_rows(self, ((str(n), self.cells(c)) for n, c in enumerate(step.claims)))

    @staticmethod
    def cells(c: ClaimRow) -> list:
        if c.verdict is None:
            verdict = Text("—", "dim")
        else:
            verdict = Text(c.verdict + ("*" if c.overridden else ""), VERDICT_STYLE.get(c.verdict, ""))
        claim = Text("▸ " if c.is_doc_claim else "  ", "green")
        claim.append_text(one_line(c.claim, 60))
        matched = Text(", ".join(short_id(m) for m in c.matched[:3]) or "none", "dim" if c.matched else "red")
        return [verdict, matched, claim]
