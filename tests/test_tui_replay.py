"""Replay from the app (docs/design.md#who-it-is-for; issue 5): `6` then `p` re-enacts the selected
recorded live run from the call log alone — facts appear in the stepper, no request reaches the model server; an
offline run and a call-log miss each get one clear line."""

from __future__ import annotations

import contextlib

import pytest
from test_tui_support import CORPUS
from textual.worker import WorkerFailed

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run.pacer import Pace
from seorap.engine.run.runner import run
from seorap.engine.store.database import facts_at, open_db
from seorap.tui.factory import make_app
from seorap.tui.widgets.store_table import StoreTable

SIZE = (160, 45)
GARAM = "ko-c5-garam-db"


def store(db, run_id):
    return [(f.text, f.status, f.version) for f in facts_at(db, run_id, GARAM)]


@pytest.fixture
def recorded(ref, ollama_server):
    """A live A run on one trajectory, recorded through the fake Ollama server."""
    path, ids = ref
    ollama_server.handler = ollama_handler(StandinBackend())
    db = open_db(path)
    [run_a] = run(
        load_corpus(CORPUS),
        ["A"],
        db,
        Config.offline(host=ollama_server.url),
        trajectories=[GARAM],
        score=False,
    )
    assert store(db, run_a)
    return path, ids, run_a


async def replay_in_app(app, pilot):
    await pilot.press("6", "p")
    with contextlib.suppress(WorkerFailed):  # a failed replay is read from the status line
        await app.workers.wait_for_complete()
    await pilot.pause()
    return str(app.screen.query_one("#live-status").content)


async def test_replay_shows_the_recorded_facts_with_no_model(recorded, ollama_server):
    path, ids, run_a = recorded
    sent = len(ollama_server.requests)
    ollama_server.handler = lambda body: pytest.fail("a replay reached the model")
    app = make_app(
        path, run_id=run_a, trajectory_id=GARAM, live_config=Config.offline(host=ollama_server.url)
    )
    async with app.run_test(size=SIZE) as pilot:
        status = await replay_in_app(app, pilot)
        replayed = f"{run_a}~rehearsal"
        assert f"replayed: {replayed}" in status, status
        assert app.screen.facts_seen > 0  # facts appeared in the log as they were written
        assert app.ctx.selection.run_id == replayed
        await pilot.press("2", "end")
        await pilot.pause()
        assert replayed in str(app.screen.query_one("#step-title").content)
        assert app.screen.query_one(StoreTable).row_count > 0
    db = open_db(path)
    assert store(db, replayed) == store(db, run_a) != []
    assert len(ollama_server.requests) == sent


async def test_replay_of_an_offline_run_says_there_is_nothing_to_replay(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id=GARAM)
    async with app.run_test(size=SIZE) as pilot:
        status = await replay_in_app(app, pilot)
        assert "nothing to replay" in status and "stand-in" not in status, status
        assert "reference system's run (written from the corpus's ground truth" in status
    db = open_db(path)
    assert db["documents"].count_where("run_id LIKE ?", [f"{ids['oracle']}~%"]) == 0


async def test_replay_miss_is_named(recorded, ollama_server):
    path, ids, run_a = recorded
    open_db(path).execute("DELETE FROM calls WHERE role = 'synthesizer'")
    sent = len(ollama_server.requests)
    app = make_app(
        path, run_id=run_a, trajectory_id=GARAM, live_config=Config.offline(host=ollama_server.url)
    )
    async with app.run_test(size=SIZE) as pilot:
        status = await replay_in_app(app, pilot)
        assert "missing from the call log" in status and "synthesizer" in status, status
    assert len(ollama_server.requests) == sent


async def until(pilot, check, seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await pilot.pause(0.05)
    raise AssertionError("the replay did not get there in time")


async def test_demo_replay_goes_at_the_recorded_pace_and_can_be_paused_stepped_and_sped_up(
    recorded, ollama_server
):
    """`seorap demo --replay RUN`: every recorded call took a minute, so the replay holds the first
    one; space pauses, → lets exactly one call through, + up to "at once" and space finish it."""
    path, ids, run_a = recorded
    open_db(path).execute("UPDATE calls_data SET duration_ms = 60000")
    ollama_server.handler = lambda body: pytest.fail("a replay reached the model")
    app = make_app(path, run_id=run_a, trajectory_id=GARAM, replay=run_a, pace=Pace.parse("1x"))
    async with app.run_test(size=SIZE) as pilot:
        live = app.screen
        await until(pilot, lambda: live.pacer is not None and live.pacer.snapshot().role != "")
        assert live.pacer.snapshot().calls == 0  # held: its minute has not passed
        await pilot.press("space")
        await until(pilot, lambda: "paused" in str(live.query_one("#live-pace").content))
        await pilot.press("right")
        await until(pilot, lambda: live.pacer.snapshot().calls == 1)
        await pilot.pause(0.3)
        assert live.pacer.snapshot().calls == 1 and live.pacer.snapshot().paused
        for _ in range(8):
            await pilot.press("plus")
        assert "at once" in str(live.query_one("#live-pace").content)
        await pilot.press("space")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(live.query_one("#live-status").content)
        assert f"replayed: {run_a}~rehearsal" in status, status
        assert live.pacer is None and str(live.query_one("#live-pace").content) == ""
    db = open_db(path)
    assert store(db, f"{run_a}~rehearsal") == store(db, run_a) != []


def test_demo_replay_refuses_a_run_with_nothing_to_replay_and_a_pace_it_cannot_read(ref):
    from click.testing import CliRunner

    from seorap.cli.main import cli

    path, ids = ref
    out = CliRunner().invoke(cli, ["demo", "--db", str(path), "--replay", ids["oracle"]])
    assert out.exit_code == 2 and "there is no model call to replay" in out.output, out.output
    assert "Traceback" not in out.output
    out = CliRunner().invoke(cli, ["demo", "--db", str(path), "--replay", "A", "--pace", "fast"])
    assert out.exit_code == 2 and "--pace" in out.output and "1x, 2x or 0.5x" in out.output


async def test_colon_jumps_the_replay_to_document_n_then_keeps_the_pace(recorded, ollama_server):
    """`:` 3 Enter, as in the stepper: documents 1 and 2 are replayed at once, the third is held
    at the recorded pace again (its first call, a minute, is held)."""
    path, ids, run_a = recorded
    open_db(path).execute("UPDATE calls_data SET duration_ms = 60000")
    ollama_server.handler = lambda body: pytest.fail("a replay reached the model")
    app = make_app(path, run_id=run_a, trajectory_id=GARAM, replay=run_a, pace=Pace.parse("1x"))
    async with app.run_test(size=SIZE) as pilot:
        live = app.screen
        await until(pilot, lambda: live.pacer is not None and live.pacer.snapshot().role != "")
        await pilot.press("colon")
        await pilot.pause()
        await pilot.press("3", "enter")
        await until(pilot, lambda: live.pacer.snapshot().documents == 2)
        await until(pilot, lambda: live.pacer.snapshot().role != "")
        await until(
            pilot, lambda: "2 documents written" in str(live.query_one("#live-pace").content)
        )
        await pilot.pause(0.3)  # a moment for a third document it must not write
        state = live.pacer.snapshot()
        assert state.documents == 2 and state.jump_to is None  # held in document 3
        live.pacer.cancel.set()
        with contextlib.suppress(WorkerFailed):  # cancelled: the status line says so
            await app.workers.wait_for_complete()


async def test_two_rehearsals_leave_one_scratch_run_in_the_runs_view(recorded, ollama_server):
    """`seorap demo --replay RUN` twice over (the second from the live view's `p`, on the
    rehearsal it selected): the runs view lists the recorded run and one scratch rehearsal, the
    recorded run's store untouched (issue 37)."""
    path, ids, run_a = recorded
    before = store(open_db(path), run_a)
    ollama_server.handler = lambda body: pytest.fail("a replay reached the model")
    app = make_app(path, run_id=run_a, trajectory_id=GARAM, replay=run_a, pace=Pace.parse("1000x"))
    scratch = f"{run_a}~rehearsal"
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.ctx.selection.run_id == scratch)
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = await replay_in_app(app, pilot)  # p on the selected rehearsal: the same scratch
        assert f"replayed: {scratch}" in status and "the next replay replaces it" in status, status
        await pilot.press("1")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = {r.run_id for r in app.screen.rows}
        assert shown >= {run_a, scratch}, shown
        assert [r for r in shown if "~" in r] == [scratch]
    db = open_db(path)
    assert store(db, scratch) == store(db, run_a) == before != []
