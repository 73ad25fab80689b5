"""Know before you run: calls, tokens and time per role and model, with no model call (``--plan``).

How each figure is made (docs/models.md, "Planning a run"):

- **Extraction** is counted exactly: the planner builds every prompt the run would send (each
  pending document of each system, deduplicated the way the cache deduplicates them) and looks its
  key up in the call log; a logged prompt costs nothing.
- **Synthesis, answers and judging** depend on earlier replies, so they are estimated: one synthesis
  call per expected observation (the real count when the extraction is already logged; otherwise
  observations per character of that extractor model in the log; otherwise one per sentence), with
  a prompt built from the variant's real prompt and ``k`` candidates of the average observation
  length; per question 7 answers and 7 judgements (memory at k = 1, 3, 5, 10, naive RAG, full
  context, no context; prompts built with the real templates, the real documents and questions);
  per claim one judgement per candidate mode. Identical prompts are served once by the cache, so
  these are upper bounds.
- **Tokens** = characters × a tokens-per-character ratio calibrated per model from the call log
  (logged prompt tokens over logged prompt characters); without a log, :data:`DEFAULT_RATIO`.
- **Expected output tokens**: the model's mean per call in the log (for extraction: per prompt
  character); without a log, :data:`DEFAULT_OUTPUT`; never above the role's ``num_predict``.
- **Time**: per call ``prompt tokens / prefill rate + output tokens / generation rate``; the rates
  come from the call log's past calls of that model (and host), from ``--probe`` (one short call per
  model), or, flagged as a guess, :data:`DEFAULT_RATES`. Calls overlap when the run is concurrent:
  the log tells by how much (summed call time over the wall-clock span of each phase), and the
  estimate divides by it; a probe or the default assumes one call at a time per host.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, TypeGuard

from seorap.engine.config import Config
from sqlite_utils import Database

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
    ):
        self.db = db
        self.probes = probes or {}
        self.host_names = set(hosts) if isinstance(hosts, list) else set()
        self.hosts = max(1, len(hosts) if isinstance(hosts, list) else hosts)
        self._cache: dict = {}

    def _rows(self, model: str) -> list[dict]:
        if not _has(self.db, "calls"):
            return []
        key = ("rows", model)
        if key not in self._cache:
            have = self.db["calls"].columns_dict
            host = ", host" if "host" in have else ", NULL AS host"
            host += ", first_token_ms" if "first_token_ms" in have else ", NULL AS first_token_ms"
            rows = [
                dict(r)
                for r in self.db.query(
                    "SELECT role, run_id, phase, messages, tokens_in, tokens_out, duration_ms, created_at, "
                    f"parsed{host} FROM calls WHERE model = ? AND error IS NULL ORDER BY id DESC LIMIT ?",
                    [model, MAX_LOG_ROWS],
                )
            ]
            mine = [r for r in rows if r["host"] in self.host_names]
            self._cache[key] = mine or rows  # calls of the planned hosts first, else any host
        return self._cache[key]

    def ratio(self, model: str) -> tuple[float, str]:
        chars = tokens = n = 0
        for r in self._rows(model):
            if (r["tokens_in"] or 0) > 0:
                chars += _chars(json.loads(r["messages"] or "[]"))
                tokens += r["tokens_in"]
                n += 1
        if chars and tokens:
            return tokens / chars, f"log ({n} calls)"
        return DEFAULT_RATIO, "default"

    def output(self, role: str, model: str, prompt_chars: float, doc_chars: float) -> float:
        rows = [r for r in self._rows(model) if r["role"] == role and (r["tokens_out"] or 0) > 0]
        if rows and role == "extractor":
            chars = sum(_chars(json.loads(r["messages"] or "[]")) for r in rows)
            return sum(r["tokens_out"] for r in rows) / chars * prompt_chars if chars else 0.0
        if rows:
            return sum(r["tokens_out"] for r in rows) / len(rows)
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
            chars += _chars(json.loads(r["messages"] or "[]"))
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
    import numpy as np

    timed = [
        r
        for r in rows
        if (r.get("first_token_ms") or 0) > 0 and r["duration_ms"] > r["first_token_ms"]
    ]
    if timed:
        first = sum(r["first_token_ms"] for r in timed) / 1000
        rest = sum(r["duration_ms"] - r["first_token_ms"] for r in timed) / 1000
        tin = sum(r["tokens_in"] or 0 for r in timed)
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


def _chars(messages) -> int:
    return sum(len(m.get("content") or "") for m in messages if isinstance(m, dict))


# ---- the plan -----------------------------------------------------------------------------------
def plan_run(
    corpus,
    systems: list[str],
    config: Config,
    db: Database | None = None,
    *,
    variants_dirs=None,
    score: bool = True,
    trajectories: list[str] | None = None,
    probes: dict[str, Throughput] | None = None,
    hosts: list[str] | int | None = None,
) -> Plan:
    """Estimate a ``seorap run`` without running it: no model call, nothing written to ``db``."""
    from seorap.engine.memory import get_system
    from seorap.engine.memory.llm import LLMSystem
    from seorap.engine.memory.prompts import extraction_messages, synthesis_messages
    from seorap.engine.memory.schemas import Extraction
    from seorap.engine.memory.sentences import split_sentences
    from seorap.engine.models.client import ModelClient, json_schema
    from seorap.engine.run.runner import make_run_id
    from seorap.engine.store.database import done_positions

    if hosts is None:
        from seorap.engine.models.hosts import chat_hosts

        hosts = chat_hosts(config)
    cal = Calibration(db, probes, hosts)
    plan = Plan()
    trajs = [t for t in corpus.trajectories if not trajectories or t.id in trajectories]
    requester = ModelClient.from_config(config, None, backend=_NO_BACKEND)  # builds requests only
    schema = json_schema(Extraction)
    est: dict[tuple[str, str], RoleEstimate] = {}
    seen_keys: set[str] = set()
    logged_keys = _logged_keys(db)
    think = config.think
    obs_chars: list[int] = []

    def role(name: str, model: str) -> RoleEstimate:
        if (name, model) not in est:
            ratio, source = cal.ratio(model)
            est[(name, model)] = RoleEstimate(name, model, ratio=ratio, ratio_source=source)
        return est[(name, model)]

    def add(
        r: RoleEstimate,
        prompt_chars: float,
        doc_chars: float = 0.0,
        logged: bool = False,
        n: float = 1.0,
    ) -> None:
        r.calls += int(round(n)) if n >= 1 else 0
        if logged:
            r.logged += 1
            return
        out = min(cal.output(r.role, r.model, prompt_chars, doc_chars), _limit(config, r.role))
        r.prompt_tokens += n * prompt_chars * r.ratio
        r.output_tokens += n * out

    for name in systems:
        system = get_system(name, config, variants_dirs)
        if not isinstance(system, LLMSystem):  # reference systems make no model call
            continue
        run_id = make_run_id(name, corpus, system, config)
        ext = role("extractor", config.models.extractor)
        ext.exact = True
        syn = (
            role("synthesizer", config.models.synthesizer)
            if system.variant.policy == "synthesize"
            else None
        )
        per_char = cal.observations_per_char(config.models.extractor)
        for t in trajs:
            done = done_positions(db, run_id, t.id) if _has(db, "documents") else set()
            for arrival in t.arrivals():
                if arrival.position in done:
                    continue
                plan.documents += 1
                messages = extraction_messages(system.extraction_prompt, arrival)
                key = requester.build_request(
                    "extractor", config.models.extractor, messages, schema, think
                ).key()
                chars = _chars(messages)
                observations: float | None = None
                if key not in seen_keys:
                    seen_keys.add(key)
                    add(ext, chars, len(arrival.document.text), logged=key in logged_keys)
                if key in logged_keys:
                    observations = logged_keys[key]
                if observations is None:
                    observations = (
                        per_char * chars
                        if per_char is not None
                        else len(split_sentences(arrival.document.text))
                    )
                    obs_chars.extend(len(s) for s in split_sentences(arrival.document.text))
                if syn is not None and observations:
                    avg = _mean(obs_chars) or 60
                    messages = synthesis_messages(
                        system.synthesis_prompt,
                        _fake_observation(avg),
                        [_fake_candidate(avg, i) for i in range(system.variant.k)],
                    )
                    add(syn, _chars(messages), n=observations)
    if score:
        for n, _ in enumerate(systems):
            _plan_scoring(
                plan, corpus, trajs, config, role, add, _mean(obs_chars) or 60, first=n == 0
            )
    plan.roles = [r for r in est.values() if r.calls]
    _times(plan, cal)
    if not any(r.calls for r in plan.roles):
        plan.notes.append(
            "no model call: the systems are references or every role is an offline stand-in"
        )
    return plan


def _plan_scoring(plan, corpus, trajs, config, role, add, fact_chars: float, first: bool) -> None:
    """One run's scoring. Naive RAG, full context and no context do not depend on the store: after
    the first run they are served from the call log (``first=False`` leaves them out)."""
    from seorap.engine.scoring import prompts
    from seorap.engine.scoring.extrinsic import CHUNK_CHARS, TOP_K, chunk_documents, questions

    answerer, judge = config.models.answerer, config.models.judge
    llm_answer, llm_judge = answerer not in ("reader", "extractive"), judge != "lexical"
    if not (llm_answer or llm_judge):
        return
    judge_prompt = config.judging.prompt
    fact = "가" * int(fact_chars)
    for t in trajs:
        docs = [a.document.text for a in t.arrivals()]
        chunks = [c for _, c in chunk_documents(t)][:TOP_K] or [""]
        for q in questions(t):
            contexts = [[fact] * k for k in (1, 3, 5, 10)]
            if first:
                contexts += [[("가" * CHUNK_CHARS)] * len(chunks), docs, []]
            for ctx in contexts:
                kind = (
                    "documents" if ctx is docs or (ctx and len(ctx[0]) == CHUNK_CHARS) else "facts"
                )
                if llm_answer:
                    add(
                        role("answerer", answerer),
                        _chars(prompts.answer_messages(q.question, ctx, kind=kind)),
                    )
                if llm_judge:
                    answer = "가" * max(1, len(q.answer))
                    add(
                        role("judge", judge),
                        _chars(
                            prompts.judge_answer_messages(
                                judge_prompt, q.question, q.answer, answer
                            )
                        ),
                    )
        if llm_judge:
            shown = 0
            for state in t.states:
                shown += 3  # facts in the store grow with the states; a few per state
                for claim in state.claims:
                    for n_facts in (shown, min(shown, 3)):  # full mode, filter mode
                        add(
                            role("judge", judge),
                            _chars(
                                prompts.judge_claim_messages(judge_prompt, claim, [fact] * n_facts)
                            ),
                        )


def _times(plan: Plan, cal: Calibration) -> None:
    for r in plan.roles:
        rate = cal.throughput(r.model)
        if r.model in ("standin",):
            r.seconds, r.rate_source = 0.0, "stand-in (no model)"
            continue
        if rate is None:
            rate = Throughput(DEFAULT_RATES[1], DEFAULT_RATES[0], 1.0, "default (guess)")
            plan.notes.append(
                f"no measured throughput for {r.model}: the time assumes "
                f"{DEFAULT_RATES[1]:g} tok/s (a 9B model on a CPU laptop); use --probe "
                f"or plan after a run"
            )
        if rate.source.startswith("log"):  # measured overlap, scaled to the planned number of hosts
            overlap_ = rate.overlap * max(1.0, cal.hosts / rate.hosts)
        else:
            overlap_ = float(cal.hosts)
        r.seconds = rate.seconds(r.prompt_tokens, r.output_tokens) / overlap_
        r.rate_source = rate.source
    plan.notes = list(dict.fromkeys(plan.notes))


_NO_BACKEND: Any = object()
"""Stands in for a chat backend in the planner's request builder: it is never called."""


def _limit(config: Config, role: str) -> float:
    value = config.predict_for(role)
    return float(value) if value else math.inf


def _logged_keys(db: Database | None) -> dict[str, int | None]:
    """{key: observations in the parsed reply (None when not an extraction)} for logged calls."""
    if not _has(db, "calls"):
        return {}
    out: dict[str, int | None] = {}
    for key, parsed, role in db.execute(
        "SELECT key, parsed, role FROM calls WHERE error IS NULL"
    ).fetchall():
        n = None
        if role == "extractor" and parsed:
            try:
                n = len(json.loads(parsed).get("observations") or [])
            except (ValueError, AttributeError):
                n = None
        out[key] = n
    return out


def _has(db: Database | None, table: str) -> TypeGuard[Database]:
    """A table or a view (the call log is a view over calls_data in compact files)."""
    return db is not None and (table in db.table_names() or table in db.view_names())


def _mean(values: list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


def _fake_observation(chars: float) -> dict:
    return {
        "text": "가" * int(chars),
        "category": "status",
        "author": "김민수",
        "document_date": "2026-03-05T09:00:00",
    }


def _fake_candidate(chars: float, i: int) -> dict:
    return {
        "label": f"F{i + 1}",
        "text": "가" * int(chars),
        "similarity": 0.812,
        "confidence": 0.7,
        "last_changed": "2026-03-05T09:00:00",
        "authors": ["김민수"],
    }


def open_readonly(path: str | Path | None) -> Database | None:
    """The run database read-only (None when the file does not exist): planning writes nothing."""
    import sqlite_utils

    if path is None or not Path(path).exists():
        return None
    conn = sqlite3.connect(
        f"file:{Path(path).resolve()}?mode=ro", uri=True, check_same_thread=False
    )
    return sqlite_utils.Database(conn)


# ---- the probe ----------------------------------------------------------------------------------
PROBE_MESSAGES = (
    {"role": "system", "content": "You are a counter. Reply with the numbers only."},
    {
        "role": "user",
        "content": "Count from 1 to 40, separated by spaces. " + "하나 둘 셋 넷 다섯. " * 20,
    },
)
PROBE_TOKENS = 64


def probe(backend, models: list[str], *, keep_alive: str | None = "10m") -> dict[str, Throughput]:
    """One short chat call per model, straight to the backend (never the cache): its rates.

    A backend that reports the server's own timings (``ChatReply.prompt_ms`` / ``eval_ms``) gives
    prefill and generation separately; otherwise generation alone over the whole call.
    """
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


def _ollama_timings(backend, request):
    """(tokens_in, tokens_out, prompt_ms, eval_ms) from Ollama's own timings, or None when the
    backend is not an Ollama client (Ollama reports prompt and generation durations separately)."""
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
    ms = lambda ns: ns / 1e6 if ns else None  # noqa: E731
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


# ---- text ---------------------------------------------------------------------------------------
PLAN_HEADERS = (
    "role",
    "model",
    "calls",
    "in log",
    "prompt tok",
    "output tok",
    "time",
    "tok/s",
    "rate from",
)


def plan_rows(plan: Plan) -> list[tuple[str, ...]]:
    from seorap.engine.run.accounting import seconds

    rows: list[tuple[str, ...]] = []
    for r in plan.roles:
        rows.append(
            (
                r.role + ("" if r.exact else " ≈"),
                r.model,
                str(r.calls),
                str(r.logged),
                f"{r.prompt_tokens:,.0f}",
                f"{r.output_tokens:,.0f}",
                "?" if r.seconds is None else seconds(r.seconds),
                "–" if not r.tokens_per_s else f"{r.tokens_per_s:.1f}",
                r.rate_source,
            )
        )
    return rows


def plan_lines(plan: Plan) -> list[str]:
    """The plan as plain text lines (the CLI prints a table; tests read these)."""
    from seorap.engine.run.accounting import seconds

    rows = [PLAN_HEADERS, *plan_rows(plan)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(PLAN_HEADERS))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    total = plan.seconds
    lines.append(
        f"documents to write: {plan.documents} · estimated time: "
        f"{'?' if total is None else seconds(total)} (≈: estimated from earlier replies; "
        f"tokens per character: "
        + ", ".join(f"{r.model} {r.ratio:.2f} ({r.ratio_source})" for r in _unique_models(plan))
        + ")"
    )
    lines += [f"note: {n}" for n in plan.notes]
    return lines


def _unique_models(plan: Plan) -> list[RoleEstimate]:
    seen, out = set(), []
    for r in plan.roles:
        if r.model not in seen:
            seen.add(r.model)
            out.append(r)
    return out


__all__ = [
    "Plan",
    "RoleEstimate",
    "Throughput",
    "plan_run",
    "plan_lines",
    "plan_rows",
    "probe",
    "probe_throughput",
    "open_readonly",
    "fit_throughput",
    "overlap",
    "replace",
]
