"""A loopback recorder in front of the model server, for systems that call Ollama themselves.

A foreign system such as mem0 is given ``http://127.0.0.1:PORT`` as its Ollama host. The recorder
speaks the part of Ollama's API such a system uses and answers through seorap's own model path, so
its calls land in the call log like ours: accounting per role and per run, cut replies and errors
counted, a repeated call served from the cache (0 model calls), ``--replay`` with no model loaded.

- ``POST /api/chat`` -> ``chat(body)`` (the system's adapter decides the role and the cache key);
- ``POST /api/embed`` -> the run's embedder (vectors cached like the write path's);
- ``GET /api/tags`` -> the models the adapter serves (so the system does not try to pull them);
- the same two calls in OpenAI's shape, for a system that speaks that API (graphiti):
  ``POST /v1/chat/completions`` -> ``chat(body)`` (one choice, never streamed) and
  ``POST /v1/embeddings``; ``GET /v1/models`` lists the models;
- anything else -> 404 with an Ollama-style error.

It listens on 127.0.0.1 only and forwards nowhere itself: the model client it is given talks to the
configured host(s).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Recorder:
    """One loopback server; ``chat(body) -> reply text``, ``embed(texts) -> vectors``."""

    def __init__(
        self,
        chat: Callable[[dict], str],
        embed: Callable[[list[str]], list[list[float]]],
        models: list[str],
    ) -> None:
        self.chat = chat
        self.embed = embed
        self.models = list(dict.fromkeys(models))
        self.errors: list[str] = []
        """Why a request failed (the last few), for the adapter's fault sentence."""
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.recorder = self
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="seorap-recorder",
            daemon=True,
        )
        self._thread.start()

    @property
    def url(self) -> str:
        port = self._server.server_address[1]
        return f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    recorder: Recorder


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # quiet: the call log is the record
        return None

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/v1/models":
            names = self.server.recorder.models
            return self._json(200, {"object": "list", "data": [_openai_model(m) for m in names]})
        if self.path.rstrip("/") == "/api/tags":
            models = [_entry(m) for m in self.server.recorder.models]
            return self._json(200, {"models": models})
        if self.path.rstrip("/") == "/api/version":
            return self._json(200, {"version": "seorap-recorder"})
        self._json(404, {"error": f"{self.path} is not served by seorap's recorder"})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            return self._json(400, {"error": "the request body is not JSON"})
        recorder = self.server.recorder
        try:
            if self.path == "/api/chat":
                return self._chat(body, recorder.chat(body))
            if self.path == "/api/embed":
                vectors = recorder.embed(_inputs(body))
                return self._json(200, {"model": body.get("model", ""), "embeddings": vectors})
            if self.path == "/v1/chat/completions":
                return self._json(200, _completion(body, recorder.chat(body)))
            if self.path == "/v1/embeddings":
                return self._json(200, _embeddings(body, recorder.embed(_inputs(body))))
        except Exception as exc:  # noqa: BLE001 - the system sees a server error; we keep why
            why = f"{type(exc).__name__}: {exc}"
            recorder.errors = (recorder.errors + [why])[-5:]
            return self._json(500, {"error": why})
        self._json(404, {"error": f"{self.path} is not served by seorap's recorder"})

    def _chat(self, body: dict, content: str) -> None:
        message = {"role": "assistant", "content": content}
        reply = {
            "model": body.get("model", ""),
            "created_at": datetime.now(UTC).isoformat(),
            "message": message,
            "done": True,
            "done_reason": "stop",
        }
        if body.get("stream"):
            data = (json.dumps(reply, ensure_ascii=False) + "\n").encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self._json(200, reply)

    def _json(self, status: int, payload: dict) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _inputs(body: dict) -> list[str]:
    texts = body.get("input")
    return [texts] if isinstance(texts, str) else [str(t) for t in texts or []]


def _completion(body: dict, content: str) -> dict:
    """An OpenAI chat completion holding ``content`` (token counts are in our call log, not here)."""
    return {
        "id": "seorap-recorder",
        "object": "chat.completion",
        "created": int(datetime.now(UTC).timestamp()),
        "model": body.get("model", ""),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


def _embeddings(body: dict, vectors: list[list[float]]) -> dict:
    data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
    usage = {"prompt_tokens": 0, "total_tokens": 0}
    return {"object": "list", "data": data, "model": body.get("model", ""), "usage": usage}


def _openai_model(name: str) -> dict:
    return {"id": name, "object": "model", "created": 0, "owned_by": "seorap-recorder"}


def _entry(name: str) -> dict:
    full = name if ":" in name else f"{name}:latest"
    return {"name": full, "model": full, "size": 0, "digest": "", "details": {}}
