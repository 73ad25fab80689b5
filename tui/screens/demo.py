"""View 7: the demo tour — this run's own compensation and bottleneck cases, side by side, each
explained from its diagnosis (SCORING's sentence built from the stored verdicts and rankings)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from engine import views
from tui.messages import OpenTrajectory
from tui.text import literal

MEANING = {
    "compensation": ("LLM compensation: the store is wrong (stale, duplicated or missing facts) "
                     "but the answers come out right — the answerer papered over the store."),
    "bottleneck": ("Retrieval bottleneck: the store holds the right facts but the questions do "
                   "not reach them — the facts that hold the answer rank too low."),
}


def explain(stop: views.TourStop | None, quadrant: str) -> Text:
    text = Text(quadrant.upper() + "\n", "bold reverse")
    text.append(MEANING[quadrant] + "\n\n", "italic")
    if stop is None:
        text.append(f"No trajectory of the scored runs in this database falls in the {quadrant} "
                    "quadrant. Reference systems rarely do; run live variants A/B/C (view 6) "
                    "to look for one.", "dim")
        return text
    text.append("In run ")
    text.append_text(literal(stop.system, "bold"))
    text.append(", trajectory ")
    text.append_text(literal(f"{stop.trajectory_id} ({stop.title})", "bold"))
    text.append(f" scores intrinsic {stop.intrinsic:.2f} against extrinsic {stop.extrinsic:.2f} "
                f"({views.DELTA_LABEL} {stop.intrinsic - stop.extrinsic:+.2f}). "
                if stop.intrinsic is not None and stop.extrinsic is not None else ". ")
    text.append("Why, from this run's diagnosis: ")
    text.append_text(literal(stop.diagnosis))
    return text


class DemoScreen(Screen):
    HELP = """\
## Demo tour
Left: the run's LLM-compensation case, right: its retrieval-bottleneck case (the scored trajectory
with the widest intrinsic/extrinsic gap in each quadrant). The explanation is the run's own
diagnosis: stale facts the answerer saw and overrode, or where the answer-holding facts ranked and
what outranked them.

- **c** open the compensation case in the stepper, **b** the bottleneck case, **q** its questions
- **s** both cases side by side: each one's final store and claims with verdicts, in two panels
"""

    BINDINGS = [
        Binding("c", "open('compensation')", "open compensation"),
        Binding("b", "open('bottleneck')", "open bottleneck"),
        Binding("q", "questions", "bottleneck questions"),
        Binding("s", "side_by_side", "side by side"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="demo-banner")
        with Horizontal(id="demo-body"):
            with VerticalScroll(classes="demo-col"):
                yield Static(id="demo-compensation")
            with VerticalScroll(classes="demo-col"):
                yield Static(id="demo-bottleneck")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def on_screen_resume(self) -> None:
        self.show()

    def show(self) -> None:
        ctx = self.app.ctx
        self.stops = views.demo_tour(ctx.db, ctx.corpus)
        banner = Text(ctx.banner, "bold yellow") if ctx.banner else Text()
        if not views.score_cards(ctx.db):
            banner.append(f"\n{views.NOT_SCORED}", "dim")
        self.query_one("#demo-banner", Static).update(banner)
        for q in ("compensation", "bottleneck"):
            self.query_one(f"#demo-{q}", Static).update(explain(self.stops.get(q), q))

    def action_open(self, quadrant: str) -> None:
        stop = self.stops.get(quadrant)
        if stop is None:
            self.notify(f"no {quadrant} case in this database", severity="warning")
            return
        self.post_message(OpenTrajectory(stop.run_id, stop.trajectory_id))

    def action_side_by_side(self) -> None:
        from tui.screens.side_by_side import SideBySideScreen

        self.app.push_screen(SideBySideScreen())

    def action_questions(self) -> None:
        stop = self.stops.get("bottleneck")
        if stop is not None:
            sel = self.app.ctx.selection
            sel.run_id, sel.trajectory_id = stop.run_id, stop.trajectory_id
            self.app.switch_mode("questions")
