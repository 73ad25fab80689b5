"""Replay from the app (docs/design.md#who-it-is-for; issue 5): `6` then `p` re-enacts the selected
recorded live run from the call log alone — facts appear in the stepper, no request reaches the model server; an
offline run and a call-log miss each get one clear line."""

from __future__ import annotations

import pytest
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run.runner import run
from seorap.engine.store.database import facts_at, open_db
from seorap.tui.factory import make_app
from seorap.tui.widgets.store_table import StoreTable
from test_tui_support import CORPUS, ref, ref_db_path  # noqa: F401 - fixtures

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
        replayed = f"{run_a}~replay"
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
