"""`seorap demo` and `seorap inspect`: open the terminal app (docs/design.md#the-app)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from seorap.cli.params import CorpusType, FsPath, db_path_option
from seorap.cli.runref import resolve_run
from seorap.engine.memory.names import ORACLES, REFERENCE_DESCRIPTIONS
from seorap.engine.run.pacer import Pace, PaceError

if TYPE_CHECKING:
    from sqlite_utils import Database

    from seorap.engine.corpus import Corpus

REFERENCE_BANNER = (
    f"These runs are the offline reference systems ({', '.join(ORACLES)}): "
    "written from the corpus's ground truth with no LLM, not a model's results. "
    "Start live variants A/B/C from the live view (6) when Ollama is reachable."
)
RECORDED_SENTENCE = (
    "The run labelled 'recorded: ...' is a real small model's own work (its extraction habits, its "
    "create-only synthesis) replayed from its call log with no model (`seorap demo --replay "
    "recorded`), whereas a run labelled '(stand-in)' was written by an offline heuristic that "
    "ignores its prompts."
)


def default_demo_db() -> Path:
    """$SEORAP_DEMO_DB, else $XDG_DATA_HOME/seorap/demo.db (~/.local/share/seorap/demo.db)."""
    if os.environ.get("SEORAP_DEMO_DB"):
        return Path(os.environ["SEORAP_DEMO_DB"])
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "seorap" / "demo.db"


def _own_systems(db: Database) -> set[str]:
    """The systems of the runs the database holds, the imported recordings (and their replays)
    aside."""
    # start-up: `seorap --help` loads no sqlite_utils
    from seorap.engine.store.queries.runs import all_runs
    from seorap.engine.store.recording import recordings

    rows = all_runs(db)
    recorded = recordings(rows)
    return {r["system"] for r in rows if r["run_id"] not in recorded}


def _import_recordings(path: Path) -> None:
    """Bring the shipped recordings into the demo database (first use only; the package's files
    are only read); a damaged one is one sentence and the demo goes on without it."""
    # start-up: `seorap --help` loads no sqlite_utils
    from seorap.engine.store.database import open_db
    from seorap.engine.store.recording import RecordingError, import_shipped

    db = open_db(path)
    try:
        import_shipped(db)
    except RecordingError as exc:
        click.echo(f"warning: {exc}; the demo goes on without it", err=True)
    finally:
        db.conn.close()


@click.command()
@click.option(
    "--db",
    "db_path",
    type=FsPath(dir_okay=False),
    default=None,
    help="Run database (default: $SEORAP_DEMO_DB or ~/.local/share/seorap/demo.db).",
)
@click.option(
    "--corpus",
    "corpus_path",
    type=CorpusType(),
    default=None,
    help="A corpus folder, file or bundled corpus name (default: the bundled Korean corpus, "
    "ko-mini).",
)
@click.option("--tour/--no-tour", default=False, help="Open straight on the demo tour (view 7).")
@click.option(
    "--probe/--no-probe",
    default=True,
    help="Check Ollama after opening (1 s timeout): reachable → run variant A live; "
    "not → say so and keep to the offline reference systems.",
)
@click.option(
    "--replay",
    "replay_ref",
    default=None,
    metavar="RUN",
    help="Open the live view replaying this recorded live run from the call log (no model "
    "loaded, nothing written to the recorded run) into one scratch run, RUN~rehearsal, that the "
    "next replay replaces; `recorded` names the real model's run that ships with seorap "
    "(docs/demo.md): space pauses, → steps a call, ] a document, + and - change the speed.",
)
@click.option(
    "--keep",
    is_flag=True,
    help="Save the replay as a run of its own (RUN~replay, RUN~replay-2, ...) instead of the "
    "scratch run the next replay replaces.",
)
@click.option(
    "--pace",
    default="1x",
    show_default=True,
    callback=lambda ctx, param, value: _pace(value),
    help="How fast --replay (and p in the live view) goes: a factor of the recorded speed "
    "(2x, 0.5x) or a time per document (30s).",
)
def demo(
    db_path: str | None,
    corpus_path: str | None,
    tour: bool,
    probe: bool,
    replay_ref: str | None,
    keep: bool,
    pace: Pace,
) -> None:
    """Open the app on the bundled Korean corpus, immediately.

    When the database holds no run yet, the runs view opens at once (with the shipped recording's
    row) and the offline reference systems (oracle, oracle-stale, oracle-merged; no model) run
    behind it, a progress line under its banner, their rows added when done; the banner says
    these are reference systems. Nothing is downloaded.

    Then, without delaying the first paint, it checks Ollama (OLLAMA_HOST, 1 s timeout): when the
    server has the write-path models it runs variant A live over the corpus in the live view (x
    cancels, a resumes); otherwise a banner says Ollama is not reachable and how to start it.

    With --replay RUN it opens the live view replaying a recorded live run instead, at the
    recorded speed or --pace, with no model and no probe. A real small model's run ships with
    seorap and is imported into the demo database on first use: --replay recorded replays it.
    It writes one scratch run, RUN~rehearsal, which the next replay of RUN replaces (as `seorap
    runs rm` removes it); --keep saves the replay as a run of its own (RUN~replay, RUN~replay-2).
    """
    # start-up: `seorap --help` loads no the app, sqlite_utils
    from seorap.engine.corpus import load_corpus
    from seorap.engine.store.database import check_intact, open_db
    from seorap.engine.store.recording import recorded_runs
    from seorap.tui.factory import bundled_corpus_path, corpus_for, make_app

    _check_keep(keep, replay_ref)
    corpus = load_corpus(corpus_path or bundled_corpus_path())  # a bad corpus stops before any file
    path = Path(db_path) if db_path else default_demo_db()
    open_db(path).conn.close()  # create (or bring up to date) the file; the app then browses
    _import_recordings(path)
    db = open_db(path, readonly=True)  # read-only: runs and replays take write access themselves
    check_intact(db)
    replay = _replayable(db, replay_ref) if replay_ref else None
    if replay and not corpus_path:  # the recorded run's own corpus, when it is still there
        corpus = corpus_for(db, replay)
    systems = _own_systems(db)
    autorun = list(ORACLES) if not systems and not replay else []
    banner = REFERENCE_BANNER if autorun or systems <= set(REFERENCE_DESCRIPTIONS) else ""
    if recorded_runs(db):
        banner = f"{banner} {RECORDED_SENTENCE}".strip()
    app = make_app(
        path,
        corpus=corpus,
        banner=banner,
        db=db,
        autorun=autorun,
        start_mode="demo" if tour else None,
        probe_ollama=probe and not replay,
        replay=replay,
        pace=pace,
        keep=keep,
    )
    app.run()


def _check_keep(keep: bool, replay_ref: str | None) -> None:
    if keep and not replay_ref:
        raise click.BadParameter(
            "--keep saves a replay: give --replay RUN too", param_hint="--keep"
        )


def _pace(value: str) -> Pace:
    try:
        return Pace.parse(value)
    except PaceError as exc:
        raise click.BadParameter(str(exc), param_hint="--pace") from None


def _replayable(db: Database, value: str) -> str:
    """The run id ``--replay`` names, refused with one sentence when it has nothing to replay."""
    # start-up: `seorap --help` loads no numpy, sqlite_utils
    from seorap.cli.runref import resolve_run
    from seorap.engine.run.runner import nothing_to_replay
    from seorap.engine.store.recording import NAME, recorded_runs

    if value.strip() == NAME:
        shipped = recorded_runs(db)
        if not shipped:
            raise click.BadParameter(
                "no recorded run in the demo database (the package ships none)",
                param_hint="--replay",
            )
        value = shipped[0]
    run_id = resolve_run(db, value, "--replay")
    reason = nothing_to_replay(db, run_id)
    if reason:
        raise click.BadParameter(reason, param_hint="--replay")
    return run_id


@click.command()
@db_path_option(
    help="The run database to open (read for browsing; a run, a replay or an override "
    "started in the app writes to it)."
)
@click.option("--run", "run_id", default=None, help="Run id to select (default: the first run).")
@click.option(
    "--trajectory", "trajectory_id", default=None, help="Open the stepper on this trajectory."
)
@click.option(
    "--corpus",
    "corpus_path",
    type=CorpusType(),
    default=None,
    help="A corpus folder, file or bundled corpus name (default: the run's own corpus path "
    "when it exists, else the bundled one, ko-mini).",
)
def inspect(
    db_path: str, run_id: str | None, trajectory_id: str | None, corpus_path: str | None
) -> None:
    """Open the app on an existing run database (a run may be writing to it meanwhile).

    Browsing only reads; what you start in the app writes to the database: a run or a replay
    (live view) and a verdict override (o in the stepper or the questions view).

    --run takes a run id, a unique prefix of one, or a system name (A, oracle) with one run."""
    # start-up: `seorap --help` loads no the app, sqlite_utils
    from seorap.engine.corpus import CorpusError, load_corpus
    from seorap.engine.store.database import check_intact, open_db
    from seorap.tui.factory import corpus_for, make_app

    db = open_db(db_path, readonly=True)
    check_intact(db)  # damage is one sentence here, not an error in the middle of a screen
    if run_id is not None:
        run_id = resolve_run(db, run_id)
    try:
        corpus = load_corpus(corpus_path) if corpus_path else corpus_for(db, run_id)
    except CorpusError as exc:
        raise click.BadParameter(str(exc), param_hint="--corpus") from None
    _check_corpus(db, run_id, corpus, corpus_path)
    if trajectory_id is not None and trajectory_id not in {t.id for t in corpus.trajectories}:
        known = ", ".join(t.id for t in corpus.trajectories)
        raise click.BadParameter(
            f"no trajectory {trajectory_id!r} in the corpus. Trajectories: {known}",
            param_hint="--trajectory",
        )
    make_app(db_path, run_id=run_id, trajectory_id=trajectory_id, corpus=corpus, db=db).run()


def _check_corpus(
    db: Database, run_id: str | None, corpus: Corpus, corpus_path: str | None
) -> None:
    """Refuse to show a run against a corpus it was not made from (e.g. its relative corpus path
    does not resolve from here and the bundled corpus was picked instead)."""
    # start-up: `seorap --help` loads no sqlite_utils
    from seorap.engine.store.queries.runs import all_runs

    rows = (
        [r for r in all_runs(db) if run_id is None or r["run_id"] == run_id]
        if db["runs"].exists()
        else []
    )
    row = rows[0] if rows else None
    if (
        row is None
        or not row.get("corpus_digest")
        or corpus.digest.startswith(row["corpus_digest"])
    ):
        return
    given = f"--corpus {corpus_path}" if corpus_path else "the bundled corpus"
    raise click.UsageError(
        f"run {row['run_id']} was made from corpus {row['corpus']!r} (digest "
        f"{row['corpus_digest'][:8]}), which {given} is not (digest {corpus.digest[:8]}); "
        "pass --corpus with the corpus the run was made from."
    )
