"""ModelClient through the real ollama client against the local fake server (tests/ollama_fake.py)."""

from __future__ import annotations

import json
import threading

import pytest
from models_support import GOOD, MESSAGES, MODEL, Facts
from ollama_fake import closed_port_url

from seorap.engine.models.base import ModelError, ModelMissing, ModelUnavailable, ReplayMiss
from seorap.engine.models.client import SERVER_ERROR_ATTEMPTS, ModelClient, repair_json
from seorap.engine.models.ollama_chat import OllamaChat
from seorap.engine.store.database import open_db
from seorap.engine.store.queries import calls as call_log


def make_client(server, db=None, **kwargs) -> ModelClient:
    return ModelClient(OllamaChat(server.url, timeout_s=5), db, retry_backoff_s=0.01, **kwargs)


def test_request_body_carries_model_schema_and_options(ollama_server):
    ollama_server.handler = lambda body: GOOD
    client = make_client(ollama_server, seed=7, keep_alive="5m", num_ctx=4096, num_predict=256)
    result = client.structured("extractor", MODEL, MESSAGES, Facts, phase="write")
    assert result.value == Facts(facts=["회의가 연기되었다"], who="김민수")
    (body,) = ollama_server.bodies("/api/chat")
    assert body["model"] == MODEL
    assert body["format"] == Facts.model_json_schema()
    assert body["options"] == {"temperature": 0.0, "seed": 7, "num_ctx": 4096, "num_predict": 256}
    assert body["keep_alive"] == "5m"
    assert body["think"] is False
    assert body["stream"] is True  # every call streams
    assert body["messages"] == MESSAGES


def test_missing_model_is_one_sentence_with_the_fix(ollama_server):
    client = make_client(ollama_server)
    with pytest.raises(ModelMissing) as info:
        client.text("judge", "no-such-model:1b", MESSAGES)
    message = str(info.value)
    assert "no-such-model:1b" in message and "seorap models pull no-such-model:1b" in message
    assert "ollama pull no-such-model:1b" in message
    assert message.count(". ") == 0 and message.endswith(".")


def test_connection_refused_names_host_and_fix():
    url = closed_port_url()
    client = ModelClient(OllamaChat(url, timeout_s=2), retry_backoff_s=0.01)
    with pytest.raises(ModelUnavailable) as info:
        client.text("judge", MODEL, MESSAGES)
    assert url in str(info.value) and "ollama serve" in str(info.value)


def test_a_500_is_retried_once(ollama_server):
    db = open_db(None)
    ollama_server.handler = lambda body: GOOD
    ollama_server.fail("500")
    client = make_client(ollama_server, db, run_id="r1")
    result = client.structured("extractor", MODEL, MESSAGES, Facts, phase="write")
    assert result.value is not None and result.failure is None
    assert len(ollama_server.bodies("/api/chat")) == 2
    assert client.stats.transient_retries == 1 and client.stats.calls == 1
    assert call_log.count_calls(db, run_id="r1", errors=True) == 1
    assert call_log.count_calls(db, run_id="r1", errors=False) == 1


def test_persistent_500s_raise_a_model_error(ollama_server):
    ollama_server.fail("500", times=SERVER_ERROR_ATTEMPTS)
    client = make_client(ollama_server)
    with pytest.raises(ModelError, match="status 500"):
        client.text("judge", MODEL, MESSAGES)


def test_timeout_is_retried_then_reported(ollama_server):
    ollama_server.fail("delay", seconds=1.0, times=2)
    client = ModelClient(OllamaChat(ollama_server.url, timeout_s=0.2), retry_backoff_s=0.01)
    with pytest.raises(ModelError, match="in time"):
        client.text("judge", MODEL, MESSAGES)
    assert client.stats.transient_retries == 1


def test_malformed_reply_is_retried_with_the_error(ollama_server):
    ollama_server.handler = lambda body: GOOD
    ollama_server.fail("malformed")
    client = make_client(ollama_server)
    result = client.structured("extractor", MODEL, MESSAGES, Facts)
    assert result.value is not None and result.retried
    retry_body = ollama_server.bodies("/api/chat")[1]
    assert retry_body["messages"][-2]["role"] == "assistant"
    assert "not valid JSON" in retry_body["messages"][-1]["content"]


def test_fenced_reply_is_repaired_without_a_retry(ollama_server):
    ollama_server.handler = lambda body: f"```json\n{GOOD}\n```\nHope this helps!"
    client = make_client(ollama_server)
    result = client.structured("extractor", MODEL, MESSAGES, Facts)
    assert result.value is not None and result.repaired and not result.retried
    assert len(ollama_server.bodies("/api/chat")) == 1
    assert client.stats.repairs == 1


def test_malformed_twice_is_a_counted_failure_not_an_exception(ollama_server):
    db = open_db(None)
    ollama_server.handler = lambda body: '{"facts": "not a list"'
    client = make_client(ollama_server, db)
    result = client.structured("extractor", MODEL, MESSAGES, Facts)
    assert result.value is None
    assert result.failure.startswith("invalid JSON after repair and retry")
    assert result.raw == '{"facts": "not a list"'
    assert client.stats.failures == 1 and client.stats.calls == 2
    assert call_log.count_calls(db) == 2


def test_reply_cut_at_num_predict_is_re_asked_once_with_twice_the_room(ollama_server):
    ollama_server.handler = lambda body: GOOD
    ollama_server.fail("length", times=2)
    client = make_client(ollama_server, num_predict=64)
    result = client.structured("extractor", MODEL, MESSAGES, Facts)
    assert result.value is None and result.failure.startswith("cut at num_predict (128 tokens)")
    first, retry = ollama_server.bodies("/api/chat")
    assert "cut off at the token limit" in retry["messages"][-1]["content"]
    assert (first["options"]["num_predict"], retry["options"]["num_predict"]) == (64, 128)
    assert client.stats.cut_replies == 2 and client.stats.failures == 1


def test_reply_with_done_reason_length_is_rejected_even_if_it_parses(ollama_server):
    ollama_server.handler = lambda body: {"content": GOOD, "done_reason": "length"}
    client = make_client(ollama_server)
    result = client.structured("extractor", MODEL, MESSAGES, Facts)
    assert result.value is None and "cut at num_predict" in result.failure


def test_prompt_reaching_num_ctx_is_flagged(ollama_server):
    db = open_db(None)
    ollama_server.handler = lambda body: {"content": GOOD, "prompt_eval_count": 2048}
    client = make_client(ollama_server, db, num_ctx=2048)
    result = client.structured("extractor", MODEL, MESSAGES, Facts)
    assert result.value is not None and result.truncated
    assert client.stats.truncated_prompts == 1
    assert db.execute("select prompt_truncated from calls").fetchone()[0] == 1


def test_cache_hit_makes_zero_backend_calls(ollama_server):
    db = open_db(None)
    ollama_server.handler = lambda body: GOOD
    make_client(ollama_server, db).structured("extractor", MODEL, MESSAGES, Facts)
    ollama_server.reset()
    again = make_client(ollama_server, db)
    result = again.structured("extractor", MODEL, MESSAGES, Facts)
    assert result.cached and result.value.who == "김민수"
    assert ollama_server.requests == [] and again.stats.calls == 0 and again.stats.cached == 1


def test_replay_serves_from_the_log_and_names_role_and_model_on_a_miss(ollama_server):
    db = open_db(None)
    ollama_server.handler = lambda body: GOOD
    make_client(ollama_server, db).structured("extractor", MODEL, MESSAGES, Facts)
    replay = ModelClient(None, db, replay=True)
    assert replay.structured("extractor", MODEL, MESSAGES, Facts).value.who == "김민수"
    with pytest.raises(ReplayMiss) as info:
        replay.text("answerer", "qwen3.8:27b", [{"role": "user", "content": "새 질문"}])
    assert "'answerer'" in str(info.value) and "qwen3.8:27b" in str(info.value)
    assert "without --replay" in str(info.value)


def test_replay_reproduces_a_recorded_failure(ollama_server):
    db = open_db(None)
    ollama_server.handler = lambda body: "no json here"
    first = make_client(ollama_server, db).structured("extractor", MODEL, MESSAGES, Facts)
    replayed = ModelClient(None, db, replay=True).structured("extractor", MODEL, MESSAGES, Facts)
    assert first.failure == replayed.failure and replayed.cached


def test_failed_calls_are_logged_but_never_served_from_cache(ollama_server):
    db = open_db(None)
    ollama_server.fail("500", times=SERVER_ERROR_ATTEMPTS)
    with pytest.raises(ModelError):
        make_client(ollama_server, db).text("judge", MODEL, MESSAGES)
    ollama_server.handler = lambda body: "YES"
    assert make_client(ollama_server, db).text("judge", MODEL, MESSAGES) == "YES"


def test_text_logs_run_phase_tokens(ollama_server):
    db = open_db(None)
    ollama_server.handler = lambda body: {
        "content": "서울",
        "prompt_eval_count": 30,
        "eval_count": 2,
    }
    client = make_client(ollama_server, db, run_id="run-1")
    assert client.text("answerer", "qwen3.8:27b", MESSAGES, phase="answer") == "서울"
    row = next(db.query("select * from calls"))
    assert (row["run_id"], row["phase"], row["role"], row["tokens_in"], row["tokens_out"]) == (
        "run-1",
        "answer",
        "answerer",
        30,
        2,
    )
    assert row["digest"] == ollama_server.models["qwen3.8:27b"]
    assert json.loads(row["options"])["temperature"] == 0.0
    assert call_log.call_counts(db, "phase") == {"answer": 1}
    assert call_log.token_totals(db, run_id="run-1") == {"tokens_in": 30, "tokens_out": 2}
    assert client.stats.by_role == {"answerer": 1} and client.stats["tokens_in"] == 30


def test_thread_safe_under_a_pool(ollama_server):
    db = open_db(None)
    ollama_server.handler = lambda body: json.dumps(
        {"facts": [body["messages"][-1]["content"]], "who": "x"}
    )
    client = make_client(ollama_server, db)
    results: list = []

    def work(i: int) -> None:
        results.append(
            client.structured("extractor", MODEL, [{"role": "user", "content": f"d{i}"}], Facts)
        )

    threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.value.facts[0] for r in results) == sorted(f"d{i}" for i in range(16))
    # every call logged once; an attempt that met a transient error (a busy machine) is logged too
    assert client.stats.calls == 16 and call_log.count_calls(db, errors=False) == 16
    assert call_log.count_calls(db, errors=True) == client.stats.errors


def test_repair_json_pure():
    assert repair_json('```json\n{"a": 1}\n```') == '{"a": 1}'
    assert repair_json('Here: {"a": {"b": 2}} done.') == '{"a": {"b": 2}}'
    assert repair_json("nothing") == "nothing"
