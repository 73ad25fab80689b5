"""The fake Ollama server itself, driven by the real ollama client (other areas rely on it)."""

from __future__ import annotations

import httpx
import ollama
import pytest
from ollama_fake import closed_port_url, schema_example

from seorap.engine.models.base import ChatRequest
from seorap.engine.models.ollama_chat import OllamaChat, is_transient, translate_error


def test_streaming_chat_reassembles_and_reports_counts(ollama_server):
    ollama_server.handler = lambda body: "서울에서 회의가 열린다"
    client = ollama.Client(host=ollama_server.url, timeout=5)
    parts = list(
        client.chat(model="qwen3.5:9b", messages=[{"role": "user", "content": "x"}], stream=True)
    )
    assert "".join(p.message.content for p in parts) == "서울에서 회의가 열린다"
    assert parts[-1].done and parts[-1].eval_count > 0 and parts[-1].done_reason == "stop"


def test_error_line_in_a_stream_is_status_minus_one(ollama_server):
    ollama_server.handler = lambda body: "a fairly long reply to split into pieces"
    ollama_server.fail("error_line")
    client = ollama.Client(host=ollama_server.url, timeout=5)
    with pytest.raises(ollama.ResponseError) as info:
        list(
            client.chat(
                model="qwen3.5:9b", messages=[{"role": "user", "content": "x"}], stream=True
            )
        )
    assert info.value.status_code == -1 and is_transient(info.value)


def test_streaming_against_a_closed_port_raises_raw_connect_error():
    client = ollama.Client(host=closed_port_url(), timeout=2)
    with pytest.raises(httpx.ConnectError) as info:
        list(client.pull("x", stream=True))
    assert "ollama serve" in str(translate_error(info.value, "h", "x"))


def test_backend_reports_digest_show_and_loaded(ollama_server):
    chat = OllamaChat(ollama_server.url, timeout_s=5)
    reply = chat.chat(
        ChatRequest(
            role="judge",
            model="qwen3.8:27b",
            messages=({"role": "user", "content": "hi"},),
            options={"seed": 0},
        )
    )
    assert reply.digest == ollama_server.models["qwen3.8:27b"] and reply.done_reason == "stop"
    assert reply.tokens_in > 0 and reply.duration_ms > 0
    assert chat.loaded() == ["qwen3.8:27b"]
    assert chat.client.show("qwen3.8:27b").details.family == "fake"
    assert ollama_server.requests[0]["path"] == "/api/chat"


def test_schema_example_is_valid_for_nested_models():
    from typing import Literal

    from pydantic import BaseModel

    class Item(BaseModel):
        op: Literal["create", "update"]
        fact_id: str | None
        confidence: float

    class Batch(BaseModel):
        items: list[Item]
        best: Item

    Batch.model_validate(schema_example(Batch.model_json_schema()))
