"""The phases of a run: extract every pending document, then write each system trajectory by
trajectory (engine/run/runner.py explains the order of work)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from sqlite_utils import Database

from seorap.engine.config import Config
from seorap.engine.corpus import Arrival, Trajectory
from seorap.engine.memory.facts import DocumentWrite, TrajectoryMemory
from seorap.engine.models.embedders import CachedEmbedder, HashingEmbedder
from seorap.engine.run import accounting, readtime
from seorap.engine.run.pool import _check, _pool, _Stop
from seorap.engine.run.progress import NullProgress, Progress
from seorap.engine.scoring.slot_questions import question_for
from seorap.engine.store.database import done_positions, transaction
from seorap.engine.store.queries.writes import delete_trajectory

if TYPE_CHECKING:
    from seorap.engine.memory import System
    from seorap.engine.memory.foreign import ForeignSystem
    from seorap.engine.memory.llm import LLMSystem
    from seorap.engine.memory.reference import ReferenceSystem
    from seorap.engine.models.base import Embedder
    from seorap.engine.models.client import ModelClient
    from seorap.engine.run.replan import Replan
    from seorap.engine.scoring.glossary import Glossary

    Job = tuple[LLMSystem, "RunContext", Trajectory, Arrival]
    """One extraction: the system, its run, the trajectory and the document."""


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
    db_path: str = ""
    """The run database's file ("" in memory): a system keeping its own files puts them beside it."""
    glossary: Glossary | None = None
    """The corpus's aliases: a name in an observation is grounded by another name of it."""
    replan: Replan | None = None
    """The run's plan and its re-estimates (engine/run/replan.py); None: nothing to re-plan."""


def _pending(
    db: Database, run_id: str, trajectory: Trajectory, lock: threading.Lock
) -> list[Arrival]:
    with lock:
        done = done_positions(db, run_id, trajectory.id)
    return [a for a in trajectory.arrivals() if a.position not in done]


def _extract_phase(
    contexts: list[tuple[System, RunContext]],
    trajs: list[Trajectory],
    db: Database,
    workers: int,
    progress: Progress,
    stop: _Stop,
) -> None:
    jobs: list[Job] = [
        (cast("LLMSystem", system), ctx, t, a)
        for system, ctx in contexts
        if system.uses_llm and hasattr(system, "extract")  # a foreign system extracts itself
        for t in trajs
        for a in _pending(db, ctx.run_id, t, ctx.lock)
    ]
    if not jobs:
        return
    progress.start_phase("extract", len(jobs))
    timer = accounting.phase_timer(db, [ctx.run_id for _, ctx, _, _ in jobs], "extract", len(jobs))

    def one(job: Job) -> None:
        system, ctx, trajectory, arrival = job
        _check(stop)
        result = system.extract(arrival, ctx)  # logged in the calls table; re-read when writing
        if not _rereadable(ctx):
            ctx.extractions[(trajectory.id, arrival.position)] = result
        if ctx.replan is not None:
            key = (ctx.run_id, trajectory.id, arrival.position)
            ctx.replan.yielded(key, system.synthesis_calls(result, arrival, ctx))
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


def _prefetch_vectors(jobs: list[Job], cancel: _Stop | None = None) -> None:
    """Embed every extracted observation (and every claim the read-time lookups will query with)
    before the write phase when vectors are cached (an
    Ollama or bge-m3 embedder), so the embedding model is not interleaved with the synthesizer
    document by document (docs/design.md#quality-bars: one model swap per model per phase).
    Extractions are re-read from the call log (no model call) and embedded EMBED_BATCH texts at a
    time, so memory stays bounded by a batch; a text seen before is served from the vector cache."""

    embedder = next((ctx.embedder for _, ctx, _, _ in jobs if ctx.embedder is not None), None)
    if not isinstance(embedder, CachedEmbedder):  # no cache: nothing to gain
        return
    batch: dict[str, None] = {}
    for system, ctx, trajectory, arrival in jobs:
        _check(cancel)
        result = ctx.extractions.get((trajectory.id, arrival.position)) or system.extract(
            arrival, ctx
        )
        # the read-time lookups after this document query with its claims' slot questions
        claims = trajectory.states[arrival.state_index].claims
        batch.update((question_for(trajectory, c).text, None) for c in claims)
        if result.value is None:
            continue
        batch.update((o.text.strip(), None) for o in result.value.observations if o.text.strip())
        if len(batch) >= EMBED_BATCH:
            embedder.embed(list(batch))
            batch.clear()
    if batch:
        embedder.embed(list(batch))


def _write_phase(
    system: System,
    ctx: RunContext,
    trajs: list[Trajectory],
    db: Database,
    workers: int,
    progress: Progress,
    stop: _Stop,
) -> None:
    pending = {t.id: _pending(db, ctx.run_id, t, ctx.lock) for t in trajs}
    total = sum(len(v) for v in pending.values())
    progress.start_phase(f"write {ctx.name}", total)
    if total == 0 or all(not v for v in pending.values()):
        progress.finish_phase()
        return

    def one(trajectory: Trajectory) -> None:
        if pending[trajectory.id]:
            write_trajectory(system, ctx, trajectory, pending[trajectory.id], db, stop)

    with accounting.phase_timer(db, [ctx.run_id], "write", total):
        _pool(one, trajs, workers, stop)
    progress.finish_phase()


def write_trajectory(
    system: ReferenceSystem | LLMSystem | ForeignSystem,
    ctx: RunContext,
    trajectory: Trajectory,
    arrivals: list[Arrival],
    db: Database,
    cancel: _Stop | None = None,
) -> None:
    """Write the given (pending) arrivals of one trajectory in order, one transaction each, with
    the read-time lookups after each (engine/run/readtime.py). A system whose memory lives outside
    seorap (``fresh_on_resume``) restarts an unfinished trajectory from its first document."""
    every = list(trajectory.arrivals())
    if getattr(system, "fresh_on_resume", False) and len(arrivals) < len(every):
        with ctx.lock:
            clear_trajectory(db, ctx.run_id, trajectory.id)
        arrivals = every
    with ctx.lock:
        memory = TrajectoryMemory.load(db, ctx.run_id, trajectory.id)
    embedder = ctx.embedder or HashingEmbedder()
    try:
        for arrival in arrivals:
            _check(cancel)
            doc = memory.begin(arrival)
            system.write(doc, trajectory, ctx)
            doc.reads = readtime.lookups(
                system, doc, trajectory, ctx.config.retrieval.top_k, embedder, ctx.config.retrieval
            )
            doc.questions = readtime.question_lookups(system, doc, trajectory)
            doc.commit(db, ctx.lock)
            _written(ctx, trajectory, arrival, doc)
    finally:
        finish = getattr(system, "finish", None)
        if finish is not None:
            finish(ctx.run_id, trajectory.id)


def _written(ctx: RunContext, trajectory: Trajectory, arrival: Arrival, doc: DocumentWrite) -> None:
    ctx.extractions.pop((trajectory.id, arrival.position), None)
    for d in doc.decisions:
        ctx.progress.fact_written(
            ctx.run_id, trajectory.id, arrival.position, d["operation"], d["fact_id"], ""
        )
    ctx.progress.advance(trajectory.id, 1, arrival.document.id)
    _tokens(ctx.progress, ctx.client)
    if ctx.replan is not None:
        show_estimate(
            ctx.progress, ctx.replan.written((ctx.run_id, trajectory.id, arrival.position))
        )


def show_estimate(progress: Progress, line: str) -> None:
    """The re-estimated time left, on a progress display's line when it shows one
    (RichProgress.estimate: an optional method), else as a message (the app's live view)."""
    show = getattr(progress, "estimate", None)
    if show is not None:
        show(line)
    else:
        progress.message(line)


TRAJECTORY_TABLES = (
    "documents",
    "observations",
    "facts",
    "fact_versions",
    "decisions",
    "write_failures",
    "read_lookups",
    "question_lookups",
)


def clear_trajectory(db: Database, run_id: str, trajectory_id: str) -> None:
    """Remove what a run wrote of one trajectory (one transaction), so it is written afresh."""
    with transaction(db):
        for table in TRAJECTORY_TABLES:
            delete_trajectory(db, table, run_id, trajectory_id)


def _tokens(progress: Progress, client: ModelClient | None) -> None:
    """Feed the live tokens/s of a progress display that shows it (RichProgress.tokens): an
    optional method, not part of the Progress Protocol."""
    show = getattr(progress, "tokens", None)
    if show is not None and client is not None:
        show(client.stats.tokens_out)
