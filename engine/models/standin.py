"""``standin``: a deterministic heuristic chat backend that answers seorap's own prompts offline.

Honestly a stand-in, not a model: it reads only the ``<payload>`` JSON block (and the ``<document>``
body) that engine/memory/prompts.py puts in the user message, and answers

- extraction: every sentence of the document becomes an observation (category "status", the author
  as "who", the document date as "when", confidence 0.7);
- synthesis: by the best candidate similarity written in the payload — ``>= reinforce_at``
  reinforce it, ``>= update_at`` update it (supersede when the observation carries a change word
  such as 취소/연기/변경/대신), otherwise create.

Zero latency by default; ``latency_s`` (or env SEORAP_STANDIN_LATENCY, seconds) sleeps per call, for
benchmarks and kill tests. Like every chat backend it hands out a stream (:meth:`StandinBackend.stream`)
that closing cancels: a call waiting out its latency returns at once, with no reply. Requests it does not recognise get a JSON error object (a write failure).
Also serves as the handler of the fake Ollama server in tests (:func:`ollama_handler`).
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable

from seorap.engine.memory.prompts import read_payload
from seorap.engine.memory.sentences import statements
from seorap.engine.models.base import ChatReply, ChatRequest, ReplyStream

CHANGE_WORDS = re.compile(r"취소|연기|변경|대신|철회|바뀌|바꾸|전환|중단|폐기")


class StandinBackend:
    name = "standin"

    def __init__(
        self, *, latency_s: float = 0.0, reinforce_at: float = 0.9, update_at: float = 0.55
    ):
        self.latency_s = latency_s
        self.reinforce_at = reinforce_at
        self.update_at = update_at
        self.calls = 0
        self._lock = threading.Lock()

    @classmethod
    def from_env(cls) -> StandinBackend:
        return cls(latency_s=float(os.environ.get("SEORAP_STANDIN_LATENCY", "0") or 0))

    def stream(self, request: ChatRequest) -> ReplyStream:
        """The reply as one chunk, after ``latency_s``; closing the stream cuts the wait short."""
        closed = threading.Event()

        def produce() -> ChatReply:
            with self._lock:
                self.calls += 1
            if self.latency_s and closed.wait(self.latency_s):
                return ChatReply(content="", model=request.model, done_reason="cancelled")
            return self.reply(request)

        return ReplyStream(produce, on_close=closed.set)

    def chat(self, request: ChatRequest) -> ChatReply:
        with self._lock:
            self.calls += 1
        if self.latency_s:
            time.sleep(self.latency_s)
        return self.reply(request)

    def reply(self, request: ChatRequest) -> ChatReply:
        content = self.answer(list(request.messages))
        return ChatReply(
            content=content, model=request.model, digest="standin-v1", done_reason="stop"
        )

    def answer(self, messages: list[dict]) -> str:
        try:
            payload, document = read_payload(messages)
        except (ValueError, json.JSONDecodeError):
            return json.dumps({"error": "standin: no <payload> block it understands"})
        if payload.get("task") == "extract":
            return json.dumps(self.extract(payload, document or ""), ensure_ascii=False)
        if payload.get("task") == "synthesize":
            return json.dumps(self.synthesize(payload), ensure_ascii=False)
        return json.dumps({"error": f"standin: unknown task {payload.get('task')!r}"})

    def extract(self, payload: dict, document: str) -> dict:
        meta = payload.get("document", {})
        return {
            "observations": [
                {
                    "text": s,
                    "category": "status",
                    "who": meta.get("author", ""),
                    "what": s,
                    "when": meta.get("date", ""),
                    "where": "",
                    "why": "",
                    "confidence": 0.7,
                }
                for s in statements(document)
            ]
        }

    def synthesize(self, payload: dict) -> dict:
        text = payload["observation"]["text"]
        candidates = payload.get("candidates") or []
        best = max(candidates, key=lambda c: c.get("similarity") or 0.0, default=None)
        sim = (best or {}).get("similarity") or 0.0
        if best is None or sim < self.update_at:
            return _choice("create", "", text, 0.7, f"best similarity {sim:.2f} < {self.update_at}")
        if sim >= self.reinforce_at:
            return _choice(
                "reinforce",
                best["label"],
                best["text"],
                best.get("confidence", 0.7),
                f"similarity {sim:.2f} >= {self.reinforce_at}",
            )
        op = "supersede" if CHANGE_WORDS.search(text) else "update"
        return _choice(
            op,
            best["label"],
            text,
            0.8 if op == "supersede" else 0.7,
            f"similarity {sim:.2f} >= {self.update_at}",
        )


def _choice(operation: str, target: str, text: str, confidence: float, reason: str) -> dict:
    return {
        "operation": operation,
        "target": target,
        "text": text,
        "confidence": round(float(confidence), 3),
        "reason": "standin: " + reason,
    }


def ollama_handler(backend: StandinBackend | None = None) -> Callable[[dict], str]:
    """A handler for tests/ollama_fake.py: body (Ollama /api/chat JSON) -> reply content."""
    backend = backend or StandinBackend()

    def handle(body: dict) -> str:
        with backend._lock:
            backend.calls += 1
        return backend.answer(body.get("messages", []))

    return handle
