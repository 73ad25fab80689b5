"""Small interfaces the engine talks to; backends are injected (docs/models.md).

Roles: extractor, synthesizer, answerer, judge (chat) and embedder. A chat backend only moves bytes;
caching, the call log, replay, repair-and-retry and error translation live in one wrapper,
:class:`engine.models.client.ModelClient`, never in the callers.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from engine.errors import ModelError, ModelMissing, ModelUnavailable, ReplayMiss  # noqa: F401 (re-exported)

ROLES = ("extractor", "synthesizer", "answerer", "judge", "embedder")


@dataclass(frozen=True)
class ChatRequest:
    role: str
    """extractor | synthesizer | answerer | judge."""
    model: str
    messages: tuple[dict, ...]
    """[{"role": "system"|"user"|"assistant", "content": str}, ...]."""
    schema: dict | None = None
    """JSON schema for structured output (Ollama ``format``)."""
    options: dict = field(default_factory=dict)
    """temperature, seed, num_ctx, num_predict."""
    keep_alive: str | None = None
    think: bool | None = None

    def key(self) -> str:
        """Cache key: everything that determines the reply (not keep_alive)."""
        body = {"model": self.model, "messages": list(self.messages), "schema": self.schema,
                "options": self.options, "think": self.think}
        return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@dataclass(frozen=True)
class ChatReply:
    content: str
    model: str
    digest: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    duration_ms: float = 0.0
    done_reason: str | None = None


@runtime_checkable
class ChatBackend(Protocol):
    name: str

    def chat(self, request: ChatRequest) -> ChatReply: ...


@runtime_checkable
class Embedder(Protocol):
    name: str
    """Identifies the embedder and its settings (cache key, manifest), e.g. 'hashing-2-3gram-512'."""
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32, rows L2-normalised (so dot product = cosine)."""
        ...


