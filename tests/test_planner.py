"""`seorap run --plan` (engine/run/planner.py): exact extraction prompts, no model call, nothing written,
calibration from the call log, and an ETA within a factor of 2 of a paced run it did not see."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.memory import get_system
from seorap.engine.memory.prompts import extraction_messages
from seorap.engine.models.base import ChatReply, ChatRequest
from seorap.engine.models.standin import StandinBackend
from seorap.engine.run import planner
from seorap.engine.store.database import open_db

CORPUS = "fixtures/ko-mini"


class Paced:
    """The stand-in's replies, paced like a model: ``in_s`` per prompt token and ``out_s`` per
    output token, with tokens counted as characters × 0.5 (prompt) and characters / 3 (output)."""

    name = "paced"

    def __init__(self, in_s: float = 0.00002, out_s: float = 0.0006):
        self.inner = StandinBackend()
        self.in_s, self.out_s = in_s, out_s
        self.calls = 0

    def chat(self, request: ChatRequest) -> ChatReply:
        self.calls += 1
        reply = self.inner.chat(request)
        tin = int(sum(len(m["content"]) for m in request.messages) * 0.5)
        tout = max(1, len(reply.content) // 3)
        started = time.perf_counter()
        time.sleep(tin * self.in_s + tout * self.out_s)
        return ChatReply(
            reply.content,
            request.model,
            tokens_in=tin,
            tokens_out=tout,
            duration_ms=(time.perf_counter() - started) * 1000,
            done_reason="stop",
        )


def test_extraction_is_counted_exactly_and_nothing_is_called(tmp_path):
    corpus = load_corpus(CORPUS)
    config = Config()
    plan = planner.plan_run(corpus, ["A", "oracle"], config, None)
    ext = next(r for r in plan.roles if r.role == "extractor")
    system = get_system("A", config)
    chars = sum(
        sum(len(m["content"]) for m in extraction_messages(system.extraction_prompt, a))
        for t in corpus.trajectories
        for a in t.arrivals()
    )
    docs = sum(1 for t in corpus.trajectories for _ in t.arrivals())
    assert ext.exact and ext.calls == docs and ext.logged == 0
    assert ext.prompt_tokens == pytest.approx(chars * planner.DEFAULT_RATIO)
    assert {r.role for r in plan.roles} == {"extractor", "synthesizer", "answerer", "judge"}
    assert plan.seconds > 0 and any("no measured throughput" in n for n in plan.notes)


def test_offline_answerers_and_judge_are_no_model_calls():
    # the reference reader became the offline default: it must plan like the extractive answerer
    for answerer in ("reader", "extractive"):
        config = Config.offline().with_overrides({"models.answerer": answerer})
        plan = planner.plan_run(load_corpus(CORPUS), ["oracle"], config, None)
        assert not any(r.calls for r in plan.roles if r.role in ("answerer", "judge")), answerer


def test_plan_cli_prints_every_role_with_zero_calls_and_creates_no_database(
    tmp_path, ollama_server
):
    db = tmp_path / "none.db"
    result = CliRunner().invoke(
        cli,
        ["run", "--corpus", CORPUS, "--system", "A", "--db", str(db), "--plan"],
        env={"OLLAMA_HOST": ollama_server.url},
    )
    assert result.exit_code == 0, result.output
    for role in ("extractor", "synthesizer ≈", "answerer ≈", "judge ≈", "estimated time"):
        assert role in result.output
    assert not db.exists()
    assert ollama_server.requests == []


def test_probe_needs_plan(tmp_path):
    result = CliRunner().invoke(
        cli, ["run", "--corpus", CORPUS, "--system", "A", "--db", str(tmp_path / "x.db"), "--probe"]
    )
    assert result.exit_code == 2 and "--plan" in result.output


def test_probe_makes_one_short_call_per_model_and_uses_it(tmp_path, ollama_server):
    ollama_server.handler = lambda body: {
        "content": "1 2 3 4 5",
        "prompt_eval_count": 100,
        "eval_count": 40,
        "prompt_eval_duration": 250_000_000,
        "eval_duration": 2_000_000_000,
    }
    result = CliRunner().invoke(
        cli,
        [
            "run",
            "--corpus",
            CORPUS,
            "--system",
            "A",
            "--db",
            str(tmp_path / "x.db"),
            "--plan",
            "--probe",
            "--no-score",
        ],
        env={"OLLAMA_HOST": ollama_server.url},
    )
    assert result.exit_code == 0, result.output
    chats = ollama_server.bodies("/api/chat")
    assert [b["model"] for b in chats] == ["qwen3.5:9b"]  # extractor = synthesizer: one probe
    assert chats[0]["options"]["num_predict"] == planner.PROBE_TOKENS
    assert "probe qwen3.5:9b: 20.0 tok/s generated, prompt 400 tok/s" in result.output
    rows = [line for line in result.output.splitlines() if line.startswith(("extractor", "synth"))]
    assert len(rows) == 2 and all(line.rstrip().endswith("probe") for line in rows)


def test_probe_throughput_from_server_timings():
    # Ollama's timings: 200 prompt tokens in 0.5 s, 40 generated in 4 s (the 9 s wall includes load)
    rate = planner.probe_throughput(200, 40, 500.0, 4000.0, 9.0)
    assert (rate.prefill, rate.generate, rate.source) == (400.0, 10.0, "probe")
    # without server timings: generated tokens over the whole call
    rate = planner.probe_throughput(200, 40, None, None, 8.0)
    assert rate.generate == 5.0 and rate.prefill is None


def test_fit_recovers_prefill_and_generation_rates():
    # duration = tin / 100 + tout / 4 (seconds), hand-made
    rows = [
        {
            "tokens_in": tin,
            "tokens_out": tout,
            "duration_ms": (tin / 100 + tout / 4) * 1000,
            "run_id": "r",
            "phase": "p",
            "created_at": None,
        }
        for tin, tout in [(100, 10), (500, 5), (2000, 40), (300, 80), (1000, 20)]
    ]
    rate = planner.fit_throughput(rows)
    assert rate.prefill == pytest.approx(100) and rate.generate == pytest.approx(4)
    assert rate.seconds(1000, 8) == pytest.approx(12.0)


def test_rates_from_the_logged_wait_for_the_first_chunk():
    # 600 prompt tokens over 2 s of first-chunk waits (300 tok/s); 50 output tokens over 10 s (5 tok/s)
    rows = [
        {
            "tokens_in": 200,
            "tokens_out": 20,
            "duration_ms": 4500,
            "first_token_ms": 500,
            "run_id": "r",
            "phase": "p",
            "created_at": None,
        },
        {
            "tokens_in": 400,
            "tokens_out": 30,
            "duration_ms": 7500,
            "first_token_ms": 1500,
            "run_id": "r",
            "phase": "p",
            "created_at": None,
        },
    ]
    rate = planner.fit_throughput(rows)
    assert rate.prefill == pytest.approx(300) and rate.generate == pytest.approx(5)


def test_overlap_is_busy_time_over_wall_span():
    t0 = datetime(2026, 12, 1, tzinfo=UTC)
    end = lambda s: (t0 + timedelta(seconds=s)).isoformat()  # noqa: E731
    # two calls of 4 s each, in parallel from 0 to 4, then one of 2 s from 4 to 6: busy 10 s, span 6 s
    rows = [
        {"run_id": "r", "phase": "extract", "duration_ms": 4000, "created_at": end(4)},
        {"run_id": "r", "phase": "extract", "duration_ms": 4000, "created_at": end(4)},
        {"run_id": "r", "phase": "extract", "duration_ms": 2000, "created_at": end(6)},
        {"run_id": "r", "phase": "lonely", "duration_ms": 9000, "created_at": end(9)},
    ]
    assert planner.overlap(rows) == pytest.approx(10 / 6)


@pytest.mark.slow  # heavy: keeps the README lane under 25 min on a quiet 2-core machine
def test_plan_eta_within_a_factor_of_two_of_a_paced_run(tmp_path):
    """Calibrate on one run (trajectory 1), plan another (trajectory 2), run it, compare."""
    from seorap.engine.run.runner import run

    corpus = load_corpus(CORPUS)
    config = Config.offline(
        models={
            "extractor": "paced:1b",
            "synthesizer": "paced:1b",
            "answerer": "extractive",
            "judge": "lexical",
            "embedder": "hashing",
        }
    )
    db = open_db(tmp_path / "r.db")
    first, second = corpus.trajectories[0].id, corpus.trajectories[1].id
    run(corpus, ["A"], db, config, backend=Paced(), trajectories=[first], score=False)
    plan = planner.plan_run(
        corpus,
        ["A"],
        config,
        planner.open_readonly(tmp_path / "r.db"),
        trajectories=[second],
        score=False,
    )
    assert all(
        r.rate_source.startswith("log") and r.ratio_source.startswith("log") for r in plan.roles
    )
    ext = next(r for r in plan.roles if r.role == "extractor")
    assert ext.ratio == pytest.approx(0.5, abs=0.01)  # the paced backend's own tokens per character
    started = time.perf_counter()
    backend = Paced()
    run(corpus, ["A"], db, config, backend=backend, trajectories=[second], score=False)
    measured = time.perf_counter() - started
    assert backend.calls > 10
    assert measured / 2 <= plan.seconds <= measured * 2, (plan.seconds, measured)


def one_slot_rows() -> list[dict]:
    """Two calls sent together to a one-slot host (hand-made): A reads its 100-token prompt in 1 s
    and writes 50 tokens in 10 s (0-11 s); B waits in the server's queue until A ends, then the same
    (first chunk at 12 s, end at 22 s)."""
    t0 = datetime(2026, 12, 1, tzinfo=UTC)
    end = lambda s: (t0 + timedelta(seconds=s)).isoformat()  # noqa: E731
    common = {"run_id": "r", "phase": "extract", "host": "h", "tokens_in": 100, "tokens_out": 50}
    return [
        {**common, "duration_ms": 11000, "first_token_ms": 1000, "created_at": end(11)},
        {**common, "duration_ms": 22000, "first_token_ms": 12000, "created_at": end(22)},
    ]


def test_a_queued_wait_is_not_prefill_and_one_slot_means_a_sum(tmp_path):
    from seorap.engine.run import accounting, calibration
    from seorap.engine.run.planner import _times

    rate = planner.fit_throughput(one_slot_rows())
    assert rate.prefill == pytest.approx(100)  # from A alone: B's 12 s wait was mostly a queue
    assert rate.generate == pytest.approx(5)  # 100 tokens over 20 s of generation
    assert rate.overlap == pytest.approx(33 / 22)  # the log "overlaps" by 1.5: both were open

    db = open_db(tmp_path / "r.db")
    accounting.ensure_tables(db)
    accounting.set_slots(db, "r", "h", 1)
    config = Config.offline()
    assert calibration.slot_counts(config, db, ["h", "other"]) == {"h": 1, "other": 2}
    assert calibration.slot_counts(config.with_overrides(slots=3), db, ["h"]) == {"h": 3}

    class Cal(calibration.Calibration):
        def throughput(self, model):
            return rate

    plan = planner.Plan(roles=[planner.RoleEstimate("extractor", "m", 2, 0, 200.0, 100.0)])
    _times(plan, Cal(None, None, ["h"], {"h": 1}))
    assert plan.seconds == pytest.approx(22.0)  # (1 + 10) + (1 + 10): a sum, as the host did it
    _times(plan, Cal(None, None, ["h"], {"h": 2}))
    assert plan.seconds == pytest.approx(22.0 / 1.5)  # two slots: the measured overlap stands
