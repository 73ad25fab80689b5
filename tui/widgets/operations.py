"""The story of one step: the corpus's own change for the state (reason, claims added, claims that
became stale), the expected operation against what the system applied and how op accuracy counts
it, a late document's date against the store's last change and what the guard did; then, per
observation, the top-3 candidates with similarity, the operation, the guard's effect, the lineage
(what replaced what) and before → after with the changed words highlighted. Observations that
changed an existing fact come first (a document of 60 creates hides its one supersede otherwise);
each keeps its number in the document's order."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from seorap.engine import views
from seorap.engine.views import Operation, StepView, replaces_text, short_id, successor_text
from seorap.tui.text import literal, one_line, word_diff
from seorap.tui.widgets.text_pane import TextPane

OP_STYLE = {"create": "green", "update": "cyan", "reinforce": "blue", "supersede": "magenta"}


def guard_label(guard: str, effect: str) -> str:
    """The guard's effect, named once: effects are already written `downgrade: update → ...`."""
    if not guard or effect.startswith(f"{guard}:"):
        return effect
    return f"{guard}: {effect}"


def render_truth(step: StepView) -> Text:
    """The corpus's change for this state, expected vs applied, and the late-document mark."""
    text = Text()
    if step.truth is None:
        text.append(
            "distractor (another topic): the corpus expects no change; op accuracy does not "
            "count it\n",
            "dim",
        )
        return text
    t = step.truth
    text.append(f"Corpus, state {step.state_index + 1}: ", "bold")
    text.append(f"expected {t.action}", "bold")
    if t.reason:
        text.append(" — why: ", "dim")
        text.append_text(literal(t.reason, "italic"))
    elif t.first:
        text.append(" — the topic's first document", "dim")
    else:
        text.append(" — the corpus gives no reason; its claims changed:", "dim")
    text.append("\n")
    for claim in t.added:
        text.append("   + ", "bold green")
        text.append_text(literal(claim, "green"))
        text.append("\n")
    for claim in t.stale:
        text.append("   − no longer true: ", "bold red")
        text.append_text(literal(claim, "red"))
        text.append("\n")
    if step.ops is not None and step.written:
        ok = step.ops.correct
        text.append("System: ", "bold")
        text.append(step.ops.sentence(), "green" if ok else "yellow")
        text.append("\n")
    if step.late is not None:
        text.append("↶ LATE ", "bold black on yellow")
        text.append(" ")
        text.append_text(literal(step.late.sentence(), "yellow"))
        text.append("\n")
    return text


def render_lineage(op: Operation, step: StepView) -> Text:
    """'f0001 superseded by f0003 at doc 2' / 'f0003 replaces f0001' for this operation's facts."""
    text = Text()
    ids = [op.fact_id] + [s.get("id", "") for s in op.before_facts]
    seen = set()
    for fid in ids:
        if not fid or fid in seen:
            continue
        seen.add(fid)
        link = step.links.successor.get(fid)
        if link is not None and link.position == step.position:
            text.append("     lineage: ", "dim")
            text.append_text(literal(f"{short_id(fid)} {successor_text(link)}", "magenta"))
            text.append("\n")
        reps = [l for l in step.links.replaces.get(fid, []) if l.position == step.position]
        if reps:
            text.append("     lineage: ", "dim")
            text.append_text(literal(f"{short_id(fid)} {replaces_text(reps)}", "magenta"))
            text.append("\n")
    return text


def render_change(op: Operation) -> Text:
    """before → after per fact, the words that changed highlighted; never two identical texts."""
    text = Text()
    before = {s.get("id"): s for s in op.before_facts}
    for snap in op.after_facts:
        old = before.get(snap.get("id"))
        head = f"     {short_id(snap.get('id', ''))} "
        if old is None:
            text.append(head + "new: ", "dim")
            text.append_text(literal(snap.get("text", ""), "green"))
        elif old.get("text") == snap.get("text"):
            text.append(head + "text unchanged", "dim")
            conf_a, conf_b = old.get("confidence"), snap.get("confidence")
            if (
                isinstance(conf_a, (int, float))
                and isinstance(conf_b, (int, float))
                and conf_a != conf_b
            ):
                text.append(f" · confidence {conf_a:.2f} → {conf_b:.2f}", "cyan")
            if old.get("status") != snap.get("status"):
                text.append(f" · now {snap.get('status')}", "magenta")
        else:
            a, b = word_diff(str(old.get("text", "")), str(snap.get("text", "")))
            text.append(head + "before: ", "dim")
            text.append_text(a)
            text.append("\n" + " " * len(head) + "after:  ", "dim")
            text.append_text(b)
        text.append("\n")
    return text


def render_operation(
    n: int, op: Operation, step: StepView | None = None, selected: bool = False
) -> Text:
    """One observation: what it said, the facts it was compared with, the decision and why, and
    what it changed in the store."""
    text = Text(f"▶ {n}. " if selected else f"{n}. ", "bold reverse" if selected else "bold")
    text.append_text(_observed(op))
    text.append_text(_candidates(op))
    text.append_text(_decision(op, step))
    if step is not None:
        text.append_text(render_lineage(op, step))
    if op.after_facts:
        text.append_text(render_change(op))
    elif op.before or op.after:
        text.append("     ")
        text.append_text(one_line(op.before or "(nothing)", 70, "red" if op.before else "dim"))
        text.append("  →  ")
        text.append_text(one_line(op.after or "(nothing)", 70, "green"))
        text.append("\n")
    return text


def _observed(op: Operation) -> Text:
    text = Text()
    if op.observation:
        text.append_text(literal(op.observation))
    elif op.operation == "supersede":
        text.append(
            "(no observation: the reference rule retires a value that left the expected claims)",
            "dim italic",
        )
    else:
        text.append("(no observation recorded)", "dim italic")
    if op.category:
        text.append_text(literal(f"  (kind: {op.category})", "dim"))
    if op.quarantined:
        text.append_text(literal(f"  ⊘ quarantined: {op.quarantined}", "bold yellow"))
    elif op.ungrounded:
        text.append_text(literal(f"  ⚠ ungrounded: {op.ungrounded}", "bold yellow"))
    text.append("\n")
    return text


def _candidates(op: Operation) -> Text:
    text = Text()
    for c in op.candidates:
        if c.similarity is None:
            text.append("     acted on ", "dim")
        else:
            text.append(f"     similar {c.similarity:.3f} ", "dim")
        if c.fact_id:
            text.append_text(literal(short_id(c.fact_id) + " ", "dim bold"))
        text.append_text(one_line(c.text, 70, "dim"))
        text.append("\n")
    if not op.candidates and op.operation:
        text.append("     (no similar fact in the store)\n", "dim")
    return text


def _decision(op: Operation, step: StepView | None) -> Text:
    text = Text("     → ")
    if op.operation:
        text.append(op.operation, OP_STYLE.get(op.operation, "bold red"))
    elif op.quarantined:
        text.append("quarantined: kept out of the store, never synthesised", "yellow")
    else:
        failed = bool(step and step.failures)
        text.append(
            "not applied: "
            + ("a write failure above stopped it" if failed else "no decision was recorded for it"),
            "bold red",
        )
    if op.raw_operation and op.raw_operation != op.operation:
        text.append(f"  (model said {op.raw_operation})", "yellow")
    if op.guard_effect:
        text.append("  guard ")
        text.append_text(literal(guard_label(op.guard, op.guard_effect), "yellow"))
    text.append("\n")
    if op.reason:
        text.append("     why: ", "dim")
        text.append_text(literal(op.reason, "dim italic"))
        text.append("\n")
    return text


SHOWN_OPERATIONS = 25
"""Observations rendered per step unless all are asked for (a stand-in run can extract 60 from one
document; rendering them all costs a step its latency budget)."""


def render_operations(
    step: StepView, show_all: bool = False, selected: str = "", at: dict | None = None
) -> Text:
    """The step's story and log; ``selected`` = an observation id marked ▶ (a search hit); ``at``
    is filled with observation id -> character offset of its line (to scroll to it)."""
    text = render_truth(step)
    text.append("Operation log", "bold")
    n = len(step.operations)
    text.append(f"  ({n} observation{'' if n == 1 else 's'}", "dim")
    text.append(", changes first)\n" if len(step.operations) > 1 else ")\n", "dim")
    if not step.written:
        text.append("this document has not been written yet in this run\n", "dim italic")
    for reason in step.failures:
        text.append_text(literal(f"write failure: {reason}\n", "bold red"))
    ordered = views.operations_order(step.operations)
    shown = ordered if show_all else ordered[:SHOWN_OPERATIONS]
    for n, op in shown:
        if at is not None:
            at[op.observation_id] = len(text.plain)
        text.append_text(render_operation(n, op, step, op.observation_id == selected))
    if len(shown) < len(step.operations):
        text.append(
            f"… {len(step.operations) - len(shown)} more observations: a shows all\n", "bold yellow"
        )
    return text


class OperationLog(TextPane):
    step: reactive[StepView | None] = reactive(None, always_update=True, init=False, repaint=False)
    show_all = False
    selected = ""
    """The observation a search selected (marked ▶ until the step changes)."""

    def watch_step(self, step: StepView | None) -> None:
        if step is not None:
            self.selected = ""
            self.show_text(self.text_for(step))

    def text_for(self, step: StepView) -> Text:
        return render_operations(step, self.show_all)

    def select(self, observation_id: str) -> bool:
        """Mark an observation of the current step ▶ and scroll its line to the top (showing
        every observation when it is beyond the first ones); False when the step has no such
        observation."""
        step = self.step
        if step is None or not any(o.observation_id == observation_id for o in step.operations):
            return False
        at: dict[str, int] = {}
        order = [o.observation_id for _, o in views.operations_order(step.operations)]
        if order.index(observation_id) >= SHOWN_OPERATIONS:
            self.show_all = True
        self.selected = observation_id
        self.show_text(render_operations(step, self.show_all, observation_id, at))
        self.scroll_to_offset(at[observation_id])
        return True
