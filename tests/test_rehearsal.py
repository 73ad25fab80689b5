"""Rehearsing a recorded run (engine/run/rehearsal.py; issue 37): `seorap demo --replay` writes one
scratch run that the next rehearsal replaces — rows and folders, through the removal `runs rm`
uses — never touching the recorded run or another run; `--keep` saves a rehearsal as a run of its
own; a run of the user's own at the scratch id is refused, nothing removed."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.cli.runref import resolve_run
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.errors import UsageError
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run.rehearsal import rehearse
from seorap.engine.run.runner import run
from seorap.engine.safepath import component
from seorap.engine.store.database import facts_at, open_db, run_rows

CORPUS = Path(__file__).parent.parent / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"
TRAJECTORY = "ko-c3-hiring-plan"


def store(db, run_id):
    return [(f.text, f.status, f.version) for f in facts_at(db, run_id, TRAJECTORY)]


def ids(db) -> list[str]:
    return sorted(r["run_id"] for r in db.query("SELECT run_id FROM runs"))


@pytest.fixture
def recorded(ollama_server, tmp_path):
    """A live A run recorded through the fake Ollama server, and the reference system's run."""
    ollama_server.handler = ollama_handler(StandinBackend())
    corpus = load_corpus(CORPUS)
    db = open_db(tmp_path / "runs.db")
    [run_a] = run(corpus, ["A"], db, Config.offline(host=ollama_server.url), score=False)
    [oracle] = run(corpus, ["oracle"], db, Config.offline(), offline=True, score=False)
    ollama_server.handler = lambda body: pytest.fail("a rehearsal reached the model")
    return db, run_a, oracle, corpus


def _folder(db_path: Path, run_id: str, kind: str = "mem0") -> Path:
    folder = db_path.with_name(f"{db_path.name}.{kind}") / component(run_id) / TRAJECTORY
    folder.mkdir(parents=True)
    (folder / "store.bin").write_bytes(b"x" * 100)
    return folder.parent


def test_a_second_rehearsal_replaces_the_first_and_touches_no_other_run(recorded, tmp_path):
    db, run_a, oracle, corpus = recorded
    before = {r: (run_rows(db, r), store(db, r)) for r in (run_a, oracle)}
    first = rehearse(db, run_a, corpus)
    assert first == f"{run_a}~rehearsal"
    assert store(db, first) == store(db, run_a) != []
    stale = _folder(tmp_path / "runs.db", first)  # a store the first rehearsal left beside the db
    other = _folder(tmp_path / "runs.db", run_a)
    db.execute("UPDATE documents SET position = position WHERE run_id = ?", [first])
    marker = db.execute("SELECT COUNT(*) FROM documents WHERE run_id = ?", [first]).fetchone()[0]
    second = rehearse(db, first, corpus)  # rehearsing the rehearsal replays the recorded run
    assert second == first and ids(db) == sorted([run_a, oracle, first])
    assert not stale.exists() and other.is_dir()  # its folder went, the recorded run's stayed
    assert db.execute("SELECT COUNT(*) FROM documents WHERE run_id = ?", [first]).fetchone()[0] == (
        marker
    )  # replaced, not written twice
    assert store(db, second) == store(db, run_a)
    assert {r: (run_rows(db, r), store(db, r)) for r in (run_a, oracle)} == before


def test_keep_saves_each_rehearsal_as_a_run_of_its_own(recorded):
    db, run_a, oracle, corpus = recorded
    scratch = rehearse(db, run_a, corpus)
    kept = [rehearse(db, run_a, corpus, keep=True) for _ in range(2)]
    assert kept == [f"{run_a}~replay", f"{run_a}~replay-2"]
    assert ids(db) == sorted([run_a, oracle, scratch, *kept])
    assert all(store(db, k) == store(db, run_a) for k in kept)
    rehearse(db, run_a, corpus)  # the next scratch rehearsal leaves the kept ones alone
    assert ids(db) == sorted([run_a, oracle, scratch, *kept])
    # a bare system name still means the user's own run, never a rehearsal or a kept replay
    assert resolve_run(db, "A") == run_a
    assert resolve_run(db, "replay-2") == kept[1]


def test_a_run_of_ones_own_at_the_scratch_id_is_refused_and_kept(recorded, ollama_server):
    db, run_a, oracle, corpus = recorded
    ollama_server.handler = ollama_handler(StandinBackend())
    [mine] = run(
        corpus,
        ["A"],
        db,
        Config.offline(host=ollama_server.url),
        score=False,
        label="rehearsal",
    )
    db.execute(
        "UPDATE runs SET manifest = json_set(manifest, '$.replay', json('false')) WHERE run_id = ?",
        [mine],
    )
    facts = store(db, mine)
    with pytest.raises(UsageError, match="is a run of its own, not a rehearsal"):
        rehearse(db, run_a, corpus)
    assert store(db, mine) == facts != []


def test_a_run_with_no_model_call_is_refused_before_anything_is_removed(recorded):
    from seorap.engine.errors import NothingToReplay

    db, run_a, oracle, corpus = recorded
    with pytest.raises(NothingToReplay, match="no model call to replay"):
        rehearse(db, oracle, corpus)
    assert ids(db) == sorted([run_a, oracle])


@pytest.fixture
def demo_args(monkeypatch):
    """`seorap demo` without starting the app: the arguments it would be built with."""
    from seorap.tui import factory

    built: list[dict] = []

    class App:
        def run(self) -> None:
            pass

    def make_app(path, **kwargs):
        built.append(kwargs)
        return App()

    monkeypatch.setattr(factory, "make_app", make_app)
    return built


def test_demo_keep_needs_a_replay_and_reaches_the_app(recorded, demo_args, tmp_path):
    db, run_a, oracle, corpus = recorded
    path = str(tmp_path / "runs.db")
    base = ["demo", "--db", path, "--corpus", str(CORPUS), "--no-probe"]
    out = CliRunner().invoke(cli, [*base, "--keep"])
    assert out.exit_code == 2 and "--keep saves a replay: give --replay RUN too" in out.output
    assert not demo_args
    out = CliRunner().invoke(cli, [*base, "--replay", run_a, "--keep"])
    assert out.exit_code == 0, out.output
    assert demo_args[-1]["replay"] == run_a and demo_args[-1]["keep"] is True
    out = CliRunner().invoke(cli, [*base, "--replay", run_a])
    assert out.exit_code == 0, out.output
    assert demo_args[-1]["keep"] is False


def test_runs_rm_removes_a_kept_rehearsal_by_its_label(recorded, tmp_path):
    db, run_a, oracle, corpus = recorded
    kept = rehearse(db, run_a, corpus, keep=True)
    path = str(tmp_path / "runs.db")
    out = CliRunner().invoke(cli, ["runs", "rm", "replay", "--db", path, "--yes"])
    assert out.exit_code == 0 and f"deleted {kept}" in out.output, out.output
    assert ids(db) == sorted([run_a, oracle])
