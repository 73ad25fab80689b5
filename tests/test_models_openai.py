"""The OpenAI-compatible chat backend (engine/models/openai_chat.py) at the HTTP boundary: a local
server on 127.0.0.1 streaming server-sent events the way vLLM and llama.cpp's server do."""

from __future__ import annotations

import json

import pytest
from models_support import GOOD, MESSAGES, MODEL, Facts
from ollama_fake import closed_port_url

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.base import ChatRequest, ModelMissing, ModelUnavailable
from seorap.engine.models.client import ModelClient
from seorap.engine.models.hosts import make_chat_backend
from seorap.engine.models.openai_chat import OpenAIChat, request_body
from seorap.engine.models.standin import ollama_handler
from seorap.engine.store.database import open_db


def client_for(server, db=None, **kwargs) -> ModelClient:
    return ModelClient(OpenAIChat(server.url), db, retry_backoff_s=0.01, **kwargs)


def test_structured_output_goes_through_response_format_json_schema(openai_server):
    openai_server.handler = lambda body: GOOD
    db = open_db(None)
    out = client_for(openai_server, db, seed=7, num_predict=256).structured(
        "extractor", MODEL, MESSAGES, Facts, phase="extract", run_id="r1"
    )
    assert out.value == Facts(facts=["회의가 연기되었다"], who="김민수")
    (body,) = openai_server.bodies()
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "reply", "schema": Facts.model_json_schema(), "strict": True},
    }
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert (body["model"], body["max_tokens"], body["seed"], body["temperature"]) == (
        MODEL,
        256,
        7,
        0.0,
    )
    assert body["messages"] == MESSAGES
    row = db.execute(
        "SELECT tokens_in, tokens_out, done_reason, digest, host FROM calls"
    ).fetchone()
    prompt_chars = sum(len(m["content"]) for m in MESSAGES)
    assert row == (prompt_chars // 2, len(GOOD) // 2, "stop", None, openai_server.url)


def test_the_reply_streams_in_pieces(openai_server):
    openai_server.handler = lambda body: "가나다라마바사아자차카타"
    openai_server.chunk_chars = 3
    stream = OpenAIChat(openai_server.url).stream(ChatRequest("answerer", MODEL, tuple(MESSAGES)))
    pieces = list(stream)
    assert pieces == ["가나다", "라마바", "사아자", "차카타"]
    reply = stream.result()
    assert reply.content == "가나다라마바사아자차카타" and reply.done_reason == "stop"


def test_a_cut_reply_is_length_and_the_same_rules_apply(openai_server):
    openai_server.handler = lambda body: GOOD
    openai_server.fail("length")
    out = client_for(openai_server).structured("judge", MODEL, MESSAGES, Facts)
    first = openai_server.bodies()[0]
    assert len(openai_server.bodies()) == 2  # cut (finish_reason length) -> re-asked
    assert out.value is not None and out.retried
    assert first["messages"] == MESSAGES


def test_replay_and_cache_serve_without_the_server(openai_server):
    openai_server.handler = lambda body: GOOD
    db = open_db(None)
    client_for(openai_server, db).structured("extractor", MODEL, MESSAGES, Facts)
    again = ModelClient(None, db, replay=True).structured("extractor", MODEL, MESSAGES, Facts)
    assert again.cached and again.value is not None and len(openai_server.bodies()) == 1


def test_missing_model_and_down_server_are_one_sentence(openai_server):
    with pytest.raises(ModelMissing) as info:
        client_for(openai_server).text("judge", "no-such-model", MESSAGES)
    assert "no-such-model" in str(info.value) and "/v1/models" in str(info.value)
    with pytest.raises(ModelUnavailable) as info:
        ModelClient(OpenAIChat(closed_port_url() + "/v1")).text("judge", MODEL, MESSAGES)
    assert "Cannot reach the OpenAI-compatible server" in str(info.value)
    assert str(info.value).endswith(".") and "Traceback" not in str(info.value)


def test_server_errors_and_error_events_are_retried(openai_server):
    openai_server.handler = lambda body: GOOD
    openai_server.fail("500")
    openai_server.fail("error_event")
    out = client_for(openai_server).structured("judge", MODEL, MESSAGES, Facts)
    assert out.value is not None and len(openai_server.bodies()) == 3


def test_api_key_comes_from_the_environment_only(openai_server, monkeypatch):
    monkeypatch.setenv("SEORAP_TEST_KEY", "sk-test-123")
    OpenAIChat(openai_server.url, api_key_env="SEORAP_TEST_KEY").chat(
        ChatRequest("judge", MODEL, tuple(MESSAGES))
    )
    OpenAIChat(openai_server.url, api_key_env="SEORAP_NO_SUCH_KEY").chat(
        ChatRequest("judge", MODEL, tuple(MESSAGES))
    )
    auths = [r["auth"] for r in openai_server.requests]
    assert auths == ["Bearer sk-test-123", None]


def test_server_version_and_served_model_name(openai_server):
    chat = OpenAIChat(openai_server.url)
    chat.chat(ChatRequest("judge", MODEL, tuple(MESSAGES)))
    assert chat.served(MODEL) == MODEL
    assert chat.server_info() == {"version": "0.11.0-fake", "source": "/version"}
    assert chat.installed() == {"qwen3.5:9b": None, "qwen3.8:27b": None}


def test_options_map_to_openai_names():
    body = request_body(
        ChatRequest(
            "judge",
            "m",
            ({"role": "user", "content": "x"},),
            options={"temperature": 0.0, "seed": 3, "num_ctx": 8192, "num_predict": 64},
        )
    )
    assert (body["max_tokens"], body["seed"], body["temperature"]) == (64, 3, 0.0)
    assert "num_ctx" not in body and "response_format" not in body


def test_config_backend_openai_makes_this_backend(openai_server):
    config = Config(backend="openai", base_url=openai_server.url)
    backend = make_chat_backend(config)
    assert isinstance(backend, OpenAIChat) and backend.host == openai_server.url


def test_a_run_over_the_openai_backend_writes_the_same_store_as_over_ollama(
    tmp_path, openai_server, ollama_server
):
    from seorap.engine.run.runner import run

    corpus = load_corpus("fixtures/ko-mini")
    one = [corpus.trajectories[0].id]
    openai_server.handler = ollama_handler()
    ollama_server.handler = ollama_handler()
    config = Config.offline(
        models={
            "extractor": MODEL,
            "synthesizer": MODEL,
            "answerer": "extractive",
            "judge": "lexical",
            "embedder": "hashing",
        }
    )
    stores = []
    for name, cfg in (
        ("openai", config.with_overrides(backend="openai", base_url=openai_server.url)),
        ("ollama", config.with_overrides(host=ollama_server.url)),
    ):
        db = open_db(tmp_path / f"{name}.db")
        (rid,) = run(
            corpus, ["A"], db, cfg, backend=make_chat_backend(cfg), trajectories=one, score=False
        )
        stores.append(
            [
                (r["text"], r["status"], r["version"])
                for r in db.query(
                    "SELECT text, status, version FROM facts WHERE run_id=? ORDER BY text", [rid]
                )
            ]
        )
        manifest = json.loads(db["runs"].get(rid)["manifest"])
        if name == "openai":  # no digest: the served model name and the server's version instead
            ext = manifest["models"]["extractor"]
            assert (ext["backend"], ext["served"], ext["server_version"], ext["digest"]) == (
                "openai",
                MODEL,
                "0.11.0-fake",
                None,
            )
            assert ext["hosts"] == [openai_server.url]
    assert stores[0] == stores[1] and len(stores[0]) > 0
    assert len(openai_server.bodies()) == len(ollama_server.bodies("/api/chat"))


def test_a_server_refusing_json_schema_gets_json_object_with_the_schema(openai_server):
    """llama-cpp-python's server (measured: 0.3.36) answers 500 to response_format json_schema and
    takes {"type": "json_object", "schema": ...}; it also sends no usage event."""
    openai_server.json_schema = False
    openai_server.usage = False
    openai_server.chunk_chars = 5
    openai_server.handler = lambda body: GOOD
    chat = OpenAIChat(openai_server.url)
    client = ModelClient(chat, open_db(None), retry_backoff_s=0.01)
    assert client.structured("extractor", MODEL, MESSAGES, Facts).value is not None
    assert client.structured("judge", MODEL, MESSAGES[:1], Facts).value is not None
    formats = [b["response_format"]["type"] for b in openai_server.bodies()]
    assert formats == ["json_schema", "json_object", "json_object"]  # switched once, remembered
    assert openai_server.bodies()[1]["response_format"]["schema"] == Facts.model_json_schema()
    row = client.db.execute(
        "SELECT tokens_in, tokens_out FROM calls ORDER BY id LIMIT 1"
    ).fetchone()
    assert row == (0, -(-len(GOOD) // 5))  # no usage: one token per streamed piece


def test_silence_mid_reply_is_a_timeout_not_a_hang(openai_server):
    from seorap.engine.errors import ModelTimeout

    openai_server.handler = lambda body: GOOD
    openai_server.chunk_chars = 2
    openai_server.fail("silent", seconds=20)
    openai_server.fail("silent", seconds=20)
    client = ModelClient(OpenAIChat(openai_server.url), retry_backoff_s=0.01, timeout_s=0.5)
    import time

    started = time.perf_counter()
    with pytest.raises(ModelTimeout) as info:
        client.text("judge", MODEL, MESSAGES)
    assert time.perf_counter() - started < 5  # 2 attempts x 0.5 s of silence, not 20 s
    assert "stopped sending" in str(info.value)


def test_cancel_closes_the_open_stream(openai_server):
    import threading
    import time

    from seorap.engine.models.base import CallCancelled

    openai_server.handler = lambda body: "가" * 400
    openai_server.chunk_chars = 1
    openai_server.chunk_delay_s = 0.05  # 20 s in all
    client = ModelClient(OpenAIChat(openai_server.url))
    threading.Timer(0.5, client.cancel).start()
    started = time.perf_counter()
    with pytest.raises(CallCancelled):
        client.text("judge", MODEL, MESSAGES)
    assert time.perf_counter() - started < 3
