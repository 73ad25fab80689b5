"""A replay at human pace (engine/run/pacer.py): each served call is held for its recorded time at
the chosen speed; pause, step, speed and cancel act while a call is held. On a fake clock, so every
figure below is computed by hand, not timed."""

from __future__ import annotations

import math
import threading
from pathlib import Path

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run.pacer import Pace, PaceError, Pacer
from seorap.engine.run.progress import RecordingProgress
from seorap.engine.run.runner import replay_run, run
from seorap.engine.store.database import facts_at, open_db

CORPUS = Path(__file__).parent.parent / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"


class FakeClock:
    """Time moves only when the pacer waits; ``at`` runs a key press once time reaches it."""

    def __init__(self) -> None:
        self.now = 0.0
        self.events: list[tuple[float, object]] = []

    def __call__(self) -> float:
        return self.now

    def at(self, when: float, action) -> None:
        self.events.append((when, action))
        self.events.sort(key=lambda e: e[0])

    def wait(self, cond: threading.Condition, timeout: float) -> None:
        self.now += timeout
        while self.events and self.events[0][0] <= self.now + 1e-9:
            _, action = self.events.pop(0)
            action()


def pacer(pace: Pace | None = None) -> tuple[Pacer, FakeClock]:
    clock = FakeClock()
    return Pacer(pace, clock=clock, wait=clock.wait), clock


@pytest.mark.parametrize(
    ("text", "pace"),
    [
        ("1x", Pace(factor=1.0)),
        ("2x", Pace(factor=2.0)),
        (" 0.5× ", Pace(factor=0.5)),
        ("30s", Pace(per_document_s=30.0)),
        ("12.5s/doc", Pace(per_document_s=12.5)),
    ],
)
def test_a_pace_is_read_as_a_speed_or_a_time_per_document(text, pace):
    assert Pace.parse(text) == pace


@pytest.mark.parametrize("text", ["fast", "2", "0x", "-1x", "2xx", "30 minutes", ""])
def test_a_pace_that_cannot_be_read_is_one_sentence(text):
    with pytest.raises(PaceError, match="pace") as err:
        Pace.parse(text)
    assert "\n" not in str(err.value)


def test_a_call_is_held_for_its_recorded_time_divided_by_the_speed():
    p, clock = pacer(Pace(factor=2.0))
    p.call(10.0, role="extractor", reply="가나다")
    assert clock.now == pytest.approx(5.0)  # 10 s recorded at 2×
    p.call(0.0)
    assert clock.now == pytest.approx(5.0)
    assert p.snapshot().calls == 2


def test_a_speed_change_applies_to_the_rest_of_a_held_call():
    p, clock = pacer()
    clock.at(2.0, p.faster)  # 1× → 2× after 2 s: 8 recorded seconds left take 4 s
    p.call(10.0)
    assert clock.now == pytest.approx(6.0)
    assert p.snapshot().speed == 2.0
    assert p.slower() == 1.0 and p.slower() == 0.5 and p.slower() == 0.25 and p.slower() == 0.25


def test_the_top_of_the_speed_ladder_is_at_once_and_stays_there():
    p, clock = pacer()
    speeds = [p.faster() for _ in range(9)]
    assert speeds[4] == 32.0 and speeds[5:] == [math.inf] * 4
    p.call(1_000.0)
    assert clock.now == 0.0
    assert p.slower() == 32.0


def test_a_pause_stops_the_clock_of_the_held_call():
    p, clock = pacer()
    clock.at(1.0, p.toggle_pause)
    clock.at(4.0, p.toggle_pause)  # paused 3 s in the middle of a 10 s call
    p.call(10.0)
    assert clock.now == pytest.approx(13.0)


def test_a_step_while_paused_lets_exactly_one_call_through_at_once():
    p, clock = pacer()
    assert p.toggle_pause() is True
    clock.at(0.5, lambda: p.step("call"))
    p.call(100.0)  # waits paused until the step, then goes without its 100 s
    assert clock.now == pytest.approx(0.5)
    state = p.snapshot()
    assert state.paused and state.calls == 1
    clock.at(1.5, p.resume)
    p.call(2.0)  # the next call waits for the resume, then takes its own time
    assert clock.now == pytest.approx(3.5)


def test_a_step_during_a_held_call_finishes_it_and_pauses():
    p, clock = pacer()
    clock.at(3.0, lambda: p.step("call"))
    p.call(10.0)
    assert clock.now == pytest.approx(3.0)
    assert p.snapshot().paused


def test_a_document_step_lets_that_document_through_then_pauses():
    p, clock = pacer()
    p.step("document")  # from playing: pauses, and lets the current document through
    p.call(50.0)
    p.call(50.0)
    assert clock.now == 0.0
    p.document()
    assert p.snapshot().paused and p.snapshot().documents == 1
    clock.at(0.3, p.resume)
    p.call(1.0)
    assert clock.now == pytest.approx(1.3)


def test_a_per_document_pace_holds_each_document_for_its_time_whatever_its_calls_took():
    p, clock = pacer(Pace(per_document_s=30.0))
    p.call(500.0)  # a call is held for its recorded time, at most the document's time
    assert clock.now == pytest.approx(30.0)
    p.document()
    assert clock.now == pytest.approx(30.0)
    p.faster()  # 2×: the next document takes 15 s
    p.call(4.0)  # 4 s recorded at 2×: 2 s, then the other 26 paced seconds take 13 s
    assert clock.now == pytest.approx(32.0)
    p.document()
    assert clock.now == pytest.approx(45.0)


def test_pause_step_and_speed_in_a_document_keep_the_next_document_at_pace():
    # The presenter's keys: pause, ] (the rest of this document at once), + + (4×), space. The
    # next document then takes 30 s / 4 = 7.5 s, however long the pause lasted.
    p, clock = pacer(Pace(per_document_s=30.0))
    p.call(2.0)
    clock.at(3.0, p.toggle_pause)
    clock.at(10.0, lambda: p.step("document"))
    p.call(2.0)  # paused at 3 s, in the middle of the second call
    p.call(2.0)
    p.document()  # the stepped document ends at once: paused again
    assert clock.now == pytest.approx(10.0) and p.snapshot().paused
    clock.at(40.0, lambda: (p.faster(), p.faster(), p.toggle_pause()))
    start = None

    def started() -> None:
        nonlocal start
        start = clock.now

    p.call(0.0)  # waits for the resume at 40 s
    started()
    for _ in range(3):
        p.call(2.0)
    p.document()
    assert start == pytest.approx(40.0, abs=0.2)
    assert clock.now - start == pytest.approx(7.5, abs=0.2)
    assert p.snapshot().documents == 2


def test_a_jump_lets_documents_through_at_once_then_goes_on_at_pace():
    p, clock = pacer(Pace(per_document_s=30.0))
    p.jump(3)  # documents 1 and 2 at once
    assert p.snapshot().jump_to == 3
    for _ in range(2):
        p.call(5.0)
        p.document()
    assert clock.now == 0.0 and p.snapshot().documents == 2 and p.snapshot().jump_to is None
    p.call(5.0)  # document 3 at pace again
    p.document()
    assert clock.now == pytest.approx(30.0)
    p.jump(2)  # behind us: nothing to do
    assert p.snapshot().jump_to is None


def test_extraction_advances_end_a_step_but_are_not_documents():
    from seorap.engine.run.pacer import PacedProgress

    p, _ = pacer(Pace(factor=1000.0))
    progress = PacedProgress(RecordingProgress(), p)
    progress.start_phase("extract", 3)
    for _ in range(3):
        progress.advance("t", 1, "doc")
    assert p.snapshot().documents == 0
    progress.start_phase("write A", 3)
    for _ in range(3):
        progress.advance("t", 1, "doc")
    assert p.snapshot().documents == 3  # 3, not 6: each document counted once


def test_cancel_releases_a_held_call_and_a_pause_at_once():
    p, clock = pacer()
    clock.at(1.0, p.cancel.set)
    p.call(1_000.0)
    assert clock.now == pytest.approx(1.0)
    p.toggle_pause()
    p.call(5.0)  # cancelled: nothing waits any more
    assert clock.now == pytest.approx(1.0)


def test_the_held_reply_is_shown_as_it_would_have_streamed():
    p, clock = pacer()
    seen = []
    reply = "가" * 100
    clock.at(5.0, lambda: seen.append(p.snapshot()))
    p.call(10.0, role="synthesizer", reply=reply)
    assert seen[0].role == "synthesizer"
    # half the time, half the text (up to one 0.1 s slice behind)
    assert 48 <= len(seen[0].reply_shown) <= 50
    assert reply.startswith(seen[0].reply_shown)
    assert p.snapshot().role == "" and p.snapshot().reply_shown == ""


@pytest.fixture
def recorded(ollama_server, tmp_path):
    ollama_server.handler = ollama_handler(StandinBackend())
    corpus = load_corpus(CORPUS)
    db = open_db(tmp_path / "runs.db")
    [run_id] = run(corpus, ["A"], db, Config.offline(host=ollama_server.url), score=False)
    return db, run_id, corpus


def store(db, run_id):
    return [(f.text, f.status, f.version) for f in facts_at(db, run_id, "ko-c3-hiring-plan")]


def test_a_paced_replay_takes_the_recorded_time_and_reproduces_the_run(recorded, ollama_server):
    db, run_id, corpus = recorded
    db.execute("UPDATE calls_data SET duration_ms = 2000")  # every recorded call took 2 s
    served = db.execute("SELECT COUNT(*) FROM calls WHERE run_id = ?", [run_id]).fetchone()[0]
    ollama_server.handler = lambda body: pytest.fail("a replay reached the model")
    p, clock = pacer(Pace(factor=4.0))
    progress = RecordingProgress()
    replayed = replay_run(
        db, run_id, corpus, label="paced", pacer=p, progress=progress, concurrency=1
    )
    assert store(db, replayed) == store(db, run_id) != []
    state = p.snapshot()
    assert state.calls == served > 0
    assert clock.now == pytest.approx(served * 2.0 / 4.0)  # each call 2 s at 4×
    written = [e for e in progress.events if e[0] == "advance"]
    assert state.documents == len(corpus.trajectories[0].states) == len(written) // 2
    unpaced = replay_run(db, run_id, corpus, label="fast")
    assert store(db, unpaced) == store(db, replayed)


def test_a_paced_replay_counts_its_documents_and_the_screen_moves_every_3_s(
    recorded, ollama_server
):
    """30 s per document, calls recorded at 0.5 s: the pace line (what the live view shows) changes
    at least every 3 s of paced time — each call streams its reply, the rest of a document
    counts down — and counts each document once."""
    from seorap.tui.screens.live import pace_text

    db, run_id, corpus = recorded
    db.execute("UPDATE calls_data SET duration_ms = 500")
    ollama_server.handler = lambda body: pytest.fail("a replay reached the model")
    pace = Pace(per_document_s=30.0)
    p, clock = pacer(pace)
    seen: list[tuple[float, str]] = []
    wait = clock.wait

    def watched(cond, timeout):
        wait(cond, timeout)
        text = pace_text(p.snapshot(), pace).plain
        if not seen or seen[-1][1] != text:
            seen.append((clock.now, text))

    p._wait = watched  # noqa: SLF001 - the test's own clock hook
    replay_run(db, run_id, corpus, label="paced", pacer=p, concurrency=1)
    documents = len(corpus.trajectories[0].states)
    assert p.snapshot().documents == documents == 3
    assert clock.now == pytest.approx(documents * 30.0, abs=0.5)
    gaps = [b[0] - a[0] for a, b in zip(seen, seen[1:])]
    assert max(gaps) <= 3.0, max(gaps)
    assert any("next document in" in text for _, text in seen)
    assert any("\n" in text for _, text in seen)  # a held reply, streaming
