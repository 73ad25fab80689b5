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

import hashlib
import json
import sqlite3
import threading
import time
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from seorap.engine.config import Config
from seorap.engine.corpus import Corpus, Trajectory
from seorap.engine.errors import NothingToReplay, RunCancelled, UsageError  # noqa: F401 (RunCancelled re-exported)
from seorap.engine.memory import get_system
from seorap.engine.memory.facts import TrajectoryMemory
from seorap.engine.run import accounting
from seorap.engine.run.manifest import ModelInfo, RunManifest, package_versions
from seorap.engine.run.progress import NullProgress, Progress
from seorap.engine.store.database import db_file, done_positions, dumps, open_db, transaction
from seorap.engine.store.lease import writer
from seorap.engine.store.sqlerrors import LeaseLost, translate_sqlite_error
from sqlite_utils import Database

if TYPE_CHECKING:  # the runner imports the model clients only when a run needs them
    from seorap.engine.memory.llm import LLMSystem
    from seorap.engine.memory.reference import ReferenceSystem
    from seorap.engine.models.base import Embedder
    from seorap.engine.models.client import ModelClient

STANDIN = "standin"
WRITE_CONFIG_KEYS = ("seed", "temperature", "num_ctx", "num_predict", "think", "embedder_backend")


class _Stop:
    """Set when the caller cancels or when a worker fails: every worker checks it between steps."""

    def __init__(self, cancel: threading.Event | None) -> None:
        self.cancel = cancel
        self.halt = threading.Event()
        self.clients: list = []
        """Model clients whose open streams are closed when stopping."""
        self.error: BaseException | None = None
        """The first real error that stopped the work (not a cancellation it caused)."""
        self._lock = threading.Lock()

    def is_set(self) -> bool:
        return self.halt.is_set() or (self.cancel is not None and self.cancel.is_set())

    def stop(self, error: BaseException | None = None) -> None:
        """Stop everything; ``error`` (from a failing worker) is kept when it is the first real one,
        so the caller reports it rather than the cancellations it set off."""
        from seorap.engine.models.base import CallCancelled

        with self._lock:
            if (
                self.error is None
                and error is not None
                and not isinstance(error, (CallCancelled, RunCancelled))
            ):
                self.error = error
        self.halt.set()
        for client in self.clients:
            client.cancel()


@dataclass
class RunContext:
    """What a system needs while writing: shared by every worker of one run."""

    run_id: str
    config: Config
    name: str = ""
    client: ModelClient | None = None
    embedder: Embedder | None = None
    progress: Progress = field(default_factory=NullProgress)
    extractions: dict = field(default_factory=dict)
    """(trajectory_id, position) -> extraction result, only when the client has no call log to
    re-read it from (the runner's client always has one, so this stays empty there)."""
    lock: threading.Lock = field(default_factory=threading.Lock)


def config_hash(system, config: Config) -> str:
    spec = system.spec()
    body = {"system": spec}
    if system.uses_llm:
        body["models"] = {r: config.role_model(r) for r in ("extractor", "synthesizer", "embedder")}
        body["options"] = {k: _plain(getattr(config, k)) for k in WRITE_CONFIG_KEYS}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _plain(value):
    return value.model_dump() if hasattr(value, "model_dump") else value


def make_run_id(name: str, corpus: Corpus, system, config: Config) -> str:
    return f"{name}-{corpus.digest[:8]}-{config_hash(system, config)[:6]}"


def replay_run(
    db: Database,
    run_id: str,
    corpus: Corpus,
    *,
    label: str = "replay",
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    concurrency: int | None = None,
) -> str:
    """Re-enact a recorded run from the call log alone (no model loaded, a miss raises
    :class:`engine.models.base.ReplayMiss`) as the new run ``{run_id}~{label}``: the same system
    and configuration (read from the run's manifest), so facts appear as they were written."""
    from seorap.engine.config import Config

    row = db.table("runs").get(run_id)
    manifest = json.loads(row["manifest"])
    config = Config.model_validate(manifest["config"])
    base = run_id.split("~", 1)[0]
    system = manifest.get("system") or row["system"]
    if manifest.get("offline"):
        raise NothingToReplay(
            f"{run_id} was written offline by stand-ins: there is no model call to replay"
        )
    written = [
        r["trajectory_id"]
        for r in db.query("SELECT DISTINCT trajectory_id FROM documents WHERE run_id = ?", [base])
    ]
    ids = run(
        corpus,
        [system],
        db,
        config,
        replay=True,
        progress=progress,
        cancel=cancel,
        concurrency=concurrency,
        trajectories=written,
        corpus_label=manifest.get("corpus"),
        label=label,
    )
    return ids[0]


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
    variants_dirs: list | None = None,
    backend=None,
    embedder=None,
    score: bool = True,
    trajectories: list[str] | None = None,
    corpus_label: str | None = None,
    label: str | None = None,
) -> list[str]:
    """Write (and score) every system over the corpus; returns the run ids, in ``systems`` order.

    ``label`` makes a separate run (id suffix ``~label``) that shares the call log: with
    ``replay=True`` it re-enacts a recorded run document by document with no model loaded.

    ``backend``: the chat backend for LLM systems (default: the stand-in when offline, Ollama
    otherwise). Raises :class:`engine.models.base.ModelError` before any work when Ollama or a model
    is missing, :class:`RunCancelled` when ``cancel`` was set.
    """
    from seorap.engine.config import load_config

    config = config or load_config(offline=offline)
    progress = progress or NullProgress()
    workers = max(1, concurrency or config.concurrency or 1)
    trajs = [t for t in corpus.trajectories if not trajectories or t.id in trajectories]
    unknown = sorted(set(trajectories or ()) - {t.id for t in corpus.trajectories})
    if unknown:  # refused before any work: never an empty run marked done
        raise UsageError(f"trajectory {unknown[0]!r} is not in the corpus")
    resolved = [(name, get_system(name, config, variants_dirs)) for name in systems]
    llm = any(s.uses_llm for _, s in resolved)
    if llm and offline and backend is None:
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
    if llm and not replay:
        from seorap.engine.models.hosts import chat_hosts

        workers *= len(chat_hosts(config))  # concurrency is per host
    client = _client(config, db, offline, replay, backend) if llm else None
    if client is not None and hasattr(progress, "queued"):  # optional, like ``tokens``
        client.on_queue(progress.queued)
    emb = (embedder or make_write_embedder(config, db, offline)) if llm else None
    stop = _Stop(cancel)
    if client is not None:
        stop.clients.append(client)
    ids = [
        make_run_id(name, corpus, system, config) + (f"~{label}" if label else "")
        for name, system in resolved
    ]
    try:
        with writer(db, "run", ids):  # one writer at a time (docs/store.md)
            _write_all(
                db,
                corpus,
                resolved,
                ids,
                config,
                trajs,
                workers,
                progress,
                stop,
                offline,
                replay,
                corpus_label,
                client,
                emb,
                score,
            )
    except sqlite3.Error as exc:
        raise (translate_sqlite_error(exc, db_file(db)) or exc) from exc
    return ids


def _write_all(
    db: Database,
    corpus,
    resolved,
    ids,
    config,
    trajs,
    workers,
    progress,
    stop,
    offline,
    replay,
    corpus_label,
    client,
    emb,
    score,
) -> None:
    contexts, new = [], []  # new: replays this call created (removed again if they write nothing)
    for (name, system), run_id in zip(resolved, ids):
        if (
            _start_run(
                db, run_id, name, system, corpus, config, offline, replay, corpus_label, client, emb
            )
            and replay
        ):
            new.append(run_id)
        contexts.append((system, RunContext(run_id, config, name, client, emb, progress)))
    try:
        _extract_phase(contexts, trajs, db, workers, progress, stop)
        for system, ctx in contexts:
            _write_phase(system, ctx, trajs, db, workers, progress, stop)
            _record_served(db, ctx.run_id, client)
            _finish_run(db, ctx.run_id, "done")
    except (RunCancelled, KeyboardInterrupt) as exc:
        stop.stop()
        for _, ctx in contexts:
            with ctx.lock:  # a worker still committing a document finishes its transaction first
                _mark_unfinished(db, ctx.run_id, "cancelled", new=ctx.run_id in new)
        raise RunCancelled(cancelled_sentence(db, [c.run_id for _, c in contexts], trajs)) from (
            None if isinstance(exc, KeyboardInterrupt) else exc
        )
    except BaseException as exc:
        if isinstance(exc, LeaseLost):  # the file is another writer's now: write nothing more
            raise
        for _, ctx in contexts:
            with ctx.lock:
                _mark_unfinished(
                    db, ctx.run_id, "failed", f"{type(exc).__name__}: {exc}", new=ctx.run_id in new
                )
        raise
    if score:
        _score(db, [ctx.run_id for _, ctx in contexts], config, progress)


# ---- setup ----------------------------------------------------------------------------------------
def preflight(
    config: Config, roles=("extractor", "synthesizer", "embedder"), *, server: bool = True
) -> None:
    """Raise ModelError (one sentence with the fix) unless every role the run will use is servable:
    see :func:`engine.models.manage.preflight`."""
    from seorap.engine.models.manage import preflight as check

    check(config, roles, server=server)


def _roles_used(resolved, config: Config, *, offline: bool, replay: bool, score: bool) -> list[str]:
    """The model roles a run will use: extraction and synthesis for LLM systems (not replayed), the
    embedder for them and for scoring, answerer and judge when scoring follows."""
    roles: list[str] = []
    if any(s.uses_llm for _, s in resolved) and not replay:
        roles += ["extractor", "synthesizer", "embedder"]
    if score and not offline and not replay:  # a replay scores from the call log
        roles += ["answerer", "judge", "embedder"]
    return list(dict.fromkeys(roles))


def _client_db(db: Database):
    """A second connection to the same file for the call log, so call-log inserts never join a
    document's transaction (in-memory databases share the one connection)."""
    rows = db.execute("PRAGMA database_list").fetchall()
    path = next((r[2] for r in rows if r[1] == "main"), "")
    return open_db(path) if path else db


def _client(config: Config, db: Database, offline, replay, backend) -> ModelClient:
    from seorap.engine.models.client import ModelClient

    if backend is None and offline:
        from seorap.engine.models.standin import StandinBackend

        backend = StandinBackend.from_env()
    return ModelClient.from_config(config, _client_db(db), backend=backend, replay=replay)


def make_write_embedder(config: Config, db: Database, offline: bool):
    """The embedder for the write path: the configured one, wrapped in the vector cache."""
    from seorap.engine.models import embedders

    inner: Embedder
    if offline or config.embedder_backend == "hashing":
        inner = embedders.HashingEmbedder()
    else:
        inner = embedders.make_embedder(config)
    if isinstance(inner, embedders.HashingEmbedder):
        return inner
    return embedders.CachedEmbedder(inner, _client_db(db))


def _start_run(
    db: Database,
    run_id,
    name,
    system,
    corpus,
    config: Config,
    offline,
    replay,
    label,
    client: ModelClient | None,
    emb: Embedder | None,
) -> bool:
    """Insert or restart the run's row; True when the run is new."""
    models = {}
    if system.uses_llm:
        chat = client.backend if client is not None else None
        backend = chat.name if chat is not None else ""
        server = _server_facts(chat)
        models = {
            r: ModelInfo(name=config.role_model(r), backend=backend, **server)
            for r in ("extractor", "synthesizer")
        }
        models["embedder"] = ModelInfo(name=emb.name if emb is not None else "", backend="embedder")
    manifest = RunManifest(
        run_id=run_id,
        system=name,
        system_spec=system.spec(),
        corpus=label or str(corpus.root),
        corpus_digest=corpus.digest,
        trajectories=[t.id for t in corpus.trajectories],
        config=config.model_dump(mode="json"),
        config_hash=config_hash(system, config),
        offline=offline,
        replay=replay,
        models=models,
        packages=package_versions(),
    )
    existing = db.table("runs").count_where("run_id = ?", [run_id])
    row = {
        "run_id": run_id,
        "system": name,
        "corpus": manifest.corpus,
        "corpus_digest": corpus.digest,
        "config": dumps(manifest.config),
        "status": "running",
        "finished_at": None,
        "error": None,
    }
    if existing:
        db.table("runs").update(run_id, row)
    else:
        db.table("runs").insert(
            {**row, "manifest": manifest.model_dump_json(), "created_at": manifest.created_at}
        )
    return not existing


def _server_facts(chat) -> dict:
    """Hosts and the server's reported version, for the manifest (no I/O for a stand-in)."""
    if chat is None or getattr(chat, "name", "") in ("", STANDIN):
        return {}
    hosts = list(
        getattr(chat, "hosts", None)
        or ([chat.host] if isinstance(getattr(chat, "host", None), str) else [])
    )
    info: dict = {}
    server_info = getattr(chat, "server_info", None)
    if callable(server_info):
        try:
            info = server_info() or {}
        except Exception:  # noqa: BLE001 - a version we cannot read is simply not recorded
            info = {}
    return {"hosts": hosts, "server_version": info.get("version")}


def _record_served(db: Database, run_id: str, client) -> None:
    """The model names the server said it served (OpenAI-compatible backends), into the manifest."""
    served = getattr(getattr(client, "backend", None), "served", None)
    if not callable(served):
        return
    row = db.table("runs").get(run_id)
    manifest = json.loads(row["manifest"])
    for info in manifest.get("models", {}).values():
        if info.get("backend") == getattr(client.backend, "name", None):
            info["served"] = served(info["name"]) or info.get("served")
    db.table("runs").update(run_id, {"manifest": json.dumps(manifest, ensure_ascii=False)})


def _finish_run(db: Database, run_id: str, status: str) -> None:
    manifest = json.loads(db.table("runs").get(run_id)["manifest"])
    digests = {
        r["model"]: r["digest"]
        for r in db.query(
            "SELECT model, digest FROM calls WHERE digest IS NOT NULL GROUP BY model, digest"
        )
    }
    for info in manifest.get("models", {}).values():
        info["digest"] = digests.get(info["name"], info.get("digest"))
    with transaction(db):  # under the writer lease
        db.table("runs").update(
            run_id,
            {
                "status": status,
                "manifest": json.dumps(manifest, ensure_ascii=False),
                "finished_at": _now(),
            },
        )


def _mark_unfinished(
    db: Database, run_id: str, status: str, error: str | None = None, *, new: bool = False
) -> None:
    """Mark a run that stopped; a replay this call created that wrote no document is removed
    instead (a failed or cancelled replay leaves no empty run behind; a cancelled run stays, to
    resume). A database that cannot be written (disk full) keeps ``running``, which reads as
    ``interrupted`` once the lease lapses."""
    try:
        if new and db.table("documents").count_where("run_id = ?", [run_id]) == 0:
            db.execute("DELETE FROM runs WHERE run_id = ?", [run_id])
        elif db.table("runs").get(run_id)["status"] == "running":
            db.table("runs").update(run_id, {"status": status, "error": error})
    except sqlite3.Error:
        pass


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ---- phases ---------------------------------------------------------------------------------------
def _pending(db: Database, run_id: str, trajectory: Trajectory, lock) -> list:
    with lock:
        done = done_positions(db, run_id, trajectory.id)
    return [a for a in trajectory.arrivals() if a.position not in done]


def _extract_phase(contexts, trajs, db: Database, workers, progress, stop) -> None:
    jobs = [
        (system, ctx, t, a)
        for system, ctx in contexts
        if system.uses_llm
        for t in trajs
        for a in _pending(db, ctx.run_id, t, ctx.lock)
    ]
    if not jobs:
        return
    progress.start_phase("extract", len(jobs))
    timer = accounting.phase_timer(db, [ctx.run_id for _, ctx, _, _ in jobs], "extract", len(jobs))

    def one(job):
        system, ctx, trajectory, arrival = job
        _check(stop)
        result = system.extract(arrival, ctx)  # logged in the calls table; re-read when writing
        if not _rereadable(ctx):
            ctx.extractions[(trajectory.id, arrival.position)] = result
        progress.advance(trajectory.id, 1, arrival.document.id)
        _tokens(progress, ctx.client)

    with timer:
        _pool(one, jobs, workers, stop)
        progress.finish_phase()
        _prefetch_vectors(jobs, stop)


def _rereadable(ctx: RunContext) -> bool:
    """True when the client logs calls, so an extraction can be served again from the log."""
    return ctx.client is not None and ctx.client.db is not None


EMBED_BATCH = 256


def _prefetch_vectors(jobs, cancel=None) -> None:
    """Embed every extracted observation before the write phase when vectors are cached (an
    Ollama or bge-m3 embedder), so the embedding model is not interleaved with the synthesizer
    document by document (docs/design.md#quality-bars: one model swap per model per phase).
    Extractions are re-read from the call log (no model call) and embedded EMBED_BATCH texts at a
    time, so memory stays bounded by a batch; a text seen before is served from the vector cache."""
    from seorap.engine.models.embedders import CachedEmbedder

    embedder = next((ctx.embedder for _, ctx, _, _ in jobs if ctx.embedder is not None), None)
    if not isinstance(embedder, CachedEmbedder):  # no cache: nothing to gain
        return
    batch: dict[str, None] = {}
    for system, ctx, trajectory, arrival in jobs:
        _check(cancel)
        result = ctx.extractions.get((trajectory.id, arrival.position)) or system.extract(
            arrival, ctx
        )
        if result.value is None:
            continue
        batch.update((o.text.strip(), None) for o in result.value.observations if o.text.strip())
        if len(batch) >= EMBED_BATCH:
            embedder.embed(list(batch))
            batch.clear()
    if batch:
        embedder.embed(list(batch))


def _write_phase(system, ctx: RunContext, trajs, db: Database, workers, progress, stop) -> None:
    pending = {t.id: _pending(db, ctx.run_id, t, ctx.lock) for t in trajs}
    total = sum(len(v) for v in pending.values())
    progress.start_phase(f"write {ctx.name}", total)
    if total == 0 or all(not v for v in pending.values()):
        progress.finish_phase()
        return

    def one(trajectory: Trajectory):
        if pending[trajectory.id]:
            write_trajectory(system, ctx, trajectory, pending[trajectory.id], db, stop)

    with accounting.phase_timer(db, [ctx.run_id], "write", total):
        _pool(one, trajs, workers, stop)
    progress.finish_phase()


def write_trajectory(
    system: ReferenceSystem | LLMSystem,
    ctx: RunContext,
    trajectory: Trajectory,
    arrivals,
    db: Database,
    cancel=None,
) -> None:
    """Write the given (pending) arrivals of one trajectory in order, one transaction each."""
    with ctx.lock:
        memory = TrajectoryMemory.load(db, ctx.run_id, trajectory.id)
    for arrival in arrivals:
        _check(cancel)
        doc = memory.begin(arrival)
        system.write(doc, trajectory, ctx)
        doc.commit(db, ctx.lock)
        ctx.extractions.pop((trajectory.id, arrival.position), None)
        for d in doc.decisions:
            ctx.progress.fact_written(
                ctx.run_id, trajectory.id, arrival.position, d["operation"], d["fact_id"], ""
            )
        ctx.progress.advance(trajectory.id, 1, arrival.document.id)
        _tokens(ctx.progress, ctx.client)


def _tokens(progress: Progress, client: ModelClient | None) -> None:
    """Feed the live tokens/s of a progress display that shows it (RichProgress.tokens): an
    optional method, not part of the Progress Protocol."""
    show = getattr(progress, "tokens", None)
    if show is not None and client is not None:
        show(client.stats.tokens_out)


def cancelled_sentence(db: Database, run_ids: list[str], trajs) -> str:
    """One sentence: how many documents are saved, and that the same command resumes."""
    total = sum(len(list(t.arrivals())) for t in trajs) * len(run_ids)
    marks = ",".join("?" for _ in run_ids)
    ids = [t.id for t in trajs]
    saved = (
        db.execute(
            f"SELECT count(*) FROM documents WHERE run_id IN ({marks}) AND trajectory_id IN "
            f"({','.join('?' for _ in ids)})",
            [*run_ids, *ids],
        ).fetchone()[0]
        if run_ids and ids
        else 0
    )
    return (
        f"Cancelled: {saved} of {total} documents are saved; run the same command again to "
        f"resume from there."
    )


def _check(stop) -> None:
    if stop is not None and stop.is_set():
        raise RunCancelled("run cancelled; run the same command again to resume")


STOP_GRACE_S = 1.5
"""After a stop, how long the calling thread waits for workers to leave (their streams are closed,
so they normally leave at once; one inside a long embedding batch is left to finish alone)."""


def _pool(fn, items, workers: int, stop: _Stop | None = None) -> None:
    """Run ``fn`` over ``items`` on ``workers`` threads while this thread watches: the first error
    (or a cancel, or Ctrl+C here) stops everything, so nothing queued starts after it."""
    stop = stop or _Stop(None)
    if not items:
        return

    def guarded(item):
        # The failing worker stops everything itself, before its thread can take the next item:
        # left to the watching thread, a busy machine lets a queued item start first.
        _check(stop)
        try:
            return fn(item)
        except BaseException as exc:
            stop.stop(exc)
            raise

    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="seorap")
    futures = [pool.submit(guarded, item) for item in items]
    try:
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=0.1, return_when=FIRST_EXCEPTION)
            if stop.error is not None:  # set before its future completes: it wins every race
                raise stop.error
            for future in done:  # only cancellations are left here: a real error is stop.error
                if (error := future.exception()) is not None:
                    raise error
            if stop.is_set():
                raise RunCancelled("run cancelled; run the same command again to resume")
    except BaseException:
        stop.stop()
        for future in futures:
            future.cancel()
        pool.shutdown(wait=False, cancel_futures=True)
        _join_workers(pool, STOP_GRACE_S)
        raise
    pool.shutdown(wait=True)


def _join_workers(pool: ThreadPoolExecutor, grace_s: float) -> None:
    deadline = time.monotonic() + grace_s
    for thread in list(getattr(pool, "_threads", ())):
        thread.join(max(0.0, deadline - time.monotonic()))


def _score(db: Database, run_ids: list[str], config: Config, progress: Progress) -> None:
    from seorap.engine.scoring import score_run

    for run_id in run_ids:
        with accounting.phase_timer(db, [run_id], "score"):
            score_run(db, run_id, config, progress=progress)


def open_run_db(path: str | Path | None):
    return open_db(path)
