"""`seorap runs`: list the runs of a database; `seorap runs rm RUN`: delete one."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from seorap.cli.params import db_path_option
from seorap.engine.untrusted import visible

if TYPE_CHECKING:
    from pathlib import Path


@click.group(invoke_without_command=True)
@click.option("--db", "db_path", default=None, help="The run database.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per run instead of a table.")
@click.pass_context
def runs(ctx: click.Context, db_path: str | None, as_json: bool) -> None:
    """List the runs of --db: id, system, status, documents written, facts, scored or not.

    A run written by the offline stand-in model (no LLM) reads "A (stand-in)" (--json: "standin":
    true and its "label"); the reference systems (oracle, ...) are no model's results either. The
    real model's run that ships with seorap reads "A (recorded: MODEL (SIZE), MACHINE, DATE)".

    A run stored as `running` that no process is writing any more (killed, disk full) shows as
    `interrupted`; the same `seorap run` command resumes it. `seorap runs rm RUN` deletes one."""
    if ctx.invoked_subcommand is not None:
        return
    if not db_path or not db_path.strip():
        raise click.BadParameter("give the database file (e.g. --db runs.db)", param_hint="--db")
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.engine.store.database import check_intact, open_db
    from seorap.engine.store.lease import run_statuses
    from seorap.engine.untrusted import json_line
    from seorap.engine.views import list_runs

    db = open_db(db_path, readonly=True)
    statuses = run_statuses(db)
    rows = [
        {
            "run_id": r.run_id,
            "system": r.system,
            "label": r.label,  # 'A (stand-in)' for a run written by the offline stand-in model
            "standin": r.standin,
            "recording": r.recording,  # the model, its size, the machine, the date ('' if none)
            "status": statuses.get(r.run_id, r.status),
            "documents": r.documents,
            "facts": r.facts,
            "scored": r.scored,
        }
        for r in list_runs(db)
    ]
    if not rows:
        check_intact(db)  # a damaged file may read as empty: say so, not "no runs yet"
    if as_json:
        for row in rows:
            click.echo(json_line(row))  # bidi and control characters escaped
        return
    if not rows:
        click.echo("no runs yet: `seorap run --db FILE ...` writes one", err=True)
        return
    _print_table(rows)


def _print_table(rows: list[dict]) -> None:
    """The runs as aligned columns, every cell through ``visible`` (control characters escaped)."""
    header = ("run", "system", "status", "documents", "facts", "scored")
    cells = [
        tuple(
            visible(v)
            for v in (
                r["run_id"],
                r["label"],
                r["status"],
                r["documents"],
                r["facts"],
                "yes" if r["scored"] else "no",
            )
        )
        for r in rows
    ]
    widths = [max(len(str(c[i])) for c in [header, *cells]) for i in range(len(header))]
    for line in [header, *cells]:
        click.echo("  ".join(str(c).ljust(w) for c, w in zip(line, widths)).rstrip())


@runs.command("rm")
@click.argument("run")
@db_path_option()
@click.option(
    "--calls",
    "with_calls",
    is_flag=True,
    help="Also delete the run's model calls from the shared call log (they serve as the "
    "cache of every run that made the same call).",
)
@click.option("--yes", "-y", is_flag=True, help="Delete without asking (needed off a terminal).")
@click.option("--dry-run", is_flag=True, help="List what would be deleted; delete nothing.")
def rm(run: str, db_path: str, with_calls: bool, yes: bool, dry_run: bool) -> None:
    """Delete RUN (id, unique prefix or system name with one run): its documents, facts, decisions,
    verdicts, answers and score cards, and the folders of its mem0 or graphiti stores beside the
    database (``<db>.mem0/<run>/``, ``<db>.graphiti/<run>/``; nothing outside them is ever
    removed, and a run whose stored id cannot
    name a folder, such as ``..``, is reported as damage: exit 2, nothing deleted). The shared call
    log stays unless --calls is given.

    On a terminal it lists what goes and asks first (--yes does not ask); without a terminal it
    refuses unless --yes is given. --dry-run lists what would be deleted and deletes nothing.
    Answering no deletes nothing (exit 1)."""
    if dry_run or not yes:
        _preview(run, db_path, with_calls, dry_run=dry_run)
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.cli.runref import resolve_run
    from seorap.engine.run.removal import remove_run
    from seorap.engine.store.database import open_db
    from seorap.engine.untrusted import visible

    db = open_db(db_path)
    run_id = resolve_run(db, run, "RUN")
    removed = remove_run(db, run_id, calls=with_calls)
    detail = ", ".join(f"{n} {table}" for table, n in removed.rows.items() if n)
    click.echo(f"deleted {visible(run_id)}" + (f" ({detail})" if detail else ""))
    for f in removed.folders:
        where = visible_path(f.folder)
        if f.kept_for:
            click.echo(
                f"kept its {f.kind} folder {where}: run {visible(f.kept_for)} names the same "
                "folder (ids that differ only in characters spelled '-')"
            )
        elif f.error:
            click.echo(f"could not remove its {f.kind} folder {where}: {f.error}")
        else:
            click.echo(
                f"removed its {f.kind} folder {where} ({f.files} files, {f.size / 1e6:.1f} MB)"
            )
    if removed.failed:
        raise SystemExit(1)


def _folder_line(kind: str, folder: Path, verb: str) -> str:
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.engine.memory.folders import folder_size

    files, size = folder_size(folder)
    return f"{verb} its {kind} folder {visible_path(folder)} ({files} files, {size / 1e6:.1f} MB)"


def visible_path(folder: Path) -> str:
    return visible(str(folder))


def _on_terminal() -> bool:
    """Whether a person can answer the question (stdin and stdout are a terminal)."""

    return bool(sys.stdin and sys.stdin.isatty() and sys.stdout and sys.stdout.isatty())


def _preview(run: str, db_path: str, with_calls: bool, *, dry_run: bool) -> None:
    """Say what `runs rm` deletes; then stop (dry run: exit 0; no terminal: exit 2; no: exit 1) or
    return when the person said yes."""
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.cli.runref import resolve_run
    from seorap.engine.errors import UsageError
    from seorap.engine.memory.folders import run_folders, sharer
    from seorap.engine.store.database import open_db, run_rows
    from seorap.engine.store.queries.runs import run_ids, system_of
    from seorap.engine.untrusted import visible

    if not dry_run and not _on_terminal():
        raise UsageError(
            "runs rm deletes a run for good and there is no terminal to ask: give --yes to "
            "delete, or --dry-run to list what would be deleted"
        )
    db = open_db(db_path, readonly=True)
    run_id = resolve_run(db, run, "RUN")
    system = system_of(db, run_id)
    counts = run_rows(db, run_id, calls=with_calls)
    detail = ", ".join(f"{n} {table}" for table, n in counts.items() if n) or "no rows"
    calls = "" if with_calls else "; the shared call log stays"
    what = f"run {visible(run_id)} (system {visible(system)}): {detail}{calls}"
    folders = run_folders(db_path, run_id)  # a run id that cannot name a folder: damaged, exit 2
    shared = sharer(run_id, run_ids(db)) if folders else None
    for kind, folder in folders:
        what += "; " + (
            f"and keep its {kind} folder {visible_path(folder)} (run {visible(shared)} names it too)"
            if shared
            else _folder_line(kind, folder, "and remove")
        )
    db.conn.close()
    if dry_run:
        click.echo(f"would delete {what}; nothing deleted (--dry-run)")
        click.get_current_context().exit(0)
    if not click.confirm(f"delete {what}?", default=False):
        click.echo("nothing deleted")
        click.get_current_context().exit(1)
