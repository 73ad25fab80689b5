"""View 8: compare two runs — the claims, questions and facts that flipped between them."""

from __future__ import annotations

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.worker import Worker, WorkerState

from seorap.engine import views
from seorap.tui.closing import AppHeader, while_running
from seorap.tui.fit import (
    fit_column,
    fit_widths,
    narrow_columns,
    natural,
    refill_keeping_cursor,
    table_room,
)
from seorap.tui.instant_modes import ViewScreen
from seorap.tui.messages import OpenTrajectory
from seorap.tui.text import literal
from seorap.tui.widgets.claims_table import VERDICT_STYLE
from seorap.tui.widgets.footer import KeysFooter
from seorap.tui.widgets.line_table import LineTable
from seorap.tui.widgets.title import Title


def _figures(f: views.SideFigures) -> str:
    """One run's write-time figures beside its read-time ones (docs/metrics.md#read-time-state)."""

    def v(x: float | None) -> str:
        return "—" if x is None else f"{x:.2f}"

    return (
        f"write-time: accuracy {v(f.write_accuracy)} · coverage {v(f.write_coverage)} · "
        f"stale facts per trajectory {v(f.stale_facts)}   read-time: accuracy "
        f"{v(f.read_accuracy)} · coverage {v(f.read_coverage)} · stale-at-read rate "
        f"{_rate(f.stale_at_read)}"
    )


def _rate(x: float | None) -> str:
    """A share as a percentage, so it never reads as the count beside it ("stale 2.00")."""
    return "—" if x is None else f"{x:.0%}"


def _short_figures(f: views.SideFigures) -> str:
    """:func:`_figures` in under 80 cells, for narrow screens."""

    def v(x: float | None) -> str:
        return "—" if x is None else f"{x:.2f}"

    return (
        f"write acc {v(f.write_accuracy)} cov {v(f.write_coverage)} {v(f.stale_facts)} "
        f"stale/traj · read acc {v(f.read_accuracy)} cov {v(f.read_coverage)} "
        f"{_rate(f.stale_at_read)} stale"
    )


def _cell(label: str) -> Text:
    return Text(label, VERDICT_STYLE.get(label, "green" if label == "held" else "dim"))


SIDE_CAP = (16, 12)
"""Most cells for the trajectory id and the item label when the screen is narrow."""
TEXT_FLOOR = 16
KIND_SHORT = "k"
"""The kind column's head when its cells are first letters (an id would be cut otherwise)."""
NARROW = 120
"""Below this many columns the run figures and item labels take their short forms."""


def _widths(fixed: list[int], sides: list[int], caps: list[int], room: int) -> list[int]:
    """The id, item and text columns' widths: ids and items capped when the text would get
    fewer than 40 cells, the text shrunk to its floor before them."""
    if sum(fixed) + sum(sides) + 40 > room:
        sides = [min(w, cap) for w, cap in zip(sides, caps, strict=True)]
    return fit_widths([*sides, 10_000], room - sum(fixed), [10, 8, TEXT_FLOOR])


class CompareScreen(ViewScreen, Screen):
    HELP = """\
## Compare two runs
Run A is the selected run, run B the next one (**a** / **b** cycle them). Rows: expected claims of
the final state (in the current judge mode) and questions (top-5 memory answers) whose verdict
differs, and final active facts held by only one run.

- **a** / **b** change run A / run B, **j** judge mode for claims, **k** filter kind (all, claim,
  question, fact), **Enter** opens the trajectory of the row in run A
"""

    BINDINGS = [
        Binding("a", "cycle('a')", "run A"),
        Binding("b", "cycle('b')", "run B"),
        Binding("j", "judge", "judge mode"),
        Binding("k", "kind", "kind filter"),
    ]

    KINDS = [None, "claim", "question", "fact"]

    def __init__(self) -> None:
        super().__init__()
        self.kind: str | None = None
        self.short_kinds = False

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Title(id="compare-title")
        yield LineTable(id="compare-table", cursor_type="row", zebra_stripes=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        table = self.query_one(LineTable)
        for label in ("trajectory", "kind", "item", "A", "B", "text"):
            table.add_column(label)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self.is_current:  # not when built ahead (tui/instant_modes.py): `5` starts the worker
            self.show()

    def _runs(self) -> list[str]:
        return [r.run_id for r in views.list_runs(self.app.ctx.db)]

    def show(self) -> None:
        """Pick the two runs now; the flips are computed in a background worker (two arbitrary runs
        of a large corpus take seconds) with a placeholder on screen meanwhile."""
        sel = self.app.ctx.selection
        runs = self._runs()
        title = self.query_one("#compare-title", Static)
        self.query_one(LineTable).clear()
        if len(runs) < 2:
            title.update(Text("compare needs two runs in this database", "dim"))
            return
        a = sel.run_id if sel.run_id in runs else runs[0]
        if sel.compare_run_id not in runs or sel.compare_run_id == a:
            sel.compare_run_id = runs[(runs.index(a) + 1) % len(runs)]
        self.pair = (a, sel.compare_run_id, sel.judge_mode)
        labels = views.run_labels(self.app.ctx.db)
        self.names = (labels.get(a, a), labels.get(sel.compare_run_id, sel.compare_run_id))
        text = literal(
            f"A = {self.names[0]} ({a})   B = {self.names[1]} ({sel.compare_run_id})", "bold"
        )
        text.append("   comparing…", "dim")
        title.update(text)
        self.flips: list[views.Flip] | None = None
        self.compute(*self.pair)

    @work(thread=True, exclusive=True, exit_on_error=False, group="compare", description="compare")
    def compute(self, a: str, b: str, judge_mode: str) -> tuple:
        ctx = self.app.ctx
        db = ctx.worker_db()
        figures = (views.side_figures(db, a), views.side_figures(db, b))
        return (a, b, judge_mode), views.compare_runs(db, ctx.corpus, a, b, judge_mode), figures

    @on(Worker.StateChanged)
    @while_running
    def _computed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "compare":
            return
        if event.state == WorkerState.SUCCESS:
            computed = event.worker.result
            assert computed is not None, "compute returns (pair, flips, figures) when it succeeds"
            pair, flips, figures = computed
            if pair == self.pair:  # a newer pick owns the screen otherwise
                self.flips, self.figures = flips, figures
                self.fill()
        elif event.state == WorkerState.ERROR:
            self.query_one("#compare-title", Static).update(
                literal(f"compare failed: {event.worker.error}", "bold red")
            )

    def fill(self) -> None:
        a, b, judge_mode = self.pair
        flips = self.flips or []
        shown = [f for f in flips if self.kind is None or f.kind == self.kind]
        text = literal(f"A = {self.names[0]} ({a})   B = {self.names[1]} ({b})", "bold")
        counts = {k: sum(1 for f in flips if f.kind == k) for k in ("claim", "question", "fact")}
        text.append(
            f"   flipped: {counts['claim']} claims ({judge_mode}), "
            f"{counts['question']} questions, {counts['fact']} facts held by one side"
            + (f" · showing {self.kind}" if self.kind else ""),
            "dim",
        )
        narrow = self.app.size.width < NARROW
        for side, f in zip("AB", self.figures, strict=True):
            text.append(f"\n{side} {(_short_figures if narrow else _figures)(f)}", "dim")
        if not shown:
            text.append(
                "\nnothing flipped between these two runs"
                + (" for this kind (k)" if self.kind and flips else ""),
                "bold yellow",
            )
        self.query_one("#compare-title", Static).update(text)
        table = self.query_one(LineTable)
        table.clear()
        narrow_columns(table)  # fitted for this width: the columns shrink with the cells
        trajectories, kinds, items, texts = self._fitted(shown)
        kind_column = table.ordered_columns[1]  # trajectory, kind, item, A, B, text
        kind_column.label = Text(KIND_SHORT if self.short_kinds else "kind")
        if self.short_kinds:
            text.append("\nk: c claim · q question · f fact", "dim")
            self.query_one("#compare-title", Static).update(text)
        for n, f in enumerate(shown):
            table.add_row(
                Text(trajectories[n]),
                Text(kinds[n]),
                Text(items[n]),
                _cell(f.a),
                _cell(f.b),
                Text(texts[n]),
                key=f"{n}\t{f.trajectory_id}",
            )

    def _fitted(self, shown: list) -> tuple[list[str], list[str], list[str], list[str]]:
        """Trajectory ids, kinds, item labels and texts cut to fit the screen (tui/fit.py): ids and
        items first to at most SIDE_CAP cells, the text (the row's subject) to the rest; each cut
        marked '…' and keeping what tells the rows apart ('…목표는 200ms' / '…목표는 180ms'). An id
        gets room before the kind, a type column: when an id would be cut, the kind is shown by its
        first letter (c / q / f, named in the title) and the id takes the cells it gave up."""
        self._fitted_for = width = self.app.size.width
        ids = [f.trajectory_id for f in shown]
        kinds = [f.kind for f in shown]
        items = [views.item_label(f.item) for f in shown]
        if width < NARROW:
            items = [i.replace(" question ", " q") for i in items]  # 'compound q1'
        room = table_room(width, 6)
        fixed = [
            natural(kinds, "kind"),
            natural([f.a for f in shown], "A"),
            natural([f.b for f in shown], "B"),
        ]
        sides = [natural(ids, "trajectory"), natural(items, "item")]
        widths = _widths(fixed, sides, list(SIDE_CAP), room)
        self.short_kinds = widths[0] < sides[0]
        if self.short_kinds:  # the id would be cut: the kind gives way first
            kinds = [k[:1] for k in kinds]
            gave = fixed[0] - natural(kinds, KIND_SHORT)
            fixed[0] -= gave
            widths = _widths(fixed, sides, [SIDE_CAP[0] + gave, SIDE_CAP[1]], room)
        return (
            fit_column(ids, widths[0])[1],
            kinds,
            fit_column(items, widths[1])[1],
            fit_column([f.text for f in shown], widths[2])[1],
        )

    def on_resize(self) -> None:
        if (
            getattr(self, "_fitted_for", None) not in (None, self.app.size.width)
            and getattr(self, "flips", None) is not None
        ):
            refill_keeping_cursor(self.query_one(LineTable), self.fill)

    def action_cycle(self, which: str) -> None:
        runs, sel = self._runs(), self.app.ctx.selection
        if len(runs) < 2:
            return
        if which == "a":
            sel.run_id = (
                runs[(runs.index(sel.run_id) + 1) % len(runs)] if sel.run_id in runs else runs[0]
            )
        else:
            current = sel.compare_run_id if sel.compare_run_id in runs else sel.run_id
            current = current if current in runs else runs[0]  # no run A yet: the first, as show()
            sel.compare_run_id = runs[(runs.index(current) + 1) % len(runs)]
            if sel.compare_run_id == sel.run_id:
                sel.compare_run_id = runs[(runs.index(sel.compare_run_id) + 1) % len(runs)]
        self.show()

    def action_judge(self) -> None:
        sel = self.app.ctx.selection
        sel.judge_mode = "filter" if sel.judge_mode == "full" else "full"
        self.show()

    def action_kind(self) -> None:
        self.kind = self.KINDS[(self.KINDS.index(self.kind) + 1) % len(self.KINDS)]
        if getattr(self, "flips", None) is not None:
            self.fill()  # the same flips, another kind: nothing to recompute

    @while_running
    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        trajectory_id = str(event.row_key.value).split("\t")[1]
        self.post_message(OpenTrajectory(self.pair[0], trajectory_id))  # run A
