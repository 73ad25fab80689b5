"""`seorap validate`."""

from __future__ import annotations

import click
from seorap.cli.params import CorpusType
from seorap.engine.corpus.validate import summary, validate_path
from seorap.engine.errors import InputProblems
from seorap.engine.untrusted import json_line, visible


@click.command()
@click.argument("path", type=CorpusType(exists=False))
@click.option("--json", "as_json", is_flag=True, help="Print a summary object (counts) as JSON.")
def validate(path: str, as_json: bool) -> None:
    """Check a corpus: a folder of trajectory *.json files, one file, or a bundled corpus by name
    (`seorap validate ko-mini` checks the corpus that ships with seorap, from any folder).

    Prints every problem on its own line as FILE: LOCATION: message, where LOCATION is a JSON path
    such as states[1].claims (or line:col for a JSON syntax error). Exit 0 when valid, 1 when not.
    """
    report = validate_path(path)
    for problem in report.problems:
        click.echo(visible(problem), err=not as_json)
    if as_json:
        out = summary(report.trajectories) if report.trajectories else {}
        out["valid"] = report.ok
        out["problems"] = [str(p) for p in report.problems]
        click.echo(json_line(out, indent=2))  # bidi and control characters escaped
    elif report.ok:
        n = len(report.trajectories)
        click.echo(f"ok: {n} trajector{'y' if n == 1 else 'ies'} valid")
    if not report.ok:
        n = len(report.problems)
        raise InputProblems(f"{n} problem{'' if n == 1 else 's'} found (listed above).")
