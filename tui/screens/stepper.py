"""View 2: the trajectory stepper — one document at a time, what the write path did, the store."""

from __future__ import annotations

import time
from collections import OrderedDict

from rich.text import Text
from seorap.engine import views
from seorap.tui.instant_modes import QuietResume
from seorap.tui.messages import OpenFact
from seorap.tui.screens.prompt import PromptModal
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
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static


class StepperScreen(QuietResume, Screen):
    """Step through a trajectory's documents; the panes follow the current step."""

    HELP = """\
## Trajectory stepper
Documents and states are counted from 1, as in the title.

Left: the document timeline (↶ = dated before a document that arrived earlier: a late document;
· = not written yet). Middle: the document, literal, with the lines that state one of its claims
highlighted. Right: the store after this document (NEW / UPDATED / REINFORCED / SUPERSEDED marks,
confidence; lineage: ←f0001 = replaces f0001, →f0003 = replaced by f0003, →none = retracted,
→? = not recorded by this older database; red = an active fact that still states a stale claim;
the facts this document changed come first), the expected claims of this state with the judge's
verdicts and the facts they matched, and the focused fact or claim in full (with why it changed).

Bottom, the story of this step: the corpus's own change for the state (its reason, the claims it
adds and the claims that are no longer true), the expected operation against what the system
applied and how operation accuracy counts the state (the strongest operation applied counts), a
late document's date against the store's last change and what the temporal guard did; then per
observation the top-3 similar facts (cosine), the operation, the guard's effect, the lineage, and
before → after with the changed words highlighted.

- **←/→** previous / next document, **Home/End** first / last, **g** jump to a document (1-based)
- **j** toggle the judge view: `full` (the judge sees every active fact) vs `filter@θ` (only facts
  with cosine above θ; the `cosine` column shows each claim's best cosine and its fact)
- **Enter** on a fact (or **f**) opens its history; **o** on a claim overrides its verdict
- **a** the operation log shows every observation (the first 25 otherwise), again: back to 25
- **/** search this trajectory: jumps to the first document (from the current one) whose text,
  or a fact written there, contains the words; **n** the next match
- **[ / ]** previous / next trajectory of the same run, **Tab** moves between panes, **q** quits
"""

    AUTO_FOCUS = "#timeline"
    """Not the (hidden) search bar, which would swallow the view's keys."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    """Below 120 columns the layout gives the store more room (tui/seorap.tcss)."""

    BINDINGS = [
        Binding("left", "step(-1)", "prev", priority=True),
        Binding("right", "step(1)", "next", priority=True),
        Binding("home", "goto(0)", "first", show=False, priority=True),
        Binding("end", "goto(-1)", "last", show=False, priority=True),
        Binding("g", "jump", "go to doc"),
        Binding("slash", "search", "search"),
        Binding("n", "search_next", "next match", show=False),
        Binding("j", "judge", "judge mode"),
        Binding("f", "fact", "fact history"),
        Binding("o", "override", "override verdict"),
        Binding("a", "all_operations", "all observations", show=False),
        Binding("left_square_bracket", "trajectory(-1)", "prev traj", show=False),
        Binding("right_square_bracket", "trajectory(1)", "next traj", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.step: views.StepView | None = None
        self.shown_for: tuple | None = None
        self.last_step_ms = 0.0
        self.search_text = ""
        self.views_kept: OrderedDict[tuple, views.StepView] = OrderedDict()

    def compose(self) -> ComposeResult:
        yield Header()
        yield SearchBar(
            placeholder="search documents and facts of this trajectory (Enter/Esc to close)",
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

    def on_mount(self) -> None:
        self.app.stepper = self  # the app fills it before switching to it (tui/app.py)
        self.show()

    def on_screen_resume(self) -> None:
        self.show()

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
        self.step = self._view(key)
        sel.position = self.step.position
        self.shown_for = (sel.run_id, sel.trajectory_id, sel.position, *key[3:])
        for widget in (Timeline, DocumentPane, StoreTable, ClaimsTable, OperationLog):
            self.query_one(widget).step = self.step
        self.query_one("#step-title", Static).update(self._title())
        self.query_one("#claims-title", Static).update(self._claims_title())
        self.query_one("#store-title", Static).update(self._store_title())
        self._detail()
        self.last_step_ms = (time.perf_counter() - started) * 1000

    VIEWS_KEPT = 16
    """Step views kept: stepping back, or onto a step read ahead, does not read it again."""

    def step_key(
        self, position: int, run_id: str | None = None, trajectory_id: str | None = None
    ) -> tuple:
        """What a step view depends on: the selected run and trajectory (or those given), the
        position, the judge mode, θ and the database's version."""
        ctx, sel = self.app.ctx, self.app.ctx.selection
        return (
            run_id or sel.run_id,
            trajectory_id or sel.trajectory_id,
            position,
            sel.judge_mode,
            ctx.filter_threshold,
            views.data_version(ctx.db),
        )

    def _view(self, key: tuple) -> views.StepView:
        """The step view for ``key`` (see ``step_key``), read once while the database is unchanged."""
        kept = self.views_kept.get(key)
        if kept is None:
            run_id, trajectory_id, position, judge_mode = key[:4]
            ctx = self.app.ctx
            kept = views.step_view(ctx.db, ctx.corpus, run_id, trajectory_id, position, judge_mode)
            self.views_kept[key] = kept
            while len(self.views_kept) > self.VIEWS_KEPT:
                self.views_kept.popitem(last=False)
        else:
            self.views_kept.move_to_end(key)
        return kept

    def read_ahead(self) -> bool:
        """While the user reads a step: the next step, then the one before, read and their
        document and log wrapped at the panes' widths, so → and ← only show them; one step per
        call (the app calls again while no key arrives). True when it read one."""
        if not self.is_current or self.step is None:
            return False
        return any(
            self.read_step_ahead(self.step_key(position))
            for position in (self.step.position + 1, self.step.position - 1)
            if 0 <= position <= self.step.last_position
        )

    def read_step_ahead(self, key: tuple) -> bool:
        """Read the step of ``key`` (see ``step_key``) and wrap its document and log at the panes'
        widths, unless kept already; True when it read it. The runs view asks for the first step
        of the row its cursor rests on, ahead of Enter."""
        if key in self.views_kept or not self.is_mounted:
            return False
        step = self._view(key)
        for pane in (self.query_one(DocumentPane), self.query_one(OperationLog)):
            pane.wrapped(pane.text_for(step))
        return True

    def _title(self) -> Text:
        s = self.step
        text = Text()
        text.append_text(literal(s.trajectory_id, "bold"))
        text.append(" · ")
        text.append_text(literal(s.title))
        text.append(f" · {s.category} {s.difficulty} {s.trajectory_type} · run ", "dim")
        text.append_text(literal(s.run_id, "bold"))
        text.append(f" · doc {s.position + 1}/{s.last_position + 1}", "bold")
        if s.late is not None or s.entry.late:
            text.append(" · ↶ late document", "bold yellow")
        stale = len(s.stale_facts)
        if stale:
            text.append(f" · {stale} stale fact{'s' if stale > 1 else ''}", "bold red")
        return text

    def _store_title(self) -> Text:
        text = Text("Store at this step", "bold")
        start = self.query_one(StoreTable).start
        if start:
            text.append(" · every fact starts ", "dim")
            text.append_text(literal(f"“{start.strip()}” (…)", "dim"))
        return text

    def _detail(self, which: str | None = None) -> None:
        """Show the focused fact (or claim) whole in the detail pane."""
        if self.step is None:
            return
        pane = self.query_one(DetailPane)
        claims = self.query_one(ClaimsTable)
        if which == "claims" or (which is None and claims.has_focus):
            pane.show_claim(claims.focused_claim(), self.step)
        else:
            pane.show_fact(self.query_one(StoreTable).focused_fact(), self.step)

    @on(DataTable.RowHighlighted, "#store")
    def _store_focus(self, event: DataTable.RowHighlighted) -> None:
        self._detail()

    @on(DataTable.RowHighlighted, "#claims")
    def _claims_focus(self, event: DataTable.RowHighlighted) -> None:
        self._detail()

    def on_descendant_focus(self, event) -> None:
        if self.step is not None and event.widget.id in ("store", "claims"):
            self._detail(event.widget.id)

    def _claims_title(self) -> Text:
        s = self.step
        mode = "full" if s.judge_mode == "full" else f"filter@{self.app.ctx.filter_threshold:g}"
        text = Text(f"Expected claims of state {s.state_index + 1} · judge ", "bold")
        text.append(mode, "bold reverse")
        text.append(" (j)", "dim")
        if not s.scored:
            text.append(f"  {views.NOT_SCORED} (matched = lexical ≥0.8)", "dim")
        return text

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
    def _search(self, event: SearchBar.QueryChanged) -> None:
        self.search_text = event.query
        self._goto_match(0, quiet=True)  # jumps while typing, reports once on Enter/Esc

    @on(SearchBar.Closed)
    def _search_done(self, event: SearchBar.Closed) -> None:
        self._goto_match(0)

    def action_search_next(self) -> None:
        self._goto_match(1)

    def matches(self, query: str) -> list[int]:
        """Arrival positions whose document (title, text) or a fact version written there contains
        ``query`` (case-insensitive), in arrival order."""
        query = query.strip().casefold()
        if not (query and self.step):
            return []
        t = self.app.ctx.corpus.get(self.step.trajectory_id)
        hits = {
            a.position
            for a in t.arrivals()
            if query in f"{a.document.title}\n{a.document.text}".casefold()
        }
        hits |= views.fact_positions_matching(self.app.ctx.db, self.step.run_id, t.id, query)
        return sorted(hits)

    def _goto_match(self, offset: int, quiet: bool = False) -> None:
        if not self.search_text.strip() or self.step is None:
            return
        found = self.matches(self.search_text)
        if not found and quiet:
            return
        if not found:
            self.notify(
                f"no document or fact mentions {self.search_text!r}",
                severity="warning",
                markup=False,
            )
            return
        here = self.app.ctx.selection.position + offset
        target = next((p for p in found if p >= here), found[0])
        n = found.index(target) + 1
        self.action_goto(target)
        if not quiet:
            self.notify(
                f"{self.search_text!r}: match {n}/{len(found)} (doc {target + 1}); n = next",
                markup=False,
                timeout=3,
            )

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
    def _timeline_pick(self, event: DataTable.RowSelected) -> None:
        self.action_goto(int(str(event.row_key.value)))

    @on(DataTable.RowSelected, "#store")
    def _fact_pick(self, event: DataTable.RowSelected) -> None:
        self.post_message(OpenFact(self.step.run_id, str(event.row_key.value)))

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
