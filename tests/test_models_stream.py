"""Streaming through ModelClient against the local fake server: the two waits (first token, silence
between chunks), loops, the error line, cancelling by closing the stream."""

from __future__ import annotations

import json
import threading
import time

import pytest
from pydantic import BaseModel
from timing_support import within

from seorap.engine.models.base import CallCancelled, ModelTimeout
from seorap.engine.models.client import TIMEOUT_ATTEMPTS, ModelClient, find_loop
from seorap.engine.models.ollama_chat import OllamaChat
from seorap.engine.store.database import open_db

MODEL = "qwen3.5:9b"
PLACES = [f"{chr(0xAC00 + 28 * i)}{chr(0xB098 + 28 * i)}실" for i in range(60)]
"""Sixty distinct rooms: each observation of a long reply brings a word of the document."""
MESSAGES = [
    {
        "role": "user",
        "content": f"<document>회의는 3월 5일로 연기되었다. 장소: {' '.join(PLACES)}</document>",
    }
]


class Obs(BaseModel):
    text: str


class Extraction(BaseModel):
    observations: list[Obs]


def client_for(server, **kwargs) -> ModelClient:
    kwargs = {"retry_backoff_s": 0.01, "timeout_s": 0.5, "first_token_s": 1.0, **kwargs}
    return ModelClient(OllamaChat(server.url), **kwargs)


def long_reply(n: int = 30) -> str:
    return json.dumps(
        {"observations": [{"text": f"관찰 {i}: 회의가 {PLACES[i]}에서 열린다"} for i in range(n)]},
        ensure_ascii=False,
    )


def test_a_slow_but_steady_stream_is_never_cut(ollama_server):
    """4 characters every 30 ms: the whole reply takes several times timeout_s, yet completes."""
    reply = long_reply(12)
    ollama_server.handler = lambda body: reply
    ollama_server.streaming(chunk_chars=4, delay_s=0.03)
    client = client_for(ollama_server, timeout_s=0.5)
    started = time.monotonic()
    result = client.structured("extractor", MODEL, MESSAGES, Extraction)
    elapsed = time.monotonic() - started
    assert elapsed > 2 * client.timeout_s  # total work far longer than the silence limit
    assert result.value is not None and len(result.value.observations) == 12
    assert client.stats.timeouts == 0 and client.stats.transient_retries == 0


def test_silence_mid_stream_fails_within_timeout_times_attempts(ollama_server):
    ollama_server.handler = lambda body: long_reply()
    ollama_server.fail("silent", seconds=30, times=TIMEOUT_ATTEMPTS)
    client = client_for(ollama_server, timeout_s=0.4)
    started = time.monotonic()
    with pytest.raises(ModelTimeout) as info:
        client.text("extractor", MODEL, MESSAGES)
    elapsed = time.monotonic() - started
    assert elapsed < 0.4 * TIMEOUT_ATTEMPTS + within(2.0)  # the fault waits 30 s
    message = str(info.value)
    assert "stopped sending in the middle of a reply" in message and "timeout_s" in message
    assert message.count(". ") == 0 and message.endswith(".")
    assert client.stats.timeouts == TIMEOUT_ATTEMPTS and client.open_streams() == 0


def test_no_first_token_waits_first_token_s_not_timeout_s(ollama_server):
    ollama_server.fail("no_first_token", seconds=30, times=TIMEOUT_ATTEMPTS)
    client = client_for(ollama_server, timeout_s=0.1, first_token_s=0.6)
    started = time.monotonic()
    with pytest.raises(ModelTimeout, match="first_token_s"):
        client.text("judge", MODEL, MESSAGES)
    elapsed = time.monotonic() - started
    assert 0.6 * TIMEOUT_ATTEMPTS <= elapsed < 0.6 * TIMEOUT_ATTEMPTS + within(2.0)  # waits 30 s


def test_a_slow_first_token_within_the_wait_is_fine(ollama_server):
    ollama_server.handler = lambda body: "ok"
    ollama_server.fail("delay", seconds=0.5)  # longer than timeout_s, shorter than first_token_s
    db = open_db(None)
    client = client_for(ollama_server, timeout_s=0.2, first_token_s=2.0, db=db)
    assert client.text("judge", MODEL, MESSAGES) == "ok"
    assert client.stats.timeouts == 0
    [row] = db.query("SELECT first_token_ms, duration_ms FROM calls")
    assert 500 <= row["first_token_ms"] <= row["duration_ms"]  # the wait is logged apart


def test_an_error_line_inside_the_stream_is_retried(ollama_server):
    ollama_server.handler = lambda body: long_reply(3)
    ollama_server.fail("error_line")
    client = client_for(ollama_server)
    result = client.structured("extractor", MODEL, MESSAGES, Extraction)
    assert result.value is not None and client.stats.transient_retries == 1


def test_a_looping_reply_is_stopped_and_counted(ollama_server):
    """The fake server would repeat one 20+-token sentence until num_predict (~200 times); the
    client stops it after a few repetitions, counts a loop and re-asks once (not a salvage role)."""
    db = open_db(None)
    ollama_server.fail("loop")
    ollama_server.handler = lambda body: long_reply(2)
    client = client_for(ollama_server, num_predict=4096, db=db)
    result = client.structured("answerer", MODEL, MESSAGES, Extraction)
    assert client.stats.loops == 1 and result.value is not None and result.retried
    looped = next(
        db.query("select unzip(raw_z) as raw, done_reason from calls order by id limit 1")
    )
    assert looped["done_reason"] == "loop"
    assert looped["raw"].count("같은 문장을 다시 씁니다") < 10
    retry = ollama_server.bodies("/api/chat")[1]
    assert "repeated the same text" in retry["messages"][-1]["content"]


def test_find_loop_needs_twenty_tokens_three_times():
    span = " ".join(f"w{i}" for i in range(20)) + " "
    assert find_loop("앞말 " + span * 3)
    assert not find_loop("앞말 " + span * 2)
    short = " ".join(f"w{i}" for i in range(19)) + " "
    assert not find_loop(short * 5)  # a 19-token span is not a loop, however often it repeats
    assert not find_loop(long_reply(40))  # distinct observations of the same shape are not a loop


def test_cancel_closes_a_blocked_stream_from_another_thread(ollama_server):
    ollama_server.fail("no_first_token", seconds=30)
    client = client_for(ollama_server, first_token_s=60)
    errors: list[BaseException] = []

    def call():
        try:
            client.text("judge", MODEL, MESSAGES)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    worker = threading.Thread(target=call)
    worker.start()
    deadline = time.monotonic() + 5
    while not ollama_server.bodies("/api/chat") and time.monotonic() < deadline:
        time.sleep(0.01)
    started = time.monotonic()
    client.cancel()
    worker.join(5)
    assert time.monotonic() - started < within(1.0)
    assert len(errors) == 1 and isinstance(errors[0], CallCancelled)
    with pytest.raises(CallCancelled):
        client.text("judge", MODEL, MESSAGES)  # nothing new starts after a cancel
    assert len(ollama_server.bodies("/api/chat")) == 1


def test_cancel_mid_stream_makes_the_server_stop_sending(ollama_server):
    ollama_server.handler = lambda body: long_reply(40)
    ollama_server.streaming(chunk_chars=2, delay_s=0.02)
    client = client_for(ollama_server)
    worker = threading.Thread(
        target=lambda: pytest.raises(CallCancelled, client.text, "judge", MODEL, MESSAGES)
    )
    worker.start()
    time.sleep(0.3)
    client.cancel()
    worker.join(5)
    deadline = time.monotonic() + 3
    while ollama_server.disconnects == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert ollama_server.disconnects == 1  # the server saw the client go and stopped generating


def test_the_configured_client_lets_a_slow_first_token_wait_past_timeout_s(ollama_server):
    """The backend a config builds sets no read timeout of its own: a model still loading (first
    chunk after timeout_s, within first_token_s) is waited for, not cut by the HTTP layer."""
    from seorap.engine.config import Config

    ollama_server.handler = lambda body: "ok"
    ollama_server.fail("delay", seconds=0.8)
    config = Config(host=ollama_server.url, timeout_s=0.3, first_token_s=3.0)
    client = ModelClient.from_config(config, open_db(None))
    assert client.text("judge", MODEL, MESSAGES) == "ok"
    assert client.stats.timeouts == 0 and client.stats.transient_retries == 0
