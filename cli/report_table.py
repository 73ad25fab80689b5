"""The report as a Rich table for the terminal: one row per trajectory, never wrapped; columns that
do not fit are dropped (least important first) and named in the legend."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from seorap.engine.scoring import ruler_marks
from seorap.engine.scoring.report import rows, run_label
from seorap.engine.scoring.report_text import cost_lines, fmt, histogram_lines, summary_lines
from seorap.engine.scoring.schema import Report, RunReport
from seorap.engine.untrusted import visible


@dataclass(frozen=True)
class TableColumn:
    """One column of the terminal table: its row key, short header and legend text."""

    key: str
    header: str
    legend: str
    numeric: bool = True


TABLE_COLUMNS = [
    TableColumn("trajectory", "trajectory", "", numeric=False),
    TableColumn("category", "cat", "category", numeric=False),
    TableColumn("difficulty", "diff", "difficulty", numeric=False),
    TableColumn("intrinsic_full", "int", "intrinsic (full)"),
    TableColumn("intrinsic_filter", "int@f", "intrinsic (filter@{threshold})"),
    TableColumn("extrinsic_compound", "ext·c", "extrinsic compound"),
    TableColumn("extrinsic_single", "ext·s", "extrinsic single"),
    TableColumn("naive_rag", "RAG", "naive-RAG baseline"),
    TableColumn("stale_facts", "stale", "stale facts"),
    TableColumn("claim_precision", "prec", "claim precision"),
    TableColumn("quadrant", "quad", "quadrant", numeric=False),
]
# Dropped first to last when the terminal is too narrow; trajectory, int, ext·c and quad always stay.
DROP_ORDER = [
    "claim_precision",
    "extrinsic_single",
    "naive_rag",
    "stale_facts",
    "difficulty",
    "category",
    "intrinsic_filter",
]


def _table(
    title: str | Text,
    columns: list[TableColumn],
    cells: list[dict],
    trajectory_width: int | None = None,
) -> Table:
    table = Table(
        title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold"
    )
    for col in columns:
        narrow = col.key == "trajectory"
        table.add_column(
            col.header,
            justify="right" if col.numeric else "left",
            no_wrap=True,
            overflow="ellipsis",
            min_width=8 if narrow else None,
            max_width=trajectory_width if narrow else None,
        )
    for row in cells:
        table.add_row(*[Text(visible(fmt(row[c.key]))) for c in columns])  # never markup
    return table


def _natural_width(console: Console, table: Table) -> int:
    return console.measure(table, options=console.options.update_width(10_000)).maximum


def fit_columns(
    cells: list[dict], width: int, console: Console, columns: list[TableColumn] | None = None
) -> tuple[list[TableColumn], list[TableColumn]]:
    """(shown, dropped) columns of ``columns`` (default TABLE_COLUMNS): drop by DROP_ORDER until
    the table's natural width fits ``width``."""
    every = list(columns or TABLE_COLUMNS)
    shown = list(every)
    drop = list(DROP_ORDER)
    while drop and _natural_width(console, _table("", shown, cells)) > width:
        key = drop.pop(0)
        shown = [c for c in shown if c.key != key]
    return shown, [c for c in every if c not in shown]


UNRELIABLE_HEADER = "*"
"""After the short header of a column built on the judge's labels when the judge is unreliable."""


def run_columns(run: RunReport) -> list[TableColumn]:
    """TABLE_COLUMNS for one run: under an unreliable judge each label-built column's header ends
    in '*' and its legend in '[unreliable ruler]' (engine/scoring/ruler_marks.py)."""
    if not ruler_marks.unreliable(run):
        return list(TABLE_COLUMNS)
    labelled = set(ruler_marks.CSV_COLUMNS)
    mark = ruler_marks.suffix(run)
    return [
        replace(c, header=c.header + UNRELIABLE_HEADER, legend=c.legend + mark)
        if c.key in labelled
        else c
        for c in TABLE_COLUMNS
    ]


def trajectory_width(
    cells: list[dict], shown: list[TableColumn], width: int, console: Console
) -> int | None:
    """A cap on the trajectory column when even the fewest columns do not fit (ids end in "…")."""
    excess = _natural_width(console, _table("", shown, cells)) - width
    if excess <= 0:
        return None
    longest = max((len(fmt(r["trajectory"])) for r in cells), default=0)
    return max(8, max(longest, len("trajectory")) - excess)


def pack(items: list[str], width: int, sep: str = " · ") -> list[str]:
    """Join ``items`` with ``sep`` into lines of at most ``width`` cells, never splitting an item."""
    lines: list[str] = []
    for item in items:
        if lines and cell_len(lines[-1] + sep + item) <= width:
            lines[-1] += sep + item
        else:
            lines.append(item)
    return lines


def legend_lines(
    run: RunReport, shown: list[TableColumn], dropped: list[TableColumn], width: int
) -> list[str]:
    """What the short headers mean, and which columns the terminal width left out."""
    threshold = fmt(run.filter_threshold)
    name = {c.key: c.legend.format(threshold=threshold) for c in shown + dropped}
    lines = pack(
        [f"{c.header} = {name[c.key]}" for c in shown if name[c.key]] + ["— = no data"], width
    )
    if dropped:
        items = [f"{c.header} ({name[c.key]})" for c in dropped]
        items[0] = f"not shown at width {width}: {items[0]}"
        lines += pack(items + ["widen the terminal or use --format md/csv"], width)
    return lines


def render_table(report: Report, console: Console) -> None:
    """The terminal table: one row per trajectory, never wrapped; columns that do not fit the
    console width are left out (the legend names them), then the aggregate lines."""
    for run in report.runs:
        cells = rows(Report(runs=[run]))
        shown, dropped = fit_columns(cells, console.width, console, run_columns(run))
        cap = trajectory_width(cells, shown, console.width, console)
        title = Text(visible(f"{run.run_id} · {run_label(run)} · {run.scoring}"))
        console.print(_table(title, shown, cells, cap))
        for line in legend_lines(run, shown, dropped, console.width):
            console.print(Text(line, style="dim", no_wrap=True, overflow="ellipsis"))
        for line in summary_lines(run):
            console.print(Padding(Text(line), (0, 0, 0, 2), expand=False))
        for line in histogram_lines(run):
            console.print(Text("  " + line, no_wrap=True, overflow="ellipsis"))
        console.print(Text("  cost", style="bold"))
        for line in cost_lines(run):
            console.print(Padding(Text(line), (0, 0, 0, 4), expand=False))
        console.print()
    for c in report.comparisons:
        console.print(
            visible(
                f"{c.candidate} vs {c.base}: Δ intrinsic (candidate − base) "
                f"{fmt(c.candidate_minus_base)}, MDD {fmt(c.mdd)}"
                + (f" [{ruler_marks.UNRELIABLE_MARK}]" if c.unreliable_ruler else "")
            ),
            markup=False,
            highlight=False,
        )
