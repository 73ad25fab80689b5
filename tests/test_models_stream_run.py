"""Whole runs (variant A) over streamed replies from the local fake server: a slow but steady model
completes; a server gone silent stops the run at once with no queued document tried after it; cut
extractions are salvaged (fresh and on resume from the call log) and counted in the report."""

from __future__ import annotations

import json
import threading
import time

import pytest
from test_reliability_support import ROOT, fast_retries
from timing_support import within

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.base import ModelTimeout, ModelUnavailable
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run.runner import RunCancelled, run
from seorap.engine.store.database import open_db


def tiny_corpus(folder, name="ko-c5-seminar", chars=90, states=None):
    """One bundled trajectory with every document cut to its first ``chars`` characters (and only
    its first ``states`` states), so a slowly streamed run stays short."""
    data = json.loads((ROOT / "fixtures" / "ko-mini" / f"{name}.json").read_text(encoding="utf-8"))
    if states is not None:
        data["states"] = data["states"][:states]
        data["singleQA"] = [q for q in data["singleQA"] if q["state"] < states]
    for state in data["states"]:
        text = state["document"]["text"]
        state["document"]["text"] = (
            text[text.find("\n\n") + 2 :][:chars] if "\n\n" in text else text[:chars]
        )
    data["distractors"] = []
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return load_corpus(folder)


def is_extraction(body: dict) -> bool:
    return "observations" in json.dumps(body.get("format") or {})


@pytest.mark.slow  # heavy: keeps the README lane under 25 min on a quiet 2-core machine
def test_a_run_over_a_slow_steady_stream_completes(ollama_server, tmp_path):
    """4 characters every 30 ms with timeout_s = 2: single replies take longer than timeout_s."""
    ollama_server.handler = ollama_handler(StandinBackend())
    ollama_server.streaming(chunk_chars=4, delay_s=0.03)
    corpus = tiny_corpus(tmp_path / "corpus")
    db = open_db(tmp_path / "slow.db")
    config = Config.offline(host=ollama_server.url, timeout_s=2)
    [run_id] = run(corpus, ["A"], db, config, score=False, concurrency=2)
    assert db["runs"].get(run_id)["status"] == "done"
    assert db["documents"].count_where("run_id=?", [run_id]) == len(
        list(corpus.trajectories[0].arrivals())
    )
    longest = db.execute("SELECT max(duration_ms) FROM calls WHERE error IS NULL").fetchone()[0]
    assert longest > 2000  # a call worked longer than timeout_s and was not cut
    assert db["calls"].count_where("error IS NOT NULL") == 0


def test_silence_mid_stream_stops_the_run_with_no_queued_document_tried(ollama_server, tmp_path):
    arrivals: list[float] = []
    inner = ollama_handler(StandinBackend())

    def handler(body):
        arrivals.append(time.monotonic())
        return inner(body)

    ollama_server.handler = handler
    ollama_server.fail("silent", seconds=30, times=2)  # the first call, and its one retry
    corpus = load_corpus(ROOT / "fixtures" / "ko-mini")  # 12 trajectories, ~40 documents queued
    db = open_db(tmp_path / "silent.db")
    config = Config.offline(host=ollama_server.url, timeout_s=0.5)
    started = time.monotonic()
    with fast_retries(), pytest.raises(ModelTimeout) as info:
        run(corpus, ["A"], db, config, score=False, concurrency=1)
    stopped = time.monotonic()
    assert stopped - arrivals[0] < 0.5 * 2 + 2.0  # timeout_s x attempts (+ backoff, slack for load)
    assert stopped - started < 30  # not one wait per queued document (~40 of them)
    assert "stopped sending in the middle of a reply" in str(info.value)
    assert len(arrivals) == 2 and all(t <= stopped for t in arrivals)
    time.sleep(0.3)
    assert len(ollama_server.bodies("/api/chat")) == 2  # nothing queued was tried afterwards
    [row] = db["runs"].rows
    assert row["status"] == "failed" and "ModelTimeout" in row["error"]


def test_a_server_that_goes_away_stops_every_worker_at_once(ollama_server, tmp_path):
    """Connection refused after the server stopped: a fatal error, not one wait per document."""
    inner = ollama_handler(StandinBackend())
    count = {"n": 0}

    def handler(body):
        count["n"] += 1
        if count["n"] == 4:
            threading.Thread(target=ollama_server.stop).start()
            time.sleep(0.5)
        return inner(body)

    ollama_server.handler = handler
    corpus = load_corpus(ROOT / "fixtures" / "ko-mini")
    db = open_db(tmp_path / "gone.db")
    started = time.monotonic()
    with fast_retries(), pytest.raises(ModelUnavailable):
        run(corpus, ["A"], db, Config.offline(host=ollama_server.url), score=False, concurrency=2)
    assert time.monotonic() - started < within(5)
    assert count["n"] <= 5  # the calls in flight when it went; nothing queued after


def cut_extractions(fraction: float):
    inner = ollama_handler(StandinBackend())

    def handler(body):
        content = inner(body)
        if is_extraction(body):
            return {
                "content": content[: int(len(content) * fraction)],
                "done_reason": "length",
                "eval_count": body["options"]["num_predict"],
            }
        return content

    return handler


def test_every_extraction_cut_at_60_percent_still_writes_facts(ollama_server, tmp_path):
    report = pytest.importorskip("seorap.engine.scoring.report")
    from seorap.engine.scoring import score_run

    ollama_server.handler = cut_extractions(0.6)
    corpus = tiny_corpus(tmp_path / "corpus", chars=400)
    db = open_db(tmp_path / "cut.db")
    config = Config.offline(host=ollama_server.url)
    [run_id] = run(corpus, ["A"], db, config, score=False, concurrency=2)
    documents = len(list(corpus.trajectories[0].arrivals()))
    extractions = [b for b in ollama_server.bodies("/api/chat") if is_extraction(b)]
    assert len(extractions) == documents  # salvaged, never re-asked
    assert db["facts"].count_where("run_id=?", [run_id]) > 0
    partial = list(db.query("SELECT * FROM write_failures WHERE run_id=? AND partial=1", [run_id]))
    assert len(partial) == documents
    assert all(
        p["reason"].startswith("partial: cut at num_predict (4096 tokens): kept ") for p in partial
    )
    kept = sum(int(p["reason"].split("kept ")[1].split()[0]) for p in partial)
    assert db["observations"].count_where("run_id=?", [run_id]) == kept > 0
    score_run(db, run_id, config)
    [run_report] = report.build_report(db, [run_id]).runs
    assert sum(t.partial_write_failures for t in run_report.trajectories) == documents
    assert sum(t.write_failures for t in run_report.trajectories) >= documents
    from seorap.engine.scoring.report_text import summary_lines

    assert any(
        f"({documents} partial: cut extractions" in line for line in summary_lines(run_report)
    )


def test_a_resumed_run_salvages_cut_replies_from_the_call_log(ollama_server, tmp_path):
    """The first run logs every (cut) extraction, then is cancelled before writing; the resumed run
    reads them back from the log: no extraction is asked again, no re-ask is made, and the documents
    are written from the complete observations, as a fresh run would."""
    corpus = tiny_corpus(tmp_path / "corpus", chars=400)
    db_path = tmp_path / "resume.db"
    cancel = threading.Event()
    cutter = cut_extractions(0.6)

    def first(body):
        if not is_extraction(body):
            cancel.set()  # the write phase began: stop here
        return cutter(body)

    ollama_server.handler = first
    config = Config.offline(host=ollama_server.url)
    with pytest.raises(RunCancelled):
        run(corpus, ["A"], open_db(db_path), config, score=False, concurrency=1, cancel=cancel)
    asked = len([b for b in ollama_server.bodies("/api/chat") if is_extraction(b)])
    ollama_server.handler = ollama_handler(StandinBackend())  # would now answer uncut
    db = open_db(db_path)
    [run_id] = run(corpus, ["A"], db, config, score=False, concurrency=1)
    assert len([b for b in ollama_server.bodies("/api/chat") if is_extraction(b)]) == asked
    documents = len(list(corpus.trajectories[0].arrivals()))
    assert db["documents"].count_where("run_id=?", [run_id]) == documents
    partial = db["write_failures"].count_where("run_id=? AND partial=1", [run_id])
    assert partial == documents
    assert (
        db["write_failures"].count_where("run_id=? AND partial=0 AND stage='extract'", [run_id])
        == 0
    )


def test_limits_are_part_of_the_run_id_and_a_recorded_run_replays_with_its_own(
    ollama_server, tmp_path
):
    """A run recorded with one num_predict for every role (the old default) keeps it in its manifest:
    its replay asks the log for exactly the calls it made, with no server."""
    from seorap.engine.memory import get_system
    from seorap.engine.run.runner import make_run_id, replay_run

    ollama_server.handler = ollama_handler(StandinBackend())
    corpus = tiny_corpus(tmp_path / "corpus")
    db = open_db(tmp_path / "old.db")
    old = Config.offline(host=ollama_server.url).with_overrides(num_predict=1024)
    [run_id] = run(corpus, ["A"], db, old, score=False)
    assert {json.loads(o)["num_predict"] for (o,) in db.execute("SELECT options FROM calls")} == {
        1024
    }
    new = Config.offline(host=ollama_server.url)
    system = get_system("A", new)
    assert make_run_id("A", corpus, system, new) != run_id  # new defaults, new run
    ollama_server.stop()
    replayed = replay_run(db, run_id, corpus)
    assert db["runs"].get(replayed)["status"] == "done"
    assert db["documents"].count_where("run_id=?", [replayed]) == db["documents"].count_where(
        "run_id=?", [run_id]
    )
