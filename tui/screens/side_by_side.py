"""Demo tour, side by side (key s in view 7): the compensation case and the bottleneck case in two
panels — each the trajectory's final store (marks, confidence, stale facts in red) and its expected
claims with the judge's verdicts, under the run's own diagnosis."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from sqlite_utils import Database
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from seorap.engine import views
from seorap.engine.fmt import figure
from seorap.tui.closing import AppHeader, while_running
from seorap.tui.context import AppContext
from seorap.tui.fit import clamp_lines, fitted
from seorap.tui.instant_modes import ViewScreen
from seorap.tui.messages import OpenTrajectory
from seorap.tui.text import literal
from seorap.tui.widgets.claims_table import ClaimsTable
from seorap.tui.widgets.footer import KeysFooter
from seorap.tui.widgets.store_table import StoreTable

if TYPE_CHECKING:
    from seorap.tui.app import SeorapApp

CASES = ("compensation", "bottleneck")


def stale_note(case: views.StaleCase) -> Text:
    """Under "no compensation case": the stale-fact case the tour offers instead, named, so the
    two views agree; its store and claims fill the panel below; c opens it at the stale step."""
    text = Text("\noffered instead:", "bold black on yellow")  # the case named first: at 80×24
    text.append_text(literal(f" {case.system} · {case.trajectory_id}", "bold"))  # 5 lines hold it
    text.append(", a stale-fact case", "bold")
    text.append(f" · {case.stale_count} stale", "bold red")  # the scored count, as in the tour
    text.append(" — c opens it in the stepper", "dim")
    # the figures last: at 100×30 the title's last line is cut there, not at the count
    text.append(f" · intrinsic {figure(case.intrinsic)} · extrinsic {figure(case.extrinsic)}")
    return text


DIAGNOSIS_LINES = 2
"""Lines a panel's title gives the run's diagnosis (the title holds 5: .side-title)."""
TITLE_LINES = 5
"""Lines of a panel's title (.side-title's max-height); the rest is cut with '…'."""


def case_title(
    quadrant: str,
    stop: views.TourStop | None,
    step: views.StepView | None,
    width: int = 75,
) -> Text:
    """The panel's title; the diagnosis cut to DIAGNOSIS_LINES lines of ``width`` cells, the cut
    marked '…' (at 100×30 it ran past the title's last line, cut with no sign)."""
    text = Text(quadrant.upper(), "bold reverse")
    if stop is None:
        text.append(f"\nno {quadrant} case among the scored runs", "dim")
        return text
    text.append(" ")
    text.append_text(literal(f"{stop.system} · {stop.trajectory_id}", "bold"))
    if stop.intrinsic is not None and stop.extrinsic is not None:
        text.append(
            f"  intrinsic {stop.intrinsic:.2f} · extrinsic {stop.extrinsic:.2f} · "
            f"{views.DELTA_LABEL} {stop.intrinsic - stop.extrinsic:+.2f}"
        )
    if step is not None and step.stale_facts:
        text.append(f"  · {len(step.stale_facts)} stale", "bold red")
    text.append("\n")
    text.append_text(
        fitted(stop.diagnosis or "(no diagnosis recorded)", DIAGNOSIS_LINES * width - 1, "italic")
    )
    return text


STEPS_KEPT = 8
_STEPS: dict[tuple, views.StepView] = {}
"""(database file and version, judge view, run, trajectory) -> that case's step at its last
document (read in a thread by ``read_cases``, or by the first fill)."""


def case_step(
    ctx: AppContext, db: Database, case: views.TourStop | views.StaleCase
) -> views.StepView:
    """A case's step at its last document: read once per database state and judge view."""
    key = (
        ctx.db_path,
        views.data_version(db),
        ctx.selection.judge_mode,
        case.run_id,
        case.trajectory_id,
    )
    step = _STEPS.get(key)
    if step is None:
        step = views.step_view(
            db, ctx.corpus, case.run_id, case.trajectory_id, 10**6, ctx.selection.judge_mode
        )
        while len(_STEPS) >= STEPS_KEPT:
            _STEPS.pop(next(iter(_STEPS)))
        _STEPS[key] = step
    return step


def read_cases(ctx: AppContext, stale_cases: dict[tuple, views.StaleCase]) -> None:
    """In a thread, before the app builds the side by side (``SideBySideScreen.prepare``): read
    the steps its panels will show, so its first fill only fills the tables. Filled from a thread
    after its mount instead, the hidden screen was laid out before the tables had rows, and the
    first `s` laid it out twice; read on the loop, the two steps held it 20-30 ms."""
    with ctx.own_connection() as db:
        stops = views.demo_tour(db, ctx.corpus)
        cases: list[views.TourStop | views.StaleCase] = [s for s in stops.values() if s is not None]
        if stops.get("compensation") is None:
            stale = stale_cases.get((views.data_version(db), None))
            cases += [stale] if stale is not None else []
        for case in cases:
            case_step(ctx, db, case)


class SideBySideScreen(ViewScreen, Screen):
    HELP = """\
## Demo tour, side by side
Left the LLM-compensation case (when no trajectory is in that quadrant, its title names the
stale-fact case the tour offers instead; **c** opens it), right the retrieval-bottleneck case, each at its last document:
the store (marks, confidence; red = an active fact that still states a stale claim) and the
expected claims of the final state with the judge's verdicts, under the run's own diagnosis.

- **c** / **b** open the compensation / bottleneck case in the stepper, **Esc** back to the tour
"""

    BINDINGS = [
        Binding("c", "open('compensation')", "open compensation"),
        Binding("b", "open('bottleneck')", "open bottleneck"),
    ]

    filled_for: tuple | None = None
    """What the panels were filled for (``content_key``)."""

    @staticmethod
    def prepare(app: SeorapApp) -> None:
        """Run in a thread by the app before it builds this screen ahead (``read_cases``). With no
        database file to read from a thread (an in-memory one), its fill reads on the event loop:
        then only once the judge's analyser is ready (JudgeNotReady until then)."""
        if app.ctx.db_path is not None:
            read_cases(app.ctx, dict(app.stale_cases))
        elif not views.judge_warm():
            raise views.JudgeNotReady("read on the event loop: waits for the analyser")

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Horizontal(id="side-body"):
            for q in CASES:
                with Vertical(classes="side-col"):
                    yield Static(id=f"side-{q}-title", classes="side-title")
                    yield Static("Store at the last document", classes="pane-title")
                    yield StoreTable(id=f"side-{q}-store", classes="side-store")
                    yield Static("Expected claims of the final state", classes="pane-title")
                    yield ClaimsTable(id=f"side-{q}-claims", classes="side-claims")
        yield KeysFooter()

    def on_mount(self) -> None:
        # built ahead by the app: ready before `s`; after the first refresh, once every pane the
        # compose yielded is mounted (on a loaded machine a pane's title was not yet there)
        self.call_after_refresh(self.show)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        self.show()

    @while_running
    def show(self) -> None:
        """Fill both panels; the screen is installed once and pushed again on every `s`, so an
        unchanged database (and run, and judge view) keeps what it shows."""
        ctx = self.app.ctx
        key = (views.data_version(ctx.db), ctx.selection.run_id, ctx.selection.judge_mode)
        if key == getattr(self, "shown_for", None):
            return
        self.shown_for = key
        if key[0] != getattr(self, "tour_for", None):  # the tour is of every run: not per run
            self.stops = views.demo_tour(ctx.db, ctx.corpus)
            self.tour_for = key[0]
        self.stale, self.stale_key, pending = None, None, False
        if self.stops.get("compensation") is None:  # found once by the app, in a worker
            self.stale_key, known = self.app.stale_case(None)  # of every run, as the tour
            self.stale, pending = self.app.stale_cases.get(self.stale_key), not known
        if self.content_key(pending) != self.filled_for:
            self.fill(pending)  # else another run with the same cases: shown as it is

    def panel_width(self) -> int:
        """Cells of a panel's text: half the screen, less its padding and the border between."""
        return max(self.app.size.width // 2 - 3, 20)

    def on_resize(self) -> None:
        """Filled at another width: filled again (titles are cut to the panels' width). Not
        filled yet: its fill, when it comes, takes the width then."""
        if self.filled_for is not None and self.panel_width() != self._filled_width:
            self.fill(self._filled_pending)

    def stale_found(self, key: tuple) -> None:
        """The app found a stale-fact case (in a worker); shown if it is this screen's."""
        if key == getattr(self, "stale_key", None):
            self.stale = self.app.stale_cases[key]
            self.fill()

    def content_key(self, pending: bool) -> tuple:
        """What the panels show depends on: the database, the judge view, the stale-fact case
        standing in (the only part that follows the selected run) and the panels' width."""
        ctx = self.app.ctx
        return (
            views.data_version(ctx.db),
            ctx.selection.judge_mode,
            self.stale,
            pending,
            self.panel_width(),
        )

    def case_of(self, q: str) -> views.TourStop | views.StaleCase | None:
        """The case panel ``q`` shows: the tour's, or the stale-fact case standing in for a
        compensation case."""
        stop = self.stops.get(q)
        return stop if stop is not None else (self.stale if q == "compensation" else None)

    def case_steps(self, db: Database) -> dict[str, views.StepView]:
        """Each panel's case at its last document (read ahead by ``read_cases``, else here)."""
        ctx = self.app.ctx
        return {q: case_step(ctx, db, case) for q in CASES if (case := self.case_of(q)) is not None}

    def fill(self, pending: bool = False) -> None:
        """Fill both panels with the cases' steps (read ahead by ``read_cases``, else here)."""
        self._filled_width, self._filled_pending = self.panel_width(), pending
        self.filled_for = self.content_key(pending)
        steps = self.case_steps(self.app.ctx.db)
        for q in CASES:
            stop, step = self.stops.get(q), steps.get(q)
            if step is not None:  # the stale-fact case fills the left panel when it stands in
                self.query_one(f"#side-{q}-store", StoreTable).step = step
                self.query_one(f"#side-{q}-claims", ClaimsTable).step = step
            title = case_title(q, stop, step, self.panel_width())
            if stop is None and q == "compensation" and self.stale is not None:
                title.append_text(stale_note(self.stale))
            elif stop is None and q == "compensation" and pending:
                title.append("\nlooking for a stale-fact case in the stored runs…", "dim")
            self.query_one(f"#side-{q}-title", Static).update(  # cut at its 5 lines with '…'
                clamp_lines(title, self.panel_width(), TITLE_LINES)
            )

    def action_open(self, quadrant: str) -> None:
        stop: views.TourStop | views.StaleCase | None = self.stops.get(quadrant)
        if stop is None and quadrant == "compensation":
            stop = self.stale
        if stop is None:
            self.notify(f"no {quadrant} case in this database", severity="warning")
            return
        self.app.pop_screen()
        self.app.post_message(OpenTrajectory(stop.run_id, stop.trajectory_id, open_position(stop)))


def open_position(case: views.TourStop | views.StaleCase) -> int:
    """Where `c`/`b` open the stepper: the stale-fact case at its first stale document, a quadrant
    case at its last document (the final store the scores judge)."""
    return case.position if isinstance(case, views.StaleCase) else 10**6
