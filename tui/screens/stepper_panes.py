"""The stepper's panes and the step they show: building the step view (kept and read ahead),
giving it to each pane, the titles and the detail pane that follow focus. The keys that act on it
are the screen's (tui/screens/stepper.py)."""

from __future__ import annotations

import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor

import sqlite_utils
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from seorap.engine import views
from seorap.tui.closing import AppHeader, while_running
from seorap.tui.context import AppContext
from seorap.tui.instant_modes import ViewScreen
from seorap.tui.text import literal
from seorap.tui.widgets.claims_table import ClaimsTable
from seorap.tui.widgets.detail import DetailPane
from seorap.tui.widgets.document import DocumentPane
from seorap.tui.widgets.footer import KeysFooter
from seorap.tui.widgets.operations import OperationLog
from seorap.tui.widgets.search_bar import SearchBar
from seorap.tui.widgets.store_table import StoreTable
from seorap.tui.widgets.timeline import Timeline
from seorap.tui.widgets.title import Title

PANE_KEYS = {
    "t": "timeline",
    "d": "document",
    "s": "store",
    "c": "claims",
    "i": "detail",
    "l": "operations",
}
"""One key per pane (F1 lists them; none is a key of the app or of this view otherwise)."""
PANE_TITLES = {"store": "store-title", "claims": "claims-title"}
"""Panes whose title line shows that they have the focus."""
SUMMARY_STYLE = {
    "new": "green",
    "updated": "cyan",
    "reinforced": "blue",
    "superseded": "bold magenta",
    "stale": "bold red",
    "none": "dim",
}


def step_key_of(
    ctx: AppContext, position: int, run_id: str | None, trajectory_id: str | None, version: tuple
) -> tuple:
    """What a step view depends on: run, trajectory, position, the judge mode, θ, and the
    database's version with whether the judge's analyser was ready (``step_version``)."""
    sel = ctx.selection
    return (run_id, trajectory_id, position, sel.judge_mode, ctx.filter_threshold, *version)


def read_step(db: sqlite_utils.Database, ctx: AppContext, key: tuple) -> views.StepView:
    """The step view of ``key`` (``step_key_of``); without its stale marks while the judge's
    analyser is loading (it is read again once it is ready: ``judge_ready``)."""
    run_id, trajectory_id, position, judge_mode = key[:4]
    try:
        with views.judge_no_wait():
            return views.step_view(db, ctx.corpus, run_id, trajectory_id, position, judge_mode)
    except views.JudgeNotReady:
        return views.step_view(db, ctx.corpus, run_id, trajectory_id, position, judge_mode, False)


FIRST_STEPS: dict[tuple, views.StepView] = {}
"""The selected step, read in a thread before the app builds the stepper ahead (``prepare``), by
step key: its first showing takes it from here."""


def prepare_first_step(ctx: AppContext) -> None:
    """In a thread, before the app builds the stepper ahead: read the step it will show first, on
    a connection of its own, so building it holds the event loop only to fill its panes (read
    there, the step was 15-29 ms of the build's longest hold on the bundled corpus)."""
    sel = ctx.selection
    if ctx.db_path is None or not (sel.run_id and sel.trajectory_id):
        return
    with ctx.own_connection() as db:
        version = (views.data_version(db), views.judge_warm())
        key = step_key_of(ctx, sel.position, sel.run_id, sel.trajectory_id, version)
        FIRST_STEPS.clear()
        FIRST_STEPS[key] = read_step(db, ctx, key)


class StepperPanes(ViewScreen, Screen):
    """The stepper without its keys: the step on screen and its panes."""

    def __init__(self) -> None:
        super().__init__()
        self.step: views.StepView | None = None
        self.shown_for: tuple | None = None
        self.last_step_ms = 0.0
        self.search_text = ""
        self.found: list[views.Match] = []
        """The current search's hits (engine.views.search_matches)."""
        self.match_index = -1
        self.summary: views.StepSummary | None = None
        self.change_index = -1
        """The summary target `x` selected last (-1: none yet at this step)."""
        self.views_kept: OrderedDict[tuple, views.StepView] = OrderedDict()
        self.reading: dict[tuple, Future[views.StepView]] = {}
        """Steps being read ahead in the reader thread (``read_step_ahead``), by step key."""
        self.reader: ThreadPoolExecutor | None = None
        self.reader_db: sqlite_utils.Database | None = None
        """The reader thread's own read-only connection (used by that thread only)."""
        self.claim: tuple[views.ClaimRow, int] | None = None
        """The claim the detail pane showed last and its state: the journey keys follow it."""

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield SearchBar(
            placeholder="search this trajectory's facts (or f0030), observations and documents"
            " (Enter/Esc to close)",
            id="search",
        )
        yield Title(id="step-title")
        with Horizontal(id="stepper"):
            yield Timeline(id="timeline")
            with Vertical(id="step-main"):
                with Horizontal(id="step-upper"):
                    yield DocumentPane(id="document")
                    with Vertical(id="step-right"):
                        yield Title("Store at this step", id="store-title", classes="pane-title")
                        yield StoreTable(id="store")
                        yield Title(id="claims-title", classes="pane-title")
                        yield ClaimsTable(id="claims")
                        yield DetailPane(id="detail")
                yield OperationLog(id="operations")
        yield KeysFooter()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self.is_current:  # resumed hidden (built ahead): its mount set its first step's turn
            self.show()

    def on_resize(self) -> None:
        self.call_after_refresh(self._keep_focus)

    @while_running
    def _keep_focus(self) -> None:
        """A pane hidden by a narrower terminal (the timeline under 90 columns) gives its focus
        to the store, so that the pane keys and the cursor stay visible."""
        focused = self.focused
        if (focused is None or not focused.display) and self.is_current:
            self.query_one(StoreTable).focus()

    # -- data down ------------------------------------------------------------------------
    def show(self) -> None:
        """Show the selected step; the same step of an unchanged database is already on screen."""
        ctx = self.app.ctx
        sel = ctx.selection
        if not (sel.run_id and sel.trajectory_id):
            self.query_one("#step-title", Static).update(
                Text("no trajectory selected — pick one in the runs view (1)", "dim")
            )
            return
        key = self.step_key(sel.position)
        if self.step is not None and key == self.shown_for:
            return
        started = time.perf_counter()
        if self.claim is not None and key[:2] != (self.shown_for or (None, None))[:2]:
            self.claim = None  # another trajectory: its claims have their own journeys
        self.step = self._view(key)
        sel.position = self.step.position
        self.shown_for = (sel.run_id, sel.trajectory_id, sel.position, *key[3:])
        self.summary = views.step_summary(self.step)
        self.change_index = -1
        self.query_one(Timeline).step = self.step
        self.query_one(DocumentPane).step = self.step
        self.query_one(StoreTable).step = self.step
        self.query_one(ClaimsTable).step = self.step
        self.query_one(OperationLog).step = self.step
        self.query_one("#step-title", Static).update(self._title())
        self.query_one("#claims-title", Static).update(self._claims_title())
        self.query_one("#store-title", Static).update(self._store_title())
        self._detail()
        self.last_step_ms = (time.perf_counter() - started) * 1000

    def judge_ready(self) -> None:
        """The lexical judge's analyser is loaded: a step shown without its stale marks is read
        again (the app calls this once)."""
        if self.step is not None and not self.step.stale_checked:
            self.show()

    @property
    def shown_step(self) -> views.StepView:
        """The step on screen, for what runs only once show() put one there (its titles, a pick
        in its store, a fact found in it)."""
        if self.step is None:
            raise LookupError("the stepper shows no step yet")
        return self.step

    VIEWS_KEPT = 16
    """Step views kept: stepping back, or onto a step read ahead, does not read it again."""

    def step_key(
        self,
        position: int,
        run_id: str | None = None,
        trajectory_id: str | None = None,
        version: tuple | None = None,
    ) -> tuple:
        """What a step view depends on: the selected run and trajectory (or those given), the
        position, the judge mode, θ, and ``step_version()`` (computed here unless given)."""
        ctx, sel = self.app.ctx, self.app.ctx.selection
        return step_key_of(
            ctx,
            position,
            run_id or sel.run_id,
            trajectory_id or sel.trajectory_id,
            self.step_version() if version is None else version,
        )

    def step_version(self) -> tuple:
        """The database's version and whether the lexical judge is loaded (a step read before
        shows no stale mark, and is read again once it is): one look for every step key of a
        read-ahead pass."""
        return (views.data_version(self.app.ctx.db), views.judge_warm())

    def _view(self, key: tuple) -> views.StepView:
        """The step view for ``key`` (see ``step_key``), read once while the database is unchanged
        (or taken from the reader thread when it is reading it: the loop waits for the rest)."""
        kept = self.views_kept.get(key) or FIRST_STEPS.pop(key, None)
        reading = self.reading.pop(key, None)
        if kept is None and reading is not None:
            kept = reading.result()  # the thread holds no lock the loop needs
        if kept is None:  # the key is not kept waiting for the judge's analyser (tui/app.py)
            kept = read_step(self.app.ctx.db, self.app.ctx, key)
        self._keep(key, kept)
        return kept

    def _keep(self, key: tuple, step: views.StepView) -> None:
        self.views_kept[key] = step
        self.views_kept.move_to_end(key)
        while len(self.views_kept) > self.VIEWS_KEPT:
            self.views_kept.popitem(last=False)

    def read_ahead(self) -> bool:
        """While the user reads a step: the next step, then the one before, then the documents the
        selected claim's k and e go to, then the last and the first (End, Home), read and their
        document and log wrapped at the panes' widths, so those keys only show them; one step per
        call (the app calls again while no key arrives). True when it read one or is reading."""
        if not self.is_current or self.step is None:
            return False
        path = self.claim[0].path if self.claim else None  # then where k and e would go
        targets = (path.fact[0] if path and path.fact else -1, path.document if path else -1)
        here, last = self.step.position, self.step.last_position
        version = self.step_version()
        return any(
            self.read_step_ahead(self.step_key(position, version=version))
            for position in (here + 1, here - 1, *targets, last, 0)
            if position is not None and 0 <= position <= last
        )

    def read_step_ahead(self, key: tuple) -> bool:
        """Read the step of ``key`` (see ``step_key``) and wrap its document and log at the panes'
        widths, unless kept already; True when it read it, or is reading it (or another step) in
        the reader thread. The runs view asks for the first step of the row its cursor rests on,
        ahead of Enter.

        The step is read in a thread of its own (``StepperPanes.reader``, on its own read-only
        connection), so the event loop takes keys meanwhile (issue 36: a step of the 100x corpus
        held the loop 10-80 ms when read on it); the loop only keeps and wraps the result, on a
        later call. Without a database file (tests' in-memory databases) it is read here."""
        if key in self.views_kept or not self.is_mounted:
            return False
        ctx = self.app.ctx
        future = self.reading.get(key)
        if future is None and ctx.db_path is None:
            step = self._view(key)
        elif future is None:
            if any(not f.done() for f in self.reading.values()):
                return True  # one step at a time: the thread is on another
            if self.reader is None:
                self.reader = ThreadPoolExecutor(1, thread_name_prefix="step reader")
            if len(self.reading) > 4:  # steps read for keys no longer asked for (another step)
                self.reading = {k: f for k, f in self.reading.items() if not f.done()}
            self.reading[key] = self.reader.submit(self._read_in_thread, ctx, key)
            return True
        elif not future.done():
            return True
        else:
            step = self.reading.pop(key).result()
            self._keep(key, step)
        for pane in (self.query_one(DocumentPane), self.query_one(OperationLog)):
            pane.wrapped(pane.text_for(step))
        return True

    def _read_in_thread(self, ctx: AppContext, key: tuple) -> views.StepView:
        """In the reader thread: the step view of ``key``, as ``_view`` reads it (without its
        stale marks while the judge's analyser is loading)."""
        if self.reader_db is None:
            self.reader_db = ctx.worker_db()
        return read_step(self.reader_db, ctx, key)

    def on_unmount(self) -> None:
        if self.reader is not None:
            self.reader.shutdown(wait=False, cancel_futures=True)

    def _title(self) -> Text:
        """Two lines, each cut at the edge: where we are, then what this document did."""
        s = self.shown_step
        text = Text()
        text.append(f"doc {s.position + 1}/{s.last_position + 1}", "bold")
        if s.late is not None or s.entry.late:
            text.append(" · ↶ late document", "bold yellow")
        text.append(" · ")
        text.append_text(literal(s.trajectory_id, "bold"))
        text.append(" · run ", "dim")
        text.append_text(literal(s.run_id, "bold"))
        text.append(" · ")
        text.append_text(literal(s.title))
        text.append(f" · {s.category} {s.difficulty} {s.trajectory_type}", "dim")
        text.append("\n")
        text.append_text(self._summary_line())
        return text

    def _summary_line(self) -> Text:
        summary = self.summary
        text = Text("this document: ", "dim")
        if summary is None or not self.shown_step.written:
            text.append("not written yet in this run", "dim italic")
            return text
        for n, (part, kind) in enumerate(summary.parts()):
            if n:
                text.append(" · ", "dim")
            text.append(part, SUMMARY_STYLE.get(kind, ""))
        if summary.targets:
            text.append("  (x: select)", "dim")
        return text

    def _store_title(self) -> Text:
        table = self.query_one(StoreTable)
        text = Text("Store", "bold")
        text.append(" (s) · ", "dim")
        label = views.FILTER_LABELS[table.filter]
        text.append(label, "bold reverse" if table.filter != "all" else "bold")
        text.append(f" {len(table.facts)}/{len(self.shown_step.store)}", "")
        text.append(" (v)", "dim")
        if not self.shown_step.stale_checked:
            text.append(" · stale facts: the judge is loading", "dim italic")
        if table.start:
            text.append(" · every fact starts ", "dim")
            text.append_text(literal(f"“{table.start.strip()}” (…)", "dim"))
        return text

    def _detail(self, which: str | None = None) -> None:
        """Show the focused fact (or claim) whole in the detail pane."""
        if self.step is None:
            return
        pane = self.query_one(DetailPane)
        claims = self.query_one(ClaimsTable)
        if which == "claims" or (which is None and claims.has_focus):
            claim = claims.focused_claim()
            pane.show_claim(claim, self.step)
            if claim is not None:
                self.claim = (claim, self.step.state_index)
        else:
            pane.show_fact(self.query_one(StoreTable).focused_fact(), self.step)

    @on(DataTable.RowHighlighted, "#store")
    @while_running
    def _store_focus(self, event: DataTable.RowHighlighted) -> None:
        self._detail()

    @on(DataTable.RowHighlighted, "#claims")
    @while_running
    def _claims_focus(self, event: DataTable.RowHighlighted) -> None:
        self._detail()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if self.step is not None and event.widget.id in ("store", "claims"):
            self._detail(event.widget.id)
        self._mark_focus()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._mark_focus()

    def _mark_focus(self) -> None:
        """The focused pane's title line (store, claims) is highlighted; the other panes show
        their focus by their own tint and border (tui/seorap.tcss)."""
        focused = self.focused.id if self.focused is not None else None
        for pane, title in PANE_TITLES.items():
            self.query_one(f"#{title}").set_class(focused == pane, "-focused")

    def _claims_title(self) -> Text:
        s = self.shown_step
        mode = "full" if s.judge_mode == "full" else f"filter@{self.app.ctx.filter_threshold:g}"
        text = Text(f"Expected claims of state {s.state_index + 1}", "bold")
        text.append(" (c) · judge ", "dim")
        text.append(mode, "bold reverse")
        text.append(" (j)", "dim")
        if not s.scored:
            text.append(f"  {views.NOT_SCORED} (matched = lexical ≥0.8)", "dim")
        return text
