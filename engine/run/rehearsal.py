"""Rehearsing a recorded run: `seorap demo --replay RUN` and the live view's `p`.

A presenter rehearses the same recorded run again and again, so a rehearsal writes one scratch run,
``{run}~rehearsal``, and the next rehearsal of that run removes it first (its rows and its folders,
through the guarded removal `seorap runs rm` uses, engine/run/removal.py): the database keeps one
scratch run however often the demo is rehearsed, and a bare system name keeps meaning the user's
own runs. The recorded run and every other run are never touched. ``keep`` saves the rehearsal as
a run of its own instead, ``{run}~replay``, ``{run}~replay-2``…, which the next rehearsal leaves
alone (replays written before rehearsals were scratch carry these labels too)."""

from __future__ import annotations

import threading

from sqlite_utils import Database

from seorap.engine.config import Config
from seorap.engine.corpus import Corpus
from seorap.engine.errors import NothingToReplay, UsageError
from seorap.engine.memory import get_system
from seorap.engine.run.pacer import Pacer
from seorap.engine.run.progress import Progress
from seorap.engine.run.records import make_run_id
from seorap.engine.run.removal import remove_run
from seorap.engine.run.runner import nothing_to_replay, replay_run
from seorap.engine.store.damage import stored_json
from seorap.engine.store.lease import writer
from seorap.engine.store.queries.runs import exists, ids_like, manifest_field

SCRATCH = "rehearsal"
"""The label of the one scratch run a rehearsal writes (replaced by the next rehearsal)."""
KEPT = "replay"
"""The label of a kept rehearsal (``replay``, then ``replay-2``, ``replay-3``…)."""


def rehearse(
    db: Database,
    run_id: str,
    corpus: Corpus,
    *,
    keep: bool = False,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    pacer: Pacer | None = None,
) -> str:
    """Replay ``run_id`` from the call log (:func:`engine.run.runner.replay_run`) into the scratch
    run, replacing the previous one, or with ``keep`` into a new kept run; returns the id written.

    A rehearsal of a replay replays the recorded run it came from. Raises
    :class:`NothingToReplay` for a run with no model call, :class:`UsageError` when the scratch
    run's id is held by a run that is not a replay (nothing is removed then)."""
    source = _source(db, run_id)
    reason = nothing_to_replay(db, source)
    if reason:
        raise NothingToReplay(reason)
    if keep:
        return replay_run(
            db,
            source,
            corpus,
            label=kept_label(db, source),
            progress=progress,
            cancel=cancel,
            pacer=pacer,
        )
    scratch = scratch_id(db, source, corpus)
    if scratch == source:
        raise NothingToReplay(
            f"{source} is a rehearsal whose recorded run is no longer in the database, and the "
            "next rehearsal replaces it: keep a copy of it with --keep instead"
        )
    with writer(db, "replay", [scratch]):
        if exists(db, scratch):
            if not manifest_field(db, scratch, "replay"):
                raise UsageError(
                    f"{scratch} is a run of its own, not a rehearsal, and a rehearsal writes to "
                    f"that id: remove it (`seorap runs rm {scratch}`) or keep the rehearsal "
                    "(--keep)"
                )
            remove_run(db, scratch, command="replay")
        return replay_run(
            db, source, corpus, label=SCRATCH, progress=progress, cancel=cancel, pacer=pacer
        )


def _source(db: Database, run_id: str) -> str:
    """The run a rehearsal of ``run_id`` replays: the recorded run when ``run_id`` replays one."""
    base = run_id.split("~", 1)[0]
    return base if base != run_id and exists(db, base) else run_id


def scratch_id(db: Database, run_id: str, corpus: Corpus) -> str:
    """The id of the scratch run a rehearsal of ``run_id`` writes (the id the runner gives it)."""
    manifest = stored_json(db.table("runs").get(run_id)["manifest"], "manifest", run_id, {})
    config = Config.model_validate(manifest["config"])
    name = manifest.get("system") or db.table("runs").get(run_id)["system"]
    return f"{make_run_id(name, corpus, get_system(name, config), config)}~{SCRATCH}"


def is_scratch(run_id: str) -> bool:
    """A rehearsal's scratch run (replaced by the next rehearsal of its run)."""
    return run_id.partition("~")[2] == SCRATCH


def kept_label(db: Database, run_id: str) -> str:
    """``replay`` for the first kept rehearsal of a run, then ``replay-2``, ``replay-3``…"""
    base = run_id.split("~", 1)[0]
    taken = ids_like(db, f"{base}~{KEPT}%")
    n = 1
    while f"{base}~{KEPT if n == 1 else f'{KEPT}-{n}'}" in taken:
        n += 1
    return KEPT if n == 1 else f"{KEPT}-{n}"
