"""Issue 36, deliver 1: work ahead holds the event loop in small pieces. Imports run one module's
body at a time; the charts' text and the side by side's cases are made in threads (which give the
interpreter up every few ms to a key waiting on the loop); full collections wait until the views
built ahead are frozen."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

from seorap.tui import import_ahead
from seorap.tui.factory import make_app

ROOT = Path(__file__).resolve().parent.parent

EACH_IMPORT_RUNS_ONE_BODY = """
import sys
import seorap.tui.app  # as when the app runs: what it imports is imported
from seorap.tui import import_ahead as ia
bodies = {}
loaded = []
def load(name):
    before = {m for m in sys.modules if m.startswith("seorap.")}
    ia.load(name)
    ran = {m for m in sys.modules if m.startswith("seorap.")} - before
    loaded.append(name)
    if name.startswith("seorap."):
        bodies[name] = sorted(ran)
for piece in ia.pieces("seorap.tui.screens.stepper", load):
    piece()
assert loaded[-1] == "seorap.tui.screens.stepper", loaded
assert "seorap.tui.screens.stepper_panes" in loaded and "textual.widgets:DataTable" in loaded
many = {name: ran for name, ran in bodies.items() if ran != [name]}
assert not many, many
print(len(bodies))
"""


def test_each_import_ahead_runs_one_module_body_leaves_first():
    """In a fresh interpreter (nothing of the stepper imported yet): loading the pieces in order,
    each of our modules' import runs that module's body alone, the stepper's last."""
    done = subprocess.run(
        [sys.executable, "-c", EACH_IMPORT_RUNS_ONE_BODY],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout) > 10  # the stepper's widgets, its panes, the stepper


def test_imports_are_read_from_source_without_importing(tmp_path, monkeypatch):
    """What a module imports is read from its top level: a TYPE_CHECKING block is not, a
    library's names are pieces of their own, and a cycle ends where it closes."""
    pkg = tmp_path / "seorap"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from seorap.sub import b\n"
        "from textual.widgets import RichLog\n"
        "if TYPE_CHECKING:\n"
        "    from seorap.sub import c\n"
    )
    (pkg / "sub" / "b.py").write_text("import seorap.sub.a\n")  # a cycle back to a
    (pkg / "sub" / "c.py").write_text("")
    monkeypatch.setattr(import_ahead, "ROOT", pkg)
    assert import_ahead.imports_of("seorap.sub.a") == [
        "typing",
        "typing:TYPE_CHECKING",
        "seorap",
        "seorap.sub",
        "seorap.sub.b",
        "textual.widgets",
        "textual.widgets:RichLog",
    ]
    seen: list[str] = []
    pieces = import_ahead.pieces("seorap.sub.a", seen.append)
    for piece in pieces:
        piece()
    mine = [name for name in seen if name.startswith("seorap.sub")]
    assert mine == ["seorap.sub", "seorap.sub.b", "seorap.sub.a"]  # b before a: the cycle cut
    assert "seorap.sub.c" not in seen


async def every_view_built(app) -> None:
    """Wait (at most 60 s) until the app has built every view ahead."""
    for _ in range(600):
        if app.views_built:
            break
        await asyncio.sleep(0.1)
    assert app.views_built


async def test_charts_and_the_side_by_sides_cases_are_made_off_the_event_loop(ref, monkeypatch):
    from textual_plotext.plotext_plot import PlotextPlot

    from seorap.engine import views

    plots: list[str] = []
    cases: list[str] = []
    real_render, real_step = PlotextPlot.render, views.step_view

    def render(self):
        plots.append(threading.current_thread().name)
        return real_render(self)

    def step_view(*a, **k):
        if sys._getframe(1).f_code.co_name == "case_step":  # noqa: SLF001 - the side by side's
            cases.append(threading.current_thread().name)
        return real_step(*a, **k)

    monkeypatch.setattr(PlotextPlot, "render", render)
    monkeypatch.setattr(views, "step_view", step_view)
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    loop = threading.current_thread().name
    async with app.run_test(size=(160, 45)):
        await every_view_built(app)
        assert plots and loop not in plots, plots  # built ahead: every chart's text in a thread
        assert cases and loop not in cases, cases  # the side by side's cases too, before its build


async def test_the_side_by_side_is_built_ahead_without_the_judge_when_its_verdicts_are_stored(
    ref, monkeypatch
):
    """Its read needs no judgement (every verdict stored at score time): built ahead while the
    judge's analyser still loads. One that needs one waits for the analyser, then reads again."""
    from seorap.engine import views
    from seorap.tui.screens.side_by_side import SideBySideScreen

    warm = {"now": False}
    monkeypatch.setattr(views, "judge_warm", lambda: warm["now"])
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)):
        await every_view_built(app)  # the analyser never became ready

    reads: list[bool] = []
    real = SideBySideScreen.prepare

    def prepare(app_):
        reads.append(warm["now"])
        if not warm["now"]:
            raise views.JudgeNotReady("a verdict no scoring pass stored")
        real(app_)

    monkeypatch.setattr(SideBySideScreen, "prepare", staticmethod(prepare))
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)):
        for _ in range(30):
            await asyncio.sleep(0.1)
        assert reads == [False] and not app.views_built  # waits for the analyser
        warm["now"] = True
        await every_view_built(app)
        assert reads == [False, True]


async def test_views_built_ahead_read_what_they_first_show_off_the_event_loop(ref, monkeypatch):
    """The stepper's first step, the questions view's questions and the score cards' figures are
    read in a thread before each view is built ahead (its ``prepare``): building it holds the
    event loop only to fill it."""
    from seorap.engine import views

    reads: dict[str, list[str]] = {"step": [], "questions": [], "figures": []}
    real = {n: getattr(views, n) for n in ("step_view", "questions_view", "stored_figures")}

    def spy(name: str, label: str):
        def read(*a, **k):
            reads[label].append(threading.current_thread().name)
            return real[name](*a, **k)

        return read

    monkeypatch.setattr(views, "step_view", spy("step_view", "step"))
    monkeypatch.setattr(views, "questions_view", spy("questions_view", "questions"))
    monkeypatch.setattr(views, "stored_figures", spy("stored_figures", "figures"))
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])  # the runs view: the stepper is built ahead
    loop = threading.current_thread().name
    async with app.run_test(size=(160, 45)):
        await every_view_built(app)
        for label, threads in reads.items():
            assert threads and loop not in threads, (label, threads)
        title = app.get_screen("view:questions").query_one("#q-title").content
        assert app.ctx.selection.trajectory_id in str(title)
