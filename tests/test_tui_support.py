"""Shared helpers for the TUI and views tests (no tests here): real runs of the offline reference
systems through the engine runner (which scores them too)."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

from textual.worker import WorkerCancelled, WorkerFailed, WorkerState

from seorap.engine.corpus import load_corpus
from seorap.engine.store.database import open_db

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "fixtures" / "ko-mini"
SYSTEMS = ["oracle", "oracle-stale", "oracle-merged"]
HOSTILE = "[bold]x[/bold] [link=https://e.x]y[/link] \x1b[31mred \x07bell"


def reference_db(
    path: Path, systems=SYSTEMS, corpus_path: Path = CORPUS, trajectories: list[str] | None = None
):
    """Run the reference systems offline into ``path``; returns (db, corpus, {system: run_id})."""
    from seorap.engine.config import load_config
    from seorap.engine.run.runner import run

    corpus = load_corpus(corpus_path)
    db = open_db(path)
    ids = run(
        corpus,
        list(systems),
        db,
        load_config(offline=True),
        offline=True,
        trajectories=trajectories,
    )
    return db, corpus, dict(zip(systems, ids))


def hostile_corpus(tmp: Path, source: str = "ko-c5-garam-db") -> Path:
    """A one-trajectory corpus whose first document, title and claims carry markup and escapes."""
    data = json.loads((CORPUS / f"{source}.json").read_text(encoding="utf-8"))
    data["id"] = "ko-hostile"
    first = data["states"][0]
    first["document"]["text"] = HOSTILE + "\n" + first["document"]["text"]
    first["document"]["title"] = "[red]title[/red] \x1b[2J"
    first["claims"][0] = first["docClaims"][0] = "[b]claim[/b] " + first["claims"][0]
    for n, state in enumerate(data["states"]):
        state["document"]["id"] = f"ko-hostile-d{n}"
    for n, d in enumerate(data.get("distractors", [])):
        d["id"] = f"ko-hostile-x{n}"
    out = tmp / "hostile"
    out.mkdir(exist_ok=True)
    (out / "ko-hostile.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return out


async def settle(pilot, most_s: float = 600.0) -> None:
    """Wait until no worker of the app is pending or running and the screen has handled what they
    sent. Waiting once for the workers running right after a key misses those started meanwhile:
    under load a view's key comes while it is still being built ahead, its mount (which starts the
    worker reading its figures) comes during that wait, and the view was shown with nothing read.
    ``most_s`` is a hang's backstop, not a speed bar."""
    deadline = time.monotonic() + most_s
    while True:
        await pilot.pause()
        busy = [
            w for w in pilot.app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)
        ]
        if not busy:
            return
        assert time.monotonic() < deadline, f"workers still running: {busy}"
        for worker in busy:
            with contextlib.suppress(WorkerCancelled, WorkerFailed):  # replaced, or shown failed
                await worker.wait()


async def open_score_cards(pilot) -> None:
    """Press 4 and wait until the score cards are read (or computed) and drawn."""
    await pilot.press("4")
    await settle(pilot)


async def until(pilot, check, most_s: float = 60.0, what: str = "the app") -> None:
    """Pause until ``check()`` holds (``most_s``: a hang's backstop, not a speed bar)."""
    deadline = time.monotonic() + most_s
    while not check():
        assert time.monotonic() < deadline, f"{what} did not get there in {most_s:.0f} s"
        await pilot.pause(0.05)


async def run_from_palette(pilot, words: str, done) -> None:
    """Ctrl+P, type ``words``, Enter once the palette lists its match first, and wait until
    ``done()`` holds: the palette searches in the background, so a fixed pause before Enter (0.3 s) could
    end, on a busy machine, before anything was listed (Enter then picks nothing)."""
    from textual.command import CommandList

    app = pilot.app
    await pilot.press("ctrl+p")
    await pilot.press(*words)

    def listed() -> bool:
        found = app.screen.query(CommandList)
        return bool(found) and found.first().option_count > 0

    await until(pilot, listed, what="the palette's search")
    await pilot.pause(0.3)  # the rest of the search lands (the match ranks first)
    await pilot.press("enter")
    await until(pilot, done, what=f"the palette's {words!r}")
    await pilot.pause()
