"""The operation log of one step: per observation, the top-3 candidates with similarity, the
model's operation, the temporal guard's effect, and the fact before → after."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from engine.views import Operation, StepView, short_id
from tui.text import literal, one_line
from tui.widgets.text_pane import TextPane

OP_STYLE = {"create": "green", "update": "cyan", "reinforce": "blue", "supersede": "magenta"}


def guard_label(guard: str, effect: str) -> str:
    """The guard's effect, named once: effects are already written `downgrade: update → ...`."""
    if not guard or effect.startswith(f"{guard}:"):
        return effect
    return f"{guard}: {effect}"


def render_operation(n: int, op: Operation) -> Text:
    text = Text(f"{n}. ", "bold")
    if op.observation:
        text.append_text(literal(op.observation))
    else:
        text.append("(no observation: store maintenance)", "dim italic")
    if op.category:
        text.append(f"  [{op.category}]", "dim")
    text.append("\n")
    for c in op.candidates:
        sim = "  —  " if c.similarity is None else f"{c.similarity:.3f}"
        text.append(f"     ~ {sim} ", "dim")
        if c.fact_id:
            text.append_text(literal(short_id(c.fact_id) + " ", "dim bold"))
        text.append_text(one_line(c.text, 70, "dim"))
        text.append("\n")
    if not op.candidates and op.operation:
        text.append("     (no candidate facts)\n", "dim")
    text.append("     → ")
    text.append(op.operation or "no decision", OP_STYLE.get(op.operation, "bold red"))
    if op.raw_operation and op.raw_operation != op.operation:
        text.append(f"  (model said {op.raw_operation})", "yellow")
    if op.guard_effect:
        text.append("  guard ")
        text.append_text(literal(guard_label(op.guard, op.guard_effect), "yellow"))
    text.append("\n")
    if op.reason:
        text.append("     why: ", "dim")
        text.append_text(one_line(op.reason, 100, "dim italic"))
        text.append("\n")
    if op.before or op.after:
        text.append("     ")
        text.append_text(one_line(op.before or "∅", 70, "red" if op.before else "dim"))
        text.append("  →  ")
        text.append_text(one_line(op.after or "∅", 70, "green"))
        text.append("\n")
    return text


def render_operations(step: StepView) -> Text:
    text = Text("Operation log", "bold")
    text.append(f"  ({len(step.operations)} observations)\n", "dim")
    if not step.written:
        text.append("this document has not been written yet in this run\n", "dim italic")
    for reason in step.failures:
        text.append_text(literal(f"write failure: {reason}\n", "bold red"))
    for n, op in enumerate(step.operations, 1):
        text.append_text(render_operation(n, op))
    return text


class OperationLog(TextPane):
    step: reactive[StepView | None] = reactive(None, always_update=True, init=False)

    def watch_step(self, step: StepView | None) -> None:
        if step is not None:
            self.show_text(render_operations(step))
