"""`seorap demo` against Ollama (the local fake server speaking the Ollama API, answered by the
engine's stand-in): reachable → variant A runs live; not reachable → the banner says so. And a live
A run started by keyboard from the live view writes facts that the stepper then shows."""

from __future__ import annotations

from ollama_fake import closed_port_url
from textual.worker import WorkerFailed

from seorap.engine.config import Config
from seorap.engine.errors import RunCancelled
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.store.database import open_db
from seorap.tui.factory import make_app
from seorap.tui.ollama_probe import probe
from seorap.tui.widgets.store_table import StoreTable

SIZE = (160, 45)
GARAM = "ko-c5-garam-db"


def live_config(host: str) -> Config:
    """Ollama for the write path (qwen3.5:9b), offline judge/answerer/embedder for scoring."""
    return Config.offline(host=host)


def test_probe_says_reachable_or_not(ollama_server):
    ok = probe(live_config(ollama_server.url))
    assert ok.reachable and "reachable at" in ok.message and "qwen3.5:9b" in ok.message
    closed = closed_port_url()
    down = probe(live_config(closed))
    assert not down.reachable
    assert down.message.startswith("start `ollama serve` and press 6 → a")  # the fix first
    assert f"Ollama not reachable at {closed}; showing offline reference" in down.message
    ollama_server.models.pop("qwen3.5:9b")
    missing = probe(live_config(ollama_server.url))
    assert not missing.reachable and "qwen3.5:9b" in missing.message


async def test_demo_without_ollama_shows_the_offline_banner(ref):
    path, ids = ref
    host = closed_port_url()
    app = make_app(path, probe_ollama=True, live_config=live_config(host))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.current_mode == "runs"
        banner = str(app.screen.query_one("#banner").content)
        assert f"Ollama not reachable at {host}" in banner
        assert app.screen.query_one("#runs-table").row_count == 36  # reference runs browsable


async def test_demo_with_ollama_runs_variant_a_live(ref, ollama_server):
    ollama_server.handler = ollama_handler(StandinBackend())
    path, ids = ref
    app = make_app(path, probe_ollama=True, live_config=live_config(ollama_server.url))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):  # the probe answers, the live view opens and starts A (20 s: load)
            await pilot.pause(0.05)
            if app.current_mode == "live" and app.screen.busy():
                break
        assert app.current_mode == "live" and app.screen.busy()
        assert "Ollama reachable" in app.ctx.banner
        for _ in range(600):  # the write path is talking to the server (30 s: load)
            if ollama_server.bodies("/api/chat"):
                break
            await pilot.pause(0.05)
        await pilot.press("x")  # cancel: finished documents stay, the run resumes later
        try:
            await app.workers.wait_for_complete()
        except WorkerFailed as failed:  # cancelled before a document was saved (a loaded machine)
            assert isinstance(failed.error, RunCancelled), failed.error
        await pilot.pause()
        await pilot.press("1")  # the reference runs stay browsable
        assert app.screen.query_one("#runs-table").row_count >= 36
    assert any(r["system"] == "A" for r in open_db(path).query("SELECT system FROM runs"))
    chats = ollama_server.bodies("/api/chat")
    assert chats and all(b["model"] == "qwen3.5:9b" for b in chats)


async def test_live_a_from_the_live_view_writes_facts_the_stepper_shows(ref, ollama_server):
    ollama_server.handler = ollama_handler(StandinBackend())
    path, ids = ref
    app = make_app(
        path, run_id=ids["oracle"], trajectory_id=GARAM, live_config=live_config(ollama_server.url)
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("6", "t", "a")  # live view, scope: this trajectory, A/B/C on Ollama
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "finished" in str(app.screen.query_one("#live-status").content)
        assert app.screen.facts_seen > 0
        db = open_db(path)
        run_a = next(r["run_id"] for r in db.query("SELECT run_id FROM runs WHERE system='A'"))
        written = db["facts"].count_where("run_id=? AND trajectory_id=?", [run_a, GARAM])
        assert written > 0
        app.ctx.selection.run_id = run_a
        await pilot.press("2", "end")
        await pilot.pause()
        store = app.screen.query_one(StoreTable)
        assert store.row_count > 0
        assert run_a in str(app.screen.query_one("#step-title").content)


async def test_fresh_demo_runs_reference_systems_and_keeps_the_banner_in_view(tmp_path):
    """A first `seorap demo`: empty database → reference systems run in the live view → the runs
    view opens with the banner visible on screen (not scrolled away above the table)."""
    from seorap.tui.factory import bundled_corpus_path

    path = tmp_path / "demo.db"
    host = closed_port_url()
    app = make_app(
        path,
        corpus=bundled_corpus_path(),
        db=open_db(path),
        banner="reference systems",
        autorun=["oracle", "oracle-stale", "oracle-merged"],
        probe_ollama=True,
        live_config=live_config(host),
    )
    async with app.run_test(size=(150, 30)) as pilot:  # fewer lines than rows: the table scrolls
        for _ in range(120):
            await pilot.pause(0.25)
            if app.current_mode == "runs" and app.screen.query_one("#runs-table").row_count == 36:
                break
        await app.workers.wait_for_complete()
        await pilot.pause(1.0)  # the rest of the rows fill in after the first paint
        banner = app.screen.query_one("#banner")
        assert f"Ollama not reachable at {host}" in str(banner.content)
        assert banner.region.y >= 1 and banner.region.height >= 1, banner.region
