"""The seorap app: a thin coordinator. Views are MODES (one screen per file, tui/screens/);
screens read the engine through engine.views; long work runs in workers that post messages."""

from __future__ import annotations

from textual import on
from textual.app import App
from textual.binding import Binding

from tui.commands import SeorapCommands
from tui.context import AppContext
from tui.messages import OpenFact, OpenTrajectory, RunsChanged
from tui.screens.compare import CompareScreen
from tui.screens.demo import DemoScreen
from tui.screens.fact_history import FactHistoryScreen
from tui.screens.help import HelpScreen
from tui.screens.live import LiveScreen
from tui.screens.questions import QuestionsScreen
from tui.screens.runs import RunsScreen
from tui.screens.scores import ScoresScreen
from tui.screens.stepper import StepperScreen
from engine import views
from tui import overrides

VIEWS = {
    "runs": ("1", "Runs and trajectories", RunsScreen),
    "stepper": ("2", "Trajectory stepper", StepperScreen),
    "questions": ("3", "Questions and retrieval", QuestionsScreen),
    "scores": ("4", "Score cards", ScoresScreen),
    "compare": ("5", "Compare two runs", CompareScreen),
    "live": ("6", "Live run", LiveScreen),
    "demo": ("7", "Demo tour", DemoScreen),
}


class SeorapApp(App):
    """seorap (서랍): open an agent's memory drawer and grade what is inside."""

    CSS_PATH = "seorap.tcss"
    TITLE = "seorap 서랍"
    MODES = {name: screen for name, (_, _, screen) in VIEWS.items()}
    DEFAULT_MODE = "runs"
    COMMANDS = App.COMMANDS | {SeorapCommands}
    BINDINGS = [
        *[Binding(key, f"view('{name}')", title.split()[0].lower(), show=False)
          for name, (key, title, _) in VIEWS.items()],
        Binding("f1,question_mark", "help", "help"),
        Binding("escape", "home", "back", show=False),
    ]

    def __init__(self, ctx: AppContext, start_mode: str = "runs") -> None:
        super().__init__()
        self.ctx = ctx
        self.start_mode = start_mode

    def on_mount(self) -> None:
        self.sub_title = str(self.ctx.db_path or ":memory:")
        if self.start_mode != "runs":
            self.switch_mode(self.start_mode)

    def action_view(self, name: str) -> None:
        if self.current_mode != name:
            self.switch_mode(name)

    def action_home(self) -> None:
        if len(self.screen_stack) > 1:
            self.pop_screen()
        elif self.current_mode != "runs":
            self.switch_mode("runs")

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(getattr(type(self.screen), "HELP", "")))

    @on(OpenTrajectory)
    def open_trajectory(self, message: OpenTrajectory) -> None:
        sel = self.ctx.selection
        sel.run_id, sel.trajectory_id, sel.position = (message.run_id, message.trajectory_id,
                                                       message.position)
        if self.current_mode == "stepper":
            self.screen.show()
        else:
            self.switch_mode("stepper")

    @on(OpenFact)
    def open_fact(self, message: OpenFact) -> None:
        self.push_screen(FactHistoryScreen(message.run_id, message.fact_id))

    @on(RunsChanged)
    def runs_changed(self) -> None:
        if hasattr(self.screen, "reload"):
            self.screen.reload()

    def override_verdict(self, verdict_id: str, target: str) -> None:
        """Human override of one verdict (SPEC §5.4), stored through engine.scoring."""
        if not verdict_id:
            self.notify(f"nothing to override: {views.NOT_SCORED}", severity="warning", markup=False)
            return
        overrides.ask_and_store(self, verdict_id, target)
