"""A real HTTP server on 127.0.0.1 that speaks the part of the OpenAI chat API seorap uses, the way
vLLM and llama.cpp's server do: ``POST /v1/chat/completions`` streamed as server-sent events
(``data: {...}`` lines, usage in the last chunk, ``data: [DONE]``), ``GET /v1/models``,
``GET /version`` (vLLM). It drives :class:`engine.models.openai_chat.OpenAIChat` at the HTTP
boundary, with no model.

API::

    server = FakeOpenAI(models=["qwen2.5-0.5b"]).start(); server.url   # "http://127.0.0.1:PORT/v1"
    server.handler = lambda body: '{"facts": []}'      # reply content, or a dict:
    #   {"content", "finish_reason", "prompt_tokens", "completion_tokens"}
    server.chunk_chars = 4; server.chunk_delay_s = 0.01  # how the reply is streamed
    server.fail("500") / fail("404") / fail("length") / fail("error_event") / fail("silent")
    server.requests; server.bodies(); server.stop()

Default reply: a minimal instance of ``response_format.json_schema.schema`` when there is one
(the same as tests/ollama_fake.py), otherwise "ok". A model not in ``models`` gets 404.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ollama_fake import schema_example


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # like a real server's listen backlog (socketserver's default is 5)


class FakeOpenAI:
    def __init__(self, models: list[str] | None = None, version: str = "0.11.0-fake") -> None:
        self.models = list(models or ["qwen3.5:9b", "qwen3.8:27b"])
        self.version = version
        self.handler: Callable[[dict], Any] | None = None
        self.chunk_chars = 8
        self.chunk_delay_s = 0.0
        self.json_schema = True
        """False: refuse ``response_format.type == "json_schema"`` like llama-cpp-python's server
        (HTTP 500 with its validation error; it takes ``json_object`` + ``schema``)."""
        self.usage = True
        """False: send no usage event (llama-cpp-python's server)."""
        self.requests: list[dict] = []
        self._faults: deque = deque()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # ---- control ----
    def start(self) -> FakeOpenAI:
        fake = self

        class Handler(_Handler):
            server_fake = fake

        self._server = _Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    @property
    def root(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def url(self) -> str:
        return self.root + "/v1"

    def fail(self, kind: str, **kw) -> None:
        with self._lock:
            self._faults.append((kind, kw))

    def bodies(self) -> list[dict]:
        return [r["body"] for r in self.requests if r["path"] == "/v1/chat/completions"]

    # ---- internals ----
    def _fault(self):
        with self._lock:
            return self._faults.popleft() if self._faults else (None, {})

    def _reply(self, body: dict) -> dict:
        out = self.handler(body) if self.handler else None
        if out is None:
            rf = body.get("response_format") or {}
            schema = (rf.get("json_schema") or {}).get("schema") or rf.get("schema")
            out = json.dumps(schema_example(schema), ensure_ascii=False) if schema else "ok"
        reply = {"content": out} if isinstance(out, str) else dict(out)
        prompt = sum(len(m.get("content") or "") for m in body.get("messages", []))
        reply.setdefault("finish_reason", "stop")
        reply.setdefault("prompt_tokens", max(1, prompt // 2))
        reply.setdefault("completion_tokens", max(1, len(reply["content"]) // 2))
        return reply


class _Handler(BaseHTTPRequestHandler):
    server_fake: FakeOpenAI
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    def _json(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        fake = self.server_fake
        fake.requests.append(
            {
                "method": "GET",
                "path": self.path,
                "body": None,
                "auth": self.headers.get("Authorization"),
            }
        )
        if self.path == "/v1/models":
            self._json(
                200, {"object": "list", "data": [{"id": m, "object": "model"} for m in fake.models]}
            )
        elif self.path == "/version":
            self._json(200, {"version": fake.version})
        else:
            self._json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        fake = self.server_fake
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        fake.requests.append(
            {
                "method": "POST",
                "path": self.path,
                "body": body,
                "auth": self.headers.get("Authorization"),
            }
        )
        if self.path != "/v1/chat/completions":
            return self._json(404, {"error": {"message": f"no route {self.path}"}})
        kind, kw = fake._fault()
        if kind == "500":
            return self._json(500, {"error": {"message": "internal error", "code": 500}})
        if kind == "404" or body.get("model") not in fake.models:
            return self._json(
                404, {"error": {"message": f"The model `{body.get('model')}` does not exist."}}
            )
        rf = body.get("response_format") or {}
        if rf.get("type") == "json_schema" and not fake.json_schema:
            return self._json(
                500,
                {
                    "error": {
                        "message": "1 validation error: {'loc': ('body', "
                        "'response_format', 'type'), 'msg': \"Input should be "
                        "'text' or 'json_object'\", 'input': 'json_schema'}"
                    }
                },
            )
        if kind == "delay":
            time.sleep(kw.get("seconds", 1.0))
        reply = fake._reply(body)
        if kind == "length":
            reply["content"] = reply["content"][: max(1, len(reply["content"]) * 6 // 10)]
            reply["finish_reason"] = "length"
        if not body.get("stream"):
            return self._json(200, _completion(body, reply))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        text, step = reply["content"], max(1, fake.chunk_chars)
        try:
            self._event(_chunk(body, {"role": "assistant", "content": ""}, None))
            for i in range(0, len(text), step):
                if kind == "silent" and i >= len(text) // 2:
                    time.sleep(kw.get("seconds", 30.0))
                    return
                if kind == "error_event" and i >= len(text) // 2:
                    self._event({"error": {"message": "the engine died", "code": 500}})
                    return
                self._event(_chunk(body, {"content": text[i : i + step]}, None))
                if fake.chunk_delay_s:
                    time.sleep(fake.chunk_delay_s)
            self._event(_chunk(body, {}, reply["finish_reason"]))
            if fake.usage and (body.get("stream_options") or {}).get("include_usage"):
                self._event(
                    {
                        **_chunk(body, {}, None),
                        "choices": [],
                        "usage": {
                            "prompt_tokens": reply["prompt_tokens"],
                            "completion_tokens": reply["completion_tokens"],
                            "total_tokens": reply["prompt_tokens"] + reply["completion_tokens"],
                        },
                    }
                )
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return  # the client closed the stream (a cancel): stop generating

    def _event(self, payload: dict) -> None:
        self.wfile.write(b"data: " + json.dumps(payload, ensure_ascii=False).encode() + b"\n\n")
        self.wfile.flush()


def _chunk(body: dict, delta: dict, finish: str | None) -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": body.get("model"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _completion(body: dict, reply: dict) -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply["content"]},
                "finish_reason": reply["finish_reason"],
            }
        ],
        "usage": {
            "prompt_tokens": reply["prompt_tokens"],
            "completion_tokens": reply["completion_tokens"],
        },
    }
