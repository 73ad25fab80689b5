"""Salvage of cut list-shaped replies (pure functions, hand-counted expectations) and the
structured() paths around it: no re-ask for a salvage role, a re-ask with twice the room for the rest."""

from __future__ import annotations

import json

from pydantic import BaseModel

from seorap.engine.memory.schemas import Extraction
from seorap.engine.models.base import ChatReply
from seorap.engine.models.client import ModelClient, salvage_items
from seorap.engine.models.ollama_chat import OllamaChat

MODEL = "qwen3.5:9b"
MESSAGES = [{"role": "user", "content": "<document>x</document>"}]


def obs(text: str) -> str:
    return json.dumps(
        {"text": text, "category": "status", "who": "김", "confidence": 0.7}, ensure_ascii=False
    )


def test_the_unfinished_last_item_is_dropped():
    cut = '{"observations": [' + obs("하나") + ", " + obs("둘") + ', {"text": "셋은 아직 쓰는 중'
    value, kept, dropped = salvage_items(cut, Extraction)
    assert [o.text for o in value.observations] == ["하나", "둘"]
    assert (kept, dropped) == (2, 1)


def test_an_unfinished_item_whose_fields_are_complete_is_still_dropped():
    """pydantic-core's partial parser returns {"text": "셋"} for an object missing its "}": it
    looks complete, but the model had not finished it (more fields may have been coming)."""
    cut = '{"observations": [' + obs("하나") + ', {"text": "셋", "category": "status"'
    value, kept, dropped = salvage_items(cut, Extraction)
    assert [o.text for o in value.observations] == ["하나"] and (kept, dropped) == (1, 1)


def test_a_cut_right_after_a_closed_item_keeps_it():
    for tail in ("", ", ", ",\n  "):
        cut = '{"observations": [' + obs("하나") + ", " + obs("둘") + tail
        value, kept, dropped = salvage_items(cut, Extraction)
        assert [o.text for o in value.observations] == ["하나", "둘"], tail
        assert (kept, dropped) == (2, 0)


def test_a_brace_inside_the_unfinished_string_does_not_fool_it():
    cut = '{"observations": [' + obs("하나") + ', {"text": "중괄호 } 를 쓰는 중'
    value, kept, dropped = salvage_items(cut, Extraction)
    assert [o.text for o in value.observations] == ["하나"] and (kept, dropped) == (1, 1)


def test_invalid_complete_items_are_skipped_not_fatal():
    bad = json.dumps({"text": "범주 오류", "category": "nonsense"}, ensure_ascii=False)
    cut = '{"observations": [' + obs("하나") + ", " + bad + ", " + obs("둘") + ', {"te'
    value, kept, dropped = salvage_items(cut, Extraction)
    assert [o.text for o in value.observations] == ["하나", "둘"] and (kept, dropped) == (2, 2)


def test_nothing_complete_means_no_value():
    assert salvage_items('{"observations": [{"text": "아직', Extraction) == (None, 0, 1)
    assert salvage_items("I am sorry, I cannot", Extraction)[0] is None
    assert salvage_items('```json\n{"observations": [' + obs("하나") + ", {", Extraction)[1] == 1


class Choice(BaseModel):
    operation: str
    reason: str


def test_structured_salvages_without_a_re_ask(ollama_server):
    full = '{"observations": [' + ", ".join(obs(f"관찰 {i}") for i in range(5)) + "]}"
    ollama_server.handler = lambda body: {
        "content": full[: int(len(full) * 0.6)],
        "done_reason": "length",
        "eval_count": 4096,
    }
    client = ModelClient(
        OllamaChat(ollama_server.url), retry_backoff_s=0.01, num_predict={"extractor": 4096}
    )
    result = client.structured("extractor", MODEL, MESSAGES, Extraction, salvage=True)
    assert result.partial and result.salvaged == 2  # 60 % of 5 items: 3 started, 2 closed
    assert [o.text for o in result.value.observations] == ["관찰 0", "관찰 1"]
    assert (
        result.failure
        == "cut at num_predict (4096 tokens): kept 2 complete item(s), dropped 1 unfinished"
    )
    assert len(ollama_server.bodies("/api/chat")) == 1
    assert client.stats.salvaged_items == 2 and client.stats.cut_replies == 1


def test_re_ask_room_is_capped_at_num_ctx(ollama_server):
    ollama_server.handler = lambda body: {"content": '{"operation": "cre', "done_reason": "length"}
    client = ModelClient(
        OllamaChat(ollama_server.url),
        retry_backoff_s=0.01,
        num_ctx=1500,
        num_predict={"judge": 1000},
    )
    result = client.structured("judge", MODEL, MESSAGES, Choice)
    assert result.value is None and result.failure == "cut at num_predict (1500 tokens) after retry"
    first, retry = ollama_server.bodies("/api/chat")
    assert (first["options"]["num_predict"], retry["options"]["num_predict"]) == (1000, 1500)


def test_per_role_num_predict_reaches_the_server(ollama_server):
    from seorap.engine.config import Config

    ollama_server.handler = lambda body: '{"operation": "create", "reason": "r"}'
    client = ModelClient.from_config(Config(host=ollama_server.url))
    for role in ("extractor", "synthesizer", "answerer", "judge"):
        client.structured(role, MODEL, MESSAGES, Choice)
    sent = [b["options"]["num_predict"] for b in ollama_server.bodies("/api/chat")]
    assert sent == [4096, 1024, 1024, 512]


def test_a_loop_reply_from_a_stand_in_backend_is_salvaged_too():
    """A backend that is not Ollama (one chunk, no done_reason "length") that loops: the loop is
    recognised on the reply it produced and the extraction keeps its complete items."""
    looping = '{"observations": [' + obs("하나") + ", " + ('{"text": "' + "같은 말 " * 80)

    class Looper:
        name = "looper"

        def chat(self, request):
            return ChatReply(content=looping, model=request.model, done_reason="length")

    client = ModelClient(Looper())
    result = client.structured("extractor", MODEL, MESSAGES, Extraction, salvage=True)
    assert client.stats.loops == 1 and result.partial
    assert [o.text for o in result.value.observations] == ["하나"]
    assert result.failure.startswith("stopped: the reply repeated itself")


def test_a_cut_plain_answer_is_re_asked_with_twice_the_room(ollama_server):
    replies = iter(
        [{"content": "회의는 3월", "done_reason": "length"}, "회의는 3월 5일로 연기되었다."]
    )
    ollama_server.handler = lambda body: next(replies)
    client = ModelClient(
        OllamaChat(ollama_server.url), retry_backoff_s=0.01, num_predict={"answerer": 300}
    )
    assert client.text("answerer", MODEL, MESSAGES) == "회의는 3월 5일로 연기되었다."
    first, retry = ollama_server.bodies("/api/chat")
    assert (first["options"]["num_predict"], retry["options"]["num_predict"]) == (300, 600)
    assert retry["messages"] == first["messages"]
    assert client.stats.retries == 1 and client.stats.failures == 0


def test_a_plain_answer_cut_twice_is_a_counted_failure(ollama_server):
    ollama_server.handler = lambda body: {"content": "잘린 답", "done_reason": "length"}
    client = ModelClient(
        OllamaChat(ollama_server.url),
        retry_backoff_s=0.01,
        num_ctx=500,
        num_predict={"answerer": 300},
    )
    assert client.text("answerer", MODEL, MESSAGES) == "잘린 답"
    assert [b["options"]["num_predict"] for b in ollama_server.bodies("/api/chat")] == [300, 500]
    assert client.stats.failures == 1 and client.stats.cut_replies == 2
