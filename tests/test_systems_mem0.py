"""``--system mem0`` for real: mem0ai 2.2.1 (the ``seorap[mem0]`` extra) writing through the loopback
recorder to the test Ollama server, which answers mem0's extraction prompt from the document text
(tests/ollama_fake.py ``mem0_reply``)."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
from pathlib import Path

import pytest

if importlib.util.find_spec("mem0") is None:  # not imported here: seorap sets mem0's environment
    pytest.skip(
        'the mem0 extra is not installed (pip install "seorap[mem0]")', allow_module_level=True
    )

from timing_support import within  # noqa: E402

from seorap.engine.config import Config  # noqa: E402
from seorap.engine.corpus import load_corpus  # noqa: E402
from seorap.engine.memory.foreign import SystemFault  # noqa: E402
from seorap.engine.run.runner import run  # noqa: E402
from seorap.engine.store.database import open_db  # noqa: E402

CORPUS = Path(__file__).parent.parent / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"


def mem0_run(server, db, **kwargs):
    return run(load_corpus(CORPUS), ["mem0"], db, Config.offline(host=server.url), **kwargs)


def test_mem0_writes_facts_scores_both_times_and_logs_its_calls(ollama_server, tmp_path):
    db = open_db(tmp_path / "r.db")
    [run_id] = mem0_run(ollama_server, db, concurrency=1)
    assert db.table("runs").get(run_id)["status"] == "done"
    manifest = json.loads(db.table("runs").get(run_id)["manifest"])
    assert manifest["capabilities"]["updates_at_write"] is False
    assert manifest["capabilities"]["takes_dates"] is False
    facts = db.execute("SELECT count(*) FROM facts WHERE run_id = ?", [run_id]).fetchone()[0]
    assert facts > 0
    ops = db.execute("SELECT DISTINCT operation, raw_operation FROM decisions").fetchall()
    assert ops == [("create", "ADD")]  # mem0 2.x only adds
    docs = db.execute("SELECT count(*) FROM documents").fetchone()[0]
    calls = db.execute("SELECT role, phase, run_id FROM calls").fetchall()
    assert calls == [("extractor", "mem0", run_id)] * docs  # one chat call per add, in our log
    assert (tmp_path / "r.db.mem0" / run_id).is_dir()  # its store beside the database
    card = json.loads(next(db.query("SELECT card FROM scores WHERE trajectory_id != ''"))["card"])
    assert card["intrinsic"]["full"]["fact_accuracy"] is not None
    assert card["read_time"]["reads"] > 0
    assert {r["source"] for r in card["read_time"]["rows"]} == {"own search"}
    assert card["intrinsic"]["append_only"] is True  # UDR n/a


def test_second_run_a_day_later_is_served_from_the_cache(ollama_server, tmp_path, monkeypatch):
    db = open_db(tmp_path / "r.db")
    mem0_run(ollama_server, db, concurrency=1, score=False)
    first = ollama_server.bodies("/api/chat")
    assert first and "## Current Date" in first[0]["messages"][-1]["content"]

    import mem0.configs.prompts as prompts

    class Tomorrow(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return dt.datetime.now(tz) + dt.timedelta(days=1)

    monkeypatch.setattr(prompts, "datetime", Tomorrow)
    tomorrow = (dt.datetime.now(dt.UTC) + dt.timedelta(days=1)).date().isoformat()
    assert f"## Current Date\n{tomorrow}" in prompts.generate_additive_extraction_prompt(
        new_messages="x"
    )  # mem0's prompt really changes
    [again] = mem0_run(ollama_server, db, concurrency=1, score=False, label="tomorrow")
    assert db.table("runs").get(again)["status"] == "done"
    assert len(ollama_server.bodies("/api/chat")) == len(first)  # 0 model calls
    facts = db.execute("SELECT count(*) FROM facts WHERE run_id = ?", [again]).fetchone()[0]
    assert facts > 0


def test_mem0_not_installed_names_the_extra(monkeypatch):
    from importlib import metadata

    from seorap.engine.memory import get_system

    real = metadata.version

    def version(name):
        if name == "mem0ai":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", version)
    with pytest.raises(SystemFault, match=r'pip install "seorap\[mem0\]"'):
        get_system("mem0")


def test_mem0_folder_not_writable_is_one_sentence(ollama_server, tmp_path):
    (tmp_path / "r.db.mem0").write_text("in the way")
    db = open_db(tmp_path / "r.db")
    with pytest.raises(SystemFault, match="system mem0: cannot write its folder"):
        mem0_run(ollama_server, db, concurrency=1)
    assert db.execute("SELECT status FROM runs").fetchone()[0] == "failed"


async def test_a_mem0_run_opens_in_the_app_with_its_reads(ollama_server, tmp_path):
    from seorap.tui.factory import make_app
    from seorap.tui.screens.stepper import StepperScreen
    from seorap.tui.widgets.claims_table import ClaimsTable
    from seorap.tui.widgets.detail import DetailPane

    db = open_db(tmp_path / "r.db")
    [run_id] = mem0_run(ollama_server, db, concurrency=1)
    app = make_app(tmp_path / "r.db", run_id=run_id, trajectory_id="ko-c3-hiring-plan")
    async with app.run_test(size=(180, 50)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StepperScreen)
        step = app.screen.step
        assert step is not None and step.written and step.operations
        assert {o.raw_operation for o in step.operations} == {"ADD"}
        assert any(c.read is not None and c.read.hits for c in step.claims)
        app.screen.query_one(ClaimsTable).focus()
        await pilot.pause()
        assert "read time (own search)" in app.screen.query_one(DetailPane).content


def test_cancel_stops_mem0_within_2s_and_the_run_resumes(ollama_server, tmp_path):
    import threading
    import time

    from seorap.engine.errors import RunCancelled

    ollama_server.fail("delay", seconds=30)  # the first extraction hangs
    db = open_db(tmp_path / "r.db")
    cancel = threading.Event()
    threading.Timer(2.0, cancel.set).start()
    start = time.monotonic()
    with pytest.raises(RunCancelled):
        mem0_run(ollama_server, db, concurrency=1, score=False, cancel=cancel)
    assert time.monotonic() - start < 2.0 + within(2.0)
    assert db.execute("SELECT status FROM runs").fetchone()[0] == "cancelled"
    [run_id] = mem0_run(ollama_server, db, concurrency=1, score=False)
    assert db.table("runs").get(run_id)["status"] == "done"


def test_runs_rm_removes_the_runs_mem0_folder_and_says_so(ollama_server, tmp_path):
    from click.testing import CliRunner

    from seorap.cli.main import cli

    path = tmp_path / "r.db"
    db = open_db(path)
    [run_id] = mem0_run(ollama_server, db, concurrency=1, score=False)
    folder = tmp_path / "r.db.mem0" / run_id
    other = tmp_path / "r.db.mem0" / "another-run"  # another run's stores stay
    other.mkdir()
    assert folder.is_dir()
    dry = CliRunner().invoke(cli, ["runs", "rm", run_id, "--dry-run", "--db", str(path)])
    assert dry.exit_code == 0, dry.output
    assert f"would delete run {run_id} (" in dry.output and " documents" in dry.output
    assert f"and remove its mem0 folder {folder} (" in dry.output
    assert folder.is_dir() and open_db(path)["runs"].count == 1  # a dry look changes nothing
    done = CliRunner().invoke(cli, ["runs", "rm", run_id, "--yes", "--db", str(path)])
    assert done.exit_code == 0, done.output
    assert f"removed its mem0 folder {folder} (" in done.output
    assert not folder.exists() and other.is_dir()
    assert open_db(path)["runs"].count == 0


def test_plan_counts_one_mem0_call_per_document_still_to_write(ollama_server, tmp_path):
    from seorap.engine.run import planner

    corpus = load_corpus(CORPUS)
    docs = sum(1 for t in corpus.trajectories for _ in t.arrivals())
    text = sum(len(a.document.text) for t in corpus.trajectories for a in t.arrivals())
    config = Config.offline(host=ollama_server.url)
    plan = planner.plan_run(corpus, ["mem0"], config, None, score=False)
    [ext] = plan.roles
    assert (ext.role, ext.calls, ext.exact) == ("extractor", docs, False)
    assert ext.prompt_tokens == pytest.approx(text * planner.DEFAULT_RATIO)  # the text only
    assert any(f"mem0: {docs} extractor calls counted" in n for n in plan.notes)
    assert ollama_server.bodies("/api/chat") == []  # planning calls nothing
    db = open_db(tmp_path / "r.db")
    mem0_run(ollama_server, db, concurrency=1, score=False)
    again = planner.plan_run(corpus, ["mem0"], config, db, score=False)
    assert not any(r.calls for r in again.roles)  # written: nothing left to call


def test_plan_says_when_a_systems_own_calls_are_not_estimated():
    from seorap.engine.run import planner

    plan = planner.plan_run(load_corpus(CORPUS), ["systems_support:talker"], Config(), None)
    assert any("talker: its model calls are not estimated" in n for n in plan.notes)
