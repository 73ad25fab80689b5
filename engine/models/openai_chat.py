"""Chat through an OpenAI-compatible server (vLLM, llama.cpp's ``llama-server``), streamed and
cancellable, for ``backend = "openai"``.

This backend only moves bytes, like :mod:`engine.models.ollama_chat`: :meth:`OpenAIChat.stream`
returns an :class:`OpenAIStream` that opens ``POST {base_url}/chat/completions`` with
``"stream": true`` when iterated and yields the text pieces of the server-sent events. Structured
output goes through ``response_format = {"type": "json_schema", "json_schema": {"name", "schema",
"strict"}}``; ``num_predict`` becomes ``max_tokens``; ``finish_reason == "length"`` becomes
``done_reason == "length"`` so the model client salvages or re-asks exactly as with Ollama; token
counts come from the final usage chunk (``stream_options.include_usage``). The waits, the call log,
the cache, replay, salvage, loops and the error rules stay in :class:`ModelClient`; the
server-specific knowledge (which failures are worth a retry, what sentence tells the fix) is
:func:`translate_error` and :func:`is_transient` here, which the client asks the backend for.

No digest: OpenAI-compatible servers do not report one. The run manifest records the model name
the server says it served and the server's version (:meth:`OpenAIChat.server_info`: vLLM's
``/version``, llama.cpp's ``/props``).

``base_url`` ends with ``/v1`` (``http://gpu-box:8000/v1``); the API key, when the server wants
one, is read from the environment variable named by ``api_key_env`` (default ``OPENAI_API_KEY``),
never from the config file.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator

import httpx

from seorap.engine.errors import ModelError, ModelMissing, ModelUnavailable
from seorap.engine.models.base import ChatReply, ChatRequest, collect
from seorap.engine.models.closing import ClosableStream

CONNECT_TIMEOUT_S = 10.0
NAME = "openai"


class ServerError(Exception):
    """An HTTP error status from the server (``status_code``), or an error event in the stream (-1)."""

    def __init__(self, message: str, status_code: int) -> None:
        super().__init__(message)
        self.status_code = status_code


class OpenAIStream(ClosableStream):
    """A ChatStream over one streamed ``/chat/completions`` request."""

    def __init__(self, chat: OpenAIChat, request: ChatRequest) -> None:
        self._chat = chat
        self._request = request
        self._pieces: list[str] = []
        self._usage: dict = {}
        self._finish: str | None = None
        self._served: str | None = None
        self._done = False
        self._started = 0.0
        self._init_closing()

    def body(self) -> dict:
        return request_body(self._request, self._chat.schema_mode)

    def __iter__(self) -> Iterator[str]:
        if self._closed.is_set():
            return
        self._started = time.perf_counter()
        yield from self._read(fallback=self._request.schema is not None)

    def _read(self, fallback: bool) -> Iterator[str]:
        with self._chat.http.stream(
            "POST", "chat/completions", json=self.body(), extensions={"trace": self._trace}
        ) as response:
            if response.status_code >= 400:
                response.read()
                text = _error_text(response)
                if fallback and self._chat.refuses_schema(text):
                    yield from self._read(fallback=False)  # retried once as json_object + schema
                    return
                raise ServerError(text, response.status_code)
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue
                data = line[len("data:") :].strip()
                if data == "[DONE]":
                    self._done = True
                    break
                event = json.loads(data)
                if "error" in event:
                    raise ServerError(_message(event["error"]), -1)
                self._served = event.get("model") or self._served
                if event.get("usage"):
                    self._usage = event["usage"]
                for choice in event.get("choices") or []:
                    if choice.get("finish_reason"):
                        self._finish = choice["finish_reason"]
                    piece = (choice.get("delta") or {}).get("content") or ""
                    if piece:
                        self._pieces.append(piece)
                        yield piece

    def result(self) -> ChatReply:
        if not self._done and self._finish is None:
            raise httpx.RemoteProtocolError("the stream ended before its last event")
        self._chat.note_served(self._request.model, self._served)
        # no usage event (llama-cpp-python's server sends none): one streamed piece is one token there
        # and on vLLM; the prompt's size stays unknown (0)
        tokens_out = self._usage.get("completion_tokens")
        return ChatReply(
            content="".join(self._pieces),
            model=self._request.model,
            digest=None,
            tokens_in=int(self._usage.get("prompt_tokens") or 0),
            tokens_out=int(tokens_out if tokens_out is not None else len(self._pieces)),
            duration_ms=(time.perf_counter() - self._started) * 1000,
            done_reason={"length": "length"}.get(self._finish or "", self._finish or "stop"),
        )


def request_body(r: ChatRequest, schema_mode: str = "json_schema") -> dict:
    """The ``/chat/completions`` body for a request (our options mapped to OpenAI's names).

    ``schema_mode``: ``json_schema`` (the OpenAI form: vLLM, llama.cpp's C++ server) or
    ``json_object`` with the schema beside it (llama-cpp-python's server, which refuses the former)."""
    opts = dict(r.options)
    body: dict = {
        "model": r.model,
        "messages": list(r.messages),
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if "temperature" in opts:
        body["temperature"] = opts["temperature"]
    if "seed" in opts:
        body["seed"] = opts["seed"]
    if opts.get("num_predict"):
        body["max_tokens"] = opts["num_predict"]
    if r.schema is not None and schema_mode == "json_object":
        body["response_format"] = {"type": "json_object", "schema": r.schema}
    elif r.schema is not None:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "reply", "schema": r.schema, "strict": True},
        }
    return body


class OpenAIChat:
    """ChatBackend over an OpenAI-compatible ``/v1/chat/completions`` (streamed server-sent events)."""

    name = NAME

    def __init__(
        self, base_url: str, *, api_key_env: str = "OPENAI_API_KEY", timeout_s: float | None = None
    ):
        if not base_url or not str(base_url).startswith(("http://", "https://")):
            raise ModelError(
                f"The OpenAI-compatible base URL {base_url!r} is not a usable URL; set "
                f"base_url in the config (or --host) to something like http://localhost:8000/v1."
            )
        self.host = str(base_url).rstrip("/")
        key = os.environ.get(api_key_env or "") or None
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.http = httpx.Client(
            base_url=self.host + "/",
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=CONNECT_TIMEOUT_S),
            limits=httpx.Limits(max_keepalive_connections=0),
        )
        self._served: dict[str, str] = {}
        self._lock = threading.Lock()
        self.schema_mode = "json_schema"
        """How structured output is asked for; switches once to ``json_object`` (+ schema) when the
        server refuses ``json_schema`` (llama-cpp-python's server accepts only text/json_object)."""

    def refuses_schema(self, error_text: str) -> bool:
        """True (and switch to json_object for every later call) when an error says the server does
        not know the ``json_schema`` response format (llama-cpp-python answers 500 with its
        validation error: "response_format ... Input should be 'text' or 'json_object'")."""
        if (
            "json_schema" in error_text
            and "response_format" in error_text
            and self.schema_mode == "json_schema"
        ):
            with self._lock:
                self.schema_mode = "json_object"
            return True
        return False

    def stream(self, request: ChatRequest) -> OpenAIStream:
        return OpenAIStream(self, request)

    def chat(self, request: ChatRequest) -> ChatReply:
        """The whole reply (no client-side waits): for tools and tests."""
        return collect(self.stream(request))

    def note_served(self, model: str, served: str | None) -> None:
        if served:
            with self._lock:
                self._served[model] = served

    def served(self, model: str) -> str | None:
        """The model name the server reported serving for ``model`` (None before any call)."""
        with self._lock:
            return self._served.get(model)

    def digest(self, model: str) -> str | None:
        return None

    def installed(self) -> dict[str, str | None]:
        """{model id: None} from ``GET /models`` (no digests on this API)."""
        response = self.http.get("models", timeout=CONNECT_TIMEOUT_S)
        if response.status_code >= 400:
            raise ServerError(_error_text(response), response.status_code)
        return {m.get("id", ""): None for m in response.json().get("data") or []}

    def server_info(self) -> dict:
        """{"version": ...} as the server reports it: vLLM ``/version``, llama.cpp ``/props``
        (``build_info``); empty when neither answers."""
        root = self.host[: -len("/v1")] if self.host.endswith("/v1") else self.host
        for path, field in (("/version", "version"), ("/props", "build_info")):
            try:
                response = self.http.get(root + path, timeout=CONNECT_TIMEOUT_S)
                if response.status_code == 200:
                    value = response.json().get(field)
                    if value:
                        return {"version": str(value), "source": path}
            except (httpx.HTTPError, ValueError):
                continue
        return {}

    def translate_error(
        self, exc: BaseException, host: str | None, model: str
    ) -> ModelError | None:
        return translate_error(exc, host or self.host, model)

    def is_transient(self, exc: BaseException) -> bool:
        return is_transient(exc)


def translate_error(exc: BaseException, host: str | None, model: str) -> ModelError | None:
    """A one-sentence ModelError for a known failure of an OpenAI-compatible server, or None."""
    if isinstance(exc, ModelError):
        return exc
    if isinstance(exc, (ConnectionError, httpx.ConnectError)):
        return ModelUnavailable(
            f"Cannot reach the OpenAI-compatible server at {host}: start it (vLLM: "
            f"`vllm serve MODEL`, llama.cpp: `llama-server -m FILE`) or fix base_url."
        )
    if isinstance(exc, ServerError):
        if exc.status_code == 404:
            return ModelMissing(
                f"The server at {host} does not serve model {model!r}: start it with "
                f"that model, or set the role's model to a name `GET /v1/models` lists."
            )
        if exc.status_code in (401, 403):
            return ModelError(
                f"The server at {host} refused the API key (status {exc.status_code}); "
                f"set the environment variable named by api_key_env."
            )
        return ModelError(
            f"The server at {host} failed for model {model!r}: {exc} (status "
            f"{exc.status_code}); check the server log."
        )
    if isinstance(exc, httpx.TimeoutException):
        return ModelError(
            f"The server at {host} did not answer for model {model!r} in time; check that "
            f"it is not overloaded."
        )
    if isinstance(exc, httpx.TransportError):
        return ModelUnavailable(
            f"The OpenAI-compatible server at {host} went away mid-reply; restart it."
        )
    return None


def is_transient(exc: BaseException) -> bool:
    """Worth a retry: a 5xx or 429, an error event inside a stream (-1), a timeout, a dropped connection."""
    if isinstance(exc, ServerError):
        return exc.status_code >= 500 or exc.status_code in (-1, 429)
    return isinstance(
        exc, (httpx.TimeoutException, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)
    )


def _error_text(response: httpx.Response) -> str:
    try:
        return _message(response.json().get("error")) or response.text[:200]
    except (ValueError, AttributeError):
        return response.text[:200]


def _message(error: object) -> str:
    if isinstance(error, dict):
        return str(error.get("message") or error)
    return str(error or "")
