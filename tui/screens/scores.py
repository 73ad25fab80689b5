"""View 5: score cards — intrinsic vs extrinsic scatter split into quadrants, per-category and
per-difficulty bars, agreement figures with bootstrap CIs, and every run side by side.
Figures come from engine.scoring.report (computed in a worker: bootstrap takes a moment)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from sqlite_utils import Database
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.worker import Worker, WorkerState

from seorap.engine import views
from seorap.engine.fmt import figure
from seorap.tui.instant_modes import ViewScreen
from seorap.tui.screens import scores_fit, scores_list
from seorap.tui.text import ci, literal
from seorap.tui.widgets.chart_or_list import ChartOrList
from seorap.tui.widgets.footer import KeysFooter
from seorap.tui.widgets.funnel import Funnel
from seorap.tui.widgets.line_table import LineTable
from seorap.tui.widgets.title import Title

if TYPE_CHECKING:
    from textual.geometry import Size
    from textual_plotext.plot import Plot

    from seorap.engine.scoring.schema import RunReport
    from seorap.tui.app import SeorapApp

from seorap.tui.closing import AppHeader, while_running
from seorap.tui.screens.scores_text import (
    COLORS,
    agreement_text,
    overlap_counts,
    rulers_text,
)


@dataclass(frozen=True)
class Figures:
    """What the score cards show, read at one state of the database (``read_figures``)."""

    version: object
    labels: dict[str, str]
    short_labels: dict[str, str]
    reports: list
    diffs: dict
    missing: list[str]
    """Runs scored before their figures were stored: computed in a worker."""
    accounting: dict
    """run -> its judge's accounting (``views.accounting_view``), for the runs with figures."""


def read_figures(db: Database) -> Figures:
    """The figures stored at score time for every run, with the runs' labels."""
    version = views.data_version(db)
    reports, diffs, missing = [], {}, []
    for run in views.list_runs(db):
        report, diff = views.stored_figures(db, run.run_id)
        if report is not None:
            reports.append(report)
            diffs[run.run_id] = diff
        elif run.scored:
            missing.append(run.run_id)
    return Figures(
        version,
        views.run_labels(db),
        views.run_labels(db, short=True),
        reports,
        diffs,
        missing,
        {r.run_id: views.accounting_view(db, r.run_id) for r in reports},
    )


PREPARED: dict[object, Figures] = {}
"""The figures read in a thread before the app builds the score cards ahead (``prepare``), by the
database's version: their first load takes them from here."""

MARKERS = scores_list.MARKERS
BAR_WIDTH = 0.5
"""Share of each group's slot the pair of bars fills; the rest is the gap between groups."""


class ScoresScreen(ViewScreen, Screen):
    HELP = """\
## Score cards
Left: intrinsic (x) against extrinsic (y) per trajectory of the selected run, split at 0.5 into
four quadrants: healthy (both ≥ 0.5), LLM compensation (answers right, store wrong), retrieval
bottleneck (store right, answers wrong), both low. Right: per-category and per-difficulty means.
A chart the terminal is too small to draw legibly is listed instead: each group's n and means with
their interval, each trajectory's two scores (Tab to the list, then ↑/↓).
Bottom left: agreement figures with cluster-bootstrap 95% CIs, and the similarity line: with the
run's embedder, the median cosine of claims and the facts the judge credited, the 90th percentile
for the other facts, how many true matches the filter threshold drops, and the threshold that
separates the two (`seorap score --threshold auto` uses it), and the judge audit of the judge this
scoring used: its pass rate (YES) on each kind of planted wrong answer (should be ~0), PARTIAL where
one part is missing, its pass rate on right answers (should be ~100%), PARTIAL saturation and
separation. When the engine finds the judge unreliable (docs/metrics.md, judge audit) the cards say
"judge unreliable — see audit" with the reasons instead of quadrants, MAD and DivRate ("judge
unverified — not enough evidence" when too few answers were judged and no audit ran), the
scatter draws plain points, and every figure built on that judge's labels (intrinsic, extrinsic,
read time, similarity, the funnel, gold, seeds, the groups) carries "[unreliable ruler]".
Bottom right: the rulers
(intrinsic per judging setup stored for the run, and their spread), repeated seeds (mean ± sd when
n ≥ 2), intrinsic and extrinsic per category and difficulty with 95% CIs, and the verdicts that
moved between the `full` and `filter` judge views (newly credited / penalised, listed), and what
the run cost per role (calls made and served from the cache, tokens, p50/p95 latency, tokens/s,
retries, cut replies, loops, write failures; wall time per phase). Last: every run side by side.

- **v** next run, **Enter** on a run row selects it, **r** re-read the stored figures

The figures are computed when a run is scored and stored with it; a run scored before that (or
changed by an override) is computed in the background, with a placeholder meanwhile.

### Words
- *intrinsic*: how much of the expected store the memory holds (mean judged coverage of the
  expected claims over the states); *extrinsic*: the judged score of the answers given from it
- *Δ (int−ext)*: intrinsic − extrinsic, positive when the store looks better than the answers
- *MAD*: mean absolute difference |intrinsic − extrinsic| over trajectories
- *DivRate*: share of trajectories whose |difference| exceeds 0.15 (the two scores diverge)
- *κ* (Cohen's kappa): agreement of pass/fail at 0.5 between the two scores beyond chance
  (1 = always agree, 0 = no better than chance, below 0 = worse)
- *Pearson r*: linear correlation of the two scores over trajectories
- *UDR* (update detection rate): among states that should update or supersede, the share where
  the store changed
- *FUR* (false update rate): among states that only restate facts, the share where the store
  was rewritten anyway
- *filter@θ*: the judge sees only facts whose cosine with the claim exceeds θ
- *n*: trajectories in a group; 95% CIs come from resampling trajectories (cluster bootstrap)
"""

    BINDINGS = [Binding("v", "next_run", "next run"), Binding("r", "reload", "recompute")]
    shown_run: str | None = None
    """The run ``r`` keeps on show while it reloads (None: the app's selected run)."""

    def __init__(self) -> None:
        super().__init__()
        self.reports: list = []
        self.diffs: dict[str, views.RulerDiff | None] = {}
        self.current = 0
        self.version: object = None
        """The database's data version when the figures were read."""
        self.accounting: dict = {}
        """run -> its judge's accounting, read with the figures."""
        self.listed: list | None = None
        """The reports the variants table lists (``reports`` is a new list whenever they are read)."""

    def compose(self) -> ComposeResult:
        # the class the size asks for before the panes are mounted: set on mount, it styled every
        # pane again in the mount's turn (the longest hold of the loop at 100×30, 22-31 ms)
        self.set_class(self.app.size.height < scores_fit.SHORT, "-short")
        yield AppHeader()
        yield Title(id="scores-status")
        with Horizontal(id="scores-top"):  # each chart, or its list where it cannot be read
            yield ChartOrList("scatter", id="scatter-box")
            yield ChartOrList("bars", id="bars-box")
        with Horizontal(id="scores-bottom"):
            with VerticalScroll(id="agreement-box"):  # scrolls at 100×30 (Tab, then ↑/↓)
                yield Static(id="agreement")
                yield Funnel(id="funnel")  # the claim funnel and the contested gold
            with VerticalScroll(id="rulers-box"):
                yield Static(id="rulers")
        yield LineTable(id="variants", cursor_type="row")
        yield KeysFooter()

    @staticmethod
    def prepare(app: SeorapApp) -> None:
        """Run in a thread by the app before it builds this screen ahead: read the figures on a
        connection of its own, so its first load holds the event loop only to draw them."""
        if app.ctx.db_path is None:
            return
        with app.ctx.own_connection() as db:
            figures = read_figures(db)
        PREPARED.clear()
        PREPARED[figures.version] = figures

    def on_mount(self) -> None:
        self._fit_size()
        self.reload()

    def _fit_size(self) -> bool:
        """Lay the view out for the screen's size (tui/screens/scores_fit.py): under SHORT rows
        the lower panes give rows to the charts; the runs table's columns for the width. True when
        the table's columns changed."""
        width, height = self.app.size
        self.set_class(height < scores_fit.SHORT, "-short")
        columns = scores_fit.variant_columns(width)
        if columns == getattr(self, "_variant_columns", None):
            return False
        self._variant_columns = columns
        table = self.query_one("#variants", LineTable)
        table.clear(columns=True)
        for label in columns:
            table.add_column(label)
        return True

    def on_resize(self) -> None:
        if self._fit_size() and self.reports:
            self._variants()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Built ahead or shown before: read again only when the database changed meanwhile."""
        if views.data_version(self.app.ctx.db) != self.version:
            self.reload()

    def reload(self) -> None:
        """Read the figures stored at score time (instant); runs scored before they were stored
        (or after an override) are computed in a worker, with a placeholder meanwhile."""
        db = self.app.ctx.db
        figures = PREPARED.pop(views.data_version(db), None) or read_figures(db)
        self.version = figures.version
        self.reports, self.diffs, missing = (
            list(figures.reports),
            dict(figures.diffs),
            figures.missing,
        )
        self.labels = figures.labels
        self.accounting = figures.accounting
        self.short_labels = figures.short_labels  # the table's; full above it
        self._select()
        self.draw()
        if missing:
            self.query_one("#scores-status", Static).update(
                Text(
                    f"computing score cards for {len(missing)} run(s) scored before their figures were "
                    "stored (or changed by an override)…",
                    "dim",
                )
            )
            self.compute(missing)

    def _select(self) -> None:
        sel = self.shown_run or self.app.ctx.selection.run_id
        ids = [r.run_id for r in self.reports]
        self.current = ids.index(sel) if sel in ids else 0

    def action_reload(self) -> None:
        """``r``: read the figures anew, keeping the run on show (``v`` may have moved off the
        app's selection; a reload used to jump back to it)."""
        if self.reports:
            self.shown_run = self.reports[self.current].run_id
        try:
            self.reload()
        finally:
            self.shown_run = None

    @work(
        thread=True, exclusive=True, exit_on_error=False, group="scores", description="score cards"
    )
    def compute(self, run_ids: list[str]) -> tuple:
        ctx = self.app.ctx
        db = ctx.worker_db()
        reports = [r for r in (views.run_report(db, rid) for rid in run_ids) if r]
        return reports, {
            r.run_id: views.full_vs_filter_diff(db, r.run_id, r.scoring) for r in reports
        }

    @on(Worker.StateChanged)
    @while_running
    def _done(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "scores":
            return
        if event.state == WorkerState.SUCCESS:
            loaded = event.worker.result
            assert loaded is not None, "compute returns (reports, diffs) when it succeeds"
            reports, diffs = loaded
            order = {r.run_id: n for n, r in enumerate(views.list_runs(self.app.ctx.db))}
            self.reports = sorted(self.reports + reports, key=lambda r: order.get(r.run_id, 0))
            self.diffs.update(diffs)
            self._select()
            self.draw()
        elif event.state == WorkerState.ERROR:
            self.query_one("#scores-status", Static).update(
                literal(f"score cards failed: {event.worker.error}", "bold red")
            )

    def draw(self) -> None:
        status = self.query_one("#scores-status", Static)
        if not self.reports:
            status.update(Text(f"no scored run — {views.NOT_SCORED}", "dim"))
            return
        report = self.reports[self.current]
        status.update(
            literal(
                f"run {self.current + 1}/{len(self.reports)}: "
                f"{self.labels.get(report.run_id, report.system)} · v next run · F1 "
                "explains MAD, DivRate, κ, UDR, FUR",
                "bold",
            )
        )
        self._scatter(report)
        self._bars(report)
        self.query_one("#agreement", Static).update(
            agreement_text(report, self.labels.get(report.run_id))
        )
        self.query_one("#funnel", Funnel).show(report)
        self.query_one("#rulers", Static).update(
            rulers_text(
                report,
                self.diffs.get(report.run_id),
                self.accounting.get(report.run_id)
                or views.accounting_view(self.app.ctx.db, report.run_id),
            )
        )
        table = self.query_one("#variants", LineTable)
        if self.listed is not self.reports:
            self._variants()  # figures read anew; `v` (another run of the same figures) moves the cursor
        if table.row_count and table.cursor_row != self.current:
            table.move_cursor(row=self.current, animate=False)

    def _scatter(self, report: RunReport) -> None:
        audit = views.judge_audit(report)
        reliable = audit is None or audit.reliable
        shown = tuple(
            (t.intrinsic.full, t.extrinsic.compound, t.quadrant) for t in report.trajectories
        )
        spots = [(x, y) for x, y, _ in shown if x is not None and y is not None]
        titles = scores_list.scatter_titles(
            len(spots), reliable, audit.headline if audit is not None else views.UNRELIABLE
        )
        self.query_one("#scatter-box", ChartOrList).show(
            ("scatter", reliable, shown),  # what it plots (drawn for the plot's size)
            lambda plt, size: self._plot_scatter(plt, report, reliable, size, titles),
            lambda size: scores_fit.scatter_legible(
                [(round(x, 2), round(y, 2)) for x, y in spots], size, titles
            ),
            lambda width: scores_list.scatter_list(report, reliable, width, COLORS),
        )

    @staticmethod
    def _plot_scatter(
        plt: Plot, report: RunReport, reliable: bool, size: Size, titles: list[str]
    ) -> None:
        plt.title(scores_fit.first_fitting(titles, size.width) or "")  # the longest that fits
        plt.xlabel("intrinsic")
        plt.ylabel("extrinsic")
        plt.xlim(-0.05, 1.15)
        plt.ylim(-0.05, 1.15)
        ticks = [0, 0.25, 0.5, 0.75, 1.0]
        plt.xticks(ticks, [f"{t:g}" for t in ticks])
        ticks = scores_fit.score_ticks(size.height)  # as many as the rows label apart; 0.5 always
        plt.yticks(ticks, [f"{t:g}" for t in ticks])
        plt.vline(0.5, "gray")
        plt.hline(0.5, "gray")
        if not reliable:  # the engine withholds quadrants: no colours (the titles say so)
            points = overlap_counts(
                [
                    (t.intrinsic.full, t.extrinsic.compound)
                    for t in report.trajectories
                    if t.intrinsic.full is not None and t.extrinsic.compound is not None
                ]
            )
            if points:
                plt.scatter(
                    [p[0] for p in points], [p[1] for p in points], marker="○", color="gray"
                )
                for x, y, k in points:
                    if k > 1:
                        plt.text(f"×{k}", x + 0.04, y, color="gray")
            return
        for q in views.QUADRANTS:
            points = overlap_counts(
                [
                    (t.intrinsic.full, t.extrinsic.compound)
                    for t in report.trajectories
                    if t.quadrant == q
                    and t.intrinsic.full is not None
                    and t.extrinsic.compound is not None
                ]
            )
            if not points:
                continue
            plt.scatter(
                [p[0] for p in points], [p[1] for p in points], marker=MARKERS[q], color=COLORS[q]
            )  # no legend box (it hid points): the title names markers
            for x, y, k in points:
                if k > 1:  # points on the same spot are counted, not drawn over each other
                    plt.text(f"×{k}", x + 0.04, y, color=COLORS[q])

    def _bars(self, report: RunReport) -> None:
        widget = self.query_one("#bars-box", ChartOrList)
        groups = {**report.aggregate.by_category, **report.aggregate.by_difficulty}
        shown = tuple((name, g.n, g.intrinsic, g.extrinsic) for name, g in groups.items())
        widget.show(
            ("bars", shown),  # what it plots (drawn for the plot's size)
            lambda plt, size: self._plot_bars(plt, report, size),
            lambda size: scores_fit.bars_legible(len(groups), size, scores_list.BAR_TITLES),
            lambda width: scores_list.bars_list(groups, width),
        )

    @staticmethod
    def _plot_bars(plt: Plot, report: RunReport, size: Size) -> None:
        groups = {**report.aggregate.by_category, **report.aggregate.by_difficulty}
        names = list(groups)
        if not names:
            return
        # width < 1 leaves a gap between groups; no legend box (it covered the bars on small
        # terminals): the title names the colours; each bar carries its value, each group its n
        # (narrow: the bare names, which plotext keeps; n and values are listed under Rulers)
        labels, roomy, note = scores_fit.bar_labels(names, [groups[n].n for n in names], size.width)
        ins = [groups[n].intrinsic or 0 for n in names]
        ext = [groups[n].extrinsic or 0 for n in names]
        # textual_plotext types one colour here; plotext's multiple_bar takes one per series
        plt.multiple_bar(labels, [ins, ext], color=["cyan", "orange"], width=BAR_WIDTH)  # type: ignore[arg-type]
        if roomy:  # room for a value over each bar
            for i, (a, b) in enumerate(zip(ins, ext), 1):
                plt.text(f"{a:.2f}", i - BAR_WIDTH / 4, a + 0.04, color="cyan", alignment="center")
                plt.text(
                    f"{b:.2f}", i + BAR_WIDTH / 4, b + 0.12, color="orange", alignment="center"
                )
        else:
            plt.xlabel(note)
        plt.title(scores_fit.first_fitting(scores_list.BAR_TITLES, size.width) or "")
        plt.ylim(0, 1.3)
        plt.yticks(scores_fit.score_ticks(size.height))

    def _variants(self) -> None:
        table = self.query_one("#variants", LineTable)
        table.clear()
        self.listed = self.reports
        for r in self.reports:
            a = r.aggregate
            audit = views.judge_audit(r)
            wide = self._variant_columns != scores_fit.variant_columns(0)  # with CIs
            table.add_row(
                literal(scores_fit.run_label_cell(self.short_labels.get(r.run_id, r.system))),
                scores_fit.score_cell(a.intrinsic, wide, ci),
                scores_fit.score_cell(a.extrinsic, wide, ci),
                Text(figure(a.mad)),
                Text(figure(a.div_rate)),
                Text(figure(a.pearson_r)),
                Text(figure(a.kappa)),
                *scores_fit.quadrant_cells(
                    None if audit is not None and not audit.reliable else a.quadrants,
                    wide,
                    COLORS,
                ),
                key=r.run_id,
            )

    def action_next_run(self) -> None:
        if self.reports:
            self.current = (self.current + 1) % len(self.reports)
            self.draw()

    @on(DataTable.RowSelected, "#variants")
    @while_running
    def _pick(self, event: DataTable.RowSelected) -> None:
        self.current = event.cursor_row
        self.draw()
