"""View 5: score cards — intrinsic vs extrinsic scatter split into quadrants, per-category and
per-difficulty bars, agreement figures with bootstrap CIs, and every run side by side.
Figures come from engine.scoring.report (computed in a worker: bootstrap takes a moment)."""

from __future__ import annotations

from rich.text import Text
from seorap.engine import views
from seorap.engine.fmt import figure
from seorap.tui.instant_modes import ViewScreen
from seorap.tui.screens import scores_fit
from seorap.tui.text import literal
from seorap.tui.widgets.footer import KeysFooter
from seorap.tui.widgets.funnel import Funnel
from seorap.tui.widgets.kept_plot import KeptPlot
from seorap.tui.widgets.line_table import LineTable
from seorap.tui.widgets.title import Title
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static
from textual.worker import Worker, WorkerState

MARKERS = {"healthy": "●", "compensation": "▲", "bottleneck": "■", "both-low": "✖"}
BAR_WIDTH = 0.5
"""Share of each group's slot the pair of bars fills; the rest is the gap between groups."""
COLORS = {"healthy": "green", "compensation": "yellow", "bottleneck": "magenta", "both-low": "red"}


def _ci(iv) -> str:
    """'0.62 [0.46, 0.79]' (95% CI) or, below 5 trajectories, the range '0.62 (0.50–1.00)' (the
    group lines print n next to it)."""
    if iv is None or iv.mean is None:
        return "—"
    if getattr(iv, "method", "bootstrap") == "range":
        if iv.ci_low is None:
            return f"{figure(iv.mean)} (n={iv.n})"
        return f"{figure(iv.mean)} ({figure(iv.ci_low)}–{figure(iv.ci_high)})"
    if iv.ci_low is None:
        return figure(iv.mean)
    return f"{figure(iv.mean)} [{figure(iv.ci_low)}, {figure(iv.ci_high)}]"


def _value_ci(value, iv) -> str:
    """A figure once, with its CI bounds when there are any: 'MAD 0.38 [0.21, 0.54]'."""
    if value is None:
        return _ci(iv)
    if iv is None or iv.ci_low is None or iv.ci_high is None:
        return figure(value)
    return f"{value:.2f} [{iv.ci_low:.2f}, {iv.ci_high:.2f}]"


def agreement_text(report, label: str | None = None) -> Text:
    a = report.aggregate
    text = Text()
    text.append_text(
        literal(f"{label or report.system}  ({report.run_id}, scoring {report.scoring})\n", "bold")
    )
    text.append(
        f"intrinsic {_ci(a.intrinsic)}   extrinsic {_ci(a.extrinsic)}   "
        f"filter@θ {_ci(a.intrinsic_filter)}\n"
    )
    text.append(
        f"MAD {_value_ci(a.mad, a.mad_ci)}   DivRate {figure(a.div_rate)}   signed mean "
        f"{views.DELTA_LABEL} {figure(a.signed_mean)}   Pearson r {figure(a.pearson_r)}   "
        f"κ {figure(a.kappa)}   pass agreement {figure(a.pass_agreement)}   "
        f"PARTIAL share {figure(a.partial_share)}\n"
    )
    audit = views.judge_audit(report)
    text.append("quadrants: ")
    if audit is not None and not audit.reliable:
        text.append(views.UNRELIABLE, "bold red")
        text.append(" (no quadrant, MAD or DivRate from this judge)", "dim")
    else:
        for q in views.QUADRANTS:
            text.append(f"{q} {a.quadrants.get(q, 0)}  ", COLORS[q])
    text.append("\n")
    text.append_text(read_time_text(report))
    text.append_text(similarity_text(report.similarity))
    text.append("\n")
    text.append_text(audit_text(audit))
    return text


def read_time_text(report) -> Text:
    """What the system reads as true (docs/metrics.md#read-time-state) and what is n/a for it."""
    r = report.read_time
    text = Text()
    if r is not None:
        text.append(
            f"read time ({r.read_path or 'no reads'}): coverage {_ci(r.coverage)}   accuracy "
            f"{_ci(r.accuracy)}   stale-at-read {_ci(r.stale_at_read)}\n"
        )
    for name, why in (report.not_applicable or (r.not_applicable if r else {})).items():
        text.append(f"{name}: n/a ({why})\n", "dim")
    return text


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.0%}"


def audit_text(audit: views.JudgeAudit | None) -> Text:
    """The judge audit of the judge this scoring used: pass rate (YES) per kind of planted answer,
    PARTIAL saturation, separation, and the engine's verdict on the judge with its reasons."""
    if audit is None:
        return Text(
            "judge audit: none stored for this scoring (scored before the audit ran; "
            "`seorap score` again)",
            "dim",
        )
    text = literal(
        f"judge audit ({audit.judge}, {audit.rules or 'no rules version'}, "
        f"{'every item' if audit.sample is None else f'{audit.sample} per kind'})",
        "bold",
    )
    if audit.reliable:
        text.append(" · reliable", "green")
    else:
        text.append(" · " + views.UNRELIABLE, "bold red")
        for reason in audit.reasons:
            text.append_text(literal(f"\n  {reason}", "red"))
    text.append("\n  pass rate (YES) on wrong answers, should be ~0: ", "dim")
    text.append(" · ".join(f"{k.kind} {_pct(k.pass_rate)}" for k in audit.wrong) or "—")
    if audit.partial:
        text.append("\n  PARTIAL where one part is missing, should be ~100%: ", "dim")
        text.append(" · ".join(f"{k.kind} {_pct(k.ideal_rate)}" for k in audit.partial))
    text.append("\n  pass rate on right answers, should be ~100%: ", "dim")
    text.append(" · ".join(f"{k.kind} {_pct(k.pass_rate)}" for k in audit.controls) or "—")
    text.append(
        f"\n  PARTIAL saturation {_pct(audit.partial_saturation)} (of wrong answers) · "
        f"separation {_pct(audit.separation)} (right minus the worst wrong kind)"
    )
    return text


def similarity_text(s) -> Text:
    """'similarity (EMBEDDER): matched median X, unmatched p90 Y; filter@0.80 drops Z% of true
    matches; suggested threshold T' (docs/metrics.md, "The filter threshold follows the embedder")."""
    if s is None:
        return Text("similarity: no full-mode verdicts in this scoring pass", "dim")
    dropped = "—" if s.matched_dropped is None else f"{100 * s.matched_dropped:.0f}%"
    text = literal(f"similarity ({s.embedder})", "bold")
    text.append(
        f": matched median {figure(s.matched.median)}, unmatched p90 {figure(s.unmatched.p90)}; "
    )
    text.append(
        f"filter@{s.filter_threshold:.2f} drops {dropped} of true matches",
        "red" if (s.matched_dropped or 0) >= 0.5 else "",
    )
    text.append(f"; suggested threshold {figure(s.suggested_threshold)}")
    return text


def overlap_counts(points: list[tuple[float, float]]) -> list[tuple[float, float, int]]:
    """(x, y, how many) per distinct spot (two decimals): eleven trajectories at (1.00, 1.00) are
    one marker counted ×11, not one dot that looks like one trajectory."""
    spots: dict[tuple[float, float], int] = {}
    for x, y in points:
        key = (round(x, 2), round(y, 2))
        spots[key] = spots.get(key, 0) + 1
    return [(x, y, k) for (x, y), k in spots.items()]


def _sd(mean, sd) -> str:
    return "—" if mean is None else f"{mean:.2f}" + ("" if sd is None else f" ± {sd:.2f}")


def rulers_text(report, diff: views.RulerDiff | None, cost=None) -> Text:
    """Rulers (intrinsic per judging setup and the spread), seeds (mean ± sd, n ≥ 2), the CIs per
    category and difficulty, the verdicts the filter moved (docs/metrics.md), and the run's cost
    (``cost``: ``views.accounting_view``, read when drawn)."""
    text = Text("Rulers", "bold")
    spread = f" · spread {figure(report.rulers_spread)}" if report.rulers_spread is not None else ""
    text.append(f" (intrinsic per judging setup{spread})\n", "dim")
    for r in report.rulers:
        text.append_text(literal(f"  {r.scoring} {r.mode}", "bold"))
        text.append(
            f"  intrinsic {figure(r.intrinsic)} · extrinsic {figure(r.extrinsic)} · n {r.n}\n"
        )
    if not report.rulers:
        text.append("  one judging setup stored\n", "dim")
    s = report.aggregate.seeds
    text.append("Seeds ", "bold")
    if s is not None and s.n >= 2:
        text.append(
            f"n {s.n} (seeds {', '.join('—' if x is None else str(x) for x in s.seeds)}): "
            f"intrinsic {_sd(s.intrinsic_mean, s.intrinsic_sd)} · "
            f"extrinsic {_sd(s.extrinsic_mean, s.extrinsic_sd)}\n"
        )
    else:
        text.append("one run of this configuration (mean ± sd needs n ≥ 2 seeds)\n", "dim")
    text.append("By category and difficulty", "bold")
    text.append(" (mean [95% CI]; n < 5: (range))\n", "dim")
    a = report.aggregate
    for name, g in {**a.by_category, **a.by_difficulty}.items():
        text.append_text(literal(f"  {name:<4}", "bold"))
        text.append(
            f" n {g.n:<2} intrinsic {_ci(g.intrinsic_ci) if g.intrinsic_ci else figure(g.intrinsic)}"
            f" · extrinsic {_ci(g.extrinsic_ci) if g.extrinsic_ci else figure(g.extrinsic)}\n"
        )
    text.append_text(moved_text(diff))
    text.append_text(cost_text(report, cost))
    return text


def cost_text(report, cost=None) -> Text:
    """What the run cost (engine/run/accounting.py): per role calls, cache hits, tokens, latency,
    tokens/s and trouble, then the wall time per phase. ``cost``: the run's accounting read now
    (``views.accounting_view``); without it, the figures stored with the report at score time."""
    from seorap.engine.run import accounting

    text = Text("Cost", "bold")
    acc = getattr(report, "accounting", None)
    if cost is not None:
        figures = cost.figures
    elif acc is not None:
        figures = accounting.from_dict(acc.model_dump())
    else:
        return text.append("  not recorded for this run\n", "dim")
    text.append(" (per role; docs/models.md)\n", "dim")
    for line in accounting.lines(figures):
        text.append_text(literal(f"  {line}\n"))
    return text


CHANGE_STYLE = {"credited": "green", "penalised": "red", "unparseable": "magenta"}


def moved_text(diff: views.RulerDiff | None, limit: int = 30) -> Text:
    """The 'verdicts that moved' panel: full → filter counts and the moved claims, listed."""
    text = Text("Verdicts that moved", "bold")
    if diff is None:
        return text.append(f"  {views.NOT_SCORED}\n", "dim")
    text.append(f" ({diff.before} → {diff.after})  ", "dim")
    for name, n in diff.counts.items():
        text.append(f"{name} {n}  ", CHANGE_STYLE.get(name, ""))
    text.append("\n")
    for m in diff.moved[:limit]:
        text.append(f"  {m.change:<11}", CHANGE_STYLE.get(m.change, ""))
        text.append_text(
            literal(
                f" {m.before} → {m.after}  {m.trajectory_id} {views.item_label(m.item)}  ", "dim"
            )
        )
        text.append_text(literal(m.text))
        text.append("\n")
    if len(diff.moved) > limit:
        text.append(f"  … and {len(diff.moved) - limit} more\n", "dim")
    if not diff.moved:
        text.append("  no verdict moved\n", "dim")
    return text


class ScoresScreen(ViewScreen, Screen):
    HELP = """\
## Score cards
Left: intrinsic (x) against extrinsic (y) per trajectory of the selected run, split at 0.5 into
four quadrants: healthy (both ≥ 0.5), LLM compensation (answers right, store wrong), retrieval
bottleneck (store right, answers wrong), both low. Right: per-category and per-difficulty means.
Bottom left: agreement figures with cluster-bootstrap 95% CIs, and the similarity line: with the
run's embedder, the median cosine of claims and the facts the judge credited, the 90th percentile
for the other facts, how many true matches the filter threshold drops, and the threshold that
separates the two (`seorap score --threshold auto` uses it), and the judge audit of the judge this
scoring used: its pass rate (YES) on each kind of planted wrong answer (should be ~0), PARTIAL where
one part is missing, its pass rate on right answers (should be ~100%), PARTIAL saturation and
separation. When the engine finds the judge unreliable (docs/metrics.md, judge audit) the cards say
"judge unreliable — see audit" with the reasons instead of quadrants, MAD and DivRate, and the
scatter draws plain points. Bottom right: the rulers
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

    def __init__(self) -> None:
        super().__init__()
        self.reports: list = []
        self.diffs: dict[str, views.RulerDiff | None] = {}
        self.current = 0
        self.version: object = None
        """The database's data version when the figures were read."""
        self.listed: list | None = None
        """The reports the variants table lists (``reports`` is a new list whenever they are read)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Title(id="scores-status")
        with Horizontal(id="scores-top"):
            yield KeptPlot(id="scatter")
            yield KeptPlot(id="bars")
        with Horizontal(id="scores-bottom"):
            with VerticalScroll(id="agreement-box"):  # scrolls at 100×30 (Tab, then ↑/↓)
                yield Static(id="agreement")
                yield Funnel(id="funnel")  # the claim funnel and the contested gold
            with VerticalScroll(id="rulers-box"):
                yield Static(id="rulers")
        yield LineTable(id="variants", cursor_type="row")
        yield KeysFooter()

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
        ctx = self.app.ctx
        self.version = views.data_version(ctx.db)
        self.reports, self.diffs, missing = [], {}, []
        self.labels = views.run_labels(ctx.db)
        for run in views.list_runs(ctx.db):
            report, diff = views.stored_figures(ctx.db, run.run_id)
            if report is not None:
                self.reports.append(report)
                self.diffs[run.run_id] = diff
            elif run.scored:
                missing.append(run.run_id)
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
        sel = self.app.ctx.selection.run_id
        ids = [r.run_id for r in self.reports]
        self.current = ids.index(sel) if sel in ids else 0

    def action_reload(self) -> None:
        self.reload()

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
                views.accounting_view(self.app.ctx.db, report.run_id),
            )
        )
        table = self.query_one("#variants", LineTable)
        if self.listed is not self.reports:
            self._variants()  # figures read anew; `v` (another run of the same figures) moves the cursor
        if table.row_count and table.cursor_row != self.current:
            table.move_cursor(row=self.current, animate=False)

    def _scatter(self, report) -> None:
        audit = views.judge_audit(report)
        reliable = audit is None or audit.reliable
        shown = tuple(
            (t.intrinsic.full, t.extrinsic.compound, t.quadrant) for t in report.trajectories
        )
        self.query_one("#scatter", KeptPlot).show(
            ("scatter", reliable, shown),  # what it plots (drawn for the plot's size)
            lambda plt, size: self._plot_scatter(plt, report, reliable, size.height),
            sized=True,
        )

    @staticmethod
    def _plot_scatter(plt, report, reliable: bool, height: int = 40) -> None:
        n = sum(
            1
            for t in report.trajectories
            if t.intrinsic.full is not None and t.extrinsic.compound is not None
        )
        plt.title(
            f"n {n} · "
            + " ".join(f"{MARKERS[q]} {q}" for q in views.QUADRANTS)
            + " · ×k: k on one spot · lines at 0.5"
        )
        plt.xlabel("intrinsic")
        plt.ylabel("extrinsic")
        plt.xlim(-0.05, 1.15)
        plt.ylim(-0.05, 1.15)
        ticks = [0, 0.25, 0.5, 0.75, 1.0]
        plt.xticks(ticks, [f"{t:g}" for t in ticks])
        ticks = scores_fit.score_ticks(height)  # as many as the rows label apart; 0.5 always
        plt.yticks(ticks, [f"{t:g}" for t in ticks])
        plt.vline(0.5, "gray")
        plt.hline(0.5, "gray")
        if not reliable:  # the engine withholds quadrants: no colours
            plt.title(f"n {n} · {views.UNRELIABLE}: no quadrants · ×k: k on one spot")
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

    def _bars(self, report) -> None:
        widget = self.query_one("#bars", KeptPlot)
        groups = {**report.aggregate.by_category, **report.aggregate.by_difficulty}
        shown = tuple((name, g.n, g.intrinsic, g.extrinsic) for name, g in groups.items())
        widget.show(
            ("bars", shown),  # what it plots (drawn for the plot's size)
            lambda plt, size: self._plot_bars(plt, report, size),
            sized=True,
        )

    @staticmethod
    def _plot_bars(plt, report, size) -> None:
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
        plt.multiple_bar(labels, [ins, ext], color=["cyan", "orange"], width=BAR_WIDTH)
        if roomy:  # room for a value over each bar
            for i, (a, b) in enumerate(zip(ins, ext), 1):
                plt.text(f"{a:.2f}", i - BAR_WIDTH / 4, a + 0.04, color="cyan", alignment="center")
                plt.text(
                    f"{b:.2f}", i + BAR_WIDTH / 4, b + 0.12, color="orange", alignment="center"
                )
        else:
            plt.xlabel(note)
        plt.title("mean per category and difficulty: intrinsic (cyan) · extrinsic (orange)")
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
                literal(self.labels.get(r.run_id, r.system)),
                scores_fit.score_cell(a.intrinsic, wide, _ci),
                scores_fit.score_cell(a.extrinsic, wide, _ci),
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
    def _pick(self, event: DataTable.RowSelected) -> None:
        self.current = event.cursor_row
        self.draw()
