"""`seorap synth`: write a deterministic synthetic corpus for scale tests."""

from __future__ import annotations

import click

from seorap.cli.params import FsPath
from seorap.engine.corpus.synth import SLOTS, write_corpus
from seorap.engine.corpus.validate import summary, validate_files
from seorap.engine.untrusted import visible


@click.command()
@click.option(
    "--scale",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help=f"Size as a multiple of the bundled corpus ({len(SLOTS)} trajectories each).",
)
@click.option(
    "--out",
    "out",
    type=FsPath(file_okay=False, path_type=str),
    required=True,
    help="Folder to write one JSON file per trajectory into (created if missing).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same files.")
@click.option("--short", is_flag=True, help="~60-word documents instead of the L1-L3 word ranges.")
def synth(scale: int, out: str, seed: int, short: bool) -> None:
    """Generate 12 × SCALE synthetic Korean trajectories in the bundled corpus's shape.

    Each block of 12 has two trajectories per category (C1-C6), the six trajectory types, 37 state
    documents and 4 distractors; --scale 100 gives about 4,100 documents. The output is validated
    before this command exits (exit 1 if it is not valid, which would be a bug).
    """
    paths = write_corpus(out, scale, seed, short=short)
    report = validate_files(paths)
    if not report.ok:
        for problem in report.problems[:20]:
            click.echo(str(problem), err=True)
        raise SystemExit(1)
    counts = summary(report.trajectories)
    docs = counts["documents"] + counts["distractors"]
    click.echo(
        f"wrote {len(paths)} trajectories to {visible(out)}: {docs} documents "
        f"({counts['distractors']} distractors), {counts['claims']} claims, "
        f"{counts['single_questions']} single questions (seed {seed})"
    )
