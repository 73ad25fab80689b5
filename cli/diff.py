"""`seorap diff`: the re-scoring diff of two judging setups of one run, or of two runs (docs/metrics.md)."""

from __future__ import annotations

import click
from seorap.cli.params import db_path_option, resolve_runs
from seorap.engine.untrusted import json_line, visible

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
def diff(db_path, run_ids, setups, kind, show_all, fmt) -> None:
    """List every verdict that moved between two judging setups of one run (default: full -> filter
    of the latest scoring) or between two runs, classified newly credited / newly penalised /
    unchanged, with the claim or question text. No model calls."""
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
    _table(a, b, result, listed)


def _sides(db, run_ids: list[str], setups: list[str], parse_setup):
    if len(run_ids) > 2 or len(setups) > 2:
        raise ValueError("compare at most two runs and two setups")
    for run_id in run_ids:
        if db["runs"].count_where("run_id = ?", [run_id]) == 0:
            raise ValueError(f"no run {run_id!r} in this database")
    if len(run_ids) == 1:
        if len(setups) == 1:
            raise ValueError("one run needs two --setup values (or none: full -> filter)")
        first, second = setups or ["full", "filter"]
        return parse_setup(db, run_ids[0], first), parse_setup(db, run_ids[0], second)
    first = setups[0] if setups else None
    second = setups[1] if len(setups) == 2 else first
    side_a = parse_setup(db, run_ids[0], first)
    if second is None:  # B under A's scoring when it has one, else its own latest
        try:
            return side_a, parse_setup(db, run_ids[1], side_a.scoring)
        except ValueError:
            pass
    return side_a, parse_setup(db, run_ids[1], second)


def _where(v: dict) -> str:
    """The claim setup (when the two sides differ in it) or the answer source@k of a question."""
    if v["kind"] == "claim":
        return v["setup"] if v["setup"] != "*" else ""
    return f"{v['source']}" + (f"@{v['k']}" if v["k"] else "")


def _table(a, b, result, listed) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    counts = result.counts()
    console.print(visible(f"A: {a.label}\nB: {b.label}"), markup=False, highlight=False)
    console.print(
        "newly credited {credited} · newly penalised {penalised} · unchanged {unchanged} · "
        "unparseable {unparseable} · unmatched {unmatched}".format(**counts),
        markup=False,
        highlight=False,
    )
    if not listed:
        console.print("no verdict moved", markup=False)
        return
    table = Table(show_lines=False, expand=True)
    rows = [(v, _where(v)) for v in listed]
    with_where = any(where for _, where in rows)
    table.add_column("change", overflow="fold", max_width=10)
    for col in ("trajectory", "item", *(("where",) if with_where else ()), "A", "B"):
        table.add_column(col, no_wrap=True)  # ids and labels are never folded
    table.add_column("claim / question", overflow="fold", ratio=1, min_width=16)
    for v, where in rows:
        cells = [
            CHANGE_NAMES[v["change"]],
            v["trajectory_id"],
            v["item"],
            *((where,) if with_where else ()),
            v["from"],
            v["to"],
            v["text"],
        ]
        table.add_row(*[Text(visible(c)) for c in cells])
    console.print(table)
