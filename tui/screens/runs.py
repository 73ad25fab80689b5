"""View 1: runs and trajectories — one row per (run, trajectory) with both scores and the quadrant."""

from __future__ import annotations

from rich.text import Text
from seorap.engine import views
from seorap.engine.corpus import CATEGORY_NAMES
from seorap.tui.instant_modes import QuietResume
from seorap.tui.messages import OpenTrajectory
from seorap.tui.text import literal, one_line, score
from seorap.tui.widgets.fast_table import Table
from seorap.tui.widgets.footer import KeysFooter
from seorap.tui.widgets.search_bar import SearchBar
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

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


def _cycle(options: list, current):
    return options[(options.index(current) + 1) % len(options)]


class RunsScreen(QuietResume, Screen):
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
        self.filters = {"category": None, "difficulty": None, "quadrant": None, "system": None}
        self.search_text = ""
        self.sort_key, self.reverse = "trajectory", False
        self.rows: list[views.TrajectoryRow] = []
        self._fresh = True
        self._fill_generation = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="banner")
        yield SearchBar(placeholder="search trajectories (Enter/Esc to close)", id="search")
        yield Static(id="filters")
        yield Table(id="runs-table", cursor_type="row", zebra_stripes=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.focus()
        # the scores and the quadrant before type and docs: at 100 columns they stay on screen
        for label, key in [
            ("system", "system"),
            ("trajectory", "trajectory"),
            ("cat", "category"),
            ("diff", "difficulty"),
            ("intrinsic", "intrinsic"),
            ("extrinsic", "extrinsic"),
            (views.DELTA_LABEL, "delta"),
            ("quadrant", "quadrant"),
            ("type", "type"),
            ("docs", "docs"),
        ]:
            table.add_column(label, key=key)
        self.reload()

    def on_screen_resume(self) -> None:
        if self._fresh:  # on_mount has just loaded
            self._fresh = False
            return
        if views.data_version(self.app.ctx.db) != getattr(self, "_version", None):
            self.reload()  # coming back to an unchanged database keeps the table (1,200 rows at 100×)

    def reload(self) -> None:
        if not self.query(
            "#banner"
        ):  # a RunsChanged can arrive before compose; on_mount loads then
            return
        ctx = self.app.ctx
        self._version = views.data_version(ctx.db)
        self.rows = views.trajectory_rows(ctx.db, ctx.corpus)
        self.runs = views.list_runs(ctx.db)
        self.query_one("#banner", Static).update(self._banner())
        self.refresh_table()

    def _banner(self) -> Text:
        ctx = self.app.ctx
        text = Text()
        if ctx.banner:
            text.append(ctx.banner + "\n", style="bold yellow")
        if any(r.standin for r in self.runs):
            text.append(
                "(stand-in) runs were written offline by the stand-in model, not an LLM: "
                "it ignores the variant's prompt\n",
                "yellow",
            )
            for a, b in views.standin_twins(ctx.db, self.runs):
                text.append(
                    f"{a} and {b} (stand-in) wrote identical stores: the stand-in ignores "
                    "the prompt lines that tell them apart\n",
                    "yellow",
                )
        if not self.runs:
            text.append("no runs in this database yet — `seorap run` or the live view (6)", "dim")
        elif not any(r.scored for r in self.runs):
            text.append(f"scores: {views.NOT_SCORED}", style="dim")
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
        table = self.query_one(DataTable)
        table.clear()
        rows = self.shown()
        self._fill_generation += 1
        self._add(rows[:FIRST_CHUNK])
        line = self._filter_line(len(rows))
        if not rows and self.rows:
            line.append("  — no trajectory matches: x clears the filters", "bold yellow")
        self.query_one("#filters", Static).update(line)
        if len(rows) > FIRST_CHUNK:
            self._fill_later(rows, FIRST_CHUNK, self._fill_generation)

    def _add(self, rows: list[views.TrajectoryRow]) -> None:
        table = self.query_one(DataTable)
        for r in rows:
            table.add_row(*self._cells(r), key=f"{r.run_id}\t{r.trajectory_id}")

    def _fill_later(self, rows, start: int, generation: int) -> None:
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
        return [
            literal(r.system),
            one_line(r.trajectory_id, 28),
            literal(r.category),
            literal(r.difficulty),
            score(r.intrinsic),
            score(r.extrinsic),
            delta,
            Text(q, QUADRANT_STYLE.get(q, "")) if q else Text("not scored", "dim"),
            literal(r.trajectory_type),
            Text(f"{r.documents_done}/{r.documents_total}"),
        ]

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
        stepper = getattr(self.app, "stepper", None)
        table = self.query_one(DataTable)
        if not self.is_current or stepper is None or not table.row_count:
            return False
        run_id, trajectory_id = str(
            table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        ).split("\t")
        return stepper.read_step_ahead(stepper.step_key(0, run_id, trajectory_id))

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        run_id, trajectory_id = str(event.row_key.value).split("\t")
        self.post_message(OpenTrajectory(run_id, trajectory_id))
