"""View 2: the trajectory stepper — one document at a time, what the write path did, the store.

Layout and keys, designed once for stores of hundreds of facts: the title's first line says where
we are, its second what this document did (engine.views.step_summary; `x` walks it). Panes, one
key each: timeline t, document d, store s (the view's subject: the larger share under 120 columns;
`v` filters it), claims c, detail i, log l. The selected claim's journey is a line of stage marks
in the detail pane (engine.views.ClaimPath, read with the step; p puts it in view from any pane),
its evidence one key away: e the
observation, k the fact version, r the ranking, u the answer; w contests the claim's gold (⚑ on
a contested claim's row; w there withdraws the contest). Room
kept for what other work adds: marks on facts (an ungrounded observation's ⚠) go in the store's
mark cell, beside NEW/UPD; the log already marks an ungrounded observation on its line. Keys left
free in this view: b h m y z."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events, on
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.widgets import DataTable, Static

from seorap.engine import views
from seorap.tui.closing import while_running
from seorap.tui.messages import OpenFact
from seorap.tui.overrides import ask_and_contest
from seorap.tui.screens.prompt import PromptModal
from seorap.tui.screens.stepper_panes import PANE_KEYS, StepperPanes, prepare_first_step
from seorap.tui.widgets.claims_table import ClaimsTable
from seorap.tui.widgets.detail import DetailPane
from seorap.tui.widgets.document import DocumentPane
from seorap.tui.widgets.operations import OperationLog
from seorap.tui.widgets.search_bar import SearchBar
from seorap.tui.widgets.store_table import StoreTable

if TYPE_CHECKING:
    from seorap.tui.app import SeorapApp

FIRST_STEP_S = 0.02
"""A stepper built ahead shows its first step this long after its mount, in a turn of the event
loop of its own (a key waiting meanwhile goes first)."""


class StepperScreen(StepperPanes):
    """Step through a trajectory's documents; the panes follow the current step."""

    HELP = """\
## Trajectory stepper
One document at a time (counted from 1, as in the title): what the system wrote, the store after it.
The title's second line is this document's summary, e.g. `+54 new · 2 updated · 1 superseded:
f0030→f0108 · 1 stale`: new facts, the facts it updated or reinforced, the supersedes it made
(old→new, →none = retracted) and the active facts still stating a stale claim.

### Keys
- **←/→** previous / next document, **Home/End** first / last, **g** go to a document (1-based)
- **:** go to a document number or a fact id (`f0030`)
- **x** (or a click on the summary line) selects the summary's facts in the store in turn,
  supersedes first
- **v** store filter: all facts / changed at this document / lineage only (facts in a supersede) /
  stale only
- **/** search this trajectory: a fact id (`/f0030`) selects that fact; other text selects the
  first fact, observation (marked ▶ in the log) or document line that contains it, from this
  document on; **n / N** the next / previous match
- **t d s c i l** focus a pane: timeline, document, store, claims, detail, log (the focused pane is
  highlighted; **Tab** moves on too)
- **Enter** on a fact (or **f**) opens its history; **o** on a claim overrides its verdict
- **p** the selected claim's journey, from any pane: the claim selected in the claims pane, its
  journey line at the top of the detail pane (the questions view's **p** opens the journey of the
  claim its question needs)
- The selected claim's journey (detail pane, under the verdict): `said ✓ → extracted ✓ →
  stored ✓ → kept ✗ → …`, its loss point and the evidence; **e** the observation that states it (▶ in the log at its
  document), **k** the fact version (selected in the store at its document; Enter: its history),
  **r** the ranking of the question that needs it (questions view, the fact's rank), **u** the
  answer (questions view); **w** contests the claim's gold (one line of reason, written to the
  ledger beside the database; the score cards then show each figure without it and the ceiling);
  a contested claim is marked ⚑ in the claims pane, and **w** on it withdraws the contest
- **j** toggle the judge view: `full` (the judge sees every active fact) vs `filter@θ` (only facts
  with cosine above θ; the `cosine` column shows each claim's best cosine and its fact)
- **a** the operation log shows every observation (the first 25 otherwise), again: back to 25
- **[ / ]** previous / next trajectory of the same run, **q** quits

### Panes
- Timeline: ↶ = dated before a document that arrived earlier (a late document); · = not written yet.
- Document: literal, the lines that state one of its claims highlighted.
- Store: marks NEW / UPDATED / REINFORCED / SUPERSEDED (under 120 columns NEW / UPD / REI / SUP) and
  STALE / STL, in red, for an active fact that still states a stale claim; lineage ←f0001 =
  replaces f0001, →f0003 = replaced by f0003, →none = retracted, →? = not recorded by this older
  database. This document's supersedes come first (the replaced fact, then what replaced it), then
  what else it changed, the stale facts, the new ones, the rest. Under 120 columns the confidence
  column goes (the detail shows it); under 90 the timeline goes.
- Claims: the expected claims of this state, the judge's verdicts, the facts they matched.
- Detail: the focused fact or claim in full (why it changed, its lineage; a claim's journey).
- Log: the corpus's own change for the state (its reason, the claims it adds and those no longer
  true), the expected operation against what the system applied and how operation accuracy counts
  the state (the strongest operation applied counts), a late document's date against the store's
  last change and what the temporal guard did; then per observation (changes first, numbered in the
  document's order) the top-3 similar facts (cosine), the operation, the guard's effect, the
  lineage, before → after with the changed words highlighted, and ⚠ when the observation is not
  grounded in its document.
"""

    AUTO_FOCUS = "#timeline, #store"
    """Not the (hidden) search bar, which would swallow the view's keys; the store when the
    timeline is hidden (under 90 columns)."""

    HORIZONTAL_BREAKPOINTS = [(0, "-tiny"), (90, "-narrow"), (120, "-wide")]
    """Below 120 columns the layout gives the store more room, below 90 the timeline goes
    (tui/seorap.tcss)."""

    BINDINGS = [
        Binding("left", "step(-1)", "prev", priority=True),
        Binding("right", "step(1)", "next", priority=True),
        Binding("home", "goto(0)", "first", show=False, priority=True),
        Binding("end", "goto(-1)", "last", show=False, priority=True),
        Binding("slash", "search", "search"),
        Binding("v", "store_filter", "filter"),
        Binding("x", "change", "next change"),
        Binding("g", "jump", "go to doc", show=False),
        Binding("colon", "goto_prompt", "go to", show=False),
        Binding("n", "search_next(1)", "next match", show=False),
        Binding("N", "search_next(-1)", "previous match", show=False),
        Binding("j", "judge", "judge mode"),
        Binding("f", "fact", "fact history"),
        Binding("p", "journey", "journey"),
        Binding("o", "override", "override verdict", show=False),
        Binding("e", "evidence('observation')", "observation", show=False),
        Binding("k", "evidence('fact')", "fact version", show=False),
        Binding("r", "evidence('ranking')", "ranking", show=False),
        Binding("u", "evidence('answer')", "answer", show=False),
        Binding("w", "contest", "contest gold", show=False),
        *[Binding(key, f"pane('{pane}')", pane, show=False) for key, pane in PANE_KEYS.items()],
        Binding("a", "all_operations", "all observations", show=False),
        Binding("left_square_bracket", "trajectory(-1)", "prev traj", show=False),
        Binding("right_square_bracket", "trajectory(1)", "next traj", show=False),
    ]

    @staticmethod
    def prepare(app: SeorapApp) -> None:
        """Run in a thread by the app before it builds this screen ahead (its first step)."""
        prepare_first_step(app.ctx)

    def on_mount(self) -> None:
        self.app.stepper = self  # the app fills it before switching to it (tui/app.py)
        if not self.is_current:  # built ahead: its first step in a turn of its own (issue 36:
            self.set_timer(FIRST_STEP_S, self._show_built)  # with its mount, one 27 ms hold)
            return
        self._show_built()

    def _show_built(self) -> None:
        try:
            self.show()
        except NoMatches:  # built ahead while the app closes: its panes are being removed
            if self.app.is_running and self.is_attached:
                raise

    # -- actions --------------------------------------------------------------------------
    def action_step(self, delta: int) -> None:
        self.action_goto(self.app.ctx.selection.position + delta)

    def action_goto(self, position: int) -> None:
        if self.step is None:
            return
        last = self.step.last_position
        self.app.ctx.selection.position = last if position < 0 else max(0, min(position, last))
        self.show()

    def action_jump(self) -> None:
        def done(value: str | None) -> None:
            if value and value.strip().isdigit():
                self._jump_state(int(value))

        last = self.step.last_position + 1 if self.step else 1
        self.app.push_screen(PromptModal(f"Go to document (1-{last})"), done)

    def _jump_state(self, doc: int) -> None:
        """Go to document ``doc``, counted from 1 like the title's 'doc 3/4'."""
        if self.step and 1 <= doc <= self.step.last_position + 1:
            self.action_goto(doc - 1)
            return
        self.notify(
            f"no document {doc}: this trajectory has {self.step.last_position + 1 if self.step else 0}",
            severity="warning",
        )

    def action_search(self) -> None:
        self.query_one(SearchBar).open()

    @on(SearchBar.QueryChanged)
    @while_running
    def _search(self, event: SearchBar.QueryChanged) -> None:
        self.search_text = event.query
        self._find()
        self._goto_match(quiet=True)  # jumps while typing, reports once on Enter/Esc

    @on(SearchBar.Closed)
    @while_running
    def _search_done(self, event: SearchBar.Closed) -> None:
        if self.search_text != event.query or not self.found:
            self.search_text = event.query
            self._find()
        self._goto_match()

    def action_search_next(self, delta: int = 1) -> None:
        if not self.found:
            self._find()
            self._goto_match()
            return
        self.match_index = (self.match_index + delta) % len(self.found)
        self._show_match()

    def matches(self, query: str) -> list[views.Match]:
        """Every hit of ``query`` in this trajectory (engine.views.search_matches); a fact id also
        matches the current document when the fact is in its store."""
        if not (query.strip() and self.step):
            return []
        t = self.app.ctx.corpus.get(self.step.trajectory_id)
        found = views.search_matches(self.app.ctx.db, t, self.step.run_id, query)
        fid = views.fact_id_query(query)
        here = next((f.id for f in self.step.store if fid and views.short_id(f.id) == fid), None)
        if here is not None and views.Match(self.step.position, "fact", here) not in found:
            found = sorted(
                [*found, views.Match(self.step.position, "fact", here)],
                key=lambda m: (m.position, views.steps.KIND_ORDER[m.kind], m.key),
            )
        return found

    def _find(self) -> None:
        self.found = self.matches(self.search_text)
        self.match_index = views.next_match(self.found, self.app.ctx.selection.position)

    def _goto_match(self, quiet: bool = False) -> None:
        if not self.search_text.strip() or self.step is None:
            return
        if not self.found:
            if not quiet:
                self.notify(
                    f"no fact, observation or document mentions {self.search_text!r}",
                    severity="warning",
                    markup=False,
                )
            return
        self._show_match(quiet)

    def _show_match(self, quiet: bool = False) -> None:
        """Go to the current hit's document and select it: the fact in the store (every fact
        shown when the filter hides it), the observation in the log, the line in the document."""
        m = self.found[self.match_index]
        if m.position != self.app.ctx.selection.position:
            self.action_goto(m.position)
        what = f"doc {m.position + 1}"
        if m.kind == "fact":
            self.select_fact(m.key)
            what += f", fact {views.short_id(m.key)}"
            pane = "store"
        elif m.kind == "observation":
            self.query_one(OperationLog).select(m.key)
            what += ", an observation (▶ in the log)"
            pane = "operations"
        else:
            self.query_one(DocumentPane).scroll_to_text(self.search_text)
            what += ", its text"
            pane = "document"
        if not quiet:
            self.query_one(f"#{pane}").focus()  # the hit's pane: its cursor shows, keys act on it
            self.notify(
                f"{self.search_text!r}: match {self.match_index + 1}/{len(self.found)} ({what});"
                " n / N = next / previous",
                markup=False,
                timeout=3,
            )

    def select_fact(self, fact_id: str) -> bool:
        """Select a fact of the current store (showing every fact if the filter hides it)."""
        table = self.query_one(StoreTable)
        if self.step is None or not any(f.id == fact_id for f in self.step.store):
            return False
        if not table.select(fact_id):
            table.filter = "all"
            table.step = self.step
            self.query_one("#store-title", Static).update(self._store_title())
            table.select(fact_id)
        self._detail("store")
        return True

    def action_goto_prompt(self) -> None:
        def done(value: str | None) -> None:
            value = (value or "").strip()
            if value.isdigit():
                self._jump_state(int(value))
            elif value:
                self.goto_fact(value)

        last = self.step.last_position + 1 if self.step else 1
        self.app.push_screen(PromptModal(f"Go to a document (1-{last}) or a fact id (f0030)"), done)

    def goto_fact(self, query: str) -> None:
        """Select a fact by id: in this document's store when it is there, else at the document
        that first wrote it."""
        fid = views.fact_id_query(query)
        found = [m for m in self.matches(query) if m.kind == "fact"] if fid else []
        if not found:
            self.notify(f"no fact {query!r} in this trajectory", severity="warning", markup=False)
            return
        here = [m for m in found if m.position == self.shown_step.position]
        self.found, self.search_text = found, query
        self.match_index = found.index(here[0] if here else found[0])
        self._show_match(quiet=True)

    def action_store_filter(self) -> None:
        if self.step is None:
            return
        table = self.query_one(StoreTable)
        table.filter = views.FILTERS[(views.FILTERS.index(table.filter) + 1) % len(views.FILTERS)]
        table.step = self.step
        self.query_one("#store-title", Static).update(self._store_title())
        self._detail()

    @on(events.Click, "#step-title")
    def _title_click(self, event: events.Click) -> None:
        if event.y >= 1:  # the summary line
            self.action_change()

    def action_change(self) -> None:
        """Select the next fact the summary line points at (supersedes first)."""
        targets = self.summary.targets if self.summary and self.step else ()
        if not targets:
            self.notify("this document changed no existing fact", timeout=3)
            return
        self.change_index = (self.change_index + 1) % len(targets)
        self.select_fact(targets[self.change_index])
        self.query_one(StoreTable).focus()

    def action_pane(self, pane: str) -> None:
        widget = self.query_one(f"#{pane}")
        if not widget.display:
            self.notify(f"the {pane} is hidden under 90 columns", timeout=3)
            return
        widget.focus()

    def action_judge(self) -> None:
        sel = self.app.ctx.selection
        modes = views.JUDGE_MODES
        sel.judge_mode = modes[(modes.index(sel.judge_mode) + 1) % len(modes)]
        self.show()

    def action_trajectory(self, delta: int) -> None:
        ids = [t.id for t in self.app.ctx.corpus.trajectories]
        if self.app.ctx.selection.step_trajectory(ids, delta):
            self.show()

    @on(DataTable.RowSelected, "#timeline")
    @while_running
    def _timeline_pick(self, event: DataTable.RowSelected) -> None:
        self.action_goto(int(str(event.row_key.value)))

    @on(DataTable.RowSelected, "#store")
    @while_running
    def _fact_pick(self, event: DataTable.RowSelected) -> None:
        self.post_message(OpenFact(self.shown_step.run_id, str(event.row_key.value)))

    def action_fact(self) -> None:
        table = self.query_one(StoreTable)
        if self.step and table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            self.post_message(OpenFact(self.step.run_id, str(key)))

    def action_all_operations(self) -> None:
        """Render every observation of the step's log (the first 25 by default), or back."""
        log = self.query_one(OperationLog)
        log.show_all = not log.show_all
        log.step = self.step

    def action_override(self) -> None:
        table = self.query_one(ClaimsTable)
        if not (self.step and table.row_count):
            return
        claim = self.step.claims[table.cursor_row]
        self.app.override_verdict(claim.verdict_id, claim.claim)

    # -- the claim's journey: its evidence one key away ------------------------------------------
    def _claim(self) -> tuple[views.ClaimRow, int] | None:
        """The claim the journey keys act on: the focused claim, else the one shown last."""
        claims = self.query_one(ClaimsTable)
        focused = claims.focused_claim()
        if claims.has_focus and focused is not None and self.step is not None:
            self.claim = (focused, self.step.state_index)
        if self.claim is None and self.step is not None and self.step.claims:
            self.claim = (focused or self.step.claims[0], self.step.state_index)
        return self.claim

    def action_evidence(self, kind: str) -> None:
        """Go to one piece of the selected claim's journey evidence (see HELP)."""
        got = self._claim() if self.step is not None else None
        path = got[0].path if got else None
        if path is None:
            self.notify(f"no claim journey here: {views.NOT_SCORED}", severity="warning")
            return
        if kind == "observation" and path.document is not None:
            log = self.query_one(OperationLog)
            self.set_focus(log)  # now, not after the step: the detail is drawn once, for the log
            self.action_goto(path.document)
            self.claim = got  # the keys follow this claim, not the claims pane's row there
            # found: ▶ marks it in the log, no toast (a toast costs the key another layout)
            if not (path.observation and log.select(path.observation)):
                done = dict(path.marks)["extracted"]
                why = "reports no observations" if done == "n/a" else "stated it in no observation"
                self.notify(f"doc {path.document + 1}: the system {why}", timeout=4)
        elif kind == "fact" and path.fact is not None:
            position, fact_id = path.fact
            self.set_focus(self.query_one(StoreTable))  # before the step (see above)
            self.action_goto(position)
            self.claim = got
            if not self.select_fact(fact_id):  # the detail shows it (Enter: its history)
                self.notify(f"{views.short_id(fact_id)} is not in doc {position + 1}'s store")
        elif kind in ("ranking", "answer") and (
            path.question if kind == "ranking" else path.answer
        ):
            item = path.question if kind == "ranking" else path.answer
            self.app.ctx.selection.question = item
            if kind == "ranking":
                rank = f"rank {path.rank}" if path.rank else "not in the ranking's top 10"
                fact = f" ({views.short_id(path.ranked_fact)})" if path.ranked_fact else ""
                self.notify(
                    f"{views.item_label(item or '')}: the claim's best fact{fact} at {rank}",
                    timeout=5,
                )
            self.app.action_view("questions")
        else:
            what = {"observation": "document", "fact": "fact", "ranking": "question"}
            self.notify(
                f"this claim's journey names no {what.get(kind, 'answer')} "
                f"({path.conclusion(evidence=False)}; no question needs it when they are n/a)",
                timeout=4,
            )

    def action_contest(self) -> None:
        """Contest the selected claim's gold: one line of reason, to the ledger."""
        got = self._claim() if self.step is not None else None
        if got is None:
            self.notify("no expected claim at this document", severity="warning")
            return
        claim, state = got
        trajectory = self.app.ctx.corpus.get(self.shown_step.trajectory_id)
        item = (
            claim.path.item
            if claim.path
            else f"s{state}/c{trajectory.states[state].claims.index(claim.claim)}"
        )
        ask_and_contest(self.app, self.shown_step.trajectory_id, item, claim.claim, claim.contested)

    def action_journey(self) -> None:
        """p: the selected claim's journey in view (see HELP)."""
        self.show_journey()

    def show_journey(self, claim: str | None = None) -> None:
        """Select the claim (``claim``, else the one the journey keys follow) in the claims pane
        and put its journey line at the top of the detail pane."""
        step = self.step
        if step is None or not step.claims:
            self.notify("no expected claim at this document", severity="warning")
            return
        if claim is None:
            got = self._claim()
            claim = got[0].claim if got else None
        table = self.query_one(ClaimsTable)
        row = next((n for n, c in enumerate(step.claims) if c.claim == claim), None)
        row = min(table.cursor_row, len(step.claims) - 1) if row is None else row
        table.move_cursor(row=row, animate=False, scroll=True)
        self.set_focus(table)
        self._detail("claims")
        if step.claims[row].path is None:
            self.notify(f"no claim journey here: {views.NOT_SCORED}", severity="warning")
            return
        self.call_after_refresh(self.query_one(DetailPane).scroll_to_journey)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Shown by the questions view's p: the claim it names, its journey in view."""
        claim, self.app.ctx.selection.claim = self.app.ctx.selection.claim, None
        if claim is not None:
            self.show()
            self.show_journey(claim)
