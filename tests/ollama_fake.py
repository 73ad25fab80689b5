"""A real HTTP server on 127.0.0.1 that speaks the part of Ollama's API seorap uses.

It drives the real ``ollama`` client (and so our backends) at the HTTP boundary, with no Ollama and
no weights. Use the ``ollama_server`` pytest fixture (tests/conftest.py) or ``FakeOllama().start()``.

Endpoints: POST /api/chat (JSON, or NDJSON when ``"stream": true``), POST /api/embed,
GET /api/tags, POST /api/show, POST /api/pull (NDJSON progress when streamed), GET /api/ps.

API (small on purpose)::

    server = FakeOllama(models={"qwen3.5:9b": "sha256:..."})   # known models -> digest
    server.start(); server.url                                 # "http://127.0.0.1:PORT"
    server.handler = lambda body: '{"facts": []}'             # /api/chat reply content
    # handler(body) may also return a dict: {"content", "done_reason", "prompt_eval_count", "eval_count"}
    server.embed_handler = lambda texts: [[...], ...]         # /api/embed vectors (default: hashing)
    server.fail("500")                       # next /api/chat answers HTTP 500 (queued, FIFO)
    server.fail("malformed")                 # next chat content is not JSON
    server.fail("length")                    # next chat is cut: done_reason "length", partial JSON
    server.fail("length", fraction=0.6)      # ... cut after 60 % of the reply's characters
    server.fail("silent", seconds=5)         # next streamed chat sends half its reply, then nothing
    server.fail("no_first_token", seconds=5) # next streamed chat sends headers, then nothing
    server.fail("loop")                      # next chat repeats one span until num_predict / closed
    server.fail("template_loop")             # next chat: the same observation with a counting
                                             #   time ("19:31 차은호 …", "19:33 …") until num_predict
    server.slots = 1                         # one generation at a time: other chats wait in line
                                             #   (no byte sent) like Ollama's queue; None: no limit
    server.streaming(chunk_chars=4, delay_s=0.03)  # streamed replies: 4 characters every 30 ms
    server.handler = failing_model(inner)    # extraction replies like a failing small model:
                                             #   a chat log's speaker headers with the hour
                                             #   shifted, then a loop with a counter
    server.fail("404")                       # next request answers model-not-found
    server.fail("delay", seconds=2)          # next request sleeps first (timeouts)
    server.fail("error_line")                # next streamed chat/pull sends {"error": ...} mid-stream
    server.fail("500", path="/api/embed")    # faults apply to one path (default /api/chat)
    server.chaos(seed=0, malformed=0.2, http500=0.1)  # seeded random faults on every later request
    server.injected                          # Counter of faults served, e.g. {"500": 41, "malformed": 80}
    server.requests                          # every request: {"method", "path", "body"}
    server.disconnects                       # streamed chats the client closed before the end
    server.bodies("/api/chat")               # just the JSON bodies for one path
    server.stop()

Random faults (``chaos``) are decided per request from a hash of (seed, path, body, how many times
this exact body came before), so they do not depend on thread timing: the same run meets the same
faults, and a retried request draws again. Queued ``fail(...)`` faults go first.

Default chat reply: if the request has a ``format`` JSON schema, a minimal instance of it (strings
"x", numbers 0, empty arrays, first enum value); otherwise "ok". Unknown models give 404 like Ollama.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_MODELS = {
    "qwen3.5:9b": "sha256:" + "a" * 64,
    "qwen3.8:27b": "sha256:" + "b" * 64,
    "bge-m3:latest": "sha256:" + "c" * 64,
}


def closed_port_url() -> str:
    """A 127.0.0.1 URL where nothing listens (connection refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def schema_example(schema: dict, defs: dict | None = None) -> Any:
    """A minimal value that validates against a (pydantic-made) JSON schema."""
    defs = defs if defs is not None else schema.get("$defs", {})
    if "$ref" in schema:
        return schema_example(defs[schema["$ref"].split("/")[-1]], defs)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return schema_example(schema[key][0], defs)
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type", "object")
    if kind == "object":
        return {
            name: schema_example(sub, defs)
            for name, sub in schema.get("properties", {}).items()
            if name in schema.get("required", [])
        }
    return {
        "array": [],
        "string": "x",
        "integer": 0,
        "number": 0,
        "boolean": False,
        "null": None,
    }.get(kind)


def default_handler(body: dict) -> str:
    mem0 = mem0_reply(body)
    if mem0 is not None:
        return mem0
    fmt = body.get("format")
    if isinstance(fmt, dict):
        return json.dumps(schema_example(fmt), ensure_ascii=False)
    return "{}" if fmt == "json" else "ok"


_HEADER = re.compile(r"^(\d{2}):(\d{2}) (\S+ \([^)]*\))\s*$", re.MULTILINE)


def failing_model(inner: Callable[[dict], Any], loop_items: int = 60) -> Callable[[dict], Any]:
    """A chat handler whose extraction (list) replies fail the way the real 0.5B model did; every
    other request goes to ``inner``. An extraction reply holds one observation copied from the
    document, then

    (a) when the document is a chat log, its speaker headers with the hour shifted by ten
        ("09:31 차은호 (플랫폼팀장)" → "19:31 차은호 (플랫폼팀장)"), and
    (b) a loop with a counter: three items "점검 N: <document word> 확인 (재확인)" and then
        "점검 N: <document word> 확인" until ``loop_items`` — the reply is cut at num_predict
        (done_reason "length"; a streamed reply is stopped as a templated loop first)."""

    def handler(body: dict) -> Any:
        if "observations" not in json.dumps(body.get("format") or {}):
            return inner(body)
        text = body["messages"][-1]["content"]
        document = text.split("<document>", 1)[-1]
        first = next(
            (line.strip()[:60] for line in document.splitlines() if len(line.strip()) > 20),
            "문서",
        )
        word = next((w for w in re.findall(r"[가-힣]{2,}", first)), "문서")
        items = [first]
        items += [
            f"{int(h) + 10:02d}:{m} {who}" for h, m, who in _HEADER.findall(document) if int(h) < 14
        ]
        items += [f"점검 {n}: {word} 확인 (재확인)" for n in range(1, 4)]
        items += [f"점검 {n}: {word} 확인" for n in range(4, loop_items)]
        body_text = ", ".join(json.dumps({"text": t}, ensure_ascii=False) for t in items)
        limit = (body.get("options") or {}).get("num_predict", 1024)
        return {
            "content": '{"observations": [' + body_text,
            "done_reason": "length",
            "eval_count": limit,
        }

    return handler


MEM0_NEW = re.compile(r"## New Messages\n(.*?)\n\n## ", re.DOTALL)


def mem0_reply(body: dict) -> str | None:
    """mem0's extraction prompt (2.x: "## New Messages" in the user message), answered like the
    offline stand-in, deterministically from the document text: one memory per sentence of the new
    messages that is not already among the "## Existing Memories". None for any other prompt."""
    from seorap.engine.memory.sentences import split_sentences

    user = next(
        (m.get("content") or "" for m in body.get("messages", []) if m.get("role") == "user"), ""
    )
    found = MEM0_NEW.search(user)
    if found is None:
        return None
    text = "\n".join(
        line.split(": ", 1)[1] if line.startswith(("user: ", "assistant: ")) else line
        for line in found.group(1).splitlines()
    )
    existing = user.split("## Existing Memories", 1)[-1].split("## New Messages", 1)[0]
    memories = [{"text": s} for s in split_sentences(text) if s not in existing]
    return json.dumps({"memory": memories}, ensure_ascii=False)


def default_embed(texts: list[str]) -> list[list[float]]:
    from seorap.engine.models.embedders import HashingEmbedder

    return HashingEmbedder(dim=64).embed(texts).tolist()


class FakeOllama:
    def __init__(self, models: dict[str, str] | None = None):
        self.models: dict[str, str] = dict(DEFAULT_MODELS if models is None else models)
        self.handler: Callable[[dict], str | dict] = default_handler
        self.embed_handler: Callable[[list[str]], list[list[float]]] = default_embed
        self.requests: list[dict] = []
        self.loaded: list[str] = []
        self._faults: deque[dict] = deque()
        self._chaos: dict | None = None
        self._seen: Counter = Counter()
        self.injected: Counter = Counter()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self.chunk_chars = 8
        self.chunk_delay_s = 0.0
        self.disconnects = 0
        self._stopping = threading.Event()
        self.slots: int | None = None
        """Chats generated at once (None: any number); the others wait, sending nothing."""
        self._slot_cond = threading.Condition()
        self._generating = 0
        self.max_generating = 0
        """The most chats ever generated at once."""

    # ---- control ----
    def start(self, port: int = 0) -> FakeOllama:
        """Serve on 127.0.0.1 (``port`` 0: any free port)."""
        self._server = _Server(("127.0.0.1", port), _Handler)
        self._server.fake = self  # type: ignore[attr-defined]
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        ).start()
        return self

    def streaming(self, *, chunk_chars: int = 8, delay_s: float = 0.0) -> None:
        """Streamed chat replies arrive ``chunk_chars`` characters at a time, ``delay_s`` apart."""
        self.chunk_chars, self.chunk_delay_s = max(1, chunk_chars), delay_s

    def stop(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def url(self) -> str:
        assert self._server is not None, "call start() first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def fail(
        self,
        kind: str,
        *,
        path: str = "/api/chat",
        seconds: float = 0.0,
        times: int = 1,
        fraction: float = 0.5,
    ) -> None:
        for _ in range(times):
            self._faults.append(
                {"kind": kind, "path": path, "seconds": seconds, "fraction": fraction}
            )

    def chaos(
        self,
        *,
        seed: int = 0,
        malformed: float = 0.0,
        http500: float = 0.0,
        path: str = "/api/chat",
    ) -> None:
        """From now on answer a ``http500`` share of requests to ``path`` with HTTP 500 and a
        ``malformed`` share with non-JSON content (seeded, per request body; see the docstring)."""
        self._chaos = {"seed": seed, "malformed": malformed, "http500": http500, "path": path}

    def random_fault(self, path: str, body: dict) -> dict | None:
        chaos = self._chaos
        if chaos is None or path != chaos["path"]:
            return None
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        with self._lock:
            n = self._seen[text]
            self._seen[text] += 1
        digest = hashlib.sha256(f"{chaos['seed']}|{path}|{n}|{text}".encode()).digest()
        draw = int.from_bytes(digest[:8], "big") / 2**64
        kind = (
            "500"
            if draw < chaos["http500"]
            else "malformed"
            if draw < chaos["http500"] + chaos["malformed"]
            else None
        )
        if kind is None:
            return None
        with self._lock:
            self.injected[kind] += 1
        return {"kind": kind, "path": path, "seconds": 0.0}

    def take_slot(self) -> bool:
        """Wait for a generation slot (False when the server is stopping)."""
        with self._slot_cond:
            while self.slots is not None and self._generating >= self.slots:
                if self._stopping.is_set():
                    return False
                self._slot_cond.wait(0.05)
            self._generating += 1
            self.max_generating = max(self.max_generating, self._generating)
            return True

    def give_slot(self) -> None:
        with self._slot_cond:
            self._generating -= 1
            self._slot_cond.notify_all()

    def bodies(self, path: str = "/api/chat") -> list[dict]:
        return [r["body"] for r in self.requests if r["path"] == path]

    def reset(self) -> None:
        self.requests.clear()
        self._faults.clear()
        self._chaos = None
        self._seen.clear()
        self.injected.clear()

    # ---- helpers used by the handler ----
    def take_fault(self, path: str) -> dict | None:
        with self._lock:
            for fault in self._faults:
                if fault["path"] == path:
                    self._faults.remove(fault)
                    return fault
        return None

    def knows(self, model: str) -> str | None:
        for name in (model, f"{model}:latest"):
            if name in self.models:
                return name
        return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # like a real server's listen backlog (socketserver's default is 5)

    def handle_error(self, request, client_address) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)  # a client that timed out is expected


class _Handler(BaseHTTPRequestHandler):
    server_version = "FakeOllama/0.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    @property
    def fake(self) -> FakeOllama:
        return self.server.fake  # type: ignore[attr-defined]

    def do_GET(self) -> None:
        self._dispatch({})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            return self._json(400, {"error": "invalid JSON body"})
        self._dispatch(body)

    def _dispatch(self, body: dict) -> None:
        fake = self.fake
        with fake._lock:
            fake.requests.append({"method": self.command, "path": self.path, "body": body})
        fault = fake.take_fault(self.path) or fake.random_fault(self.path, body)
        if fault and fault["kind"] == "delay":
            time.sleep(fault["seconds"])
            fault = None
        if fault and fault["kind"] == "500":
            return self._json(500, {"error": "fake internal server error"})
        routes = {
            "/api/chat": self._chat,
            "/api/embed": self._embed,
            "/api/tags": self._tags,
            "/api/show": self._show,
            "/api/pull": self._pull,
            "/api/ps": self._ps,
            "/v1/chat/completions": self._v1_chat,
            "/v1/embeddings": self._v1_embeddings,
        }
        route = routes.get(self.path)
        if route is None:
            return self._json(404, {"error": f"no route {self.path}"})
        if fault and fault["kind"] == "404":
            return self._json(404, {"error": f"model '{body.get('model')}' not found"})
        route(body, fault)

    # ---- routes ----
    def _v1_chat(self, body: dict, fault: dict | None) -> None:
        """OpenAI's chat completions (what graphiti's client speaks): the same handler, given the
        JSON schema of ``response_format`` as Ollama's ``format``; one choice, never streamed."""
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema")
        reply = self.fake.handler({**body, "format": schema or body.get("format")})
        content = reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)
        message = {"role": "assistant", "content": content}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        model = body.get("model", "")
        self._json(
            200,
            {
                "id": "fake",
                "object": "chat.completion",
                "created": 0,
                "model": model,
                "choices": [choice],
                "usage": usage,
            },
        )

    def _v1_embeddings(self, body: dict, fault: dict | None) -> None:
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else list(texts or [])
        vectors = self.fake.embed_handler(texts)
        data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
        usage = {"prompt_tokens": 1, "total_tokens": 1}
        self._json(
            200, {"object": "list", "data": data, "model": body.get("model", ""), "usage": usage}
        )

    def _chat(self, body: dict, fault: dict | None) -> None:
        model = body.get("model", "")
        if not self.fake.knows(model):
            return self._json(404, {"error": f"model '{model}' not found"})
        self.fake.loaded.append(model)
        reply = self._chat_reply(body, fault)
        if not self.fake.take_slot():
            return
        try:
            if body.get("stream"):
                return self._chat_stream(model, reply, fault)
        finally:
            self.fake.give_slot()
        self._json(
            200,
            {
                "model": model,
                "created_at": _now(),
                "message": {"role": "assistant", "content": reply["content"]},
                "done": True,
                **_counts(reply),
            },
        )

    def _chat_reply(self, body: dict, fault: dict | None) -> dict:
        out = self.fake.handler(body)
        reply = {"content": out} if isinstance(out, str) else dict(out)
        prompt = sum(len(m.get("content") or "") for m in body.get("messages", []))
        reply.setdefault("prompt_eval_count", max(1, prompt // 2))
        reply.setdefault("eval_count", max(1, len(reply["content"]) // 2))
        reply.setdefault("done_reason", "stop")
        kind = fault["kind"] if fault else None
        if kind == "malformed":
            reply["content"] = "Sure! Here is the answer: {not json"
        elif kind == "length":
            keep = int(len(reply["content"]) * fault.get("fraction", 0.5))
            reply["content"] = reply["content"][: max(1, keep)]
            reply["done_reason"] = "length"
            reply["eval_count"] = (body.get("options") or {}).get("num_predict", 1024)
        elif kind == "loop":
            limit = (body.get("options") or {}).get("num_predict", 1024)
            span = (
                "같은 문장을 다시 씁니다, 회의는 3월 5일 오후 2시에 본관 3층 회의실에서 열립니다. "
            )
            reply["content"] = '{"observations": [{"text": "' + span * max(3, limit // 20)
            reply["done_reason"] = "length"
            reply["eval_count"] = limit
        elif kind == "template_loop":
            limit = (body.get("options") or {}).get("num_predict", 1024)
            items = [
                f'{{"text": "{19 + (31 + 2 * i) // 60:02d}:{(31 + 2 * i) % 60:02d} 차은호 (플랫폼팀장)"}}'
                for i in range(max(10, limit // 12))
            ]
            first = '{"text": "09:31 차은호 플랫폼팀장이 배포를 승인했다"}'
            reply["content"] = '{"observations": [' + ", ".join([first, *items])
            reply["done_reason"] = "length"
            reply["eval_count"] = limit
        return reply

    def _chat_stream(self, model: str, reply: dict, fault: dict | None) -> None:
        fake = self.fake
        self._start_stream()
        kind = fault["kind"] if fault else None
        if kind == "no_first_token":
            fake._stopping.wait(fault["seconds"])
            return
        text = reply["content"]
        step = fake.chunk_chars
        pieces = [text[i : i + step] for i in range(0, len(text), step)] or [""]
        try:
            for i, piece in enumerate(pieces):
                if kind == "error_line" and i == len(pieces) // 2:
                    return self._line({"error": "fake error mid-stream"})
                if kind == "silent" and i == len(pieces) // 2:
                    fake._stopping.wait(fault["seconds"])
                    return
                if fake.chunk_delay_s and i:
                    time.sleep(fake.chunk_delay_s)
                self._line(
                    {
                        "model": model,
                        "created_at": _now(),
                        "message": {"role": "assistant", "content": piece},
                        "done": False,
                    }
                )
            self._line(
                {
                    "model": model,
                    "created_at": _now(),
                    "message": {"role": "assistant", "content": ""},
                    "done": True,
                    **_counts(reply),
                }
            )
        except (BrokenPipeError, ConnectionResetError):
            with fake._lock:
                fake.disconnects += 1

    def _embed(self, body: dict, fault: dict | None) -> None:
        model = body.get("model", "")
        if not self.fake.knows(model):
            return self._json(404, {"error": f"model '{model}' not found"})
        texts = body.get("input") or []
        texts = [texts] if isinstance(texts, str) else list(texts)
        self._json(
            200,
            {
                "model": model,
                "embeddings": self.fake.embed_handler(texts),
                "total_duration": 1000,
                "prompt_eval_count": sum(len(t) for t in texts),
            },
        )

    def _tags(self, body: dict, fault: dict | None) -> None:
        self._json(200, {"models": [_model_entry(n, d) for n, d in self.fake.models.items()]})

    def _ps(self, body: dict, fault: dict | None) -> None:
        names = list(dict.fromkeys(self.fake.loaded))
        self._json(
            200,
            {
                "models": [
                    _model_entry(n, self.fake.models.get(self.fake.knows(n) or n, ""))
                    for n in names
                ]
            },
        )

    def _show(self, body: dict, fault: dict | None) -> None:
        name = self.fake.knows(body.get("model", ""))
        if not name:
            return self._json(404, {"error": f"model '{body.get('model')}' not found"})
        self._json(
            200,
            {
                "modelfile": "",
                "parameters": "",
                "template": "{{ .Prompt }}",
                "details": _details(),
                "model_info": {"general.architecture": "fake"},
                "capabilities": ["completion"],
            },
        )

    def _pull(self, body: dict, fault: dict | None) -> None:
        model = body.get("model", "")
        digest = "sha256:" + hashlib.sha256(model.encode()).hexdigest()
        steps = [{"status": "pulling manifest"}]
        steps += [
            {"status": f"pulling {digest[7:19]}", "digest": digest, "total": 1000, "completed": c}
            for c in (0, 250, 500, 750, 1000)
        ]
        steps += [
            {"status": "verifying sha256 digest"},
            {"status": "writing manifest"},
            {"status": "success"},
        ]
        if not body.get("stream", True):
            self.fake.models[model] = digest
            return self._json(200, {"status": "success"})
        self._start_stream()
        for i, step in enumerate(steps):
            if fault and fault["kind"] == "error_line" and i == 3:
                return self._line({"error": "pull model manifest: file does not exist"})
            self._line(step)
        self.fake.models[model] = digest

    # ---- low-level ----
    def _json(self, status: int, payload: dict) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.end_headers()

    def _line(self, payload: dict) -> None:
        self.wfile.write(json.dumps(payload, ensure_ascii=False).encode() + b"\n")
        self.wfile.flush()


def _now() -> str:
    return "2026-11-01T00:00:00Z"


def _counts(reply: dict) -> dict:
    return {
        "done_reason": reply["done_reason"],
        "total_duration": 1_000_000,
        "load_duration": 1000,
        "prompt_eval_count": reply["prompt_eval_count"],
        "prompt_eval_duration": reply.get("prompt_eval_duration", 1000),
        "eval_count": reply["eval_count"],
        "eval_duration": reply.get("eval_duration", 1000),
    }


def _details() -> dict:
    return {
        "parent_model": "",
        "format": "gguf",
        "family": "fake",
        "families": ["fake"],
        "parameter_size": "1B",
        "quantization_level": "Q4_K_M",
    }


def _model_entry(name: str, digest: str) -> dict:
    return {
        "name": name,
        "model": name,
        "modified_at": "2026-11-01T00:00:00Z",
        "size": 1000,
        "digest": digest,
        "details": _details(),
    }
