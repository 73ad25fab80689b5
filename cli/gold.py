"""`seorap gold`: the gold-error ledger — contest an expected claim or question, withdraw a
contest, list suspects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import click

from seorap.cli.params import CORPUS_HELP, CorpusType, F, FsPath
from seorap.engine.store.sqlerrors import DatabaseBusy, ReadOnlyStore
from seorap.engine.untrusted import json_line, visible

if TYPE_CHECKING:
    from seorap.engine.scoring.gold_suspects import Suspect

LEDGER_HELP = (
    "The gold ledger (JSON Lines); default: beside the database, runs.db → runs.gold.jsonl."
)


def ledger_path(db_path: str | None, ledger: str | None) -> Path:
    """The ledger named, else the one beside --db; a usage error when neither is given."""
    # start-up: `seorap --help` loads no pydantic
    from seorap.engine.corpus.gold import default_ledger

    if ledger:
        return Path(ledger)
    if db_path:
        return default_ledger(db_path)
    raise click.UsageError("give --db FILE (the ledger goes beside it) or --ledger FILE")


@click.group()
def gold() -> None:
    """The gold-error ledger: contested claims and questions of a corpus (who, when, why), and
    withdrawals of contests, kept beside the database and never inside the corpus. Reports show
    each headline figure with and without the contested items and its ceiling
    (docs/metrics.md#gold-ledger)."""


def _item_options(reason_help: str) -> Callable[[F], F]:
    """The options contest and withdraw share (``--reason`` told for each)."""
    options = (
        click.option("--corpus", "corpus_path", required=True, type=CorpusType(), help=CORPUS_HELP),
        click.option("--trajectory", "trajectory_id", required=True, help="Trajectory id."),
        click.option(
            "--item",
            required=True,
            help="A claim (s2/c0: claim 0 of state 2) or a question (compound/0, single/1).",
        ),
        click.option("--reason", required=True, help=reason_help),
        click.option("--who", help="Who (default: $USER)."),
        click.option(
            "--db",
            "db_path",
            type=FsPath(dir_okay=False),
            help="The run database (the ledger goes beside it; its runs of this corpus are "
            "re-figured on next view).",
        ),
        click.option("--ledger", type=FsPath(dir_okay=False), help=LEDGER_HELP),
    )

    def decorate(f: F) -> F:
        for option in reversed(options):
            f = option(f)
        return f

    return decorate


@gold.command()
@_item_options("Why the gold is wrong or ambiguous.")
def contest(
    corpus_path: str,
    trajectory_id: str,
    item: str,
    reason: str,
    who: str | None,
    db_path: str | None,
    ledger: str | None,
) -> None:
    """Contest one expected claim or question: appended to the ledger with who, when and why,
    keyed by the corpus's digest. The corpus files are never touched."""
    _append(corpus_path, trajectory_id, item, reason, who, db_path, ledger, withdrawn=False)


@gold.command()
@_item_options("Why the contest no longer holds.")
def withdraw(
    corpus_path: str,
    trajectory_id: str,
    item: str,
    reason: str,
    who: str | None,
    db_path: str | None,
    ledger: str | None,
) -> None:
    """Withdraw the contest of one item: a withdrawal is appended to the ledger with who, when and
    why (nothing is removed), and the item counts as uncontested again. An item not contested
    against this corpus is refused, nothing written."""
    _append(corpus_path, trajectory_id, item, reason, who, db_path, ledger, withdrawn=True)


def _append(
    corpus_path: str,
    trajectory_id: str,
    item: str,
    reason: str,
    who: str | None,
    db_path: str | None,
    ledger: str | None,
    *,
    withdrawn: bool,
) -> None:
    """One contest or withdrawal appended to the ledger, the app's stored figures forgotten."""
    # start-up: `seorap --help` loads no pydantic
    from seorap.engine.corpus import gold as ledger_model
    from seorap.engine.corpus import load_corpus

    path = ledger_path(db_path, ledger)
    corpus = load_corpus(corpus_path)
    entry = ledger_model.contest(
        corpus, trajectory_id, item, reason, path, who=who, withdrawn=withdrawn
    )
    if db_path and Path(db_path).exists():
        try:
            _forget_figures(db_path, corpus.digest)
        except (ReadOnlyStore, DatabaseBusy) as exc:
            click.echo(
                visible(
                    f"note: the app's stored figures stay as they were ({exc}); "
                    "`seorap report` reads the ledger anew"
                ),
                err=True,
            )
    verb = "withdrew the contest of" if withdrawn else "contested"
    click.echo(
        visible(f"{verb} {entry.trajectory} {entry.item} ({entry.kind}): {entry.text}")
        + f"\nledger: {visible(str(path))} (corpus {entry.corpus})"
    )


def _forget_figures(db_path: str, digest: str) -> None:
    """The figures stored at score time for this corpus's runs no longer hold: the app recomputes
    them (with the ledger) on next view."""
    # start-up: `seorap --help` loads no pydantic, sqlite_utils
    from seorap.engine.scoring.tables import drop_figures
    from seorap.engine.store import gold as store
    from seorap.engine.store.lease import writing

    with writing(db_path, "gold contest") as db:  # one writer at a time (docs/store.md)
        for r in store.runs_of_corpus(db, digest):
            drop_figures(db, r["run_id"])


@gold.command()
@click.option("--db", "db_path", required=True, type=FsPath(exists=True, dir_okay=False))
@click.option("--corpus", "corpus_path", required=True, type=CorpusType(), help=CORPUS_HELP)
@click.option("--ledger", type=FsPath(dir_okay=False), help=LEDGER_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def suspects(db_path: str, corpus_path: str, ledger: str | None, as_json: bool) -> None:
    """Items that look wrong from the runs themselves: failed by every system (oracle-merged and the
    full-context answer included), or judged differently by two judges — each with the document
    lines that say it, and whether it is already contested. No model calls."""

    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.engine.corpus import gold as ledger_model
    from seorap.engine.corpus import load_corpus
    from seorap.engine.scoring.gold_suspects import suspects as find
    from seorap.engine.store.database import open_db

    corpus = load_corpus(corpus_path)
    db = open_db(db_path, readonly=True)
    found = find(db, corpus)
    path = ledger_path(db_path, ledger)
    contested = {c.key[1:] for c in ledger_model.standing(ledger_model.read(path), corpus.digest)}

    def is_contested(s: Suspect) -> bool:  # a claim is its text, wherever it recurs (Contest.key)
        return (s.trajectory, s.kind, s.text if s.kind == "claim" else s.item) in contested

    if as_json:
        rows = [{**asdict(s), "contested": is_contested(s)} for s in found]
        click.echo(json_line(rows, indent=2))  # control, format and bidi characters escaped
        return
    if not found:
        click.echo("no suspects: every item was credited somewhere, and judges agree")
        if any(t.language != "ko" for t in corpus.trajectories):
            click.echo(  # an item nobody judged is no suspect, and no credit either
                "note: suspects read judged verdicts; on a corpus not in Korean the lexical judge "
                "gives none (n/a), so only a model judge's scorings are read here"
            )
        return
    for s in found:
        weak = "" if s.complete else " (without oracle-merged or full-context: weaker)"
        mark = " [contested]" if is_contested(s) else ""
        click.echo(visible(f"{s.trajectory} {s.item} ({s.kind}){mark}: {s.text}"))
        click.echo(visible(f"  {s.why}{weak}: {s.detail}"))
        for line in s.lines:
            click.echo(visible(f"    {line}"))
