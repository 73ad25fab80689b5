"""View 6: live run — the engine runner in a thread worker, progress per phase and trajectory,
facts appearing as they are written, cancel (x) and resume (start the same run again); and the
replay of a recorded live run from the call log alone, with no model loaded (p;
docs/design.md#who-it-is-for)."""

from __future__ import annotations

import math
import threading

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import ProgressBar, RichLog, Static
from textual.worker import Worker, WorkerState

from seorap.engine import views
from seorap.engine.errors import NothingToReplay, ReplayMiss, RunCancelled
from seorap.engine.memory.reference import ORACLES
from seorap.engine.run.pacer import Pace, Pacer, PacerState
from seorap.engine.views import short_id
from seorap.tui.closing import AppHeader, while_running
from seorap.tui.fit import cut
from seorap.tui.instant_modes import ViewScreen
from seorap.tui.messages import RunsChanged
from seorap.tui.progress import (
    Advanced,
    FactWritten,
    MessageProgress,
    Note,
    PhaseFinished,
    PhaseStarted,
)
from seorap.tui.text import literal
from seorap.tui.widgets.footer import KeysFooter
from seorap.tui.widgets.line_table import LineTable
from seorap.tui.widgets.operations import OP_STYLE

REFERENCE = list(ORACLES)
VARIANTS = ["A", "B", "C"]


class LiveScreen(ViewScreen, Screen):
    HELP = """\
## Live run
Runs the engine's runner in a background worker; the app stays usable and reads the same database
while it writes (WAL). Progress per phase (extract, write <run>, score <run>) and per trajectory;
each applied decision appears in the log as it is written.

- **r** reference systems offline (oracle, oracle-stale, oracle-merged; no model, seconds)
- **s** variants A/B/C with the offline stand-in model (no server)
- **a** variants A/B/C live on Ollama (checked first; one sentence with the fix if it is down)
- `seorap demo` checks Ollama after opening: when it is reachable, variant A starts here on its
  own (x cancels; a, or the demo again, resumes where it stopped)
- **p** replay the selected run: a recorded live run re-enacted from the call log alone, with no
  model loaded, into the scratch run `<run>~rehearsal`, which the next replay of the run replaces
  (`seorap demo --keep`: a run of its own, `<run>~replay`; selected when it finishes; 2 steps
  through it).
  Reference systems write from the corpus's ground truth and the offline stand-in model calls no
  model, so their runs have nothing to replay; a call missing from the log stops the replay and
  says which
- while a replay runs, it goes at the recorded speed (`seorap demo --pace 2x` or `30s` per
  document to change it): **:** jumps to document N, **space** pauses and resumes, **→** steps
  one call, **]** steps one document (then it stays paused), **+** (or **=**) and **-** change
  the speed (up to "at once"); the line under the status shows the documents written, the call
  being held and its reply as it streams, and the time to the next document
- **t** scope: whole corpus ↔ the selected trajectory
- **x** cancel (finished documents stay; start the same run again to resume)
"""

    BINDINGS = [
        Binding("r", "start('reference')", "reference systems"),
        Binding("s", "start('standin')", "A/B/C stand-in"),
        Binding("a", "start('live')", "A/B/C live"),
        Binding("p", "replay", "replay run"),
        Binding("t", "scope", "scope"),
        Binding("x", "cancel", "cancel"),
        Binding("space", "pace('pause')", "pause", show=False),
        Binding("right", "pace('call')", "step call", show=False),
        Binding("right_square_bracket", "pace('document')", "step document", show=False),
        Binding("plus", "pace('faster')", "faster", show=False),
        Binding("equals_sign", "pace('faster')", "faster", show=False),  # + without shift
        Binding("minus", "pace('slower')", "slower", show=False),
        Binding("colon", "pace_jump", "jump to document", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.cancel_event = threading.Event()
        self.whole_corpus = True
        self.done: dict[str, int] = {}
        self.autoran = False
        self.phase = ""
        self.facts_seen = 0
        self.pacer: Pacer | None = None  # the running replay's pace (engine/run/pacer.py)
        self._pace_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static(id="live-status")
        yield Static(id="live-pace")  # shown while replaying (hidden by seorap.tcss: set here, it
        # asked for a layout on the view's first showing)
        # determinate from the start: an indeterminate bar animates (a frame every 66 ms) while idle
        yield ProgressBar(id="live-bar", show_eta=False, total=1)
        yield LineTable(id="live-trajectories", cursor_type="none")
        yield RichLog(id="live-log", max_lines=2000, markup=False, wrap=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        self._columns("")
        self._status(
            "idle — r: reference systems, s: A/B/C stand-in, a: A/B/C on Ollama, "
            "p: replay the selected run"
        )

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Runs start when the view is shown, not when it is built ahead (tui/instant_modes.py)."""
        if not self.is_current:  # built ahead: resumed and hidden again at once
            return
        if self.app.ctx.replay_start and not self.busy():
            run_id, self.app.ctx.replay_start = self.app.ctx.replay_start, None
            self.start_replay(run_id)
        elif not self.start_autorun():
            self.autostart()

    def start_autorun(self) -> bool:
        """Run the systems of ctx.autorun offline (the first start's reference systems), shown or
        built ahead and hidden (the app then shows the runs view, and ctx.progress under its
        banner); False when there are none or a run is going."""
        ctx = self.app.ctx
        if not ctx.autorun or self.busy():
            return False
        systems, ctx.autorun = ctx.autorun, []
        self.autoran = True
        self._status("first start: running the offline reference systems (no model) …")
        self._behind("starting")
        self.run_systems(systems, offline=True)
        return True

    def _behind(self, text: str) -> None:
        """The first start's reference runs, told to the runs view (ctx.progress) when this view
        is not the one on screen."""
        if self.autoran:
            self.app.ctx.progress = (
                f"First start: the offline reference systems are running (no model): {text}"
            )
            self.app.progress_changed()

    def busy(self) -> bool:
        return any(w.group == "live" and w.is_running for w in self.workers)

    def autostart(self) -> None:
        """Start the systems the Ollama probe queued (ctx.live_autostart), once the view is free."""
        ctx = self.app.ctx
        if ctx.live_autostart and not self.busy():
            systems, ctx.live_autostart = ctx.live_autostart, []
            self.whole_corpus = True
            self._status(
                f"Ollama reachable: running {', '.join(systems)} live over the corpus …",
                "bold green",
            )
            self.run_systems(systems, offline=False)

    def _status(self, text: str, style: str = "") -> None:
        scope = (
            "whole corpus"
            if self.whole_corpus
            else f"trajectory {self.app.ctx.selection.trajectory_id}"
        )
        line = literal(text, style)
        line.append(f"   scope: {scope}", "dim")
        self.query_one("#live-status", Static).update(line)

    def action_start(self, kind: str) -> None:
        if self.busy():
            self.notify("a run is already going — x cancels it", severity="warning")
            return
        systems = REFERENCE if kind == "reference" else VARIANTS
        self._status(f"starting {', '.join(systems)} ({kind}) …")
        self.run_systems(systems, offline=kind != "live")

    def action_scope(self) -> None:
        self.whole_corpus = not self.whole_corpus
        self._status("scope changed")

    def action_cancel(self) -> None:
        self.cancel_event.set()
        self._status(
            "cancelling after the current document (while scoring: the current trajectory) …",
            "yellow",
        )

    @work(thread=True, exclusive=True, exit_on_error=False, group="live", description="live run")
    def run_systems(self, systems: list[str], offline: bool) -> list[str]:
        # start-up: the run machinery (the runner, its models and httpx) loads when a run starts
        from seorap.engine.config import load_config
        from seorap.engine.errors import UsageError
        from seorap.engine.run.runner import run

        ctx = self.app.ctx
        self.cancel_event.clear()
        db = ctx.worker_db(readonly=False)
        only: list[str] | None = None
        if not self.whole_corpus:
            if ctx.selection.trajectory_id is None:
                raise UsageError(
                    "no trajectory selected: pick one in the runs view (1) or t for all"
                )
            only = [ctx.selection.trajectory_id]
        config = load_config(offline=True) if offline else self.app.live_config()
        return run(
            ctx.corpus,
            systems,
            db,
            config,
            offline=offline,
            progress=MessageProgress(self),
            cancel=self.cancel_event,
            trajectories=only,
            corpus_label=str(ctx.corpus.root),
        )

    def action_replay(self) -> None:
        if self.busy():
            self.notify("a run is already going — x cancels it", severity="warning")
            return
        run_id = self.app.ctx.selection.run_id
        if not run_id:
            self._status("no run selected — pick one in the runs view (1) to replay", "yellow")
            return
        self.start_replay(run_id)

    def start_replay(self, run_id: str) -> None:
        pace = self.app.ctx.replay_pace
        self.pacer = Pacer(pace, cancel=self.cancel_event)
        self._status(f"replaying {run_id} from the call log (no model), {pace.describe()} …")
        if self._pace_timer is not None:
            self._pace_timer.stop()
        self._pace_timer = self.set_interval(0.25, self._pace_line, name="pace")
        self.query_one("#live-pace", Static).display = True
        self.replay(run_id, self.pacer)

    def action_pace(self, what: str) -> None:
        """Space, →, ], + and - while a replay runs (engine/run/pacer.py)."""
        pacer = self.pacer
        if pacer is None or not self.busy():
            self.notify("no replay is running — p replays the selected run", severity="warning")
            return
        if what == "pause":
            pacer.toggle_pause()
        elif what in ("call", "document"):
            pacer.step(what)
        else:
            pacer.faster() if what == "faster" else pacer.slower()  # noqa: B018
        self._pace_line()

    def action_pace_jump(self) -> None:
        """``:`` while a replay runs, as in the stepper: go to document N (1-based), the
        documents before it replayed at once, then on at the pace."""
        if self.pacer is None or not self.busy():
            self.notify("no replay is running — p replays the selected run", severity="warning")
            return
        # start-up: the prompt loads with the first jump, not with the live view
        from seorap.tui.screens.prompt import PromptModal

        def done(value: str | None) -> None:
            value = (value or "").strip()
            if self.pacer is not None and value.isdigit() and int(value) >= 1:
                self.pacer.jump(int(value))
                self._pace_line()
            elif value:
                self.notify(f"{value!r} is not a document number (1, 2, …)", severity="warning")

        done_so_far = self.pacer.snapshot().documents
        self.app.push_screen(
            PromptModal(f"Go to document (now on {done_so_far + 1}; later ones only)"), done
        )

    def on_unmount(self) -> None:
        """Quitting the app stops a run after its current document and releases a paced replay
        at once (its worker thread would otherwise hold the exit for the recorded time)."""
        self.cancel_event.set()

    def _pace_done(self) -> None:
        if self._pace_timer is not None:
            self._pace_timer.stop()
            self._pace_timer = None
        self.pacer = None
        pane = self.query_one("#live-pace", Static)
        pane.update("")
        pane.display = False

    def _pace_line(self) -> None:
        pacer = self.pacer
        line = Text()
        if pacer is not None:
            line = pace_text(pacer.snapshot(), pacer.pace)
        self.query_one("#live-pace", Static).update(line)

    @work(thread=True, exclusive=True, exit_on_error=False, group="live", description="replay")
    def replay(self, run_id: str, pacer: Pacer | None = None) -> list[str]:
        from seorap.engine.run.rehearsal import rehearse  # start-up: as run_systems' imports

        ctx = self.app.ctx
        self.cancel_event.clear()
        db = ctx.worker_db(readonly=False)
        return [
            rehearse(
                db,
                run_id,
                ctx.corpus,
                keep=ctx.replay_keep,
                progress=MessageProgress(self),
                cancel=self.cancel_event,
                pacer=pacer,
            )
        ]

    @on(Worker.StateChanged)
    @while_running
    def _worker(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "live":
            return
        if event.worker.description == "replay" and event.state in (
            WorkerState.SUCCESS,
            WorkerState.ERROR,
            WorkerState.CANCELLED,
        ):
            self._pace_done()
        if event.state == WorkerState.SUCCESS and event.worker.description == "replay":
            assert event.worker.result is not None, "a replay returns its one run id"
            [replayed] = event.worker.result
            kept = "kept" if self.app.ctx.replay_keep else "the next replay replaces it"
            self._status(
                f"replayed: {replayed} (no model call; {kept}) — selected; 2 steps through it",
                "bold green",
            )
            self.app.ctx.selection.run_id = replayed
            self.app.post_message(RunsChanged())
        elif event.state == WorkerState.SUCCESS:
            ids = event.worker.result
            assert ids is not None, "run_systems returns the run ids it wrote"
            self._status(f"finished: {', '.join(ids)}", "bold green")
            self.app.post_message(RunsChanged())
            sel = self.app.ctx.selection
            if sel.run_id is None and ids:
                sel.run_id = ids[0]
                sel.trajectory_id = sel.trajectory_id or self.app.ctx.corpus.trajectories[0].id
            if self.app.ctx.live_autostart:
                self.autoran = False
                self.autostart()
            elif self.autoran:
                self.autoran = False
                self.app.ctx.progress = ""
                self.app.progress_changed()
                if self.is_current:
                    self.app.switch_mode("runs")
        elif event.state == WorkerState.ERROR:
            self._status(
                failure_text(event.worker.error, event.worker.description == "replay"), "bold red"
            )
            self._behind("failed — the live view (6) says why")
            self.autoran = False
            self.app.post_message(RunsChanged())

    def _columns(self, phase: str) -> None:
        """The trajectory table's heads, the count's in the phase's own unit."""
        table = self.query_one("#live-trajectories", LineTable)
        table.clear(columns=True)
        table.add_column("trajectory", key="t")
        table.add_column(done_label(phase), key="n")
        table.add_column("last", key="note")

    @on(PhaseStarted)
    @while_running
    def _phase(self, m: PhaseStarted) -> None:
        self.query_one(ProgressBar).update(total=max(m.total, 1), progress=0)
        self.phase = m.name
        self.done = {}
        self._columns(m.name)
        self._status(f"phase {m.name}: {m.total} units")
        self._behind(f"{m.name} 0/{m.total}")

    @on(Advanced)
    @while_running
    def _advance(self, m: Advanced) -> None:
        bar = self.query_one(ProgressBar)
        bar.advance(m.n)
        self._behind(f"{self.phase} {bar.progress:.0f}/{bar.total or 0:.0f}")
        table = self.query_one("#live-trajectories", LineTable)
        self.done[m.trajectory_id] = self.done.get(m.trajectory_id, 0) + m.n
        cells = [
            literal(m.trajectory_id),
            Text(str(self.done[m.trajectory_id])),
            literal(m.note, "dim"),
        ]
        if m.trajectory_id in table.rows:
            for key, value in zip(("t", "n", "note"), cells):
                table.update_cell(m.trajectory_id, key, value)
        else:
            table.add_row(*cells, key=m.trajectory_id)

    @on(FactWritten)
    @while_running
    def _fact(self, m: FactWritten) -> None:
        self.facts_seen += 1
        system = cut(self.system_of(m.run_id), LOG_SYSTEM)  # a replay's label is long
        line = literal(f"{system:<{LOG_SYSTEM}} ", "bold")  # the system column
        line.append(f"{m.trajectory_id} doc {m.position + 1} ", "dim")
        line.append(m.operation, OP_STYLE.get(m.operation, ""))
        line.append_text(literal(f" {short_id(m.fact_id or '')} {m.text}"))
        self.query_one(RichLog).write(line)

    def system_of(self, run_id: str) -> str:
        """'A (stand-in)' for a run written offline, 'A (recorded)' for a recording's; the system
        name otherwise (cached per run)."""
        labels = getattr(self, "_labels", {})
        if run_id not in labels:
            labels = self._labels = views.run_labels(self.app.ctx.db, short=True)
        return labels.get(run_id) or run_id.split("-", 1)[0]

    @on(PhaseFinished)
    @while_running
    def _finished(self, m: PhaseFinished) -> None:
        bar = self.query_one(ProgressBar)
        bar.update(progress=bar.total or 0)

    @on(Note)
    @while_running
    def _note(self, m: Note) -> None:
        self.query_one(RichLog).write(literal(m.text, "yellow"))


LOG_SYSTEM = 16
"""Cells of the log's system column (a longer run label is cut with '…'; 2 shows it whole)."""

DONE_LABELS = {
    "extract": "documents read",
    "write": "documents written",
    "score": "trajectories scored",
}


def done_label(phase: str) -> str:
    """The count column's head for a phase named ``extract``, ``write <run>``, ``score <run>``."""
    return DONE_LABELS.get(phase.split(" ", 1)[0], "done (this phase)")


def pace_text(state: PacerState, pace: Pace) -> Text:
    """One line under the status while a replay runs: its speed, where it is (documents written,
    calls served, the time to the next document), and the reply being held as far as it has
    streamed (the model's text is untrusted: shown literally)."""
    speed = "at once" if state.speed == math.inf else pace_of(pace, state.speed)
    line = Text(
        "▌▌ paused" if state.paused else "▶ replay", "bold yellow" if state.paused else "bold"
    )
    line.append(f"  {speed} · {state.documents} documents written · {state.calls} calls", "dim")
    if state.jump_to is not None:
        line.append(f" · jumping to document {state.jump_to}", "bold")
    elif state.rest_s > 0 and state.speed != math.inf:
        line.append(f" · next document in {math.ceil(state.rest_s / state.speed)} s", "dim")
    line.append("   space pause · → call · ] document · : jump · + - speed", "dim")
    if state.role:
        tail = " ".join(state.reply_shown.split())[-60:]
        line.append_text(literal(f"\n{state.role}: …{tail}", "italic"))
    return line


def pace_of(pace: Pace, speed: float) -> str:
    if pace.per_document_s is not None:
        return f"{pace.per_document_s / speed:g} s per document"
    return f"{pace.factor * speed:g}×"


def failure_text(error: BaseException | None, replay: bool) -> str:
    """One line for a stopped worker; replays name their two expected failures plainly."""

    if isinstance(error, RunCancelled):
        return f"cancelled: {error}" if str(error) else "cancelled (finished documents stay)"
    if replay and isinstance(error, NothingToReplay):
        return f"nothing to replay: {error}"
    if replay and isinstance(error, ReplayMiss):
        return (
            f"replay stopped — a model call is missing from the call log, and a replay never "
            f"asks the model: {error}"
        )
    return f"stopped: {error}"
