"""The current document, literal, with the docClaims' key phrases highlighted in place."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.reactive import reactive

from seorap.engine.views import DocLine, StepView
from seorap.tui.text import literal
from seorap.tui.widgets.text_pane import TextPane, text_key

CLAIM_STYLE = "bold black on #b5e3a6"
LINE_STYLE = "on #23361f"
"""A line that states a docClaim (bigram containment) gets a faint background; the spans that
carry the claim's key phrase (shared text ≥ 6 characters, its numbers) get CLAIM_STYLE."""


def render_line(line: DocLine) -> Text:
    """One document line, literal (each piece escaped on its own so spans stay aligned), with the
    docClaim spans styled — styles are applied to Text ranges, never parsed from the text."""
    text = Text(style=LINE_STYLE if line.claim else "")
    at = 0
    for start, end in line.spans:
        text.append_text(literal(line.text[at:start]))
        text.append_text(literal(line.text[start:end], CLAIM_STYLE))
        at = end
    text.append_text(literal(line.text[at:]))
    return text


def render_document(step: StepView, rule: int = 40) -> Text:
    """The document pane's text; ``rule`` = width of the separator (no wider than the pane, so it
    never wraps onto a second line on a narrow terminal)."""
    text = Text()
    kind = "distractor (another topic)" if step.is_distractor else f"state {step.state_index + 1}"
    text.append(f"{step.doc_type} · {step.doc_date} · {kind} · expected ", "dim")
    text.append(step.expected_action + "\n", "bold")
    if step.late is not None:
        text.append("↶ late: ", "bold yellow")
        text.append_text(literal(step.late.sentence().removeprefix("late document: "), "yellow"))
        text.append("\n")
    text.append_text(literal(step.doc_title, "bold underline"))
    text.append("\n")
    text.append_text(literal(step.doc_author, "italic"))
    text.append("\n")
    if step.doc_claims:
        text.append("what this document says (its claims)\n", "bold green")
        for claim in step.doc_claims:
            text.append("  ▸ ")
            text.append_text(literal(claim, CLAIM_STYLE))
            text.append("\n")
    text.append("─" * rule + "\n", "dim")
    for line in step.lines:
        text.append_text(render_line(line))
        text.append("\n")
    return text


class DocumentPane(TextPane):
    """Scrollable document view."""

    step: reactive[StepView | None] = reactive(None, always_update=True, init=False, repaint=False)

    def watch_step(self, step: StepView | None) -> None:
        if step is not None:
            self.show_text(self.text_for(step))

    def text_for(self, step: StepView) -> Text:
        width = self.scrollable_content_region.width
        return render_document(step, min(40, width) if width > 8 else 40)

    def on_resize(self, event: events.Resize) -> None:
        """A new width: the separator is made for it before TextPane.on_resize (called after this
        handler) wraps the text again — kept at the old width, a narrower pane wrapped it onto
        two or three lines. The scroll position stays."""
        if self.step is not None:
            text = self.text_for(self.step)
            self._shown, self.text = text_key(text), text
