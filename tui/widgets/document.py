"""The current document, literal, with the lines that state a docClaim highlighted."""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from engine.views import StepView
from tui.text import literal

CLAIM_STYLE = "bold black on #b5e3a6"


def render_document(step: StepView) -> Text:
    text = Text()
    kind = "distractor (another topic)" if step.is_distractor else f"state {step.state_index}"
    text.append(f"{step.doc_type} · {step.doc_date} · {kind} · expected ", "dim")
    text.append(step.expected_action + "\n", "bold")
    text.append_text(literal(step.doc_title, "bold underline"))
    text.append("\n")
    text.append_text(literal(step.doc_author, "italic"))
    text.append("\n")
    if step.doc_claims:
        text.append("docClaims\n", "bold green")
        for claim in step.doc_claims:
            text.append("  ▸ ")
            text.append_text(literal(claim, CLAIM_STYLE))
            text.append("\n")
    text.append("─" * 40 + "\n", "dim")
    for line in step.lines:
        text.append_text(literal(line.text, CLAIM_STYLE if line.claim else ""))
        text.append("\n")
    return text


class DocumentPane(VerticalScroll):
    """Scrollable document view."""

    step: reactive[StepView | None] = reactive(None, always_update=True, init=False)

    def compose(self):
        yield Static(id="document-body")

    def watch_step(self, step: StepView | None) -> None:
        if step is not None:
            self.query_one("#document-body", Static).update(render_document(step))
            self.scroll_home(animate=False)
