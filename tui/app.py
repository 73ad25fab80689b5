"""The seorap app: a thin coordinator. Views are MODES (one screen per file, tui/screens/);
screens read the engine through engine.views; long work runs in workers that post messages."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import events, on, work
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from seorap.engine import views
from seorap.engine.config import Config, load_config
from seorap.tui import overrides
from seorap.tui.commands import SeorapCommands
from seorap.tui.context import AppContext
from seorap.tui.idle_gc import CHECK_S, IdleCollector
from seorap.tui.import_ahead import pieces
from seorap.tui.instant_modes import VIEW_SCREEN, InstantModes, draw_ahead
from seorap.tui.key_order import KeysInOrder
from seorap.tui.messages import OpenFact, OpenTrajectory, RunsChanged
from seorap.tui.modes import KEPT_SCREENS, SIDE_BY_SIDE, VIEWS, screen_class
from seorap.tui.ollama_probe import OllamaProbe, probe
from seorap.tui.prepare import prepare_ahead

if TYPE_CHECKING:
    from seorap.tui.screens.stepper import StepperScreen

AHEAD_IDLE_S = 0.3
"""After a key, once the user has not typed for this long, views read ahead what they would show
next: hidden views what they would show now (the questions of a trajectory selected meanwhile:
30-80 ms), the stepper the steps either side (~12 ms each: read, document and log wrapped); one
piece at a time, AHEAD_GAP_S apart, in a worker that stops at the next key."""
AHEAD_GAP_S = 0.05
"""Pause between two pieces of read-ahead, for input and frames to get through."""
FIRST_LOOK_S = 1.0
"""After the first view built ahead (the stepper), the others wait for the first key or this long
after the first frame."""
BUILD_ORDER = ("stepper", "questions", "scores", "compare", "demo", "live", SIDE_BY_SIDE)
"""The views built ahead after the first paint, one at a time, in the order of their keys (2 3 4 5
7 6), the side by side last: it is built once the judge's analyser is ready (JUDGING)."""
JUDGING = (SIDE_BY_SIDE,)
"""Views whose first fill may run the lexical judge (the side by side's step views: verdicts a
scoring pass did not store are judged on read). Their ``prepare`` reads what the fill shows in a
thread, without waiting for the judge's analyser process: when every verdict it needs is stored
they are built ahead at once; when one is not, only once the analyser is ready (built earlier, the
build held the event loop until it was: a key waited 14 s, busy 2)."""


BANNER_VIEWS = ("runs", "demo")
"""Views whose banner shows the Ollama probe's message (ctx.banner)."""
WARM_FIRST = ("plotext", "textual_plotext")
"""Libraries a view's module imports, imported ahead on their own first: the score cards' module
with its chart renderer was one 22-25 ms import, 12-14 ms of it these two (python -X importtime)."""
WARM_MODULES = (
    "seorap.tui.screens.side_by_side",
    "seorap.tui.screens.fact_history",
    "seorap.tui.screens.help",
    "seorap.engine.scoring.report",
    "seorap.engine.scoring.figures",
)
"""Modules a view imports when first used, imported ahead with the views' own (warm_views)."""


def _lazy(name: str) -> Callable[[], Screen]:
    return lambda: screen_class(name)()


SCREENS = {VIEW_SCREEN.format(name): _lazy(name) for name in VIEWS}
SCREENS.update({name: _lazy(target) for name, target in KEPT_SCREENS.items()})


class SeorapApp(KeysInOrder, InstantModes, App):
    """seorap (서랍): open an agent's memory drawer and grade what is inside."""

    CSS_PATH = "seorap.tcss"
    TITLE = "seorap 서랍"
    SCREENS = SCREENS
    """Every view's screen is installed by name: built ahead, it stays mounted (tui/instant_modes.py)."""
    MODES = {name: VIEW_SCREEN.format(name) for name in VIEWS}
    DEFAULT_MODE = "runs"
    COMMANDS = App.COMMANDS | {SeorapCommands}
    BINDINGS = [
        *[
            Binding(key, f"view('{name}')", title.split()[0].lower(), show=False)
            for name, (key, title, _) in VIEWS.items()
        ],
        Binding("f1,question_mark", "help", "help"),
        Binding("q", "quit", "quit"),
        Binding("escape", "home", "back", show=False),
    ]
    """`q` quits from every view; inside a text input (search, prompts) it is typed instead."""

    def __init__(self, ctx: AppContext, start_mode: str = "runs") -> None:
        # per app, not per class: the class's MODES and bindings are shared, the start view is not
        self.DEFAULT_MODE = start_mode if start_mode in VIEWS else "runs"  # type: ignore[misc]
        """Open straight on the start view: composing the runs table first would delay the first
        paint of, e.g., the stepper (`seorap inspect --trajectory`)."""
        super().__init__()
        self.ctx = ctx
        self.ollama: OllamaProbe | None = None
        """The Ollama probe's result (tui.ollama_probe.OllamaProbe) once it ran."""
        self.start_mode = start_mode
        self.judge_was_warm = False
        """The lexical judge's analyser was ready at the last idle tick (screens were told)."""
        self.stepper: StepperScreen | None = None
        """The stepper screen once mounted (tui/screens/stepper.py)."""
        self.stale_cases: dict[tuple, views.StaleCase] = {}
        """(database state, run) -> the tour's stale-fact case (views.stale_case), found once."""
        self.stale_pending: tuple | None = None
        """The (database state, run) whose stale-fact case a worker is finding."""
        self.idle_gc = IdleCollector()
        """Full garbage collections wait for an idle moment (tui/idle_gc.py)."""
        self._ahead_timer: Timer | None = None
        self.inputs_drawing = 0
        """Keys and clicks handled whose frames are not all drawn yet."""
        self.ready_at = time.monotonic()
        """When the first frame was drawn."""
        self.views_started = False
        self.builder: Worker | None = None
        self.views_built = False
        """Every view of BUILD_ORDER was built (ahead or when first shown)."""
        self.building: str | None = None
        """The view being built ahead (mounting)."""
        self.view_waiting: str | None = None
        """The view whose key came while it was being built: shown once it is mounted."""

    def on_mount(self) -> None:
        self.sub_title = str(self.ctx.db_path or ":memory:")
        if self.ctx.probe_ollama:
            self.call_after_refresh(self.probe_ollama)
        self.call_after_refresh(self._idle_gc_start)
        self.builder = self.build_views_ahead()  # after the first frame (its first line)

    def _idle_gc_start(self) -> None:
        self.idle_gc.start()
        self.set_interval(CHECK_S, self._idle_tick, name="idle gc")

    def _idle_tick(self) -> None:
        """Once idle: a full garbage collection when garbage may wait, once every view is built
        (until then it walked every widget built ahead: 20-43 ms; they are frozen when built,
        tui/idle_gc.py); once the lexical judge's analyser is ready (in its own process:
        views.judge_apart), the views that showed a step without its stale-fact marks read it
        again."""
        if not self.judge_was_warm and views.judge_warm():
            self.judge_was_warm = True
            for screen in self.built_screens():
                if hasattr(screen, "judge_ready"):
                    screen.judge_ready()
        if self.views_built:
            self.idle_gc.tick()

    def on_unmount(self) -> None:
        self.idle_gc.stop()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown)):
            self.idle_gc.touched()
            views.judge_pause()  # its warm-up goes on once the keys stop (_read_ahead)
            if self._ahead_timer is not None:
                self._ahead_timer.stop()
            self._ahead_timer = self.set_timer(AHEAD_IDLE_S, self._read_ahead, name="read ahead")
            self.inputs_drawing += 1
            await super().on_event(event)
            self.call_after_refresh(self._input_drawn)  # after the frames the input asked for
            return
        await super().on_event(event)

    def _input_drawn(self) -> None:
        self.inputs_drawing = max(0, self.inputs_drawing - 1)

    async def input_drawn(self, most_s: float = 0.5) -> None:
        """Wait until every key (or click) so far has been handled and its frames drawn (at
        most ``most_s``): background work on the event loop goes between keys, not inside one."""
        waited = 0.0
        while self.inputs_drawing and waited < most_s:
            await asyncio.sleep(0.01)
            waited += 0.01

    def _read_ahead(self) -> None:
        if self.idle_gc.idle(AHEAD_IDLE_S):  # else that key scheduled its own
            views.judge_resume()
            self.read_ahead()
            if not (self.builder and self.builder.is_running) and not self.views_built:
                self.builder = self.build_views_ahead()  # stopped by an overlay

    @work(exclusive=True, exit_on_error=False, group="read-ahead", description="read ahead")
    async def read_ahead(self) -> None:
        """Let one mounted view read ahead (``read_ahead() -> bool``: True when it did some
        work), then the next, until none has anything to do or a key arrives; a pause between
        two pieces lets input and frames through. A view whose read-ahead would wait for the
        judge's analyser (still loading) is passed over for now."""
        while self.idle_gc.idle(AHEAD_IDLE_S):
            screens = [s for s in self.built_screens() if hasattr(s, "read_ahead")]
            if not any(self._read_one_ahead(screen) for screen in screens):
                return
            await asyncio.sleep(AHEAD_GAP_S)

    def _read_one_ahead(self, screen: Screen) -> bool:
        reader = getattr(screen, "read_ahead", None)
        if reader is None or not screen.is_mounted:
            return False
        try:
            with views.judge_no_wait():
                return bool(reader())
        except views.JudgeNotReady:
            return False

    @work(exclusive=True, exit_on_error=False, group="build-ahead", description="build views ahead")
    async def build_views_ahead(self) -> None:
        """After the first paint, build every view's screen that is not built yet, one at a time
        (tui/instant_modes.py), after the frames of every key so far; stops while an overlay
        (help, a prompt) is open, to go on after a later key. Then what is alive is frozen for
        the garbage collector (tui/idle_gc.py): the views live as long as the app."""
        if not self.views_started:  # the app's mount comes with its first frame
            self.views_started = True
            await asyncio.sleep(AHEAD_GAP_S)
            self.ready_at = time.monotonic()
        order: tuple[str, ...] = BUILD_ORDER
        if self.ctx.autorun and self.current_mode != "live":  # the first start's runs: at once
            order = ("live", *(name for name in BUILD_ORDER if name != "live"))
        for name in order:
            await self.input_drawn()
            if len(self.screen_stack) != 1:  # an overlay is open: again after the next key
                return
            if name == order[0] and name in VIEWS:  # the first view built: its modules too
                await self.import_ahead(VIEWS[name][2].split(":")[0])
            await prepare_ahead(self, name, name in JUDGING, AHEAD_GAP_S * 2)
            mounted = self.build_ahead(name)
            if mounted is not None:
                self.building = name
                try:
                    await mounted
                finally:
                    self.building = None
                if self.view_waiting == name:  # its key came while it was being built
                    self.action_view(name)
                screen = self.get_screen(VIEW_SCREEN.format(name) if name in VIEWS else name)
                if hasattr(screen, "start_autorun"):
                    screen.start_autorun()  # hidden: the runs view shows its progress
                screen.refresh_bindings()  # its footer shows its keys now, not on its first showing
                await draw_ahead(self, screen, AHEAD_GAP_S, self.input_drawn)
            await asyncio.sleep(AHEAD_GAP_S)
            if name == order[0]:
                await self.warm_views()  # the other views' modules, one at a time
                await self.first_look()
                views.judge_apart()  # the judge's analyser warms up in a process of its own
        if not await self.build_help_ahead():
            return  # an overlay is open: again after the next key
        self.views_built = True
        self.idle_gc.freeze()

    async def build_help_ahead(self) -> bool:
        """Build the help screen of every view built, one at a time after the frames of every
        key so far: a first F1 then shows a screen already composed and drawn (composing the
        stepper's help took 173-194 ms of CPU, ~230 ms on a loaded terminal). False when an
        overlay opened meanwhile."""
        for screen in [self.screen, *self.built_screens()]:
            await self.input_drawn()
            if len(self.screen_stack) != 1:
                return False
            name = self.help_screen(type(screen))
            mounted = self.build_ahead(name)
            if mounted is not None:
                await mounted
                await draw_ahead(self, self.get_screen(name), AHEAD_GAP_S, self.input_drawn)
            await asyncio.sleep(AHEAD_GAP_S)
        return True

    async def first_look(self) -> None:
        """Wait for the first key (and its frames), or FIRST_LOOK_S after the first frame: a
        person's first key (0.5 s after first paint in bench/app_latency.py) then finds the event
        loop free, not inside a view being built, nor the judge's analyser process loading (it
        took a core's share from the first key: 246-688 ms at 0.2-0.5 s, 38-153 at 1 s, busy 2)."""
        while self.idle_gc.last_input < self.ready_at and time.monotonic() - self.ready_at < (
            FIRST_LOOK_S
        ):
            await asyncio.sleep(0.02)

    async def warm_views(self) -> None:
        """Import every view's module (plotext, the scoring report...) once the stepper is built
        ahead, one module at a time after the frames of every key so far, so building the others
        does not pay for imports later. On the event loop's thread, never in a thread of its own:
        imports in two threads at once see each other's modules half made (under load a thread
        warming these modules while a key built a view raised ImportError for a partially
        initialised ``rich.pretty`` and ``seorap.tui.screens.live``). A view's module with what it
        pulls in took 4-34 ms; one module's own body takes a few (``import_ahead``)."""
        targets = [target.split(":")[0] for _, _, target in VIEWS.values()]
        for module in (*WARM_FIRST, *targets, *WARM_MODULES):
            await self.import_ahead(module)

    async def import_ahead(self, module: str) -> None:
        """Import ``module`` after the frames of every key so far, in pieces, leaves first
        (tui/import_ahead.py), each in a turn of the event loop of its own: a key that arrives
        meanwhile is handled before the next piece. (Waiting for every key's frames before each
        piece, as before each module, could leave a view's module half imported through a burst
        of keys, for its key to import the rest.)"""
        await self.input_drawn()
        for piece in pieces(module):
            piece()
            await asyncio.sleep(0)

    def stale_case(self, run_id: str | None) -> tuple[tuple, bool]:
        """(key, known) of the stale-fact case of ``run_id`` in the database as it is now (the
        tour's fallback when no run compensates; it runs the lexical judge over the run's facts).
        When unknown, a worker finds it once and hands it to every view that shows it
        (``stale_found(key)``); the case itself is ``stale_cases[key]``."""
        key = (views.data_version(self.ctx.db), run_id)
        if key in self.stale_cases:
            return key, True
        if self.stale_pending != key:
            self.stale_pending = key
            self.find_stale(key)
        return key, False

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="stale-case",
        description="stale-fact case",
    )
    def find_stale(self, key: tuple) -> tuple:
        ctx = self.ctx
        db = ctx.worker_db()
        return key, views.stale_case(db, ctx.corpus, key[1])

    def live_config(self) -> Config:
        """The Config live runs use (ctx.live_config, else load_config())."""
        if self.ctx.live_config is None:
            self.ctx.live_config = load_config()
        return self.ctx.live_config

    @work(
        thread=True, exclusive=True, exit_on_error=False, group="probe", description="ollama probe"
    )
    def probe_ollama(self) -> OllamaProbe:
        return probe(self.live_config())

    @on(Worker.StateChanged)
    def _worker_done(self, event: Worker.StateChanged) -> None:
        """The app's one handler of its workers' ends: the tour's stale-fact case, the probe.
        A worker that ends while the app closes has no view left to show it (``reachable``)."""
        if not self.is_running:
            return
        group, state = event.worker.group, event.state
        if group == "stale-case" and state in (WorkerState.SUCCESS, WorkerState.ERROR):
            self._stale_found(event)
        elif group == "probe" and state == WorkerState.SUCCESS:
            self._probed(event)

    def _stale_found(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self.stale_pending = None
            self.notify(
                f"the stale-fact case failed: {event.worker.error}", severity="error", markup=False
            )
            return
        found = event.worker.result
        assert found is not None, "find_stale returns (key, case) when it succeeds"
        key, case = found
        self.stale_cases[key] = case
        if self.stale_pending == key:
            self.stale_pending = None
        for screen in self.built_screens():
            if hasattr(screen, "stale_found"):
                screen.stale_found(key)

    def _probed(self, event: Worker.StateChanged) -> None:
        result = event.worker.result
        assert result is not None, "probe_ollama returns an OllamaProbe when it succeeds"
        self.ctx.banner = result.message
        self.ollama = result
        if result.reachable:
            self.ctx.live_autostart = ["A"]
            self.notify(result.message, markup=False)
            if self.current_mode == "live":
                if hasattr(self.screen, "autostart"):  # not a modal (help) over it
                    self.screen.autostart()
            else:
                self.switch_mode("live")
        else:
            if self.current_mode not in BANNER_VIEWS:  # those show it: no toast repeating it
                self.notify(result.message, severity="warning", markup=False, timeout=8)
            self.runs_changed()

    def keys_wait(self) -> bool:
        """Keys typed after a view's key wait while that view is being built (it is shown once
        mounted, and they are meant for it): tui/key_order.py."""
        return self.view_waiting is not None and self.building == self.view_waiting

    def action_view(self, name: str) -> None:
        self.view_waiting = None
        if self.current_mode != name:
            if self.building == name:  # shown once mounted: switching now would compose it again
                self.view_waiting = name
                return
            screen = self.built_screen(name)
            if screen is not None and hasattr(screen, "fill_before_switch"):
                screen.fill_before_switch()  # the switch's frames show what changed meanwhile
            self.switch_mode(name)

    def action_home(self) -> None:
        if len(self.screen_stack) > 1:
            self.pop_screen()
        elif self.current_mode != "runs":
            self.switch_mode("runs")

    def action_help(self) -> None:
        # start-up: a view's module loads when first needed (or by warm_views), not before first paint
        from seorap.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(self.help_screen(type(self.screen)))

    def help_screen(self, view: type) -> str:
        """The installed name of the help screen of ``view``: installed once per view, composed
        when built ahead (build_views_ahead) or on the first F1; F1 again only shows it."""
        # start-up: as action_help's, the help module loads after first paint
        from seorap.tui.screens.help import HelpScreen

        name = f"help:{view.__module__}:{view.__qualname__}"
        if not self.is_screen_installed(name):
            self.install_screen(HelpScreen(getattr(view, "HELP", "")), name)
        return name

    @on(OpenTrajectory)
    def open_trajectory(self, message: OpenTrajectory) -> None:
        sel = self.ctx.selection
        sel.run_id, sel.trajectory_id, sel.position = (
            message.run_id,
            message.trajectory_id,
            message.position,
        )
        if self.current_mode == "stepper":
            if hasattr(self.screen, "show"):  # the stepper or a fact's history over it, not help
                self.screen.show()
        else:
            if (
                self.stepper is not None
            ):  # filled first: the switch's first frame shows the new step
                self.stepper.show()
            self.switch_mode("stepper")

    @on(OpenFact)
    def open_fact(self, message: OpenFact) -> None:
        # start-up: as action_help's
        from seorap.tui.screens.fact_history import FactHistoryScreen

        self.push_screen(FactHistoryScreen(message.run_id, message.fact_id))

    def progress_changed(self) -> None:
        """ctx.progress changed: the runs view shows it (whether on screen or not)."""
        runs = self.built_screen("runs")
        if runs is not None and hasattr(runs, "progress_changed"):
            runs.progress_changed()

    @on(RunsChanged)
    def runs_changed(self) -> None:
        if not self.screen_stack or not self.is_running:  # a live run that ended as the app closes
            return
        if hasattr(self.screen, "reload"):
            self.screen.reload()

    def override_verdict(self, verdict_id: str, target: str) -> None:
        """Human override of one verdict (docs/metrics.md), stored through engine.scoring."""
        if not verdict_id:
            self.notify(
                f"nothing to override: {views.NOT_SCORED}", severity="warning", markup=False
            )
            return
        overrides.ask_and_store(self, verdict_id, target)
