"""`seorap judge-audit`: what does the judge give answers whose right verdict is known?"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from seorap.cli.params import CORPUS_HELP, CorpusType, FsPath

if TYPE_CHECKING:
    from rich.console import Console

    from seorap.engine.scoring.audit import AuditFigures


@click.command(name="judge-audit")
@click.option("--corpus", "corpus_path", required=True, type=CorpusType(), help=CORPUS_HELP)
@click.option(
    "--db",
    "db_path",
    required=True,
    type=FsPath(dir_okay=False),
    help="Database for the call log and the audit verdicts (created if missing).",
)
@click.option(
    "--judge",
    "judge_models",
    multiple=True,
    help="'lexical' or an Ollama model name; repeat to audit several judges side by side "
    "(default: lexical).",
)
@click.option(
    "--judge-prompt",
    "judge_prompts",
    multiple=True,
    help="strict, lenient or a prompt FILE for a model judge; repeat for a sweep: every judge "
    "under every prompt, leniency per kind side by side (default: strict).",
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
    corpus_path: str,
    db_path: str,
    judge_models: tuple[str, ...],
    judge_prompts: tuple[str, ...],
    answerer_model: str,
    sample: int | None,
    seed: int,
) -> None:
    """Build answers from the corpus's ground truth whose right verdict is known — wrong ones
    (hedged, multi-value list, stale value stated firmly, retracted, wrong date 8-13 days off, vague,
    context-free, and the held-out kinds worded from lists the lexical rules never read), one
    element missing (should be PARTIAL), and controls (the correct answer and paraphrases) — judge
    them, and print per kind how many pass (YES) and the PARTIAL saturation. With several --judge
    or --judge-prompt values, every setup is audited and the pass rates per kind are printed side
    by side (a prompt sweep). The same audit runs with every `seorap score`."""
    # start-up: `seorap --help` loads no pydantic, rich, sqlite_utils
    from rich.console import Console

    from seorap.engine.config import Config
    from seorap.engine.corpus import load_corpus
    from seorap.engine.scoring.answerers import make_answerer
    from seorap.engine.scoring.audit import DEFAULT_SAMPLE, run_audit, save_audit
    from seorap.engine.scoring.judges import LexicalJudge, LLMJudge
    from seorap.engine.store.database import open_db

    setups = _setups(judge_models, judge_prompts)
    corpus = load_corpus(corpus_path)
    _reads_the_language(setups, {t.language for t in corpus.trajectories})
    db = open_db(db_path)
    config = Config.offline().with_overrides({"models.answerer": answerer_model})
    client = None
    if any(m != "lexical" for m, _ in setups) or answerer_model not in ("reader", "extractive"):
        # start-up: `seorap --help` loads no httpx, numpy, ollama, pydantic, sqlite_utils
        from seorap.engine.models.client import ModelClient

        client = ModelClient.from_config(config, db)
    # start-up: `seorap --help` loads no sqlite_utils
    from seorap.engine.store.lease import writer

    answerer = make_answerer(config, client)
    results = []
    with writer(db, "judge-audit"):  # the call log and the verdicts: one writer at a time
        for model, prompt in setups:
            judge: LexicalJudge | LLMJudge
            if model == "lexical":
                judge = LexicalJudge(prompt)
            else:
                assert client is not None  # made above whenever a model judges
                judge = LLMJudge(client, model, prompt)
            n = sample if sample is not None or model == "lexical" else DEFAULT_SAMPLE
            result = run_audit(corpus, judge, answerer, seed=seed, sample=n)
            save_audit(db, result, f"audit-{corpus.digest[:8]}")
            results.append(result.figures())
    console = Console()
    if len(results) == 1:
        _one(console, results[0])
    else:
        _sweep(console, results)


def _reads_the_language(setups: list[tuple[str, str]], languages: set[str]) -> None:
    """The lexical judge reads Korean only: auditing it on another language would measure guesses
    (docs/metrics.md#token-f1). A model judge is audited with English templates there."""
    # start-up: `seorap --help` loads no pydantic
    from seorap.engine.errors import UsageError

    other = sorted(languages - {"ko"})
    if other and any(model == "lexical" for model, _ in setups):
        raise UsageError(
            f"the lexical judge reads Korean and this corpus is declared {', '.join(other)}: "
            "audit a model judge (--judge MODEL, with --judge-prompt for a sweep)"
        )


def _setups(judge_models: tuple[str, ...], judge_prompts: tuple[str, ...]) -> list[tuple[str, str]]:
    """Every (judge, prompt) to audit, each prompt checked before any work."""
    # start-up: `seorap --help` loads no pydantic
    from seorap.engine.scoring import prompts
    from seorap.engine.scoring.judges import LexicalJudge

    models = list(dict.fromkeys(judge_models or ("lexical",)))
    chosen = list(dict.fromkeys(judge_prompts or ("strict",)))
    for prompt in chosen:  # every prompt file is checked before any work
        prompts.judge_prompt(prompt)
    setups = [(m, p) for m in models for p in chosen]
    for m, p in setups:
        if m == "lexical":
            LexicalJudge(p)  # a prompt file for the lexical judge: one clear sentence, exit 2
    return setups


def _one(console: Console, figures: AuditFigures) -> None:
    # start-up: `seorap --help` loads no pydantic, rich, sqlite_utils
    from rich.table import Table

    from seorap.engine.scoring.audit import audit_lines

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


def _sweep(console: Console, results: list[AuditFigures]) -> None:
    """Pass rate (YES share) per kind, one column per judging setup: leniency side by side."""
    # start-up: `seorap --help` loads no rich
    from rich.table import Table

    table = Table(title="judge audit · pass rate per kind (YES share) by judging setup")
    table.add_column("kind", no_wrap=True)
    table.add_column("ideal", no_wrap=True)
    for f in results:
        table.add_column(f"{f.judge}\n{f.rules}", justify="right", no_wrap=True)
    kinds = list(dict.fromkeys(k for f in results for k in f.kinds))
    for kind in kinds:
        first = next(f.kinds[kind] for f in results if kind in f.kinds)
        cells = [_pct(f.kinds[kind].pass_rate) if kind in f.kinds else "—" for f in results]
        table.add_row(kind, first.ideal, *cells)
    table.add_row("wrong kinds pooled", "NO", *(_pct(f.wrong_pass) for f in results))
    table.add_row("PARTIAL saturation", "", *(_pct(f.partial_saturation) for f in results))
    table.add_row("separation", "", *(_pct(f.separation) for f in results))
    console.print(table)
    for f in results:
        click.echo(
            f"{f.judge} ({f.rules}): "
            + ", ".join(f"{k} {_pct(r.pass_rate)}" for k, r in f.kinds.items())
        )


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"
