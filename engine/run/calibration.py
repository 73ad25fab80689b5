"""Estimating a model's speed and output from the call log, or from one probe call (``--plan``).

- **Tokens** = characters × a tokens-per-character ratio calibrated per model from the call log
  (logged prompt tokens over logged prompt characters); without a log, :data:`DEFAULT_RATIO`.
- **Expected output tokens**: the model's mean per call in the log (for extraction: per prompt
  character); without a log, :data:`DEFAULT_OUTPUT`.
- **Rates**: from the call log's past calls of that model (and host), or from :func:`probe` (one
  short call per model); the log also tells how much calls overlapped (:func:`overlap`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, TypeGuard

from sqlite_utils import Database

from seorap.engine.store.queries.accounting import learned_slots
from seorap.engine.store.queries.calls import recent_calls

if TYPE_CHECKING:
    from seorap.engine.config import Config
    from seorap.engine.models.base import ChatOnlyBackend, ChatRequest

DEFAULT_RATIO = 0.5
"""Prompt tokens per character without a log: the Qwen2.5 tokenizer on the bundled corpus's real
extraction prompts (English instructions + Korean document + chat template) gives 0.497; the
Korean document bodies alone 0.71 (docs/benchmarks.md)."""
DOC_RATIO = 0.71
"""Tokens per character of Korean document text (same measurement)."""
DEFAULT_OUTPUT = {"extractor": None, "synthesizer": 60, "answerer": 80, "judge": 50}
"""Expected output tokens per call without a log; the extractor's default is
:data:`EXTRACT_OUT_PER_DOC_TOKEN` × the document's tokens."""
EXTRACT_OUT_PER_DOC_TOKEN = 1.2
"""An extraction restates the document as JSON observations with several fields each."""
DEFAULT_RATES = (50.0, 5.0)
"""(prefill, generation) tokens/s without a log or a probe: a 9B model on a CPU-only laptop."""
DEPTH_CALLS = 7
"""Answer (and judge) calls per question: memory at k = 1, 3, 5, 10, naive RAG, full context, none."""
MAX_LOG_ROWS = 5000


@dataclass(frozen=True)
class Throughput:
    generate: float
    """Generated tokens per second."""
    prefill: float | None = None
    """Prompt tokens per second (None: folded into ``generate``)."""
    overlap: float = 1.0
    """Calls in flight on average when measured: wall time = summed call time / overlap."""
    source: str = "default"
    """``log (N calls)``, ``probe``, ``default``."""
    hosts: int = 1
    """Servers the measured calls were spread over."""

    def seconds(self, tokens_in: float, tokens_out: float) -> float:
        return (tokens_in / self.prefill if self.prefill else 0.0) + tokens_out / self.generate


@dataclass
class RoleEstimate:
    role: str
    model: str
    calls: int = 0
    """Calls the run asks for (upper bound for estimated roles)."""
    logged: int = 0
    """Of them already in the call log (served from it: no model time)."""
    prompt_tokens: float = 0.0
    """Prompt tokens of the calls still to make."""
    output_tokens: float = 0.0
    """Expected output tokens of the calls still to make."""
    seconds: float | None = 0.0
    """Estimated wall time of the calls still to make (None: no rate for a model)."""
    exact: bool = False
    """Prompts counted from the real prompts (extraction)."""
    ratio: float = DEFAULT_RATIO
    ratio_source: str = "default"
    rate_source: str = ""
    _call_s: float = 0.0

    @property
    def tokens_per_s(self) -> float | None:
        return self.output_tokens / self.seconds if self.seconds else None


@dataclass
class Plan:
    roles: list[RoleEstimate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    documents: int = 0
    """Documents still to write, over every system."""

    @property
    def seconds(self) -> float | None:
        values = [r.seconds for r in self.roles]
        return None if any(v is None for v in values) else sum(v for v in values if v is not None)


# ---- calibration from the call log ---------------------------------------------------------------
class Calibration:
    """Per model: tokens per character, expected output, throughput — from the call log."""

    def __init__(
        self,
        db: Database | None = None,
        probes: dict[str, Throughput] | None = None,
        hosts: list[str] | int = 1,
        slots: dict[str, int] | None = None,
    ):
        self.db = db
        self.probes = probes or {}
        self.slots = dict(slots or {})
        """Generation slots per planned host (configured or learned); calls overlap at most by
        their sum."""
        self.host_names = set(hosts) if isinstance(hosts, list) else set()
        self.hosts = max(1, len(hosts) if isinstance(hosts, list) else hosts)
        self._cache: dict[tuple[str, str], list[dict]] = {}

    def _rows(self, model: str) -> list[dict]:
        if not has_table(self.db, "calls"):
            return []
        key = ("rows", model)
        if key not in self._cache:
            rows = recent_calls(self.db, model, MAX_LOG_ROWS)
            mine = [r for r in rows if r["host"] in self.host_names]
            self._cache[key] = mine or rows  # calls of the planned hosts first, else any host
        return self._cache[key]

    def ratio(self, model: str) -> tuple[float, str]:
        chars = tokens = n = 0
        for r in self._rows(model):
            if (r["tokens_in"] or 0) > 0:
                chars += message_chars(json.loads(r["messages"] or "[]"))
                tokens += r["tokens_in"]
                n += 1
        if chars and tokens:
            return tokens / chars, f"log ({n} calls)"
        return DEFAULT_RATIO, "default"

    def output(self, role: str, model: str, prompt_chars: float, doc_chars: float) -> float:
        rows = [r for r in self._rows(model) if r["role"] == role and (r["tokens_out"] or 0) > 0]
        if rows and role == "extractor":
            chars = sum(message_chars(json.loads(r["messages"] or "[]")) for r in rows)
            return sum(r["tokens_out"] for r in rows) / chars * prompt_chars if chars else 0.0
        if rows:
            mean: float = sum(r["tokens_out"] for r in rows) / len(rows)
            return mean
        if role == "extractor":
            return EXTRACT_OUT_PER_DOC_TOKEN * DOC_RATIO * doc_chars
        return float(DEFAULT_OUTPUT.get(role) or 60)

    def observations_per_char(self, model: str) -> float | None:
        """Observations per prompt character of this model's logged extractions (None: no log)."""
        obs = chars = 0
        for r in self._rows(model):
            if r["role"] != "extractor" or not r["parsed"]:
                continue
            try:
                obs += len(json.loads(r["parsed"]).get("observations") or [])
            except (ValueError, AttributeError):
                continue
            chars += message_chars(json.loads(r["messages"] or "[]"))
        return obs / chars if chars else None

    def throughput(self, model: str) -> Throughput | None:
        if model in self.probes:
            return self.probes[model]
        rows = [
            r
            for r in self._rows(model)
            if (r["tokens_out"] or 0) > 0 and (r["duration_ms"] or 0) > 0
        ]
        if not rows:
            return None
        return fit_throughput(rows)


def fit_throughput(rows: list[dict]) -> Throughput:
    """Rates from logged calls. With the wait for the first chunk logged (``first_token_ms``):
    prefill = prompt tokens over that wait, generation = output tokens over the rest. Otherwise a
    least-squares fit of duration = tokens_in/prefill + tokens_out/generate; when that is not
    positive (too little variety), generation alone (prompt time folded in)."""
    # start-up: numpy loads only when this runs
    import numpy as np

    timed = [
        r
        for r in rows
        if (r.get("first_token_ms") or 0) > 0 and r["duration_ms"] > r["first_token_ms"]
    ]
    if timed:
        alone = unqueued(timed) or timed  # a queued call's first-token wait is not prefill
        first = sum(r["first_token_ms"] for r in alone) / 1000
        rest = sum(r["duration_ms"] - r["first_token_ms"] for r in timed) / 1000
        tin = sum(r["tokens_in"] or 0 for r in alone)
        hosts = len({r.get("host") for r in rows if r.get("host")}) or 1
        return Throughput(
            sum(r["tokens_out"] for r in timed) / rest,
            tin / first if tin else None,
            overlap(rows),
            f"log ({len(rows)} calls)",
            hosts,
        )

    x = np.array([[r["tokens_in"] or 0, r["tokens_out"]] for r in rows], dtype=float)
    y = np.array([r["duration_ms"] / 1000 for r in rows], dtype=float)
    generate, prefill = float(x[:, 1].sum() / y.sum()), None
    if len(rows) >= 4 and np.linalg.matrix_rank(x) == 2:
        (a, b), *_ = np.linalg.lstsq(x, y, rcond=None)
        if a > 0 and b > 0:
            prefill, generate = 1 / a, 1 / b
    hosts = len({r.get("host") for r in rows if r.get("host")}) or 1
    return Throughput(generate, prefill, overlap(rows), f"log ({len(rows)} calls)", hosts)


def _window(r: dict) -> tuple[float, float, float] | None:
    """(start, first chunk, end) of a logged call, seconds since the epoch."""
    try:
        end = datetime.fromisoformat(r["created_at"]).timestamp()
    except (TypeError, ValueError, KeyError):
        return None
    start = end - r["duration_ms"] / 1000
    return start, start + (r.get("first_token_ms") or 0) / 1000, end


def unqueued(rows: list[dict]) -> list[dict]:
    """The calls whose wait for a first chunk did not overlap another call of the same run, phase
    and host producing its reply: their wait was the server reading the prompt, not a queue."""
    out = []
    windows = [(r, _window(r)) for r in rows]
    for r, w in windows:
        if w is None:
            continue
        group = (r.get("run_id"), r.get("phase"), r.get("host"))
        queued = any(
            o is not r
            and ow is not None
            and (o.get("run_id"), o.get("phase"), o.get("host")) == group
            and ow[1] < w[1]
            and ow[2] > w[0]
            for o, ow in windows
        )
        if not queued:
            out.append(r)
    return out


def overlap(rows: list[dict]) -> float:
    """Summed call time over wall-clock span, per (run, phase) with two calls or more (≥ 1)."""
    groups: dict[tuple, list[tuple[float, float]]] = {}
    for r in rows:
        try:
            end = datetime.fromisoformat(r["created_at"]).timestamp()
        except (TypeError, ValueError):
            continue
        groups.setdefault((r["run_id"], r["phase"]), []).append(
            (end - r["duration_ms"] / 1000, end)
        )
    busy = span = 0.0
    for spans in groups.values():
        if len(spans) < 2:
            continue
        busy += sum(e - s for s, e in spans)
        span += max(e for _, e in spans) - min(s for s, _ in spans)
    return max(1.0, busy / span) if span > 0 else 1.0


def message_chars(messages: Iterable[object]) -> int:
    return sum(len(m.get("content") or "") for m in messages if isinstance(m, dict))


def slot_counts(config: Config, db: Database | None, hosts: list[str]) -> dict[str, int]:
    """Slots per host for planning: the configured number, else the most recently learned one in
    the database's accounting (``slots@HOST``), else the config's concurrency."""
    # start-up: numpy loads only when this runs
    from seorap.engine.models.slots import HostSlots

    fixed = HostSlots(None, config.slots)
    learned: dict[str, int] = {}
    if has_table(db, "call_counters"):
        for host, slots in learned_slots(db):
            learned[host] = int(slots)
    out = {}
    for host in hosts:
        n = fixed.fixed(host)
        out[host] = n if n is not None else learned.get(host, config.concurrency)
    return out


def has_table(db: Database | None, table: str) -> TypeGuard[Database]:
    """A table or a view (the call log is a view over calls_data in compact files)."""
    return db is not None and (table in db.table_names() or table in db.view_names())


# ---- the probe ----------------------------------------------------------------------------------
PROBE_MESSAGES = (
    {"role": "system", "content": "You are a counter. Reply with the numbers only."},
    {
        "role": "user",
        "content": "Count from 1 to 40, separated by spaces. " + "하나 둘 셋 넷 다섯. " * 20,
    },
)
PROBE_TOKENS = 64


def probe(
    backend: ChatOnlyBackend, models: list[str], *, keep_alive: str | None = "10m"
) -> dict[str, Throughput]:
    """One short chat call per model, straight to the backend (never the cache): its rates.

    A backend that reports the server's own timings (``ChatReply.prompt_ms`` / ``eval_ms``) gives
    prefill and generation separately; otherwise generation alone over the whole call.
    """
    # start-up: numpy loads only when this runs
    from seorap.engine.models.base import ChatRequest

    out: dict[str, Throughput] = {}
    for model in dict.fromkeys(models):
        request = ChatRequest(
            role="probe",
            model=model,
            messages=PROBE_MESSAGES,
            options={"temperature": 0.0, "seed": 0, "num_predict": PROBE_TOKENS},
            keep_alive=keep_alive,
            think=False,
        )
        started = time.perf_counter()
        timings = _ollama_timings(backend, request)
        if timings is not None:
            tin, tout, prompt_ms, eval_ms = timings
            out[model] = probe_throughput(
                tin, tout, prompt_ms, eval_ms, time.perf_counter() - started
            )
            continue
        reply = backend.chat(request)
        out[model] = probe_throughput(
            reply.tokens_in,
            reply.tokens_out or max(1, len(reply.content) // 2),
            None,
            None,
            time.perf_counter() - started,
        )
    return out


def _ollama_timings(
    backend: object, request: ChatRequest
) -> tuple[int, int, float | None, float | None] | None:
    """(tokens_in, tokens_out, prompt_ms, eval_ms) from Ollama's own timings, or None when the
    backend is not an Ollama client (Ollama reports prompt and generation durations separately)."""
    # start-up: ollama loads only when this runs
    import ollama

    client = getattr(backend, "client", None)
    if not isinstance(client, ollama.Client):
        return None
    r = client.chat(
        model=request.model,
        messages=list(request.messages),
        options=dict(request.options),
        keep_alive=request.keep_alive,
        think=request.think,
    )
    ms: Callable[[int | None], float | None] = lambda ns: ns / 1e6 if ns else None  # noqa: E731
    return (
        r.prompt_eval_count or 0,
        r.eval_count or 0,
        ms(r.prompt_eval_duration),
        ms(r.eval_duration),
    )


def probe_throughput(
    tokens_in: int, tokens_out: int, prompt_ms: float | None, eval_ms: float | None, wall_s: float
) -> Throughput:
    """Rates from one call: the server's own prompt/generation timings when it gives them,
    otherwise the generated tokens over the whole call (prompt time folded in)."""
    if eval_ms and tokens_out:
        prefill = tokens_in / (prompt_ms / 1000) if prompt_ms and tokens_in else None
        return Throughput(tokens_out / (eval_ms / 1000), prefill, 1.0, "probe")
    return Throughput(max(tokens_out, 1) / max(wall_s, 1e-6), None, 1.0, "probe")
