"""Reading a model's reply (pure functions): repair, parse, salvage a cut reply, the re-ask
messages and the failure sentences (docs/models.md). :class:`engine.models.client.ModelClient`
decides when each is used."""

from __future__ import annotations

import functools
import json
import re
from typing import TypeVar, get_args

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import from_json

from seorap.engine.models.base import ChatReply

T = TypeVar("T", bound=BaseModel)

CUT_REASONS = ("length", "loop")
"""done_reason values of a reply that did not end by itself."""

_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?|\n?\s*```\s*$")


def repair_json(raw: str) -> str:
    """Strip ``` fences and cut to the outermost JSON object (drops leading/trailing prose)."""
    text = _FENCE.sub("", raw.strip())
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if 0 <= start < end else text


def parse_reply(reply: ChatReply, response_model: type[T]) -> tuple[T | None, str | None, bool]:
    """(value, error, repaired). A reply cut at num_predict (or stopped as a loop) is never
    accepted whole (see :func:`salvage_items`)."""
    if reply.done_reason == "length":
        return None, "the reply was cut at num_predict", False
    if reply.done_reason == "loop":
        return None, "the reply repeated itself (a loop) and was stopped", False
    try:
        return response_model.model_validate_json(reply.content), None, False
    except ValidationError as first:
        fixed = repair_json(reply.content)
        if fixed != reply.content:
            try:
                return response_model.model_validate_json(fixed), None, True
            except ValidationError as second:
                return None, short_error(second), False
        return None, short_error(first), False


def list_field(response_model: type[BaseModel]) -> str:
    """The name of the model's (first) list-typed field: the one a cut reply is salvaged from."""
    for name, info in response_model.model_fields.items():
        if getattr(info.annotation, "__origin__", None) is list:
            return name
    raise TypeError(f"{response_model.__name__} has no list field to salvage")


def salvage_items(content: str, response_model: type[T]) -> tuple[T | None, int, int]:
    """(value, kept, dropped) from a reply cut mid-way: pydantic-core's partial JSON parser reads
    what was written; the last item is dropped unless it was closed; every complete item that
    validates is kept. ``value`` is None when no item survives."""
    name = list_field(response_model)
    item_type = TypeAdapter(get_args(response_model.model_fields[name].annotation)[0])
    text = _FENCE.sub("", content.strip())
    start = text.find("{")
    text = text[start:] if start >= 0 else text
    try:
        data = from_json(text, allow_partial=True)
    except ValueError:
        return None, 0, 0
    items = data.get(name) if isinstance(data, dict) else None
    if not isinstance(items, list) or not items:
        return None, 0, 0
    if not _last_item_closed(text, name, len(items)):
        items = items[:-1]
    kept = []
    for item in items:
        try:
            kept.append(item_type.validate_python(item))
        except ValidationError:
            continue
    dropped = len(data[name]) - len(kept)
    if not kept:
        return None, 0, dropped
    try:
        return response_model.model_validate({name: kept}), len(kept), dropped
    except ValidationError:
        return None, 0, dropped + len(kept)


def _last_item_closed(text: str, name: str, count: int) -> bool:
    """Whether the list's last item ended with its closing brace: the text up to the last "}",
    closed by "]}", must parse strictly with the same number of items."""
    end = text.rfind("}")
    if end < 0:
        return False
    try:
        data = from_json(text[: end + 1] + "]}")
    except ValueError:
        try:  # the list itself was closed (the cut came after it)
            data = from_json(text[: end + 1])
        except ValueError:
            return False
    items = data.get(name) if isinstance(data, dict) else None
    return isinstance(items, list) and len(items) == count


LOOP_KINDS = {
    "repeat": "the same text over and over",
    "template": "the same item with a changing number or name",
}


def cut_text(reply: ChatReply, options: dict) -> str:
    if reply.done_reason == "loop":
        kind = reply.loop_kind or "repeat"
        return f"stopped: the reply repeated itself (loop: {kind}, {LOOP_KINDS.get(kind, kind)})"
    return f"cut at num_predict ({reply.tokens_out or options.get('num_predict')} tokens)"


def retry_messages(
    messages: list[dict], reply: ChatReply, error: str | None, *, structured: bool = True
) -> list[dict]:
    if not structured:
        ask = "Your reply repeated the same text over and over and was stopped. Answer again, briefly."
        return [
            *messages,
            {"role": "assistant", "content": reply.content},
            {"role": "user", "content": ask},
        ]
    if reply.done_reason == "length":
        ask = (
            "Your reply was cut off at the token limit. Reply again with a shorter, complete "
            "JSON object that matches the schema, and nothing else."
        )
    elif reply.done_reason == "loop":
        ask = (
            "Your reply repeated the same text over and over and was stopped. Reply again with "
            "a short, complete JSON object that matches the schema, and nothing else."
        )
    else:
        ask = (
            f"Your reply was not valid JSON for the schema: {error}. Reply again with only a "
            f"JSON object that matches the schema, and nothing else."
        )
    return [
        *messages,
        {"role": "assistant", "content": reply.content},
        {"role": "user", "content": ask},
    ]


def failure_text(reply: ChatReply, error: str | None, options: dict) -> str:
    if reply.done_reason == "length":
        return f"cut at num_predict ({options.get('num_predict')} tokens) after retry"
    if reply.done_reason == "loop":
        return "stopped: the reply repeated itself (a loop) after retry"
    return f"invalid JSON after repair and retry: {error}"


def short_error(exc: ValidationError) -> str:
    errs = exc.errors()
    first: dict = dict(errs[0]) if errs else {}
    loc = ".".join(str(p) for p in first.get("loc", ())) or "(root)"
    more = f" (+{len(errs) - 1} more)" if len(errs) > 1 else ""
    return f"{loc}: {first.get('msg', str(exc))}{more}"[:300]


def parse_or_none(reply: ChatReply, response_model: type[BaseModel] | None) -> tuple:
    """parse_reply, or (None, None, False) for plain text calls."""
    if response_model is None:
        return None, None, False
    return parse_reply(reply, response_model)


@functools.cache
def _schema_json(response_model: type[BaseModel]) -> str:
    return json.dumps(response_model.model_json_schema())


def json_schema(response_model: type[BaseModel]) -> dict:
    """``response_model.model_json_schema()``, generated once per class (it costs ~1 ms, a quarter
    of the engine's time per call before it was cached); each call gets its own copy."""
    schema: dict = json.loads(_schema_json(response_model))
    return schema
