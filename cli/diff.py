"""`seorap diff`: the re-scoring diff of two judging setups of one run, or of two runs (docs/metrics.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import click

from seorap.cli.params import db_path_option, resolve_runs
from seorap.engine.untrusted import json_line, visible

if TYPE_CHECKING:
    from rich.console import Console
    from sqlite_utils import Database

    from seorap.engine.scoring.rulers import Diff, Side

CHANGE_NAMES = {
    "credited": "newly credited",
    "penalised": "newly penalised",
    "unparseable": "to/from unparseable",
    "unchanged": "unchanged",
}


@click.command()
@db_path_option()
@click.option(
    "--run",
    "run_ids",
    multiple=True,
    required=True,
    help="Run id (or a unique prefix, or a system name with one run); give it twice to "
    "compare two runs (A then B).",
)
@click.option(
    "--setup",
    "setups",
    multiple=True,
    help="Judging setup: full | filter (claim mode of the latest scoring), a scoring name "
    "(e.g. lexical+extractive), or NAME:full / NAME:filter. Twice for A and B; "
    "once with two runs (the same setup for both).",
)
@click.option(
    "--kind", type=click.Choice(["all", "claim", "question"]), default="all", show_default=True
)
@click.option("--all", "show_all", is_flag=True, help="Also list the unchanged verdicts.")
@click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
)
@click.option(
    "--width",
    type=click.IntRange(min=40),
    default=None,
    help="Lay the table out for this many columns (default: the terminal's, or COLUMNS, else 80).",
)
def diff(
    db_path: str,
    run_ids: Sequence[str],
    setups: tuple[str, ...],
    kind: str,
    show_all: bool,
    fmt: str,
    width: int | None,
) -> None:
    """List every verdict that moved between two judging setups of one run (default: full -> filter
    of the latest scoring) or between two runs, classified newly credited / newly penalised /
    unchanged, with the claim or question text. No model calls."""
    # start-up: `seorap --help` loads no pydantic, sqlite_utils
    from seorap.engine.scoring.rulers import compare, parse_setup
    from seorap.engine.store.database import open_db

    db = open_db(db_path, readonly=True)
    run_ids = resolve_runs(db, run_ids)
    try:
        a, b = _sides(db, list(run_ids), list(setups), parse_setup)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    result = compare(db, a, b, kind=kind)
    listed = result.moved() + (result.same if show_all else [])
    if fmt == "json":
        click.echo(
            json_line(  # bidi and control characters escaped
                {
                    "a": a.label,
                    "b": b.label,
                    "kind": kind,
                    "counts": result.counts(),
                    "verdicts": listed,
                },
                indent=2,
            )
        )
        return
    _table(a, b, result, listed, width)


def _sides(
    db: Database,
    run_ids: list[str],
    setups: list[str],
    parse_setup: Callable[[Database, str, str | None], Side],
) -> tuple[Side, Side]:
    # start-up: `seorap --help` loads no sqlite_utils
    from seorap.engine.store.queries.runs import exists

    if len(run_ids) > 2 or len(setups) > 2:
        raise ValueError("compare at most two runs and two setups")
    for run_id in run_ids:
        if not exists(db, run_id):
            raise ValueError(f"no run {run_id!r} in this database")
    if len(run_ids) == 1:
        if len(setups) == 1:
            raise ValueError("one run needs two --setup values (or none: full -> filter)")
        first, second = setups or ["full", "filter"]
        return parse_setup(db, run_ids[0], first), parse_setup(db, run_ids[0], second)
    spec_a = setups[0] if setups else None
    spec_b = setups[1] if len(setups) == 2 else spec_a
    side_a = parse_setup(db, run_ids[0], spec_a)
    if spec_b is None:  # B under A's scoring when it has one, else its own latest
        try:
            return side_a, parse_setup(db, run_ids[1], side_a.scoring)
        except ValueError:
            pass
    return side_a, parse_setup(db, run_ids[1], spec_b)


def _where(v: dict) -> str:
    """The claim setup (when the two sides differ in it) or the answer source@k of a question."""
    if v["kind"] == "claim":
        return v["setup"] if v["setup"] != "*" else ""
    return f"{v['source']}" + (f"@{v['k']}" if v["k"] else "")


TEXT_LINES = 2
"""A claim or question shows on at most this many lines (cut with "…")."""
MIN_TEXT_WIDTH = 24
"""Below this width for the text column, each verdict is two lines of text under one line of ids."""


def _table(a: Side, b: Side, result: Diff, listed: list[dict], width: int | None = None) -> None:
    # start-up: `seorap --help` loads no rich
    from rich.console import Console

    console = Console(width=width) if width else Console()
    counts = result.counts()
    console.print(visible(f"A: {a.label}\nB: {b.label}"), markup=False, highlight=False)
    line = (
        "newly credited {credited} · newly penalised {penalised} · unchanged {unchanged} · "
        "unparseable {unparseable} · unmatched {unmatched}".format(**counts)
    )
    if len(line) > console.width:  # two lines, cut between figures, never inside one
        line = line.replace(" · unparseable", "\nunparseable")
    console.print(line, markup=False, highlight=False)
    if not listed:
        console.print("no verdict moved", markup=False)
        return
    rows = [(v, _where(v)) for v in listed]
    with_where = any(where for _, where in rows)
    header = ["change", "trajectory", "item", *(["where"] if with_where else []), "A", "B"]
    cells = [
        [
            CHANGE_NAMES[v["change"]],
            visible(v["trajectory_id"]),
            visible(v["item"]),
            *([visible(where)] if with_where else []),
            visible(v["from"]),
            visible(v["to"]),
        ]
        for v, where in rows
    ]
    texts = [visible(v["text"]) for v, _ in rows]
    # start-up: `seorap --help` loads no rich
    from rich.cells import cell_len

    widths = [max(cell_len(c) for c in col) for col in zip(header, *cells)]
    # a heavy-head box: each column has one space either side and one rule between columns
    text_width = console.width - sum(widths) - 3 * (len(widths) + 1) - 1
    if text_width >= MIN_TEXT_WIDTH:
        _boxed(console, header, widths, cells, texts, text_width)
    else:
        _stacked(console, cells, texts)


def clip_lines(text: str, width: int, lines: int = TEXT_LINES) -> list[str]:
    """``text`` word-wrapped at ``width`` terminal cells (wide Korean characters count two), at
    most ``lines`` lines; a cut ends with "…"."""
    # start-up: `seorap --help` loads no rich
    from rich.console import Console
    from rich.text import Text

    width = max(width, 2)
    wrapped = Text(" ".join(text.split())).wrap(Console(width=width), width, overflow="fold")
    out = [line.plain.rstrip() for line in wrapped]
    if len(out) <= lines:
        return out
    last = Text(out[lines - 1])
    last.truncate(width - 1)
    return [*out[: lines - 1], last.plain.rstrip() + "…"]


def _boxed(
    console: Console,
    header: list[str],
    widths: list[int],
    cells: list[list[str]],
    texts: list[str],
    text_width: int,
) -> None:
    # start-up: `seorap --help` loads no rich
    from rich.table import Table
    from rich.text import Text

    table = Table(show_lines=False)
    for name, width in zip(header, widths):
        table.add_column(name, no_wrap=True, min_width=width)  # ids and labels never fold
    table.add_column("claim / question", no_wrap=True, width=text_width)
    for row, text in zip(cells, texts):
        table.add_row(*[Text(c) for c in row], Text("\n".join(clip_lines(text, text_width))))
    console.print(table)


def _stacked(console: Console, cells: list[list[str]], texts: list[str]) -> None:
    """Narrow terminals and pipes: the ids on one line, the text indented under it."""
    for row, text in zip(cells, texts):
        change, *ids, before, after = row
        console.print(
            f"{change} · {' · '.join(ids)} · {before} → {after}", markup=False, highlight=False
        )
        for line in clip_lines(text, console.width - 4):
            console.print("    " + line, markup=False, highlight=False)
