"""View 4: questions and retrieval — ranking with BM25/dense/hybrid, the answer-holding facts'
rank, the answer and its verdict, the depth curve k = 1, 3, 5, 10 and the baselines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.worker import Worker, WorkerState

from seorap.engine import views
from seorap.tui.closing import AppHeader, while_running
from seorap.tui.fit import cut, fit_column, fit_widths, natural, refill_keeping_cursor, table_room
from seorap.tui.instant_modes import ViewScreen
from seorap.tui.overrides import ask_and_contest
from seorap.tui.text import literal, one_line
from seorap.tui.widgets.claims_table import VERDICT_STYLE
from seorap.tui.widgets.footer import KeysFooter
from seorap.tui.widgets.line_table import LineTable
from seorap.tui.widgets.search_bar import SearchBar
from seorap.tui.widgets.text_pane import TextPane
from seorap.tui.widgets.title import Title

if TYPE_CHECKING:
    from seorap.tui.app import SeorapApp


def _verdict(label: str | None) -> Text:
    return Text(label or "—", VERDICT_STYLE.get(label or "", "dim"))


RANK_PREFIX = 44
"""Cells a ranking line spends outside its fact text: the pane's padding and scrollbar (4), the
rank, three figures and the ★ and ✗ marks (40)."""


CONTESTED = "⚑"
"""The mark of a question whose gold the ledger contests (docs/metrics.md#gold-ledger)."""


def render_detail(
    q: views.QuestionRow,
    top_k: int = 5,
    width: int = 160,
    stale: frozenset[str] = frozenset(),
    contested: str | None = None,
) -> Text:
    """The question's answer, verdict, depth curve and ranking; fact texts fitted to ``width``
    (the pane's cells) so each stays on one line and keeps what tells it from the others; ★ on
    facts holding part of the answer, ✗ on the trajectory's ``stale`` facts; ``contested``: "who:
    reason" of the ledger's contest of its gold."""
    text = Text()
    text.append(f"{views.item_label(q.item)}", "bold")
    text.append(f" ({q.item})  ", "dim")  # the stored id, counted from 0 (JSON, the ledger)
    text.append_text(literal(q.question, "bold"))
    if contested is not None:
        text.append(f"\n{CONTESTED} gold contested ", "bold yellow")
        text.append_text(literal(f"({contested}): w withdraws the contest", "yellow"))
    text.append("\nexpected  ", "dim")
    text.append_text(literal(q.expected))
    text.append("\nanswer    ", "dim")
    text.append_text(literal(q.answer) if q.answer else Text(f"— {views.NOT_SCORED}", "dim"))
    text.append("\nverdict   ", "dim")
    text.append_text(_verdict(q.verdict))
    if q.overridden:
        text.append(" (human override)", "yellow")
    text.append("  ")
    text.append_text(one_line(q.rationale, 110, "dim italic"))
    ranks = ", ".join(map(str, q.answer_ranks)) or "no active fact holds the answer"
    text.append(f"\nanswer-holding facts at rank: {ranks}", "bold")
    if q.depth:
        text.append(
            "\ndepth curve  "
            + "  ".join(f"k={k}: {'—' if v is None else f'{v:.2f}'}" for k, v in q.depth.items()),
            "cyan",
        )
    if q.baselines:
        text.append(
            "\nbaselines    " + "  ".join(f"{s}: {l}" for s, l in q.baselines.items()), "dim"
        )
    text.append(f"\n\n {OWN_HEADER if q.own_search else HEADER}", "bold")
    text.append("  ★ holds part of the answer" + (" · ✗ stale" if stale else "") + "\n", "dim")
    shown = q.ranking[:12]
    start, facts = fit_column([h.text for h in shown], max(width - RANK_PREFIX, 12))
    if start:
        text.append(f"  (every fact starts “{start.strip()}”)\n", "dim")
    for h, fact in zip(shown, facts, strict=True):
        style = "bold green" if h.holds_answer else ("" if h.rank <= top_k else "dim")
        text.append(f" {h.rank:>4}  {_scores(h, q.own_search)}", style)
        text.append("★" if h.holds_answer else " ", "green")
        text.append("✗ " if h.fact_id in stale else "  ", "bold red")
        text.append(fact, "red" if h.fact_id in stale and not h.holds_answer else style)
        text.append("\n")
        if h.rank == top_k:
            text.append(f"  ── top-{top_k} cut ──\n", "dim")
    return text


HEADER = "rank  hybrid  bm25 (norm)    dense   fact"
OWN_HEADER = "rank  own search score   fact"
"""The ranking's header for a question ranked by the system's own search (its score only)."""


def _scores(h: views.RankedFact, own: bool) -> str:
    if own:
        return f"{h.own_score or 0.0:>16.3f}   "
    return f"{h.hybrid:6.3f}  {h.bm25:5.2f} ({h.bm25_norm:4.2f})  {h.dense:6.3f}  "


RANKS_WIDTH = 14
"""The answer ranks column's most cells ('3, 5, 6, 7, 8…'); the question gets the rest."""
QUESTION_FLOOR = 16


PREPARED: dict[tuple, views.QuestionsView] = {}
"""The selected trajectory's questions, read in a thread before the app builds this view ahead
(``prepare``), by (run, trajectory, database version): its first listing takes them from here."""

FIRST_SHOW_S = 0.02
"""Built ahead, the view lists its questions this long after its mount, in a turn of the event
loop of its own (a key waiting meanwhile goes first)."""


class QuestionsScreen(ViewScreen, Screen):
    HELP = """\
## Questions and retrieval
Top: every question of the trajectory (compound and single) with the memory answer's verdict at
top-5 and the ranks of the facts that hold the answer. Bottom: the selected question's full
ranking — hybrid = 0.3·BM25(normalised) + 0.7·cosine, or for a system with its own search that
search's ranking and score — with ★ on answer-holding facts, the answer, the judge's rationale,
the depth curve (k = 1, 3, 5, 10: a score that climbs with k is a retrieval bottleneck) and the
baselines (naive-rag, full-context, no-context).

- **↑/↓** pick a question, **o** override its verdict, **w** contest its gold (one line of
  reason, written to the ledger beside the database: the score cards then show each figure with
  and without it, and the ceiling), or withdraw the contest of a contested (⚑) one,
  **[ / ]** previous / next trajectory
- **p** the journey of the claim this question needs, in the stepper (at the document of the
  claim's state, the claim selected, its journey line in view: the claim lost at this question's
  ranking or answer first)
- The stepper's journey keys (ranking, answer) open this view on the question a claim's journey
  names
- **/** filter the questions by text (question, expected answer, answer, item, verdict); Enter/Esc
  closes the search bar and keeps the filter, an empty search shows every question
"""

    AUTO_FOCUS = "#questions-list"
    """Not the (hidden) search bar: keys go to the table until `/` opens the search."""

    BINDINGS = [
        Binding("slash", "search", "search"),
        Binding("o", "override", "override verdict"),
        Binding("p", "journey", "claim journey"),
        Binding("w", "contest", "contest gold", show=False),
        Binding("left_square_bracket", "trajectory(-1)", "prev traj"),
        Binding("right_square_bracket", "trajectory(1)", "next traj"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.view: views.QuestionsView | None = None
        self.title_text = Text()
        self.search_text = ""
        self.shown: list[views.QuestionRow] = []
        """The questions the table lists: the view's, filtered by ``search_text``."""
        self.contested: dict[str, str] = {}
        """Question item -> "who: reason" of the gold contests in force (read with the view)."""

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield SearchBar(placeholder="filter questions (Enter/Esc to close)", id="q-search")
        yield Title(id="q-title")
        yield LineTable(id="questions-list", cursor_type="row")
        yield TextPane(
            id="q-detail"
        )  # one scroll view: a Static in a VerticalScroll laid the view out 3 times
        yield KeysFooter()

    @staticmethod
    def prepare(app: SeorapApp) -> None:
        """Run in a thread by the app before it builds this screen ahead: read the selected
        trajectory's questions on a connection of its own, so its first listing holds the event
        loop only to list them (read there, they were part of a 17-23 ms hold)."""
        ctx, sel = app.ctx, app.ctx.selection
        if ctx.db_path is None or not (sel.run_id and sel.trajectory_id):
            return
        with ctx.own_connection() as db:
            key = (sel.run_id, sel.trajectory_id, views.data_version(db))
            view = views.questions_view(db, sel.run_id, sel.trajectory_id)
        PREPARED.clear()
        PREPARED[key] = view

    def on_mount(self) -> None:
        table = self.query_one(LineTable)
        for label in ("kind", "verdict", "answer ranks", "question"):
            table.add_column(label, key=label)
        if self.is_current:
            self.show()
        else:  # built ahead by the app: the questions are ready before `3`, listed in a turn of
            self.set_timer(FIRST_SHOW_S, self.show)  # their own (with the mount: 17-22 ms)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self.is_current:  # resumed hidden (built ahead): its mount set its first listing
            return
        self.show()
        self.on_resize()  # resized while hidden
        self.focus_item()

    def read_ahead(self) -> bool:
        """Hidden, the questions of the trajectory selected meanwhile are listed ahead of `3`;
        True when they were."""
        if self.is_current or not self.query(LineTable):
            return False  # shown, or not composed yet (a read-ahead racing the first mount)
        before = getattr(self, "shown_for", None)
        self.show()
        return self.shown_for != before

    def fill_before_switch(self) -> None:
        """Just before `3` shows the view: list the selected trajectory's questions now when they
        are stored, so the switch draws them in its own frames. A live ranking (an unscored run)
        starts when the view is shown instead: started here, its placeholder and its result each
        cost the switch another layout (5 frames, not 3)."""
        sel, ctx = self.app.ctx.selection, self.app.ctx
        if (
            sel.run_id
            and sel.trajectory_id
            and (sel.run_id, sel.trajectory_id, views.data_version(ctx.db))
            != getattr(self, "shown_for", None)
        ):
            view = views.questions_view(ctx.db, sel.run_id, sel.trajectory_id)
            if view.questions:
                self.show(view)

    def show(self, view: views.QuestionsView | None = None) -> None:
        """The selected trajectory's questions (``view``: already read for it); the same
        trajectory of an unchanged database is already on screen (with its cursor and search)."""
        sel = self.app.ctx.selection
        key = (sel.run_id, sel.trajectory_id, views.data_version(self.app.ctx.db))
        if key == getattr(self, "shown_for", None):
            return
        self.shown_for = key
        table = self.query_one(LineTable)
        table.clear()
        if not (sel.run_id and sel.trajectory_id):
            self.query_one("#q-title", Static).update(
                Text("pick a trajectory in the runs view (1)")
            )
            return
        ctx = self.app.ctx
        self.view = (
            view
            or PREPARED.pop(key, None)
            or views.questions_view(ctx.db, sel.run_id, sel.trajectory_id)
        )
        if not self.view.questions:  # not scored: ranked live, in a worker (the first ranking of a
            # process loads the Korean tokenizer: seconds)
            self.query_one("#q-title", Static).update(
                literal(
                    f"{sel.trajectory_id} · run {sel.run_id}  ranking the questions live…", "dim"
                )
            )
            self.query_one(TextPane).show_text(Text())
            self.rank_live(key)
            return
        self.present()

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="questions",
        description="live ranking",
    )
    def rank_live(self, key: tuple) -> tuple:
        ctx = self.app.ctx
        db = ctx.worker_db()
        return key, views.live_questions_view(db, ctx.corpus, key[0], key[1])

    @on(Worker.StateChanged)
    @while_running
    def _ranked(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "questions":
            return
        if event.state == WorkerState.SUCCESS:
            ranked = event.worker.result
            assert ranked is not None, "rank_live returns (key, view) when it succeeds"
            key, view = ranked
            if key == self.shown_for:  # a later selection owns the screen otherwise
                self.view = view
                self.present()
        elif event.state == WorkerState.ERROR:
            self.query_one("#q-title", Static).update(
                literal(f"live ranking failed: {event.worker.error}", "bold red")
            )

    @property
    def shown_view(self) -> views.QuestionsView:
        """The trajectory's questions on screen, for what runs only once show() or the live
        ranking put them there (the title, the list, a question's detail)."""
        if self.view is None:
            raise LookupError("the questions view shows no trajectory yet")
        return self.view

    def present(self) -> None:
        view = self.shown_view
        ctx = self.app.ctx
        self.contested = views.contested(ctx.db, ctx.corpus, view.trajectory_id)
        title = literal(f"{view.trajectory_id} · run {view.run_id}", "bold")
        if view.live:
            title.append_text(literal(f"  {view.live}", "yellow"))
        elif not view.scored:
            title.append(f"  {views.NOT_SCORED}", "dim")
        if n := sum(q.item in self.contested for q in view.questions):
            title.append(f"  · {CONTESTED} {n} contested", "yellow")
        self.title_text = title
        self.fill()

    def fill(self) -> None:
        """(Re)list the questions matching the search; the title says how many when filtered."""
        table = self.query_one(LineTable)
        self.shown = views.filter_questions(self.shown_view.questions, self.search_text)
        title = self.title_text.copy()
        if self.search_text:
            title.append_text(
                literal(
                    f"  · search {self.search_text!r}: {len(self.shown)} of "
                    f"{len(self.shown_view.questions)} questions",
                    "bold",
                )
            )
        questions, ranks, start = self._fitted()
        if start:
            title.append_text(literal(f"  · questions start “{start.strip()}” (…)", "dim"))
        self.query_one("#q-title", Static).update(title)
        table.clear().replace_rows(
            (str(n), (self._kind(q), _verdict(q.verdict), Text(ranks[n]), Text(questions[n])))
            for n, q in enumerate(self.shown)
        )
        self._detail(0)
        self.focus_item()

    def _kind(self, q: views.QuestionRow) -> Text:
        """The kind cell, numbered as everywhere on screen ('single 2': single question 2), marked
        ⚑ when the ledger contests the question's gold."""
        kind = views.item_label(q.item).replace(" question ", " ") if q.item else q.kind
        if q.item not in self.contested:
            return Text(kind)
        return Text.assemble(kind, (f" {CONTESTED}", "bold yellow"))

    def focus_item(self) -> None:
        """Select the question the stepper asked for (``selection.question``: its journey keys r
        and u), once; a search that hides it is cleared."""
        sel = self.app.ctx.selection
        if not sel.question or self.view is None or not self.view.questions:
            return
        row = next((n for n, q in enumerate(self.shown) if q.item == sel.question), None)
        if row is None and self.search_text:
            self.search_text = ""
            self.fill()
            return
        sel.question = None
        if row is not None:
            self.query_one(LineTable).move_cursor(row=row, animate=False, scroll=True)
            self._detail(row)

    def _fitted(self) -> tuple[list[str], list[str], str]:
        """The questions and their answer ranks cut to fit the screen's width (tui/fit.py): the
        ranks to at most RANKS_WIDTH cells, the questions to the rest, each keeping what tells it
        from the others, cuts marked '…'; and the start every question shares (elided)."""
        self._fitted_for = width = self.app.size.width
        ranks = [
            cut(", ".join(map(str, q.answer_ranks)) or "none", RANKS_WIDTH) for q in self.shown
        ]
        kinds = natural([self._kind(q).plain for q in self.shown], "kind")
        verdicts = natural([q.verdict or "—" for q in self.shown], "verdict")
        widths = fit_widths(
            [kinds, verdicts, natural(ranks, "answer ranks"), 10_000],
            table_room(width, 4),
            [None, None, None, QUESTION_FLOOR],
        )
        start, questions = fit_column([q.question for q in self.shown], widths[3])
        return questions, ranks, start

    def on_resize(self) -> None:
        if getattr(self, "_fitted_for", None) not in (None, self.app.size.width) and self.view:
            refill_keeping_cursor(self.query_one(LineTable), self.fill)

    def _detail(self, row: int) -> None:
        body = self.query_one(TextPane)
        if self.shown:
            body.show_text(
                render_detail(
                    self.shown[min(row, len(self.shown) - 1)],
                    width=self.app.size.width,
                    stale=self.shown_view.stale_ids,
                    contested=self.contested.get(self.shown[min(row, len(self.shown) - 1)].item),
                )
            )
        elif self.shown_view.questions:
            body.show_text(
                literal(f"no question matches {self.search_text!r} — / to change the search", "dim")
            )
        else:
            body.show_text(Text("no questions scored for this trajectory", "dim"))

    def action_search(self) -> None:
        self.query_one(SearchBar).open()

    @on(SearchBar.QueryChanged)
    @while_running
    def _search(self, event: SearchBar.QueryChanged) -> None:
        self.search_text = event.query
        if self.view is not None:
            self.fill()

    @on(DataTable.RowHighlighted)
    @while_running
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def action_trajectory(self, delta: int) -> None:
        ids = [t.id for t in self.app.ctx.corpus.trajectories]
        if self.app.ctx.selection.step_trajectory(ids, delta):
            self.show()

    def action_contest(self) -> None:
        table = self.query_one(LineTable)
        if self.shown and self.view is not None:
            q = self.shown[min(table.cursor_row, len(self.shown) - 1)]
            contested = self.contested.get(q.item)
            ask_and_contest(self.app, self.view.trajectory_id, q.item, q.question, contested)

    def action_override(self) -> None:
        table = self.query_one(LineTable)
        if self.shown:
            q = self.shown[min(table.cursor_row, len(self.shown) - 1)]
            self.app.override_verdict(q.verdict_id, q.question)

    def action_journey(self) -> None:
        """p: the stepper on the claim whose journey this question tells (see HELP)."""
        table = self.query_one(LineTable)
        if not (self.shown and self.view is not None):
            return
        q = self.shown[min(table.cursor_row, len(self.shown) - 1)]
        ctx = self.app.ctx
        trajectory = ctx.corpus.get(self.view.trajectory_id)
        found = views.question_journey(ctx.db, trajectory, self.view.run_id, q.item)
        if found is None:
            self.notify(
                f"no claim's journey names {views.item_label(q.item)} ({views.NOT_SCORED}, or "
                "scored before journeys were kept)",
                severity="warning",
            )
            return
        sel = ctx.selection
        sel.run_id, sel.trajectory_id = self.view.run_id, self.view.trajectory_id
        sel.position, sel.claim = found
        self.app.action_view("stepper")
