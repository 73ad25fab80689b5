"""`seorap override`: overrule one judge verdict (or a file of them) with a reason (docs/metrics.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from seorap.cli.params import FsPath, db_path_option
from seorap.cli.runref import resolve_run
from seorap.engine.untrusted import visible

if TYPE_CHECKING:
    from sqlite_utils import Database


@click.command()
@db_path_option()
@click.option(
    "--file",
    "file_path",
    type=FsPath(exists=True, dir_okay=False),
    help="A JSON list of {verdict_id, label, reason, who?} to apply instead of one override.",
)
@click.option("--run", "run_id", help="Run id (or a unique prefix, or a system name with one run).")
@click.option(
    "--kind", type=click.Choice(["claim", "question"]), help="A claim verdict or an answer verdict."
)
@click.option("--trajectory", "trajectory_id", help="Trajectory id.")
@click.option(
    "--item", help="Item id (s2/c0, compound/0, single/1) or the exact claim/question text."
)
@click.option(
    "--verdict", "label", type=click.Choice(["YES", "PARTIAL", "NO"]), help="The new verdict."
)
@click.option("--reason", help="Why (required).")
@click.option("--who", help="Who overrules (default: $USER).")
@click.option("--scoring", help="Scoring setup (default: the run's latest).")
@click.option(
    "--setup",
    type=click.Choice(["full", "filter"]),
    default="full",
    show_default=True,
    help="Claim candidate mode.",
)
@click.option(
    "--source",
    type=click.Choice(["memory", "full-context", "naive-rag", "no-context"]),
    default="memory",
    show_default=True,
    help="Which answer of a question.",
)
@click.option(
    "--k", type=int, default=5, show_default=True, help="Retrieval depth of a memory answer."
)
@click.option("--state", type=int, default=None, help="State index, when a claim text recurs.")
def override(db_path: str, **params: Any) -> None:  # params: the options below, as click reads them
    """Record a human override. The verdict row is never edited: the override (who, when, why) goes to
    the `overrides` table and `seorap report` shows raw and overridden figures side by side."""
    # start-up: `seorap --help` loads no sqlite_utils
    from seorap.engine.store.lease import writing

    with writing(db_path, "override") as db:  # one writer at a time (docs/store.md)
        _override(db, **params)


def _override(
    db: Database,
    file_path: str | None,
    run_id: str | None,
    kind: str | None,
    trajectory_id: str | None,
    item: str | None,
    label: str | None,
    reason: str | None,
    who: str | None,
    scoring: str | None,
    setup: str,
    source: str,
    k: int,
    state: int | None,
) -> None:
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.engine.scoring import overrides

    run_id = resolve_run(db, run_id) if run_id is not None else None
    if file_path:
        click.echo(f"{overrides.load_file(db, file_path)} override(s) recorded")
        return
    missing = [
        f"--{n}"
        for n, v in (
            ("run", run_id),
            ("kind", kind),
            ("trajectory", trajectory_id),
            ("item", item),
            ("verdict", label),
            ("reason", reason),
        )
        if not v
    ]
    if missing:
        raise click.UsageError(f"missing {', '.join(missing)} (or give --file)")
    assert run_id and kind and trajectory_id and item and label and reason  # each checked above
    try:
        row = overrides.find_verdict(
            db,
            run_id,
            kind,
            trajectory_id,
            item,
            scoring=scoring,
            setup=setup,
            source=source,
            k=k,
            state=state,
        )
        saved = overrides.add_override(db, row["id"], label, reason, who)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(
        visible(
            f"{row['trajectory_id']} {row['item']} ({row['scoring']}): {row['label']} -> {saved['label']} "
            f"by {saved['who']} at {saved['at']}"
        )
    )
