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
  estimate divides by it — never by more than the hosts' generation slots (configured ``slots``,
  else learned during an earlier run, else ``concurrency``); a probe or the default assumes one
  call at a time per host.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlite_utils
from sqlite_utils import Database

from seorap.engine.config import Config
from seorap.engine.memory import get_system
from seorap.engine.memory.prompts import extraction_messages, synthesis_messages
from seorap.engine.memory.schemas import Extraction
from seorap.engine.memory.sentences import split_sentences
from seorap.engine.run.calibration import (
    DEFAULT_RATES,
    DEFAULT_RATIO,
    PROBE_TOKENS,
    Calibration,
    Plan,
    RoleEstimate,
    Throughput,
    fit_throughput,
    has_table,
    message_chars,
    overlap,
    probe,
    probe_throughput,
    slot_counts,
)
from seorap.engine.run.plan_text import plan_lines, plan_rows
from seorap.engine.run.records import make_run_id, run_name
from seorap.engine.scoring import prompts
from seorap.engine.store.database import done_positions
from seorap.engine.store.queries.calls import answered_keys

if TYPE_CHECKING:
    from seorap.engine.corpus import Arrival, Corpus, Trajectory
    from seorap.engine.memory import System
    from seorap.engine.memory.llm import LLMSystem


# ---- the plan -----------------------------------------------------------------------------------
def plan_run(
    corpus: Corpus,
    systems: list[str],
    config: Config,
    db: Database | None = None,
    *,
    variants_dirs: list[str | Path] | None = None,
    score: bool = True,
    trajectories: list[str] | None = None,
    probes: dict[str, Throughput] | None = None,
    hosts: list[str] | int | None = None,
) -> Plan:
    """Estimate a ``seorap run`` without running it: no model call, nothing written to ``db``."""
    # start-up: numpy loads only when this runs
    from seorap.engine.memory.llm import LLMSystem

    if hosts is None:
        # start-up: httpx, numpy load only when this runs
        from seorap.engine.models.hosts import chat_hosts

        hosts = chat_hosts(config)
    slots = slot_counts(config, db, hosts) if isinstance(hosts, list) else None
    cal = Calibration(db, probes, hosts, slots)
    trajs = [t for t in corpus.trajectories if not trajectories or t.id in trajectories]
    counter = _Counter(config, db, cal)
    for name in systems:
        system = get_system(name, config, variants_dirs)
        if isinstance(system, LLMSystem):  # reference systems make no model call
            counter.system(name, system, corpus, trajs)
        elif getattr(system, "uses_llm", False):  # a system that calls models itself (mem0)
            counter.foreign(name, system, corpus, trajs)
    plan = counter.plan
    if score:
        for n, _ in enumerate(systems):
            fact_chars = _mean(counter.obs_chars) or 60
            _plan_scoring(
                plan, corpus, trajs, config, counter.role, counter.add, fact_chars, first=n == 0
            )
    for key in counter.inexact:
        counter.est[key].exact = False
    plan.roles = [r for r in counter.est.values() if r.calls]
    _times(plan, cal)
    if not any(r.calls for r in plan.roles):
        plan.notes.append(
            "no model call: the systems are references or every role is an offline stand-in"
        )
    return plan


class _Counter:
    """The calls of the write phase, counted from the prompts a run would send."""

    def __init__(self, config: Config, db: Database | None, cal: Calibration) -> None:
        # start-up: httpx, numpy, ollama load only when this runs
        from seorap.engine.models.client import ModelClient, json_schema

        self.config, self.db, self.cal = config, db, cal
        self.plan = Plan()
        self.requester = ModelClient.from_config(config, None, backend=_NO_BACKEND)
        """Builds requests only (the planner's keys are the run's keys)."""
        self.schema = json_schema(Extraction)
        self.est: dict[tuple[str, str], RoleEstimate] = {}
        self.seen_keys: set[str] = set()
        self.logged_keys = _logged_keys(db)
        self.obs_chars: list[int] = []
        self.inexact: set[tuple[str, str]] = set()
        """Roles with calls counted but not built prompt by prompt (a system's own prompts)."""

    def role(self, name: str, model: str) -> RoleEstimate:
        if (name, model) not in self.est:
            ratio, source = self.cal.ratio(model)
            self.est[(name, model)] = RoleEstimate(name, model, ratio=ratio, ratio_source=source)
        return self.est[(name, model)]

    def add(
        self,
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
        out = min(
            self.cal.output(r.role, r.model, prompt_chars, doc_chars), _limit(self.config, r.role)
        )
        r.prompt_tokens += n * prompt_chars * r.ratio
        r.output_tokens += n * out

    def system(self, name: str, system: LLMSystem, corpus: Corpus, trajs: list[Trajectory]) -> None:
        config = self.config
        run_id = make_run_id(name, corpus, system, config)
        ext = self.role("extractor", config.models.extractor)
        ext.exact = True
        syn = (
            self.role("synthesizer", config.models.synthesizer)
            if system.variant.policy == "synthesize"
            else None
        )
        per_char = self.cal.observations_per_char(config.models.extractor)
        for t in trajs:
            done = (
                done_positions(self.db, run_id, t.id) if has_table(self.db, "documents") else set()
            )
            for arrival in t.arrivals():
                if arrival.position not in done:
                    self.document(system, arrival, ext, syn, per_char)

    def foreign(self, name: str, system: System, corpus: Corpus, trajs: list[Trajectory]) -> None:
        """A system that calls models itself: the chat calls it declares per document, for every
        document of a trajectory it has not finished (it restarts those from the first document).
        Its prompts are its own, so tokens count the document text only and the call log is not
        looked up: a lower bound on tokens and time, an upper bound on calls."""
        name = run_name(name, system)  # the name it gives itself, not a command line
        per_doc = getattr(system, "calls_per_document", None)
        if not per_doc:
            self.plan.notes.append(
                f"{name}: its model calls are not estimated (it calls models itself and "
                "declares no calls per document)"
            )
            return
        run_id = make_run_id(name, corpus, system, self.config)
        ext = self.role("extractor", self.config.models.extractor)
        calls = 0
        for t in trajs:
            arrivals = list(t.arrivals())
            done = (
                done_positions(self.db, run_id, t.id) if has_table(self.db, "documents") else set()
            )
            if len(done) == len(arrivals):
                continue
            for arrival in arrivals:
                self.plan.documents += 1
                chars = len(arrival.document.text)
                self.add(ext, chars, chars, n=per_doc)
                calls += per_doc
        self.inexact.add(("extractor", self.config.models.extractor))
        self.plan.notes.append(
            f"{name}: {calls} extractor calls counted ({per_doc} per document still to write); "
            "their prompts are its own, so tokens and time count the document text only (a lower "
            "bound), cache hits are not looked up, and its embedder calls are not counted"
        )

    def document(
        self,
        system: LLMSystem,
        arrival: Arrival,
        ext: RoleEstimate,
        syn: RoleEstimate | None,
        per_char: float | None,
    ) -> None:
        config = self.config
        self.plan.documents += 1
        messages = extraction_messages(system.extraction_prompt, arrival)
        key = self.requester.build_request(
            "extractor", config.models.extractor, messages, self.schema, config.think
        ).key()
        chars = message_chars(messages)
        observations: float | None = None
        if key not in self.seen_keys:
            self.seen_keys.add(key)
            self.add(ext, chars, len(arrival.document.text), logged=key in self.logged_keys)
        if key in self.logged_keys:
            observations = self.logged_keys[key]
        if observations is None:
            sentences = split_sentences(arrival.document.text)
            observations = per_char * chars if per_char is not None else len(sentences)
            self.obs_chars.extend(len(s) for s in sentences)
        if syn is not None and observations:
            avg = _mean(self.obs_chars) or 60
            messages = synthesis_messages(
                system.synthesis_prompt,
                _fake_observation(avg),
                [_fake_candidate(avg, i) for i in range(system.variant.k)],
            )
            self.add(syn, message_chars(messages), n=observations)


def _plan_scoring(
    plan: Plan,
    corpus: Corpus,
    trajs: list[Trajectory],
    config: Config,
    role: Callable[[str, str], RoleEstimate],
    add: Callable[[RoleEstimate, float], None],
    fact_chars: float,
    first: bool,
) -> None:
    """One run's scoring. Naive RAG, full context and no context do not depend on the store: after
    the first run they are served from the call log (``first=False`` leaves them out)."""
    # start-up: numpy loads only when this runs
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
                        message_chars(prompts.answer_messages(q.question, ctx, kind=kind)),
                    )
                if llm_judge:
                    answer = "가" * max(1, len(q.answer))
                    add(
                        role("judge", judge),
                        message_chars(
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
                            message_chars(
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
        if cal.slots and overlap_ > sum(cal.slots.values()):
            overlap_ = float(sum(cal.slots.values()))
            plan.notes.append(
                "calls overlap at most by the hosts' generation slots ("
                + ", ".join(f"{h}: {n}" for h, n in cal.slots.items())
                + "): with one slot the calls are summed, not overlapped"
            )
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
    if not has_table(db, "calls"):
        return {}
    out: dict[str, int | None] = {}
    for key, parsed, role in answered_keys(db):
        n = None
        if role == "extractor" and parsed:
            try:
                n = len(json.loads(parsed).get("observations") or [])
            except (ValueError, AttributeError):
                n = None
        out[key] = n
    return out


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

    if path is None or not Path(path).exists():
        return None
    conn = sqlite3.connect(
        f"file:{Path(path).resolve()}?mode=ro", uri=True, check_same_thread=False
    )
    return sqlite_utils.Database(conn)


__all__ = [
    "DEFAULT_RATIO",
    "PROBE_TOKENS",
    "Plan",
    "RoleEstimate",
    "Throughput",
    "fit_throughput",
    "open_readonly",
    "overlap",
    "plan_lines",
    "plan_rows",
    "plan_run",
    "probe",
    "probe_throughput",
]
