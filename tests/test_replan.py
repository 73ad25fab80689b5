"""The plan learns from the run (engine/run/replan.py): a run whose extraction yields far fewer
observations than the plan assumed (one synthesis call per sentence) is re-estimated after its
extraction from the real yield and the measured rate, within 1.5x of the write phase's actual wall
time; the plan per phase is kept in the manifest and shown beside the actual time in the report."""

from __future__ import annotations

import json
import time

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run import accounting
from seorap.engine.run.progress import RecordingProgress
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

CORPUS = "fixtures/ko-mini/ko-c4-late-memo.json"
PREFILL = 1500.0
"""Prompt tokens per second the paced server spends before its first chunk."""


def paced(inner):
    """A model whose time grows with its work: the first chunk after prompt tokens / PREFILL
    (tokens as the test server counts them, characters // 2); generation is the server's
    streaming pace. Extraction yields two sentences of the document, however long it is."""

    def handler(body):
        prompt = sum(len(m.get("content") or "") for m in body.get("messages", []))
        time.sleep(prompt // 2 / PREFILL)
        if "observations" not in json.dumps(body.get("format") or {}):
            return inner(body)
        document = body["messages"][-1]["content"].split("<document>", 1)[-1]
        lines = [x.strip() for x in document.splitlines() if len(x.strip()) > 30][:2]
        return json.dumps({"observations": [{"text": x[:80]} for x in lines]}, ensure_ascii=False)

    return handler


@pytest.mark.slow  # heavy: keeps the README lane under 25 min on a quiet 2-core machine
def test_the_estimate_after_extraction_is_within_1_5x_of_the_actual(ollama_server, tmp_path):
    ollama_server.handler = paced(ollama_handler(StandinBackend()))
    ollama_server.streaming(chunk_chars=20, delay_s=0.01)
    corpus = load_corpus(CORPUS)
    db = open_db(tmp_path / "p.db")
    progress = RecordingProgress()
    config = Config.offline(host=ollama_server.url)
    [run_id] = run(corpus, ["A"], db, config, score=False, concurrency=1, progress=progress)
    manifest = json.loads(db["runs"].get(run_id)["manifest"])
    plan, replan = manifest["plan"], manifest["replan"]
    acc = accounting.run_accounting(db, run_id)
    actual = next(p.wall_s for p in acc.phases if p.phase == "write")
    synthesis = next(r.calls for r in acc.roles if r.role == "synthesizer")
    assert synthesis == 2 * len(list(corpus.trajectories[0].arrivals()))
    assert plan["write"] > 3 * actual  # the plan assumed one synthesis call per sentence
    print("replan", replan["write"], "actual", actual)
    assert actual / 1.5 <= replan["write"] <= actual * 1.5, (replan, actual)
    lines = [e[1] for e in progress.of("message") if e[1].startswith("write phase: plan")]
    assert lines and "→ now" in lines[0]
    assert len(lines) == 1 + len(list(corpus.trajectories[0].arrivals()))  # and after each doc
    assert "(plan " in accounting.phase_line(acc)
    assert acc.plan == plan
