"""View 1: runs and trajectories — one row per (run, trajectory) with both scores and the quadrant."""

from __future__ import annotations

from typing import TypeVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from seorap.engine import views
from seorap.engine.corpus import CATEGORY_NAMES
from seorap.tui.closing import AppHeader, while_running
from seorap.tui.fit import fit_column, fit_widths, natural, refill_keeping_cursor, table_room
from seorap.tui.instant_modes import ViewScreen
from seorap.tui.messages import OpenTrajectory
from seorap.tui.text import literal, score
from seorap.tui.widgets.footer import KeysFooter
from seorap.tui.widgets.line_table import LineTable
from seorap.tui.widgets.search_bar import SearchBar

QUADRANT_STYLE = {
    "healthy": "green",
    "compensation": "yellow",
    "bottleneck": "magenta",
    "both-low": "red",
}
CATEGORIES = [None, *CATEGORY_NAMES]
DIFFICULTIES = [None, "L1", "L2", "L3"]
QUADRANTS = [None, *views.QUADRANTS]


FIRST_CHUNK = 80
"""Rows added before the first paint (more than a tall terminal shows)."""
CHUNK = 300

COLUMNS = [
    # (label, label under NARROW columns, key, floor: None = never cut)
    ("system", "system", "system", 8),
    ("trajectory", "trajectory", "trajectory", 12),
    ("cat", "cat", "category", None),
    ("diff", "diff", "difficulty", None),
    ("intrinsic", "int", "intrinsic", None),
    ("extrinsic", "ext", "extrinsic", None),
    (views.DELTA_LABEL, "Δ", "delta", None),
    ("quadrant", "quadrant", "quadrant", 8),
    ("type", "type", "type", 6),
    ("docs", "docs", "docs", None),
]
"""The scores and the quadrant before type and docs: at 100 columns they stay on screen."""
ID_COLUMN = 1
"""The trajectory id tells rows apart: it is cut only once the other columns are at their floor."""
FITTED = ("system", "trajectory", "quadrant", "type")
"""The columns whose texts are cut to fit the screen (tui/fit.py), the cut marked '…'."""
SHORT = 36
"""Below this many rows the banner's notices share one line."""
NARROW = 110
"""Below this many columns the score headers are abbreviated (int, ext, Δ)."""


T = TypeVar("T")


def _cycle(options: list[T], current: T) -> T:
    return options[(options.index(current) + 1) % len(options)]


class RunsScreen(ViewScreen, Screen):
    """Runs and trajectories: sort, filter, pick a system, Enter opens the stepper."""

    HELP = """\
## Runs and trajectories
One row per run × trajectory: category (C1-C6), difficulty, trajectory type, documents written,
intrinsic (the store) and extrinsic (answers) scores, Δ (int−ext) = intrinsic − extrinsic (the report's signed difference: positive when the store
looks better than the answers) and the quadrant.

- **Enter** open the trajectory in the stepper
- **/** free-text search (ids, titles, system, category names)
- **c** / **d** / **u** cycle the category / difficulty / quadrant filter, **x** clears filters
- **s** cycle the sort column, **r** reverse it
- **v** pick the system (cycles through the runs' systems, then all)
"""

    BINDINGS = [
        Binding("slash", "search", "search"),
        Binding("c", "cycle('category')", "category"),
        Binding("d", "cycle('difficulty')", "difficulty"),
        Binding("u", "cycle('quadrant')", "quadrant"),
        Binding("v", "cycle('system')", "system"),
        Binding("s", "sort", "sort"),
        Binding("r", "reverse", "reverse", show=False),
        Binding("x", "clear", "clear filters", show=False),
        Binding("escape", "clear", "clear", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.filters: dict[str, str | None] = {
            "category": None,
            "difficulty": None,
            "quadrant": None,
            "system": None,
        }
        self.search_text = ""
        self.sort_key, self.reverse = "trajectory", False
        self.rows: list[views.TrajectoryRow] = []
        self._fresh = True
        self._fill_generation = 0
        self._filters_shown: Text | None = None

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static(id="banner")
        yield SearchBar(placeholder="search trajectories (Enter/Esc to close)", id="search")
        yield Static(id="filters")
        yield LineTable(id="runs-table", cursor_type="row", zebra_stripes=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        table = self.query_one(LineTable)
        table.focus()
        self._columns()
        self.reload()

    def _columns(self) -> bool:
        """(Re)make the columns for the screen's width (abbreviated score headers when narrow);
        True when they changed."""
        narrow = self.app.size.width < NARROW
        if getattr(self, "_narrow", None) == narrow:
            return False
        self._narrow = narrow
        table = self.query_one(LineTable)
        table.clear(columns=True)
        for label, short, key, _ in COLUMNS:
            table.add_column(short if narrow else label, key=key)
        return True

    def on_resize(self) -> None:
        if getattr(self, "_fitted_for", None) not in (None, self.app.size) and self.rows:
            self._columns()
            self.query_one("#banner", Static).update(self._banner())
            refill_keeping_cursor(self.query_one(LineTable), self.refresh_table)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self._fresh:  # on_mount has just loaded
            self._fresh = False
            return
        # coming back to an unchanged database keeps the table (1,200 rows at 100×)
        if views.data_version(self.app.ctx.db) != getattr(self, "_version", None):
            self.reload()
        elif getattr(self, "_fitted_for", None) != self.app.size:  # resized while hidden
            self.on_resize()

    def reload(self) -> None:
        if not self.query(
            "#banner"
        ):  # a RunsChanged can arrive before compose; on_mount loads then
            return
        ctx = self.app.ctx
        self._version = views.data_version(ctx.db)
        self.rows = views.trajectory_rows(ctx.db, ctx.corpus)
        self.runs = views.list_runs(ctx.db)
        self.short = {r.label: r.short_label for r in self.runs}  # the table's run labels
        self.full = {r.run_id: r.label for r in self.runs if r.label != r.short_label}
        self.query_one("#banner", Static).update(self._banner())
        self.refresh_table()

    def progress_changed(self) -> None:
        """ctx.progress changed (a run behind this view): the banner says so."""
        if self.query("#banner"):
            self.query_one("#banner", Static).update(self._banner())

    def _banner(self) -> Text:
        """What the runs are and where they came from: one line per notice, or every notice on
        one line, cut with '…', under SHORT rows (a 30-row terminal keeps its table). A notice
        that has a fix starts with it."""
        ctx = self.app.ctx
        notices: list[tuple[str, str, str]] = []  # (long, short, style)
        if ctx.progress:
            notices.append((ctx.progress, ctx.progress, "bold"))
        if ctx.banner:
            notices.append((ctx.banner, ctx.banner, "bold yellow"))
        if any(r.standin for r in self.runs):
            notices.append(
                (
                    "(stand-in) runs were written offline by the stand-in model, not an LLM: "
                    "it ignores the variant's prompt",
                    "(stand-in) runs: written offline by the stand-in model, not an LLM",
                    "yellow",
                )
            )
            for a, b in views.standin_twins(ctx.db, self.runs):
                notices.append(
                    (
                        f"{a} and {b} (stand-in) wrote identical stores: the stand-in ignores "
                        "the prompt lines that tell them apart",
                        f"{a} = {b}: identical stores",
                        "yellow",
                    )
                )
        if not self.runs:
            notices.append(
                (
                    "`seorap run` or the live view (6) writes a run — this database has none yet",
                    "`seorap run` or view 6 writes a run — none here yet",
                    "dim",
                )
            )
        elif not any(r.scored for r in self.runs):
            notices.append(  # the fix first: a narrow terminal cuts the end
                (
                    "`seorap score` scores the runs — none is scored yet",
                    "`seorap score` — no run scored yet",
                    "dim",
                )
            )
        text = Text()
        if self.app.size.height < SHORT:
            room = self.app.size.width - 2
            for n, (_, short, style) in enumerate(notices):
                if n:
                    text.append(" · ", "dim")
                text.append_text(literal(short, style))
            if text.cell_len > room:
                text.truncate(room, overflow="ellipsis")
            return text
        for n, (long, _, style) in enumerate(notices):
            text.append_text(literal(long + ("\n" if n + 1 < len(notices) else ""), style))
        return text

    def shown(self) -> list[views.TrajectoryRow]:
        rows = views.filter_rows(
            self.rows,
            self.search_text,
            self.filters["category"],
            self.filters["difficulty"],
            self.filters["quadrant"],
        )
        if self.filters["system"]:
            rows = [r for r in rows if r.system == self.filters["system"]]
        return views.sort_rows(rows, self.sort_key, self.reverse)

    def refresh_table(self) -> None:
        """Fill the first screenful now and the rest in chunks after the paint (a 100× corpus has
        1,200 rows: adding them all before the first paint costs most of a second)."""
        table = self.query_one(LineTable)
        table.clear()
        rows = self.shown()
        self._fill_generation += 1
        self._fit(rows)
        self._add(rows[:FIRST_CHUNK])
        line = self._filter_line(len(rows))
        if not rows and self.rows:
            line.append("  — no trajectory matches: x clears the filters", "bold yellow")
        self.filter_line = line
        self._show_filters(line)
        if len(rows) > FIRST_CHUNK:
            self._fill_later(rows, FIRST_CHUNK, self._fill_generation)

    def _fit(self, rows: list[views.TrajectoryRow]) -> None:
        """Cut the system, trajectory, quadrant and type texts of ``rows`` so that every column
        fits the screen: the widest cut first, each cut marked '…' and keeping what tells the rows
        apart (tui/fit.py; cached per width)."""
        width = self.app.size.width
        self._fitted_for = self.app.size
        # each column's distinct values, sorted: a sort or filter key meets the same values again
        # (fit_column is cached per values and width), and 1,200 rows hold a few dozen of them
        columns = [sorted(set(col)) for col in zip(*(self._texts(r) for r in rows))] or [
            [] for _ in COLUMNS
        ]
        labels = [c[1] if self._narrow else c[0] for c in COLUMNS]
        naturals = [natural(col, label) for col, label in zip(columns, labels, strict=True)]
        floors = [c[3] for c in COLUMNS]
        widths = fit_widths(naturals, table_room(width, len(COLUMNS)), floors, last=[ID_COLUMN])
        self._fitted = {}
        for (_, _, key, _), col, w in zip(COLUMNS, columns, widths, strict=True):
            if key in FITTED:
                self._fitted[key] = dict(zip(col, fit_column(col, w)[1], strict=True))

    def _texts(self, r: views.TrajectoryRow) -> tuple[str, ...]:
        return (
            self.short.get(r.system, r.system),
            r.trajectory_id,
            r.category,
            r.difficulty,
            "0.00",
            "0.00",
            "+0.00",
            r.quadrant or "not scored",
            r.trajectory_type,
            f"{r.documents_done}/{r.documents_total}",
        )

    def _add(self, rows: list[views.TrajectoryRow]) -> None:
        table = self.query_one(LineTable)
        for r in rows:
            table.add_row(*self._cells(r), key=f"{r.run_id}\t{r.trajectory_id}")

    def _fill_later(self, rows: list[views.TrajectoryRow], start: int, generation: int) -> None:
        def fill() -> None:
            if generation != self._fill_generation or not self.is_attached:
                return  # the filter changed meanwhile: a newer fill owns the table
            self._add(rows[start : start + CHUNK])
            if start + CHUNK < len(rows):
                self._fill_later(rows, start + CHUNK, generation)

        self.set_timer(0.01, fill)

    def _cells(self, r: views.TrajectoryRow) -> list:
        q = r.quadrant
        delta = Text("—", "dim") if r.delta is None else Text(f"{r.delta:+.2f}")
        fitted = self._fitted
        return [
            Text(fitted["system"][self.short.get(r.system, r.system)]),
            Text(fitted["trajectory"][r.trajectory_id]),
            literal(r.category),
            literal(r.difficulty),
            score(r.intrinsic),
            score(r.extrinsic),
            delta,
            Text(fitted["quadrant"][q], QUADRANT_STYLE.get(q, ""))
            if q
            else Text(fitted["quadrant"]["not scored"], "dim"),
            Text(fitted["type"][r.trajectory_type]),
            Text(f"{r.documents_done}/{r.documents_total}"),
        ]

    @on(DataTable.RowHighlighted, "#runs-table")
    @while_running
    def _run_in_full(self, event: DataTable.RowHighlighted) -> None:
        """Under the filters, the full label of the highlighted row's run when the table shows it
        shortened ('A (recorded)': the recording's model, machine and date)."""
        run_id = str(event.row_key.value).split("\t")[0]
        line = getattr(self, "filter_line", None)
        if line is None:
            return
        if getattr(self, "full", None):  # every row then, so the table does not jump
            labels = {r.run_id: r.label for r in self.runs}
            line = line.copy()
            line.append_text(literal(f"\nrun {run_id}: {labels.get(run_id, '?')}", "dim"))
        self._show_filters(line)

    def _show_filters(self, line: Text) -> None:
        """Show the line under the filters unless it shows already: ↓ onto a row of the same run
        would otherwise cost a frame of its own after the cursor's (16 ms at Textual's pace)."""
        if line == self._filters_shown:
            return
        self._filters_shown = line
        self.query_one("#filters", Static).update(line)

    def _filter_line(self, count: int) -> Text:
        parts = [f"{k}={v}" for k, v in self.filters.items() if v]
        if self.search_text:
            parts.append(f"search={self.search_text!r}")
        order = "↓" if self.reverse else "↑"
        text = Text(f"{count} rows · sort {self.sort_key} {order} · ", style="dim")
        text.append(", ".join(parts) if parts else "no filter", style="bold" if parts else "dim")
        return text

    def action_search(self) -> None:
        self.query_one(SearchBar).open()

    @on(SearchBar.QueryChanged)
    @while_running
    def _search(self, event: SearchBar.QueryChanged) -> None:
        self.search_text = event.query
        self.refresh_table()

    def action_cycle(self, name: str) -> None:
        options = {
            "category": CATEGORIES,
            "difficulty": DIFFICULTIES,
            "quadrant": QUADRANTS,
            "system": [None, *dict.fromkeys(r.label for r in self.runs)],
        }[name]
        self.filters[name] = _cycle(options, self.filters[name])
        self.refresh_table()

    def action_sort(self) -> None:
        self.sort_key = _cycle(list(views.SORT_KEYS), self.sort_key)
        self.refresh_table()

    def action_reverse(self) -> None:
        self.reverse = not self.reverse
        self.refresh_table()

    def action_clear(self) -> None:
        self.filters = dict.fromkeys(self.filters)
        self.search_text = ""
        self.query_one(SearchBar).value = ""
        self.refresh_table()

    def read_ahead(self) -> bool:
        """The cursor resting on a row: the stepper reads that trajectory's first step ahead of
        Enter (True when it did)."""
        stepper = self.app.stepper
        table = self.query_one(LineTable)
        if not self.is_current or stepper is None or not table.row_count:
            return False
        run_id, trajectory_id = str(
            table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        ).split("\t")
        return stepper.read_step_ahead(stepper.step_key(0, run_id, trajectory_id))

    @on(DataTable.RowSelected)
    @while_running
    def _open(self, event: DataTable.RowSelected) -> None:
        run_id, trajectory_id = str(event.row_key.value).split("\t")
        self.post_message(OpenTrajectory(run_id, trajectory_id))
