"""`seorap run`: write every trajectory of a corpus into the store, for each system (docs/design.md).

Order of work (grouped by model so Ollama does not swap back and forth):

1. preflight: without --offline/--replay, Ollama must answer and have every model before any work;
2. phase ``extract``: every pending document of every LLM system, in parallel (extraction does not
   depend on the store); results are NOT kept in memory: the call log holds them, and the write
   phase re-reads each document's extraction from it (a cache hit: no model call), so memory stays
   bounded however large the corpus (docs/design.md#quality-bars: 100× under 500 MB) while the
   grouping by model stays global; then, when vectors are cached, every extracted observation is
   embedded in batches (so the embedding model is not interleaved with the synthesizer);
3. phase ``write <system>``: per trajectory the documents are written in arrival order (each
   synthesis reads the store the previous document left), trajectories in parallel on a pool of
   ``concurrency`` threads; each document commits in ONE transaction with its ``documents`` row;
4. scoring (``engine.scoring.score_run``) unless skipped (``score=False``, ``seorap run --no-score``).

Resume: the run id is deterministic, ``{system}-{corpus_digest[:8]}-{config_hash[:6]}``, so the same
command on the same database skips every (run, trajectory, position) already in ``documents``;
model calls already made are served from the call log.

Stopping: work runs on a pool of threads while the calling thread watches. Setting the ``cancel``
Event (the app) or Ctrl+C (KeyboardInterrupt in the calling thread, the CLI) stops within about a
second: nothing new starts, queued work is dropped, the model client closes every open stream (the
server stops generating), the runs are marked ``cancelled`` and :class:`RunCancelled` says how many
documents are saved. The first error in any worker (the server gone after its retries, every wait
exhausted, a model missing) stops every worker the same way, so no queued document is tried after
it; that error is raised and the runs are marked ``failed``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sqlite_utils import Database

from seorap.engine.config import Config, load_config
from seorap.engine.corpus import Corpus, Trajectory
from seorap.engine.errors import NothingToReplay, RunCancelled, UsageError  # noqa: F401 (RunCancelled re-exported)
from seorap.engine.memory import get_system
from seorap.engine.memory.names import REFERENCE_DESCRIPTIONS
from seorap.engine.models import embedders
from seorap.engine.models.standin import StandinBackend
from seorap.engine.run import accounting
from seorap.engine.run.pacer import PacedProgress, Pacer
from seorap.engine.run.phases import (  # noqa: F401 (re-exported)
    RunContext,
    _extract_phase,
    _write_phase,
    show_estimate,
    write_trajectory,
)
from seorap.engine.run.pool import _pool, _Stop  # noqa: F401 (re-exported)
from seorap.engine.run.progress import NullProgress, Progress
from seorap.engine.run.records import (  # noqa: F401 (re-exported)
    STANDIN,
    WRITE_CONFIG_KEYS,
    _finish_run,
    _mark_unfinished,
    _record_served,
    _start_run,
    cancelled_sentence,
    config_hash,
    make_run_id,
)
from seorap.engine.run.replan import Replan
from seorap.engine.safepath import component
from seorap.engine.scoring import glossary, score_run, slot_questions
from seorap.engine.store.damage import stored_json
from seorap.engine.store.database import db_file, open_db
from seorap.engine.store.lease import writer
from seorap.engine.store.queries.writes import written_trajectories
from seorap.engine.store.sqlerrors import LeaseLost, translate_sqlite_error

if TYPE_CHECKING:  # the runner imports the model clients only when a run needs them
    from seorap.engine.memory import System
    from seorap.engine.models.base import ChatBackend, Embedder
    from seorap.engine.models.client import ModelClient

    Resolved = list[tuple[str, System]]
    """The systems of a run: each name with the system it stands for."""


def replay_run(
    db: Database,
    run_id: str,
    corpus: Corpus,
    *,
    label: str = "replay",
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    concurrency: int | None = None,
    pacer: Pacer | None = None,
) -> str:
    """Re-enact a recorded run from the call log alone (no model loaded, a miss raises
    :class:`engine.models.base.ReplayMiss`) as the new run ``{run_id}~{label}``: the same system
    and configuration (read from the run's manifest), so facts appear as they were written.

    With a ``pacer`` (engine/run/pacer.py) every served call is held as long as it once took (at
    the pacer's speed) and the pacer honours ``cancel``; without one the replay runs at once."""

    reason = nothing_to_replay(db, run_id)
    if reason:
        raise NothingToReplay(reason)
    row = db.table("runs").get(run_id)
    manifest = stored_json(row["manifest"], "manifest", run_id, {})
    config = Config.model_validate(manifest["config"])
    base = run_id.split("~", 1)[0]
    system = manifest.get("system") or row["system"]
    written = written_trajectories(db, base)
    if pacer is not None:
        pacer.cancel = cancel or pacer.cancel
        progress = PacedProgress(progress or NullProgress(), pacer)
    ids = run(
        corpus,
        [system],
        db,
        config,
        replay=True,
        pacer=pacer,
        progress=progress,
        cancel=cancel,
        concurrency=concurrency,
        trajectories=written,
        corpus_label=manifest.get("corpus"),
        label=label,
    )
    return ids[0]


def nothing_to_replay(db: Database, run_id: str) -> str | None:
    """Why ``run_id`` has no model call to replay (one sentence), or None when it has."""

    row = db.table("runs").get(run_id)
    manifest = json.loads(row["manifest"])
    if not manifest.get("offline"):
        return None
    system = manifest.get("system") or row["system"]
    how = (
        "is a reference system's run (written from the corpus's ground truth, no model)"
        if system in REFERENCE_DESCRIPTIONS
        else "was written offline by the stand-in model"
    )
    return f"{run_id} {how}: there is no model call to replay"


def run(
    corpus: Corpus,
    systems: list[str],
    db: Database,
    config: Config | None = None,
    *,
    offline: bool = False,
    replay: bool = False,
    concurrency: int | None = None,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    variants_dirs: list[str | Path] | None = None,
    backend: ChatBackend | None = None,
    embedder: Embedder | None = None,
    score: bool = True,
    trajectories: list[str] | None = None,
    corpus_label: str | None = None,
    label: str | None = None,
    pacer: Pacer | None = None,
) -> list[str]:
    """Write (and score) every system over the corpus; returns the run ids, in ``systems`` order.

    ``label`` makes a separate run (id suffix ``~label``) that shares the call log: with
    ``replay=True`` it re-enacts a recorded run document by document with no model loaded.

    ``backend``: the chat backend for LLM systems (default: the stand-in when offline, Ollama
    otherwise). Raises :class:`engine.models.base.ModelError` before any work when Ollama or a model
    is missing, :class:`RunCancelled` when ``cancel`` was set.
    """

    suffix = _label_suffix(label)  # checked before any work
    config = config or load_config(offline=offline)
    progress = progress or NullProgress()
    workers = max(1, concurrency or config.concurrency or 1)
    trajs = _selected(corpus, trajectories)
    resolved = [(name, get_system(name, config, variants_dirs)) for name in systems]
    llm = any(s.uses_llm for _, s in resolved)
    config = _checked_config(config, resolved, offline, replay, score, backend, embedder)
    if llm and not replay:
        # start-up: httpx loads only when this runs
        from seorap.engine.models.hosts import chat_hosts

        workers *= len(chat_hosts(config))  # concurrency is per host
    client = _run_client(config, db, offline, replay, backend, pacer, progress) if llm else None
    emb = (embedder or make_write_embedder(config, db, offline)) if llm else None
    stop = _Stop(cancel)
    if client is not None:
        stop.clients.append(client)
    stop.clients += [s for _, s in resolved if callable(getattr(s, "cancel", None))]  # foreign
    ids = [make_run_id(name, corpus, system, config) + suffix for name, system in resolved]
    args = (corpus, resolved, ids, config, trajs, workers, progress, stop, offline, replay)
    replan = _replan(corpus, systems, config, db, trajectories, variants_dirs, client, args)
    try:
        with writer(db, "run", ids):  # one writer at a time (docs/store.md)
            _write_all(db, *args, corpus_label, client, emb, score, replan)
    except sqlite3.Error as exc:
        raise (translate_sqlite_error(exc, db_file(db)) or exc) from exc
    return ids


def _label_suffix(label: str | None) -> str:
    """``~label`` for a labelled run's id ('' without one); UnsafeName when the label cannot be a
    name: it is part of every run id, and so of the names of the run's folders."""
    return f"~{label}" if label and component(label, "label") else ""


def _checked_config(
    config: Config,
    resolved: Resolved,
    offline: bool,
    replay: bool,
    score: bool,
    backend: ChatBackend | None,
    embedder: Embedder | None,
) -> Config:
    """The run's configuration (the stand-in's model names when offline), after the preflight."""
    if any(s.uses_llm for _, s in resolved) and offline and backend is None:
        # The stand-in answers under its own name, so its replies never pose as a real model's
        # in the call log (the cache key includes the model name).
        config = config.with_overrides({"models.extractor": STANDIN, "models.synthesizer": STANDIN})
    roles = _roles_used(resolved, config, offline=offline, replay=replay, score=score)
    if roles and not offline:  # an injected backend / embedder is the caller's business
        preflight(
            config,
            [r for r in roles if not (r == "embedder" and embedder is not None)],
            server=backend is None,
        )
    return config


def _write_all(
    db: Database,
    corpus: Corpus,
    resolved: Resolved,
    ids: list[str],
    config: Config,
    trajs: list[Trajectory],
    workers: int,
    progress: Progress,
    stop: _Stop,
    offline: bool,
    replay: bool,
    corpus_label: str | None,
    client: ModelClient | None,
    emb: Embedder | None,
    score: bool,
    replan: Replan | None = None,
) -> None:
    made = (db, corpus, resolved, ids, config, trajs, progress, offline, replay, corpus_label)
    contexts, new = _contexts(*made, client, emb, replan)
    slot_questions.warm(trajs)  # before any worker starts (engine/scoring/slot_questions.py)
    try:
        _extract_and_replan(replan, ids, score, contexts, trajs, db, workers, progress, stop)
        for system, ctx in contexts:
            _write_phase(system, ctx, trajs, db, workers, progress, stop)
            _record_served(db, ctx.run_id, client)
            _finish_run(db, ctx.run_id, "done")
    except (RunCancelled, KeyboardInterrupt) as exc:
        stop.stop()
        for _, ctx in contexts:
            with ctx.lock:  # a worker still committing a document finishes its transaction first
                _mark_unfinished(db, ctx.run_id, "cancelled", new=ctx.run_id in new)
        fresh = {c.run_id: c.name for s, c in contexts if getattr(s, "fresh_on_resume", False)}
        raise RunCancelled(
            cancelled_sentence(db, [c.run_id for _, c in contexts], trajs, fresh)
        ) from (None if isinstance(exc, KeyboardInterrupt) else exc)
    except BaseException as exc:
        if isinstance(exc, LeaseLost):  # the file is another writer's now: write nothing more
            raise
        for _, ctx in contexts:
            with ctx.lock:
                _mark_unfinished(
                    db, ctx.run_id, "failed", f"{type(exc).__name__}: {exc}", new=ctx.run_id in new
                )
        raise
    finally:
        for system, _ in contexts:  # a foreign system releases what it started (mem0's recorder)
            shutdown = getattr(system, "shutdown", None)
            if callable(shutdown):
                shutdown()
    if score:
        _score(db, [ctx.run_id for _, ctx in contexts], config, progress, stop.cancel)


def _contexts(
    db: Database,
    corpus: Corpus,
    resolved: Resolved,
    ids: list[str],
    config: Config,
    trajs: list[Trajectory],
    progress: Progress,
    offline: bool,
    replay: bool,
    corpus_label: str | None,
    client: ModelClient | None,
    emb: Embedder | None,
    replan: Replan | None,
) -> tuple[list[tuple[System, RunContext]], list[str]]:
    """Start (or restart) each system's run row; (its context, the replays this call created:
    removed again if they write nothing)."""
    contexts, new = [], []
    aliases = glossary.for_corpus(corpus.root)  # grounds a name by another of its names
    scope = None if len(trajs) == len(corpus.trajectories) else [t.id for t in trajs]
    for (name, system), run_id in zip(resolved, ids):
        started = (db, run_id, name, system, corpus, config, offline, replay, corpus_label)
        if _start_run(*started, client, emb, scope) and replay:
            new.append(run_id)
        ctx = RunContext(run_id, config, name, client, emb, progress, db_path=db_file(db))
        ctx.glossary, ctx.replan = aliases, replan
        contexts.append((system, ctx))
    return contexts, new


def _replan(
    corpus: Corpus,
    systems: list[str],
    config: Config,
    db: Database,
    trajectories: list[str] | None,
    variants_dirs: list[str | Path] | None,
    client: ModelClient | None,
    args: tuple,
) -> Replan | None:
    """A re-planner for a run with a model (not offline, not a replay: ``args[-2:]``)."""
    offline, replay = args[-2], args[-1]
    if client is None or offline or replay:
        return None
    return Replan(corpus, systems, config, db, trajectories or None, variants_dirs)


def _extract_and_replan(
    replan: Replan | None,
    ids: list[str],
    score: bool,
    contexts: list[tuple[System, RunContext]],
    trajs: list[Trajectory],
    db: Database,
    workers: int,
    progress: Progress,
    stop: _Stop,
) -> None:
    """The extraction phase, planned before (the plan kept in the manifests) and re-planned after
    from what it yielded (engine/run/replan.py)."""
    if replan is not None:
        replan.start(ids, score)
    _extract_phase(contexts, trajs, db, workers, progress, stop)
    if replan is not None and replan.pending:
        show_estimate(progress, replan.after_extraction())


# ---- setup ----------------------------------------------------------------------------------------
def preflight(
    config: Config,
    roles: Sequence[str] = ("extractor", "synthesizer", "embedder"),
    *,
    server: bool = True,
) -> None:
    """Raise ModelError (one sentence with the fix) unless every role the run will use is servable:
    see :func:`engine.models.manage.preflight`."""
    # start-up: httpx, ollama load only when this runs
    from seorap.engine.models.manage import preflight as check

    check(config, roles, server=server)


def _roles_used(
    resolved: Resolved, config: Config, *, offline: bool, replay: bool, score: bool
) -> list[str]:
    """The model roles a run will use: extraction and synthesis for LLM systems (not replayed), the
    embedder for them and for scoring, answerer and judge when scoring follows."""
    roles: list[str] = []
    if any(s.uses_llm for _, s in resolved) and not replay:
        roles += ["extractor", "synthesizer", "embedder"]
    if score and not offline and not replay:  # a replay scores from the call log
        roles += ["answerer", "judge", "embedder"]
    return list(dict.fromkeys(roles))


def _client_db(db: Database) -> Database:
    """A second connection to the same file for the call log, so call-log inserts never join a
    document's transaction (in-memory databases share the one connection)."""
    path = db_file(db)
    return open_db(path) if path else db


def _selected(corpus: Corpus, trajectories: list[str] | None) -> list[Trajectory]:
    """The trajectories to write: those named (all when none is). An unknown name is refused
    before any work: never an empty run marked done."""
    trajs = [t for t in corpus.trajectories if not trajectories or t.id in trajectories]
    unknown = sorted(set(trajectories or ()) - {t.id for t in corpus.trajectories})
    if unknown:
        raise UsageError(f"trajectory {unknown[0]!r} is not in the corpus")
    return trajs


def _run_client(
    config: Config,
    db: Database,
    offline: bool,
    replay: bool,
    backend: ChatBackend | None,
    pacer: Pacer | None,
    progress: Progress,
) -> ModelClient:
    """The run's model client: paced by ``pacer`` when replaying (None: served at once), its
    queue reported to ``progress`` when that listens (optional, like ``tokens``)."""
    client = _client(config, db, offline, replay, backend)
    if replay:
        client.pacer = pacer
    if hasattr(progress, "queued"):
        client.on_queue(progress.queued)
    return client


def _client(
    config: Config, db: Database, offline: bool, replay: bool, backend: ChatBackend | None
) -> ModelClient:
    # start-up: httpx, ollama load only when this runs
    from seorap.engine.models.client import ModelClient

    if backend is None and offline:
        backend = StandinBackend.from_env()
    return ModelClient.from_config(config, _client_db(db), backend=backend, replay=replay)


def make_write_embedder(config: Config, db: Database, offline: bool) -> Embedder:
    """The embedder for the write path: the configured one, wrapped in the vector cache."""

    inner: Embedder
    if offline or config.embedder_backend == "hashing":
        inner = embedders.HashingEmbedder()
    else:
        inner = embedders.make_embedder(config)
    if isinstance(inner, embedders.HashingEmbedder):
        return inner
    return embedders.CachedEmbedder(inner, _client_db(db))


def _score(
    db: Database,
    run_ids: list[str],
    config: Config,
    progress: Progress,
    cancel: threading.Event | None = None,
) -> None:
    """Score each written run; a cancel stops after the trajectory being scored (RunCancelled:
    the runs stay written and `seorap score` scores the rest)."""
    for run_id in run_ids:
        with accounting.phase_timer(db, [run_id], "score"):
            score_run(db, run_id, config, progress=progress, cancel=cancel)


def open_run_db(path: str | Path | None) -> Database:
    return open_db(path)
