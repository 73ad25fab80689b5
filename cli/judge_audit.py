"""`seorap judge-audit`: how many deliberately wrong answers does the judge pass?"""

from __future__ import annotations


import click


@click.command(name="judge-audit")
@click.option("--corpus", "corpus_path", required=True, type=click.Path(exists=True))
@click.option("--db", "db_path", required=True, type=click.Path(dir_okay=False),
              help="Database for the call log and the audit verdicts (created if missing).")
@click.option("--judge", "judge_model", default="lexical", show_default=True,
              help="'lexical' or an Ollama model name.")
@click.option("--judge-prompt", type=click.Choice(["strict", "lenient"]), default="strict", show_default=True)
@click.option("--answerer", "answerer_model", default="extractive", show_default=True,
              help="Answerer for the context-free answers: 'extractive' or a model name.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for the date shifts.")
def judge_audit(corpus_path, db_path, judge_model, judge_prompt, answerer_model, seed) -> None:
    """Build hedged, wrong-date (8-13 days off), vague and context-free answers from the corpus's
    ground truth (plus the correct answers as a control), judge them, and print the pass rate (YES)
    per kind and the PARTIAL saturation. Wrong kinds should pass near 0; the control near 1."""
    from rich.console import Console
    from rich.table import Table

    from engine.config import Config
    from engine.corpus import load_corpus
    from engine.scoring.answerers import make_answerer
    from engine.scoring.audit import run_audit, save_audit
    from engine.scoring.judges import make_judge
    from engine.store import open_db

    corpus = load_corpus(corpus_path)
    db = open_db(db_path)
    config = Config.offline().with_overrides({"models.judge": judge_model, "models.answerer": answerer_model,
                                              "judging.prompt": judge_prompt})
    client = None
    if judge_model != "lexical" or answerer_model != "extractive":
        from engine.models.client import ModelClient

        client = ModelClient.from_config(config, db)
    result = run_audit(corpus, make_judge(config, client), make_answerer(config, client), seed=seed)
    save_audit(db, result, f"audit-{corpus.digest[:8]}")
    table = Table(title=f"judge audit · {result.judge}")
    table.add_column("kind", no_wrap=True)  # hedged, wrong-date, context-free: never cut
    for col in ("n", "YES (pass)", "PARTIAL", "NO", "unparseable", "pass rate", "≥ PARTIAL"):
        table.add_column(col, justify="right")
    for kind, row in result.by_kind.items():
        table.add_row(kind, str(row["n"]), str(row["yes"]), str(row["partial"]), str(row["no"]),
                      str(row["unparseable"]), _pct(row["pass_rate"]), _pct(row["partial_or_better"]))
    console = Console()
    console.print(table)
    for kind, row in result.by_kind.items():
        click.echo(f"{kind}: pass rate {_pct(row['pass_rate'])} ({row['yes']}/{row['n']})")
    console.print(f"PARTIAL saturation (wrong kinds): {_pct(result.partial_saturation)}", markup=False)


def _pct(value) -> str:
    return "—" if value is None else f"{value:.0%}"
