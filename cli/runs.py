"""`seorap runs`: list the runs of a database; `seorap runs rm RUN`: delete one."""

from __future__ import annotations

import click
from seorap.cli.params import db_path_option


@click.group(invoke_without_command=True)
@click.option("--db", "db_path", default=None, help="The run database.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per run instead of a table.")
@click.pass_context
def runs(ctx, db_path, as_json) -> None:
    """List the runs of --db: id, system, status, documents written, facts, scored or not.

    A run stored as `running` that no process is writing any more (killed, disk full) shows as
    `interrupted`; the same `seorap run` command resumes it. `seorap runs rm RUN` deletes one."""
    if ctx.invoked_subcommand is not None:
        return
    if not db_path or not db_path.strip():
        raise click.BadParameter("give the database file (e.g. --db runs.db)", param_hint="--db")
    from seorap.engine.store.database import open_db
    from seorap.engine.store.lease import run_statuses
    from seorap.engine.untrusted import json_line, visible
    from seorap.engine.views import list_runs

    db = open_db(db_path, readonly=True)
    statuses = run_statuses(db)
    rows = [
        {
            "run_id": r.run_id,
            "system": r.system,
            "status": statuses.get(r.run_id, r.status),
            "documents": r.documents,
            "facts": r.facts,
            "scored": r.scored,
        }
        for r in list_runs(db)
    ]
    if as_json:
        for row in rows:
            click.echo(json_line(row))  # bidi and control characters escaped
        return
    if not rows:
        click.echo("no runs yet: `seorap run --db FILE ...` writes one", err=True)
        return
    header = ("run", "system", "status", "documents", "facts", "scored")
    cells = [
        tuple(
            visible(v)
            for v in (
                r["run_id"],
                r["system"],
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
def rm(run, db_path, with_calls) -> None:
    """Delete RUN (id, unique prefix or system name with one run): its documents, facts, decisions,
    verdicts, answers and score cards. The shared call log stays unless --calls is given."""
    from seorap.cli.runref import resolve_run
    from seorap.engine.store.database import delete_run, open_db
    from seorap.engine.store.lease import writer

    db = open_db(db_path)
    run_id = resolve_run(db, run, "RUN")
    with writer(db, "runs rm", [run_id]):
        counts = delete_run(db, run_id, calls=with_calls)
    from seorap.engine.untrusted import visible

    detail = ", ".join(f"{n} {table}" for table, n in counts.items() if n)
    click.echo(f"deleted {visible(run_id)}" + (f" ({detail})" if detail else ""))
