"""`seorap validate`."""

from __future__ import annotations

import click

from seorap.cli.params import CorpusType, FsPath
from seorap.engine.corpus import load_corpus
from seorap.engine.corpus.findings import findings, imported_summary
from seorap.engine.corpus.gold import check, read
from seorap.engine.corpus.validate import summary, validate_path
from seorap.engine.errors import InputProblems
from seorap.engine.untrusted import json_line, visible


@click.command()
@click.argument("path", type=CorpusType(exists=False))
@click.option("--json", "as_json", is_flag=True, help="Print a summary object (counts) as JSON.")
@click.option(
    "--ledger",
    type=FsPath(exists=True, dir_okay=False),
    help="Also check a gold ledger against the corpus: contests and withdrawals of items it does "
    "not have, withdrawals of nothing, contests made before the corpus changed.",
)
def validate(path: str, as_json: bool, ledger: str | None) -> None:
    """Check a corpus: a folder of trajectory *.json files, one file, or a bundled corpus by name
    (`seorap validate ko-mini` checks the corpus that ships with seorap, from any folder).

    Prints every problem on its own line as FILE: LOCATION: message, where LOCATION is a JSON path
    such as states[1].claims (or line:col for a JSON syntax error). Exit 0 when valid, 1 when not.
    """
    report = validate_path(path)
    problems = [str(p) for p in report.problems]
    if ledger and report.ok:
        problems += _ledger_problems(path, ledger)
    for problem in problems:
        click.echo(visible(problem), err=not as_json)
    if as_json:
        out = summary(report.trajectories) if report.trajectories else {}
        out["valid"] = not problems
        out["problems"] = problems
        if any(t.source for t in report.trajectories):
            out["imported"] = imported_summary(report.trajectories)
            out["findings"] = [f.message for f in findings(report.trajectories)]
        click.echo(json_line(out, indent=2))  # bidi and control characters escaped
    elif not problems:
        n = len(report.trajectories)
        click.echo(f"ok: {n} trajector{'y' if n == 1 else 'ies'} valid")
        if ledger:
            click.echo(f"ok: ledger {visible(ledger)} matches the corpus")
        _print_findings(report.trajectories)
    if problems:
        n = len(problems)
        raise InputProblems(f"{n} problem{'' if n == 1 else 's'} found (listed above).")


def _ledger_problems(path: str, ledger: str) -> list[str]:
    """A gold ledger checked against the corpus (engine/corpus/gold.py)."""

    return check(read(ledger), load_corpus(path), ledger)


def _print_findings(trajectories: list) -> None:
    """An imported set's findings (engine/corpus/findings.py): facts, not problems (exit 0)."""
    for finding in findings(trajectories):
        click.echo(f"note: {visible(finding.message)}")
        for line in finding.located:
            click.echo(f"  {visible(line)}")
        if finding.more:
            click.echo(f"  ... and {finding.more} more")
