"""Expected claims of this state with the judge's verdicts (in the selected judge mode) and the
facts they matched; claims this document newly states are marked ▸, claims whose gold the ledger
contests ⚑. Under filter@θ a `cosine`
column shows each claim's best cosine against θ and the fact it came from (stored with the verdict
at score time)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from seorap.engine.views import ClaimRow, StepView, short_id
from seorap.tui.text import one_line, shared_start, without_start
from seorap.tui.widgets.line_table import LineTable

VERDICT_STYLE = {
    "YES": "bold green",
    "PARTIAL": "bold yellow",
    "NO": "bold red",
    "UNPARSEABLE": "bold magenta",
}


def cosine_cell(c: ClaimRow) -> Text:
    """'0.91>θ' (the judge saw that fact) or '0.56<θ' (nothing reached θ); '?' when not stored."""
    if c.best_cosine is None:
        return Text("?", "dim")
    above = c.threshold is None or c.best_cosine > c.threshold
    return Text(f"{c.best_cosine:.2f}{'>' if above else '≤'}θ", "green" if above else "red")


class ClaimsTable(LineTable):
    """Row key = claim index within the state."""

    step: reactive[StepView | None] = reactive(None, always_update=True, init=False, repaint=False)
    mode = ""
    start = ""

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self._columns("full")

    def _columns(self, mode: str) -> None:
        self.mode = mode
        self.clear(columns=True)
        labels = (
            ("verdict", "cosine", "best fact", "claim")
            if mode == "filter"
            else ("verdict", "matched", "claim")
        )  # the claim last: cut at the pane's edge
        for label in labels:
            self.add_column(label, key=label)

    def watch_step(self, step: StepView | None) -> None:
        if step is None:
            return
        if step.judge_mode != self.mode:
            self._columns(step.judge_mode)
        self.start = shared_start([c.claim for c in step.claims])
        self.claims = step.claims
        self.replace_rows(
            ((str(n), self.cells(c, self.mode, self.start)) for n, c in enumerate(step.claims)),
        )

    def focused_claim(self) -> ClaimRow | None:
        claims = getattr(self, "claims", [])
        return claims[self.cursor_row] if claims and 0 <= self.cursor_row < len(claims) else None

    @staticmethod
    def cells(c: ClaimRow, mode: str = "full", start: str = "") -> list:
        if c.verdict is None:
            verdict = Text("—", "dim")
        else:
            verdict = Text(
                c.verdict + ("*" if c.overridden else ""), VERDICT_STYLE.get(c.verdict, "")
            )
        claim = Text("▸ " if c.is_doc_claim else "  ", "green")
        if c.contested:  # the gold ledger contests it (docs/metrics.md#gold-ledger)
            claim.append("⚑ ", "bold yellow")
        claim.append_text(one_line(without_start(c.claim, start), 60))
        if mode == "filter":
            best = Text(short_id(c.best_fact) if c.best_fact else "none", "dim")
            return [verdict, cosine_cell(c), best, claim]
        matched = Text(
            ", ".join(short_id(m) for m in c.matched[:3]) or "none", "dim" if c.matched else "red"
        )
        return [verdict, matched, claim]
