"""One factory builds the app for the CLI (`seorap demo`, `seorap inspect`) and for the tests."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import sqlite_utils

from seorap.engine.corpus import Corpus, load_corpus
from seorap.engine.corpus.bundled import DEFAULT, FIXTURES
from seorap.engine.run.pacer import Pace
from seorap.engine.store.database import open_db, runs
from seorap.engine.views import scope_of
from seorap.tui.context import AppContext, Selection

if TYPE_CHECKING:
    from seorap.engine.config import Config
    from seorap.tui.app import SeorapApp

BUNDLED_CORPUS = FIXTURES / DEFAULT


def bundled_corpus_path() -> Path:
    """The bundled Korean corpus, located relative to the installed package (repo checkout)."""
    return BUNDLED_CORPUS


def first_trajectory(db: sqlite_utils.Database, run_id: str | None, corpus: Corpus) -> str:
    """The run's first trajectory: of its scope when it wrote only some (``--trajectory``), else
    the corpus's first."""
    row = next((r for r in runs(db) if r["run_id"] == run_id), None)  # one query, no counting
    scope = (scope_of(row.get("manifest")) if row else None) or ()
    return next((t.id for t in corpus.trajectories if t.id in scope), corpus.trajectories[0].id)


def corpus_for(db: sqlite_utils.Database, run_id: str | None) -> Corpus:
    """The corpus a run was made from when its path still exists, else the bundled one."""
    for r in runs(db):
        if (run_id is None or r["run_id"] == run_id) and r.get("corpus"):
            path = Path(r["corpus"])
            if path.exists():
                return load_corpus(path)
    return load_corpus(bundled_corpus_path())


def make_app(
    db_path: str | Path | None,
    run_id: str | None = None,
    trajectory_id: str | None = None,
    corpus: Corpus | str | Path | None = None,
    banner: str = "",
    db: sqlite_utils.Database | None = None,
    autorun: list[str] | None = None,
    start_mode: str | None = None,
    probe_ollama: bool = False,
    live_config: Config | None = None,
    replay: str | None = None,
    pace: Pace | None = None,
    keep: bool = False,
) -> SeorapApp:
    """Build the app on a run database. With ``trajectory_id`` it opens in the stepper; with
        ``autorun`` (system names) the live view runs them offline at once, built ahead and hidden,
        while the runs view shows the runs there are and the progress under its banner. With
        ``probe_ollama`` it checks Ollama after the first paint and, when reachable, runs variant A
        live (``live_config``: the Config for live runs, default load_config()). With ``replay`` (a run
        id) it opens the live view and replays that run at ``pace`` (default: the recorded speed), into
    the one scratch run each replay replaces, or with ``keep`` into a run of its own."""
    from seorap.tui.app import SeorapApp  # start-up: Textual loads only when an app is built

    db = db if db is not None else open_db(db_path)
    if corpus is None:
        corpus = corpus_for(db, run_id)
    elif not isinstance(corpus, Corpus):
        corpus = load_corpus(corpus)
    if run_id is None:
        all_runs = runs(db)
        run_id = all_runs[0]["run_id"] if all_runs else None
    start = "stepper" if trajectory_id else "runs"
    if trajectory_id is None and corpus.trajectories:
        trajectory_id = first_trajectory(db, run_id, corpus)
    ctx = AppContext(
        Path(db_path) if db_path else None,
        db,
        corpus,
        Selection(run_id=run_id, trajectory_id=trajectory_id),
        banner=banner,
        autorun=list(autorun or []),
        probe_ollama=probe_ollama,
        live_config=live_config,
        replay_pace=pace or Pace(),
        replay_start=replay,
        replay_keep=keep,
    )
    if replay:
        start = "live"
    return SeorapApp(ctx, start_mode=start_mode or start)
