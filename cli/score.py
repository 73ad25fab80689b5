"""`seorap score`: judge a run's store and answers, and store the verdicts and score cards."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from seorap.cli.params import FsPath, ThresholdType, db_path_option, resolve_runs
from seorap.engine.fmt import figure
from seorap.engine.untrusted import visible

if TYPE_CHECKING:
    from sqlite_utils import Database

    from seorap.engine.config import Config
    from seorap.engine.run.progress import Progress


def scoring_config(
    db: Database, run_id: str, config_path: str | None, offline: bool, overrides: dict
) -> Config:
    """The run's own config (as stored in its row), then a TOML file, then the flags."""
    # start-up: `seorap --help` loads no pydantic
    from seorap.engine.config import Config, load_config

    if config_path:
        base = load_config(config_path, offline=offline)
    elif offline:
        base = Config.offline()
    else:
        stored = db.table("runs").get(run_id)["config"]
        base = Config.model_validate(json.loads(stored)) if stored else Config()
    return base.with_overrides(overrides)


@click.command()
@db_path_option()
@click.option(
    "--run",
    "run_ids",
    multiple=True,
    help="Run id, unique prefix or system name (repeatable); default: every run in --db.",
)
@click.option(
    "--judge-mode",
    type=click.Choice(["full", "filter", "both"]),
    default="both",
    show_default=True,
    help="Intrinsic candidate mode(s): all facts, or facts above --threshold.",
)
@click.option(
    "--threshold",
    type=ThresholdType(),
    default=None,
    help="Cosine threshold of filter mode (default 0.8), or 'auto': the threshold that best "
    "separates matched from unmatched claim-fact cosines with this run's embedder "
    "(setup named filter@auto(θ); docs/metrics.md).",
)
@click.option(
    "--judge-prompt",
    type=click.Choice(["strict", "lenient"]),
    default=None,
    help="strict or lenient judge (a model judge's prompt file; the lexical judge's "
    "lenient rules). Part of the setup name (default: config, strict).",
)
@click.option(
    "--judge", "judge_model", default=None, help="Judge: 'lexical' or an Ollama model name."
)
@click.option(
    "--answerer",
    "answerer_model",
    default=None,
    help="Answerer: 'extractive', 'reader' or a model name.",
)
@click.option(
    "--offline", is_flag=True, help="Lexical judge, reference reader (answerer), hashing embedder."
)
@click.option(
    "--config", "config_path", type=FsPath(exists=True, dir_okay=False), help="A TOML config."
)
def score(
    db_path: str,
    run_ids: tuple[str, ...],
    judge_mode: str,
    threshold: float | str | None,
    judge_prompt: str | None,
    judge_model: str | None,
    answerer_model: str | None,
    offline: bool,
    config_path: str | None,
) -> None:
    """Score runs: intrinsic (full and/or filter), extrinsic (compound, single, k = 1/3/5/10),
    baselines (full-context, naive-rag, no-context) and diagnosis, stored in --db.

    The scoring setup defaults to the one the run was made with. Each judging setup (judge and its
    prompt, answerer, --threshold / --judge-mode when not the default full + filter@0.80) is stored
    under its own name beside the others, so one store can be re-scored under several rulers and
    compared (`seorap report`, `seorap diff`). Model calls go through the call log, so re-scoring the
    same store makes zero model calls. Prints one line per run: the scoring
    setup and how many model calls were made and served from the cache.

    --threshold auto scores each run's filter mode at the threshold suggested from its own
    cosines; a run where nothing separates matched from unmatched pairs (e.g. one fact per state)
    is reported on stderr and skipped, and the command exits 2 after scoring the others.
    """
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.cli.progress import RichProgress
    from seorap.engine.scoring.score import NoSuggestedThreshold
    from seorap.engine.store.database import open_db
    from seorap.engine.store.queries.runs import run_ids as every_run

    db = open_db(db_path)
    targets = resolve_runs(db, run_ids) or every_run(db)
    auto = threshold == "auto"
    overrides = {
        "models.judge": judge_model,
        "models.answerer": answerer_model,
        "judging.filter_threshold": None if auto else threshold,
        "judging.prompt": judge_prompt,
    }
    failed = 0
    # start-up: `seorap --help` loads no sqlite_utils
    from seorap.engine.store.lease import writer

    with writer(db, "score", targets), RichProgress() as progress:
        for run_id in targets:
            config = scoring_config(db, run_id, config_path, offline, overrides)
            if not _score_one(db, run_id, config, judge_mode, progress, auto):
                failed += 1
    if failed:
        raise NoSuggestedThreshold(f"{failed} of {len(targets)} runs were not scored (see above)")


def _score_one(
    db: Database, run_id: str, config: Config, judge_mode: str, progress: Progress, auto: bool
) -> bool:
    """Score one run and print its line; False (and a line on stderr) when --threshold auto finds
    no threshold for it."""
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.engine.scoring.report import run_report
    from seorap.engine.scoring.score import NoSuggestedThreshold, score_run

    try:
        name = score_run(
            db, run_id, config, judge_mode=judge_mode, progress=progress, auto_threshold=auto
        )
    except NoSuggestedThreshold as exc:  # this run only; the others are still scored
        click.echo(f"{visible(run_id)}\terror: {visible(exc)}", err=True)
        return False
    calls = run_report(db, run_id, scoring=name, resamples=0)
    extras = json.loads(db.table("scores").get((run_id, "", name))["card"])
    assert calls is not None  # scored just above
    click.echo(
        f"{visible(run_id)}\t{visible(name)}\tmodel calls {extras['scoring_calls']}, "
        f"cached {extras['scoring_cached']}\tintrinsic "
        f"{figure(calls.aggregate.intrinsic.mean)} extrinsic "
        f"{figure(calls.aggregate.extrinsic.mean)}"
    )
    return True
