"""The three ways in through --system, run for real: exec:COMMAND (examples/jsonl_memory.py and a
deliberately broken program), module:factory, and the parse rule; faults are one sentence."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.errors import RunCancelled
from seorap.engine.memory import get_system
from seorap.engine.memory.foreign import SystemFault
from seorap.engine.memory.systems import is_factory
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = f"exec:{sys.executable} {ROOT / 'examples' / 'jsonl_memory.py'}"
BROKEN = f"exec:{sys.executable} {ROOT / 'examples' / 'broken_memory.py'}"
ONE = "ko-c1-daon-backup"


def corpus():
    return load_corpus(ROOT / "fixtures" / "ko-mini")


def test_parse_rule():
    assert is_factory("pkg.mod:factory")
    assert is_factory("systems_support:forgetful")
    assert not is_factory("A:guard=merge,confidence=authors")
    assert not is_factory("A")
    assert not is_factory("exec:python x.py")
    assert get_system("oracle").capabilities.own_search is False
    assert get_system("C").capabilities.updates_at_write is False
    assert get_system("A:guard=merge").variant.guard == "merge"


def test_example_exec_system_runs_end_to_end(tmp_path):
    db = open_db(tmp_path / "r.db")
    [run_id] = run(corpus(), [EXAMPLE], db, Config.offline(), trajectories=[ONE])
    assert run_id.startswith("jsonl-example-")
    assert db.table("runs").get(run_id)["status"] == "done"
    ops = {r["raw_operation"] for r in db.query("SELECT raw_operation FROM decisions")}
    assert "create" in ops and "update" in ops  # the system's own words, recorded
    assert facts(db, run_id) > 0
    sources = {r["source"] for r in db.query("SELECT source FROM read_lookups")}
    assert sources == {"own search"}
    card = next(db.query("SELECT card FROM scores WHERE trajectory_id = ?", [ONE]))["card"]
    assert '"read_time"' in card
    # the same command again: everything is done, nothing is rewritten
    before = facts(db, run_id)
    run(corpus(), [EXAMPLE], db, Config.offline(), trajectories=[ONE], score=False)
    assert facts(db, run_id) == before


def facts(db, run_id):
    return db.execute("SELECT count(*) FROM facts WHERE run_id = ?", [run_id]).fetchone()[0]


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("crash", "exited during write (exit code 3): broken_memory: the store is corrupt"),
        ("notjson", "answered write with a line that is not JSON"),
        ("wrongid", "answered request 3 (write) with id 103"),
        ("error", "write failed: disk quota exceeded"),
    ],
)
def test_broken_exec_system_is_one_sentence_and_the_run_failed(tmp_path, mode, words):
    db = open_db(tmp_path / "r.db")
    with pytest.raises(SystemFault) as err:
        run(corpus(), [f"{BROKEN} {mode}"], db, Config.offline(), trajectories=[ONE])
    message = str(err.value)
    assert words in message and "\n" not in message
    [row] = list(db.query("SELECT status, error FROM runs"))
    assert row["status"] == "failed"


def test_silent_exec_system_stops_within_the_silence_limit(tmp_path):
    db = open_db(tmp_path / "r.db")
    # 3 s: the program's start and handshake come first, and a loaded machine starts Python slowly
    config = Config.offline().with_overrides(timeout_s=3.0)
    start = time.monotonic()
    with pytest.raises(SystemFault, match="no reply to write within 3 s"):
        run(corpus(), [f"{BROKEN} silent"], db, config, trajectories=[ONE])
    assert time.monotonic() - start < 20


def test_cancel_stops_a_silent_exec_system_within_2s(tmp_path):
    db = open_db(tmp_path / "r.db")
    cancel = threading.Event()
    cancelled_at: list[float] = []

    def press_cancel() -> None:
        cancelled_at.append(time.monotonic())
        cancel.set()

    threading.Timer(1.0, press_cancel).start()
    with pytest.raises(RunCancelled):
        run(corpus(), [f"{BROKEN} silent"], db, Config.offline(), trajectories=[ONE], cancel=cancel)
    assert time.monotonic() - cancelled_at[0] < 2.0  # from the cancel, whatever the start took


@pytest.mark.parametrize(
    ("system", "words"),
    [
        (f"{BROKEN} oldprotocol", "speaks protocol 0; seorap speaks 1"),
        ("exec:/no/such/program --flag", "cannot start '/no/such/program'"),
        ("exec:", "names no command"),
        ("no_such_module_xyz:factory", "cannot import 'no_such_module_xyz'"),
        ("systems_support:raises", "raises() raised RuntimeError: no licence key"),
        ("systems_support:not_a_system", "which has no name, capabilities, spec, open"),
        ("systems_support:missing", "has no callable 'missing'"),
    ],
)
def test_bad_systems_fail_before_any_work(tmp_path, system, words):
    result = CliRunner().invoke(
        cli,
        ["run", "--system", system, "--corpus", str(ROOT / "fixtures" / "ko-mini"), "--offline"]
        + ["--db", str(tmp_path / "r.db")],
    )
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert not (tmp_path / "r.db").exists()


def test_unfinished_trajectory_of_an_external_system_restarts_from_its_first_document(tmp_path):
    db = open_db(tmp_path / "r.db")
    [run_id] = run(corpus(), [EXAMPLE], db, Config.offline(), trajectories=[ONE], score=False)
    whole = facts(db, run_id)
    last = db.execute("SELECT max(position) FROM documents").fetchone()[0]
    db.execute("DELETE FROM documents WHERE position = ?", [last])  # as if stopped before it
    db.conn.commit()
    run(corpus(), [EXAMPLE], db, Config.offline(), trajectories=[ONE], score=False)
    assert facts(db, run_id) == whole  # written afresh from document 0, not on top
    assert db.execute("SELECT count(*) FROM documents").fetchone()[0] == last + 1


def test_an_installed_package_adds_a_name_through_the_entry_point_group(monkeypatch):
    from importlib import metadata

    from seorap.engine.memory import list_systems, systems

    point = metadata.EntryPoint("forgetful-pkg", "systems_support:forgetful", "seorap.systems")

    def entry_points(group=None):
        return [point] if group == systems.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(systems.metadata, "entry_points", entry_points)
    assert "forgetful-pkg" in list_systems()
    system = get_system("forgetful-pkg")
    assert system.inner.name == "forgetful" and system.capabilities.own_search
