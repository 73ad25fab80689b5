"""`seorap import locomo|longmemeval FILE --out DIR` (docs/corpus-format.md#imported-sets)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from seorap.cli.params import FsPath
from seorap.engine.corpus.importers import DATASET_VERSIONS, ImportResult
from seorap.engine.corpus.importers.locomo import import_locomo
from seorap.engine.corpus.importers.longmemeval import import_longmemeval
from seorap.engine.untrusted import visible


@click.group(name="import")
def import_group() -> None:
    """Turn a public benchmark file into a corpus folder: `seorap import locomo FILE --out DIR`,
    `seorap import longmemeval FILE --out DIR`. Sessions become dated chat documents, questions
    keep the dataset's own kinds, evidence ids and answers; check the result with `seorap validate`.
    """


def _options(command: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(
        [
            click.argument("file", type=FsPath(exists=True, dir_okay=False)),
            click.option("--out", required=True, type=FsPath(), help="An empty folder to write."),
            click.option("--limit", type=click.IntRange(min=1), help="Import the first N only."),
            click.option(
                "--types",
                default="",
                help="Only these kinds, comma-separated (LoCoMo: 1-5 or names; LongMemEval: "
                "question types or abstention).",
            ),
            click.option(
                "--dataset-version",
                type=click.Choice(DATASET_VERSIONS),
                default="unknown",
                show_default=True,
                help="Which release the file is (LongMemEval's 2025 cleaning cannot be detected).",
            ),
        ]
    ):
        command = option(command)
    return command


@import_group.command("locomo")
@_options
def locomo(file: str, out: str, limit: int | None, types: str, dataset_version: str) -> None:
    """Import LoCoMo (locomo10.json): one trajectory per conversation."""
    wanted = [t for t in types.split(",") if t.strip()]
    _report(import_locomo(Path(file), Path(out), limit, wanted, dataset_version))


@import_group.command("longmemeval")
@_options
def longmemeval(file: str, out: str, limit: int | None, types: str, dataset_version: str) -> None:
    """Import LongMemEval (_s, _m or _oracle): one trajectory per question and its haystack."""
    wanted = [t for t in types.split(",") if t.strip()]
    _report(import_longmemeval(Path(file), Path(out), limit, wanted, dataset_version))


def _report(result: ImportResult) -> None:
    kinds = ", ".join(f"{visible(k)} {n}" for k, n in sorted(result.by_kind.items()))
    click.echo(
        f"wrote {result.trajectories} trajectories ({result.documents} sessions, "
        f"{result.questions} questions; {result.excluded} excluded) to {visible(str(result.out))}"
        f", {result.bytes_written / 1e6:.1f} MB"
    )
    click.echo(f"kinds: {kinds}")
    for note in result.notes[:20]:
        click.echo(f"note: {visible(note)}")
    if len(result.notes) > 20:
        click.echo(f"note: ... and {len(result.notes) - 20} more")
    click.echo(f"next: seorap validate {visible(str(result.out))}")
