"""The focused fact or claim of the stepper, whole: full text wrapped, lineage both ways with the
recorded reason, the stale claim it still states; for a claim its verdict, the judge's rationale,
the fact it matched in full and, under filter@θ, its best cosine against θ."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from seorap.engine.views import (
    ClaimPath,
    ClaimRow,
    ReadTime,
    StepView,
    StoreFact,
    item_label,
    replaces_text,
    short_id,
    successor_text,
)
from seorap.tui.closing import while_running
from seorap.tui.text import literal
from seorap.tui.widgets.claims_table import VERDICT_STYLE
from seorap.tui.widgets.text_pane import TextPane


def render_fact(f: StoreFact, step: StepView) -> Text:
    text = Text(
        f"{short_id(f.id)} v{f.version} · {f.status} · confidence {f.confidence:.2f}", "bold"
    )
    if f.mark:
        text.append(f" · {f.mark} at this document", "bold cyan")
    text.append("\n")
    text.append_text(literal(f.text, "red" if f.stale else ""))
    text.append("\n")
    if f.change:
        text.append("why (this document): ", "dim")
        text.append_text(literal(f.change, "italic"))
        text.append("\n")
    for link in f.replaces:
        text.append_text(literal(f"{replaces_text([link])} (doc {link.position + 1})", "cyan"))
        if link.why():
            text.append_text(literal(f" — {link.why()}", "dim italic"))
        text.append("\n")
    if f.successor is not None:
        text.append_text(literal(successor_text(f.successor), "magenta"))
        if f.successor.why():
            text.append_text(literal(f" — {f.successor.why()}", "dim italic"))
        text.append("\n")
    if f.stale:
        text.append("still states the stale claim: ", "bold red")
        text.append_text(literal(f.stale, "red"))
        text.append("\n")
        if step.verdicts_note:  # not the verdict stored at score time: say how it was had
            text.append(f"({step.verdicts_note})\n", "dim")
    text.append("Enter / f: the fact's full history", "dim")
    return text


def render_claim(c: ClaimRow, step: StepView) -> Text:
    text = Text(
        f"expected claim of state {step.state_index + 1}"
        + (" (this document states it)" if c.is_doc_claim else ""),
        "bold",
    )
    if c.path is not None:  # and its stored id, counted from 0 (journey JSON, the ledger)
        text.append(f" · first expected as {item_label(c.path.item)} ({c.path.item})", "dim")
    text.append("\n")
    text.append_text(literal(c.claim))
    text.append("\n")
    facts = {f.id: f.text for f in step.store}
    if c.verdict is None:
        text.append("not scored yet — run `seorap score`", "dim")
    else:
        text.append("verdict ", "dim")
        text.append(c.verdict, VERDICT_STYLE.get(c.verdict, "bold"))
        if c.shown is not None:
            text.append(f" · the judge saw {c.shown} fact{'' if c.shown == 1 else 's'}", "dim")
    text.append("\n")
    if c.path is not None:  # under the verdict: in view without scrolling (p scrolls to it)
        text.append_text(render_path(c.path))
        text.append("\n")
    if step.judge_mode == "filter" and c.best_cosine is not None:
        theta = f"θ {c.threshold:.2f}" if c.threshold is not None else "θ"
        above = c.threshold is None or c.best_cosine > c.threshold
        text.append(
            f"best cosine {c.best_cosine:.3f} {'>' if above else '≤'} {theta}",
            "green" if above else "red",
        )
        text.append_text(
            literal(f" with {short_id(c.best_fact)}: {facts.get(c.best_fact, '')}", "dim")
        )
        text.append("\n")
    elif step.judge_mode == "filter":
        text.append("best cosine not stored (scored before it was recorded: score again)\n", "dim")
    for m in c.matched[:1]:
        text.append_text(literal(f"matched {short_id(m)}: {facts.get(m, '')}", "dim"))
        text.append("\n")
    if c.rationale:
        text.append("judge: ", "dim")
        text.append_text(literal(c.rationale, "dim italic"))
    if c.read is not None:
        text.append("\n")
        text.append_text(render_read(c.read))
    if c.contested:
        text.append("\n⚑ gold contested ", "bold yellow")
        text.append_text(
            literal(
                f"({c.contested}): the score cards show the figures without it · w withdraws it",
                "yellow",
            )
        )
    return text


MARK_STYLE = {"✓": "green", "✗": "bold red", "n/a": "dim", "?": "bold yellow"}


def render_path(p: ClaimPath) -> Text:
    """The claim's journey: one line of stage marks, the loss point with its evidence, and the keys
    that reach the evidence (the stepper's e k r u)."""
    text = Text(JOURNEY, "dim")
    for n, (stage, mark) in enumerate(p.marks):
        if n:
            text.append(" → ", "dim")
        text.append(f"{stage} ")
        text.append(mark, MARK_STYLE.get(mark, ""))
    text.append("\n")
    style = "bold red" if p.loss else "bold yellow" if p.unreliable else "bold green"
    text.append_text(literal(p.conclusion(), style))  # withheld under an unreliable judge
    keys = []
    if p.document is not None:
        keys.append(f"e observation (doc {p.document + 1})")
    if p.fact is not None:
        keys.append(f"k fact {short_id(p.fact[1])} (doc {p.fact[0] + 1})")
    if p.question is not None:
        rank = f"rank {p.rank}" if p.rank else "not ranked"
        keys.append(f"r ranking ({item_label(p.question)}, {rank})")
    if p.answer is not None:
        keys.append(f"u answer ({item_label(p.answer)})")
    keys.append("w contest")
    text.append("\n" + " · ".join(keys), "dim")
    return text


def render_read(r: ReadTime) -> Text:
    """The claim's read-time pane: what the read returned, what the reader concluded, the verdict."""
    text = Text(f"read time ({r.source}): {len(r.hits)} fact(s) returned\n", "bold")
    if r.query:
        text.append("asked: ", "dim")
        text.append_text(literal(r.query, ""))
        text.append("\n")
    for h in r.hits:
        text.append_text(literal(f"  {short_id(h.fact_id)} {h.score:.3f} {h.text}", "dim"))
        text.append("\n")
    if r.reading is None:
        text.append("reading: scored at the state's last document only", "dim")
        return text
    text.append("reader: ", "dim")
    text.append_text(literal(r.reading, "red" if r.stale else ""))
    text.append(" · verdict ", "dim")
    text.append(r.label or "?", VERDICT_STYLE.get(r.label or "", "bold"))
    if r.stale:
        text.append(" · states a stale value", "bold red")
    return text


JOURNEY = "journey "
"""How the journey line starts (render_path): the stepper's p scrolls the pane to it."""


class DetailPane(TextPane):
    """Shows one fact or claim in full; the stepper calls show_fact / show_claim on focus moves.
    Showing what is already shown does nothing (a table's late highlight event after a step must
    not cost a second frame)."""

    shown: tuple = ()

    def _show(self, key: tuple, render: Callable[[], Text]) -> None:
        if key != self.shown:
            self.shown = key
            self.show_text(render())

    def show_fact(self, f: StoreFact | None, step: StepView) -> None:
        self._show(
            ("fact", id(step), f.id if f else None),
            lambda: (
                render_fact(f, step) if f else Text("the store is empty at this document", "dim")
            ),
        )

    def show_claim(self, c: ClaimRow | None, step: StepView) -> None:
        self._show(
            ("claim", id(step), c.claim if c else None),
            lambda: render_claim(c, step) if c else Text("no expected claims", "dim"),
        )

    @while_running
    def scroll_to_journey(self) -> bool:
        """Bring the shown claim's journey into view: from the top when the claim above it and
        its three lines fit the pane, else its line at the top. False when it has none."""
        at = self.text.plain.find("\n" + JOURNEY)
        width = self.scrollable_content_region.width
        if at < 0 or width <= 0:
            return False
        line = len(self.text[: at + 1].wrap(self.app.console, width)) - 1
        if line + 3 <= self.scrollable_content_region.height:
            self.scroll_to(0, 0, animate=False, immediate=True)
        else:
            self.scroll_to_offset(at + 1)
        return True
