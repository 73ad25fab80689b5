"""`seorap judge-audit`: what does the judge give answers whose right verdict is known?"""

from __future__ import annotations

import click


@click.command(name="judge-audit")
@click.option("--corpus", "corpus_path", required=True, type=click.Path(exists=True))
@click.option(
    "--db",
    "db_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="Database for the call log and the audit verdicts (created if missing).",
)
@click.option(
    "--judge",
    "judge_model",
    default="lexical",
    show_default=True,
    help="'lexical' or an Ollama model name.",
)
@click.option(
    "--judge-prompt", type=click.Choice(["strict", "lenient"]), default="strict", show_default=True
)
@click.option(
    "--answerer",
    "answerer_model",
    default="reader",
    show_default=True,
    help="Answerer for the context-free answers: 'reader', 'extractive' or a model name.",
)
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    default=None,
    help="Items per kind (seeded sample). Default: every item for the lexical judge, "
    "20 per kind for a model judge.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Seed for date shifts, templates, sample.",
)
def judge_audit(
    corpus_path, db_path, judge_model, judge_prompt, answerer_model, sample, seed
) -> None:
    """Build answers from the corpus's ground truth whose right verdict is known — wrong ones
    (hedged, multi-value list, stale value stated firmly, retracted, wrong date 8-13 days off, vague,
    context-free), one element missing (should be PARTIAL), and controls (the correct answer and a
    paraphrase) — judge them, and print per kind how many pass (YES) and the PARTIAL saturation.
    The same audit runs with every `seorap score`; its figures are in every report."""
    from rich.console import Console
    from rich.table import Table
    from seorap.engine.config import Config
    from seorap.engine.corpus import load_corpus
    from seorap.engine.scoring.answerers import make_answerer
    from seorap.engine.scoring.audit import DEFAULT_SAMPLE, audit_lines, run_audit, save_audit
    from seorap.engine.scoring.judges import make_judge
    from seorap.engine.store.database import open_db

    corpus = load_corpus(corpus_path)
    db = open_db(db_path)
    config = Config.offline().with_overrides(
        {
            "models.judge": judge_model,
            "models.answerer": answerer_model,
            "judging.prompt": judge_prompt,
        }
    )
    client = None
    if judge_model != "lexical" or answerer_model not in ("reader", "extractive"):
        from seorap.engine.models.client import ModelClient

        client = ModelClient.from_config(config, db)
    if sample is None and judge_model != "lexical":
        sample = DEFAULT_SAMPLE
    from seorap.engine.store.lease import writer

    with writer(db, "judge-audit"):  # the call log and the verdicts: one writer at a time
        result = run_audit(
            corpus,
            make_judge(config, client),
            make_answerer(config, client),
            seed=seed,
            sample=sample,
        )
        save_audit(db, result, f"audit-{corpus.digest[:8]}")
    figures = result.figures()
    table = Table(title=f"judge audit · {figures.judge}")
    table.add_column("kind", no_wrap=True)  # multi-value, context-free: never cut
    for col in ("ideal", "n", "YES", "PART", "NO", "unp", "pass", "ideal%"):
        table.add_column(col, justify="right", no_wrap=True)
    for kind, row in figures.kinds.items():
        table.add_row(
            kind,
            row.ideal,
            str(row.n),
            str(row.yes),
            str(row.partial),
            str(row.no),
            str(row.unparseable),
            _pct(row.pass_rate),
            _pct(row.ideal_rate),
        )
    console = Console()
    console.print(table)
    console.print(
        "ideal = the right verdict for the kind · PART = PARTIAL · unp = unparseable · "
        "pass = YES share · ideal% = share given the right verdict",
        markup=False,
        highlight=False,
    )
    for kind, row in figures.kinds.items():
        click.echo(f"{kind}: pass rate {_pct(row.pass_rate)} ({row.yes}/{row.n})")
    for line in audit_lines(figures):
        console.print(line, markup=False, highlight=False)
    console.print(
        f"PARTIAL saturation (wrong kinds): {_pct(figures.partial_saturation)}", markup=False
    )


def _pct(value) -> str:
    return "—" if value is None else f"{value:.0%}"
