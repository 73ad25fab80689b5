"""`seorap report`: the score cards of one or more runs as a table, JSON, CSV or Markdown."""

from __future__ import annotations

import io
from collections.abc import Sequence

import click

from seorap.cli.params import FsPath, check_output, check_scoring, db_path_option, resolve_runs
from seorap.engine.outfile import write_text
from seorap.engine.untrusted import visible


@click.command()
@db_path_option()
@click.option(
    "--run",
    "run_ids",
    multiple=True,
    help="Run id, unique prefix or system name (repeatable); default: every scored run.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "csv", "md"]),
    default="table",
    show_default=True,
)
@click.option("--scoring", default=None, help="Scoring setup name (default: the latest per run).")
@click.option(
    "--overrides",
    "overrides_file",
    type=FsPath(exists=True, dir_okay=False),
    help="Apply human overrides from a JSON file first ([{verdict_id, label, reason, who}]).",
)
@click.option(
    "-o",
    "--output",
    type=FsPath(dir_okay=False),
    help="Write to this file instead of stdout (never over a database).",
)
@click.option(
    "--ledger",
    type=FsPath(exists=True, dir_okay=False),
    help="The gold ledger to read (default: the one beside the database, runs.gold.jsonl).",
)
@click.option(
    "--width",
    type=click.IntRange(min=40),
    default=None,
    help="Lay the table out for this many columns (default: the terminal's, or COLUMNS, else 80; "
    "160 with -o).",
)
def report(
    db_path: str,
    run_ids: Sequence[str],
    fmt: str,
    scoring: str | None,
    overrides_file: str | None,
    output: str | None,
    ledger: str | None,
    width: int | None,
) -> None:
    """Build the report from stored score cards (no model calls). JSON follows the versioned schema
    in docs/report.md; CSV has one row per run x trajectory; tables and Markdown add the aggregate
    figures with 95% cluster-bootstrap intervals and the diagnosis of every trajectory."""
    # start-up: `seorap --help` loads no numpy, pydantic, rich, sqlite_utils
    from rich.console import Console

    from seorap.cli.report_table import render_table
    from seorap.engine.scoring import overrides
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import to_csv, to_json, to_markdown
    from seorap.engine.store.database import check_intact, open_db

    check_output(output, db_path)
    db = open_db(db_path, readonly=not overrides_file)  # writes only to record overrides
    run_ids = resolve_runs(db, run_ids)
    check_scoring(db, run_ids, scoring)
    if overrides_file:
        # start-up: `seorap --help` loads no sqlite_utils
        from seorap.engine.store.lease import writer

        with writer(db, "report --overrides"):  # one writer at a time (docs/store.md)
            n = overrides.load_file(db, overrides_file)
        click.echo(f"{n} override(s) recorded", err=True)
    built = build_report(db, list(run_ids) or None, scoring=scoring, ledger=ledger)
    if not built.runs:
        check_intact(db)  # a damaged file may read as empty: say so, not "nothing here"
        raise click.UsageError("no scored runs: run `seorap score --db FILE` first")
    if fmt == "table" and not output:
        render_table(built, Console(width=width) if width else Console())
        return
    if fmt == "table":
        buffer = io.StringIO()
        render_table(built, Console(file=buffer, width=width or 160))
        text = buffer.getvalue()
    else:
        text = {"json": to_json, "csv": to_csv, "md": to_markdown}[fmt](built)
    if fmt != "json":  # corpus and model text cannot send escape sequences, file or terminal
        text = visible(text)  # (JSON escapes them itself: engine/untrusted.py escape_json)
    if output:
        write_text(output, text)  # whole or not at all: never a partial report
        click.echo(f"wrote {visible(output)}", err=True)
    else:
        click.echo(text, nl=False)
