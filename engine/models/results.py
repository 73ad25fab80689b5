"""What a model call returns to its caller (:class:`Structured`) and the client's counters."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from pydantic import BaseModel

from seorap.engine.models.base import ChatReply

T = TypeVar("T", bound=BaseModel)


@dataclass
class Structured(Generic[T]):
    value: T | None
    """Parsed pydantic object; None on failure."""
    raw: str
    """Last raw text the model returned."""
    failure: str | None
    """None, or why it failed ("invalid JSON after repair and retry: ...", "cut at num_predict ...")."""
    cached: bool
    """Served from the call log (no backend call)."""
    call_key: str | None
    """ChatRequest.key() of the call that produced ``value`` (or the last attempt on failure)."""
    repaired: bool = False
    """The value needed the repair step (fences / trailing text stripped)."""
    retried: bool = False
    """The value (or failure) came from the re-ask after invalid output."""
    truncated: bool = False
    """The prompt reached num_ctx: Ollama may have silently cut it."""
    partial: bool = False
    """The reply was cut (num_predict or a loop) and ``value`` holds only its complete items."""
    salvaged: int = 0
    """Items kept from a cut reply (``partial``)."""
    loop_kind: str | None = None
    """``repeat`` or ``template`` when the reply was stopped as a loop (its kept items are read
    for loop members: engine/memory/quarantine.py)."""


@dataclass
class ClientStats:
    """Counters since the client was made. ``calls`` = backend calls (cache hits excluded)."""

    calls: int = 0
    cached: int = 0
    by_role: dict[str, int] = field(default_factory=dict)
    tokens_in: int = 0
    tokens_out: int = 0
    failures: int = 0
    repairs: int = 0
    retries: int = 0
    transient_retries: int = 0
    truncated_prompts: int = 0
    errors: int = 0
    cut_replies: int = 0
    """Backend replies cut at num_predict (done_reason "length")."""
    loops: int = 0
    """Backend replies stopped because they repeated themselves."""
    template_loops: int = 0
    """Of them, replies that repeated one template with a changing number or name."""
    salvaged_items: int = 0
    """Items kept from cut replies (partial results)."""
    timeouts: int = 0
    """Streams closed for waiting too long (first token or silence)."""
    queued: int = 0
    """Calls that waited in line behind another of ours on the same host."""

    def __getitem__(self, key: str) -> int | dict[str, int]:
        value: int | dict[str, int] = getattr(self, key)
        return value

    def as_dict(self) -> dict:
        return {k: (dict(v) if isinstance(v, dict) else v) for k, v in vars(self).items()}


@dataclass
class Outcome:
    reply: ChatReply
    cached: bool
    key: str
    truncated: bool
    parsed: tuple = (None, None, False)
    """parse_reply(reply, response_model) when a response model was given: parsed ONCE per reply."""
    role: str = ""
    run_id: str | None = None
    phase: str = ""
