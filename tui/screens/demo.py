"""View 7: the demo tour — this run's own compensation and bottleneck cases, side by side, each
explained from its diagnosis (engine.scoring's sentence built from the stored verdicts and rankings)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from seorap.engine import views
from seorap.engine.fmt import figure
from seorap.tui.closing import AppHeader
from seorap.tui.instant_modes import ViewScreen
from seorap.tui.messages import OpenTrajectory
from seorap.tui.modes import KEPT_SCREENS, SIDE_BY_SIDE, screen_class
from seorap.tui.screens.side_by_side import open_position
from seorap.tui.text import literal
from seorap.tui.widgets.footer import KeysFooter

MEANING = {
    "compensation": (
        "LLM compensation: the store is wrong (stale, duplicated or missing facts) "
        "but the answers come out right — the answerer papered over the store."
    ),
    "bottleneck": (
        "Retrieval bottleneck: the store holds the right facts but the questions do "
        "not reach them — the facts that hold the answer rank too low."
    ),
}


def explain(stop: views.TourStop | None, quadrant: str, why: str | None = None) -> Text:
    text = Text(quadrant.upper() + "\n", "bold reverse")
    text.append(MEANING[quadrant] + "\n\n", "italic")
    if stop is None:
        reason = why or f"no trajectory of the scored runs falls in the {quadrant} quadrant"
        text.append(
            f"No clear {quadrant} case in this database: {reason}. Run live variants A/B/C "
            "(view 6) to look for one.",
            "dim",
        )
        return text
    text.append("In run ")
    text.append_text(literal(stop.system, "bold"))
    text.append(", trajectory ")
    text.append_text(literal(f"{stop.trajectory_id} ({stop.title})", "bold"))
    text.append(
        f" scores intrinsic {stop.intrinsic:.2f} against extrinsic {stop.extrinsic:.2f} "
        f"({views.DELTA_LABEL} {stop.intrinsic - stop.extrinsic:+.2f}). "
        if stop.intrinsic is not None and stop.extrinsic is not None
        else ". "
    )
    text.append("Why, from this run's diagnosis: ")
    text.append_text(literal(stop.diagnosis))
    text.append_text(journey_text(stop))
    return text


SHOWN_LOST = 4
"""Lost claims listed under a case (the rest counted)."""


def journey_text(case: views.TourStop | views.StaleCase) -> Text:
    """The case told from its claims' journeys: where they were lost, each with its evidence."""
    text = Text()
    if not case.lost:
        return text
    text.append("\n\nFrom the claims' journeys: ", "bold")
    text.append_text(literal(case.story))
    for claim, path in case.lost[:SHOWN_LOST]:
        text.append("\n  ✗ ", "bold red")
        text.append_text(literal(claim))
        text.append_text(literal(f" — {path.conclusion()}", "dim"))
    if len(case.lost) > SHOWN_LOST:
        text.append(f"\n  … {len(case.lost) - SHOWN_LOST} more", "dim")
    return text


def explain_stale(case: views.StaleCase, current_run: str | None) -> Text:
    """The labelled fallback when no trajectory is in the compensation quadrant: store wrong,
    answer right, caught by the stale-fact count — every figure and text from the stored run."""
    text = Text(
        "\n\nOFFERED INSTEAD: A STALE-FACT CASE (not in the compensation quadrant)\n",
        "bold black on yellow",
    )
    text.append("From ")  # one case per database, whatever run is selected (the tour's rule)
    text.append("the current run " if case.run_id == current_run else "run ")
    text.append_text(literal(f"{case.system} ({case.run_id})", "bold"))
    text.append(": trajectory ")
    text.append_text(literal(f"{case.trajectory_id} ({case.title})", "bold"))
    text.append(
        f", intrinsic {figure(case.intrinsic)}, extrinsic {figure(case.extrinsic)}, quadrant "
        f"{case.quadrant or '—'}.\n\n"
    )
    text.append(
        f"Its final store still holds {case.stale_count} stale fact"
        f"{'s' if case.stale_count != 1 else ''}:\n",
        "bold red",
    )
    for f in case.stale_facts:
        text.append("  ✗ ")
        text.append_text(literal(f.text or views.short_id(f.fact_id), "red"))
        if f.stale_claims:
            text.append("  — states the stale claim ", "dim")
            text.append_text(literal(" / ".join(f.stale_claims), "italic"))
        text.append("\n")
    text.append("\nThe answers, with the judge's verdicts:\n", "bold")
    for q in case.questions:
        text.append_text(literal(f"  {views.item_label(q.item)}: ", "dim"))
        text.append_text(literal(q.question))
        text.append("\n    → ")
        text.append_text(literal(q.answer or "(no answer stored)"))
        text.append("  ")
        text.append(q.verdict or "—", "bold green" if q.verdict == "YES" else "bold")
        text.append("\n")
    text.append(
        "\nWhy it is not flagged as compensation: intrinsic coverage is recall-only — it "
        f"counts the expected claims the store holds ({figure(case.intrinsic)} here) and never "
        "looks at what else the store holds, so it did not see these facts. The stale-fact "
        f"count ({case.stale_count}) did: the store is wrong, and the answers still scored "
        f"extrinsic {figure(case.extrinsic)}.",
        "italic",
    )
    text.append_text(journey_text(case))
    return text


class DemoScreen(ViewScreen, Screen):
    stale: views.StaleCase | None = None

    HELP = """\
## Demo tour
Left: the run's LLM-compensation case, right: its retrieval-bottleneck case (the scored trajectory
with the widest intrinsic/extrinsic gap in each quadrant). The explanation is the run's own
diagnosis: stale facts the answerer saw and overrode, or where the answer-holding facts ranked and
what outranked them. Each case is then told from its claims' journeys (the stepper's journey line):
how many claims were lost at which stage, and each lost claim with its evidence. Among the cases
with a clear gap, one whose claims were lost in the store (compensation) or at retrieval
(bottleneck) comes first.

When no trajectory is in the compensation quadrant (typical for the reference systems), the left
column offers, labelled as such, a stale-fact case: a trajectory whose store still holds stale facts
while its answers scored ≥ 0.5 — from the current run if it has one, else from the run named there.
A case from a run whose answers a model wrote (the shipped recording's) comes before one from an
offline reader's; under the case the tour says whose answers it shows, or why the runs a model
answered offer none.

- **c** open the compensation case (or the stale-fact case) in the stepper at the document that
  shows it, **b** the bottleneck case, **a** the bottleneck case's questions and answers
- **s** both cases side by side: each one's final store and claims with verdicts, in two panels
"""

    BINDINGS = [
        Binding("c", "open('compensation')", "open compensation"),
        Binding("b", "open('bottleneck')", "open bottleneck"),
        Binding("a", "questions", "bottleneck answers"),
        Binding("s", "side_by_side", "side by side"),
    ]

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static(id="demo-banner")
        with Horizontal(id="demo-body"):
            with VerticalScroll(classes="demo-col"):
                yield Static(id="demo-compensation")
            with VerticalScroll(classes="demo-col"):
                yield Static(id="demo-bottleneck")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show()  # built ahead by the app: the tour is ready before `7`

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        self.show()

    def show(self) -> None:
        """The tour from the stored score cards; the stale-fact fallback (which runs the lexical judge
        over the case's facts) is found in a worker, once per database state and run, with a
        placeholder meanwhile. Coming back to an unchanged database keeps what is on screen."""
        ctx = self.app.ctx
        key = (views.data_version(ctx.db), ctx.selection.run_id)
        if key == getattr(self, "shown_for", None):
            return
        self.shown_for = key
        self.stops = views.demo_tour(ctx.db, ctx.corpus)
        self.gaps = views.tour_gaps(ctx.db)
        banner = Text(ctx.banner, "bold yellow") if ctx.banner else Text()
        if not views.score_cards(ctx.db):
            banner.append(f"\n{views.NOT_SCORED}", "dim")
        self.query_one("#demo-banner", Static).update(banner)
        self.stale = None
        pending = False
        if self.stops.get("compensation") is None:
            self.stale_key, known = self.app.stale_case(None)  # of every run, as the tour
            self.stale, pending = self.app.stale_cases.get(self.stale_key), not known
        self.fill(pending)

    def stale_found(self, key: tuple) -> None:
        """The app found a stale-fact case (in a worker); shown if it is this screen's."""
        if key == getattr(self, "stale_key", None) and self.stops.get("compensation") is None:
            self.stale = self.app.stale_cases[key]
            self.fill()

    def fill(self, pending: bool = False) -> None:
        for q in ("compensation", "bottleneck"):
            text = explain(self.stops.get(q), q, self.gaps.get(q))
            if q == "compensation" and self.stale is not None:
                text.append_text(explain_stale(self.stale, self.app.ctx.selection.run_id))
            elif q == "compensation" and pending:
                text.append("\n\nlooking for a stale-fact case in the stored runs…", "dim")
            if q == "compensation" and not pending:
                text.append("\n\n")
                text.append_text(literal(self.answers_note(), "italic"))
            self.query_one(f"#demo-{q}", Static).update(text)

    def answers_note(self) -> str:
        """Whose answers the compensation candidate is (a real model's, or why the runs a model
        answered offer none): once per database state and candidate."""
        stop = self.stops.get("compensation") or self.stale
        key = (views.data_version(self.app.ctx.db), stop.run_id if stop else None)
        if key != getattr(self, "_note_for", None):
            self._note = views.real_answers_note(self.app.ctx.db, key[1])
            self._note_for = key
        note: str = self._note
        return note

    def action_open(self, quadrant: str) -> None:
        stop: views.TourStop | views.StaleCase | None = self.stops.get(quadrant)
        if stop is None and quadrant == "compensation" and self.stale is not None:
            stop = self.stale
        if stop is None:
            self.notify(f"no {quadrant} case in this database", severity="warning")
            return
        self.post_message(OpenTrajectory(stop.run_id, stop.trajectory_id, open_position(stop)))

    def action_side_by_side(self) -> None:
        if not self.app.is_screen_installed(SIDE_BY_SIDE):  # the app builds it ahead when idle
            self.app.install_screen(screen_class(KEPT_SCREENS[SIDE_BY_SIDE])(), SIDE_BY_SIDE)
        self.app.push_screen(SIDE_BY_SIDE)

    def action_questions(self) -> None:
        stop = self.stops.get("bottleneck")
        if stop is not None:
            sel = self.app.ctx.selection
            sel.run_id, sel.trajectory_id = stop.run_id, stop.trajectory_id
            self.app.switch_mode("questions")
