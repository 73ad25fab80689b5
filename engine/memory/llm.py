"""The LLM memory system: extract → embed → k nearest active facts → classify → guard → apply.

One instance per variant (engine/memory/variants.py). ``extract`` is the runner's phase 1 (it does
not depend on the store); ``write`` applies one document's observations in order, each seeing the
store as the previous observation left it. Malformed model output becomes a ``write_failures`` row
and the run goes on; nothing here raises for it. An extraction cut at its token limit (or stopped as
a loop) keeps its complete observations: the document is written from them and recorded as a
*partial* write failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from seorap.engine.config import Config
from seorap.engine.corpus import Arrival, Trajectory
from seorap.engine.memory import policy, quarantine
from seorap.engine.memory.facts import DocumentWrite, Fact, Observation, TrajectoryMemory
from seorap.engine.memory.grounding import ungrounded
from seorap.engine.memory.interface import Capabilities
from seorap.engine.memory.prompts import extraction_messages, synthesis_messages
from seorap.engine.memory.schemas import Extraction, SynthesisChoice
from seorap.engine.memory.variants import Variant

if TYPE_CHECKING:
    from seorap.engine.models.base import Embedder
    from seorap.engine.models.client import ModelClient, Structured

Outcome = tuple[Fact, list[dict], str]
"""What applying one operation gives: the fact it wrote, its snapshots after, the final operation."""


class WriteContext(Protocol):
    """What an LLM system reads from its run while writing (:class:`engine.runner.RunContext` is
    one; a Protocol here so that the memory system does not import the runner that imports it).
    The runner gives every LLM system a client and an embedder."""

    @property
    def run_id(self) -> str: ...

    @property
    def config(self) -> Config: ...

    @property
    def client(self) -> ModelClient | None: ...

    @property
    def embedder(self) -> Embedder | None: ...

    @property
    def extractions(self) -> dict: ...


def _client(ctx: WriteContext) -> ModelClient:
    assert ctx.client is not None, "an LLM system writes with a model client"
    return ctx.client


def _embedder(ctx: WriteContext) -> Embedder:
    assert ctx.embedder is not None, "an LLM system writes with an embedder"
    return ctx.embedder


@dataclass
class Candidate:
    label: str
    fact: Fact
    similarity: float

    def record(self) -> dict:
        return {
            "label": self.label,
            "fact_id": self.fact.id,
            "text": self.fact.text,
            "similarity": round(self.similarity, 4),
        }

    def prompt(self) -> dict:
        return {
            "label": self.label,
            "text": self.fact.text,
            "similarity": round(self.similarity, 3),
            "confidence": round(self.fact.confidence, 2),
            "last_changed": self.fact.updated_at,
            "authors": self.fact.authors,
        }


def memory_nearest(memory: TrajectoryMemory, vector: np.ndarray, k: int) -> list[Candidate]:
    """The k active facts most similar to ``vector`` (cosine; vectors are L2-normalised), labelled
    F1..Fk as the synthesis prompt shows them: one product with the memory's vector matrix."""
    return [
        Candidate(f"F{n + 1}", fact, sim) for n, (fact, sim) in enumerate(memory.nearest(vector, k))
    ]


class LLMSystem:
    uses_llm = True

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.name = variant.name
        self.extraction_prompt = variant.prompt(variant.extraction_prompt)
        self.synthesis_prompt = (
            variant.prompt(variant.synthesis_prompt or "") if variant.policy == "synthesize" else ""
        )

    def spec(self) -> dict:
        return self.variant.spec()

    @property
    def capabilities(self) -> Capabilities:
        """Native: operations, history and dates are ours; ``policy = "append"`` never updates."""
        return Capabilities(True, True, True, False, self.variant.policy != "append", True)

    # ---- phase 1 ----------------------------------------------------------------------------
    def extract(self, arrival: Arrival, ctx: WriteContext) -> Structured[Extraction]:
        return _client(ctx).structured(
            "extractor",
            ctx.config.models.extractor,
            extraction_messages(self.extraction_prompt, arrival),
            Extraction,
            phase="extract",
            think=ctx.config.think,
            run_id=ctx.run_id,
            salvage=True,
        )

    def synthesis_calls(
        self, extraction: Structured[Extraction], arrival: Arrival, ctx: WriteContext
    ) -> int:
        """The synthesis calls writing this extraction will make: its observations but the
        quarantined ones (none for an append-only variant), for the run's re-plan."""
        if self.variant.policy == "append" or extraction.value is None:
            return 0
        texts = [o.text.strip() for o in extraction.value.observations if o.text.strip()]
        if ctx.config.keep_ungrounded:
            return len(texts)
        glossary = getattr(ctx, "glossary", None)
        why = quarantine.reasons(
            extraction, texts, arrival.document.text, arrival.timestamp, glossary
        )
        return sum(1 for w in why if not w)

    # ---- phase 2 ----------------------------------------------------------------------------
    def write(self, doc: DocumentWrite, trajectory: Trajectory, ctx: WriteContext) -> None:
        key = (trajectory.id, doc.arrival.position)
        extraction: Structured[Extraction] = ctx.extractions.get(key) or self.extract(
            doc.arrival, ctx
        )
        if extraction.value is None:
            doc.fail(
                "extract",
                extraction.failure or "no value",
                extraction.raw,
                call_key=extraction.call_key,
            )
            return
        if extraction.partial:
            doc.fail(
                "extract",
                f"partial: {extraction.failure}",
                extraction.raw,
                call_key=extraction.call_key,
                partial=True,
            )
        observations = self._observe(doc, extraction, ctx)
        if not observations:
            return
        embedder = _embedder(ctx)
        vectors = embedder.embed([o.text for o in observations])
        self._ensure_vectors(doc.memory, embedder)
        for obs, vector in zip(observations, vectors):
            obs.vector = vector
            self._observation(doc, obs, vector, ctx)

    def _observe(
        self, doc: DocumentWrite, extraction: Structured[Extraction], ctx: WriteContext
    ) -> list[Observation]:
        """Record every kept observation; return those to synthesise: not the quarantined ones
        (members of a stopped loop, ungrounded values), unless the run keeps them."""
        assert extraction.value is not None, "observed from a parsed extraction"
        items = [o for o in extraction.value.observations if o.text.strip()]
        texts = [o.text.strip() for o in items]
        arrival = doc.arrival
        glossary = getattr(ctx, "glossary", None)
        why = quarantine.reasons(
            extraction, texts, arrival.document.text, arrival.timestamp, glossary
        )
        self._count_ungrounded(ctx, "extractor", texts, doc)
        held = not ctx.config.keep_ungrounded
        out = []
        for o, text, reason in zip(items, texts, why):
            obs = doc.observe(
                text,
                category=o.category,
                who=o.who,
                what=o.what,
                when_=o.when,
                where_=o.where,
                why=o.why,
                confidence=o.confidence,
                quarantine=reason if held else "",
            )
            if not (reason and held):
                out.append(obs)
        if held and len(out) < len(items):
            model = ctx.config.role_model("extractor")
            _client(ctx).note(
                "quarantined", "extractor", model, ctx.run_id, "extract", len(items) - len(out)
            )
        return out

    def _count_ungrounded(
        self, ctx: WriteContext, role: str, texts: list[str], doc: DocumentWrite
    ) -> None:
        """Count texts that state a value or name the document lacks, or none of its words
        (engine/memory/grounding.py), in the run's accounting for ``role``."""
        document, date = doc.arrival.document.text, doc.arrival.timestamp
        glossary = getattr(ctx, "glossary", None)
        n = sum(1 for text in texts if text.strip() and ungrounded(text, document, date, glossary))
        if n:
            phase = "extract" if role == "extractor" else "synthesize"
            model = ctx.config.role_model(role)
            _client(ctx).note("ungrounded", role, model, ctx.run_id, phase, n)

    def _ensure_vectors(self, memory: TrajectoryMemory, embedder: Embedder) -> None:
        missing = [f for f in memory.active() if f.vector is None]
        if missing:
            for fact, vector in zip(missing, embedder.embed([f.text for f in missing])):
                fact.vector = vector
                memory.touch(fact)

    def _observation(
        self, doc: DocumentWrite, obs: Observation, vector: np.ndarray, ctx: WriteContext
    ) -> None:
        candidates = memory_nearest(doc.memory, vector, self.variant.k)
        if self.variant.policy == "append":
            conf = obs.confidence if obs.confidence is not None else self.variant.default_confidence
            fact = doc.create(obs.text, conf, obs, vector=vector)
            doc.decide(
                obs,
                candidates=[c.record() for c in candidates],
                raw_operation="create",
                operation="create",
                guard=self.variant.guard,
                fact_id=fact.id,
                after=[fact.snapshot()],
                reason="append-only: every observation is a fact",
            )
            return
        reply = self._classify(obs, candidates, ctx)
        if reply.value is None:
            doc.fail("synthesize", reply.failure or "no value", reply.raw, obs.id, reply.call_key)
            return
        Decision(self.variant, doc, obs, candidates, reply, _embedder(ctx)).apply()
        if reply.value.text.strip() and reply.value.text.strip() != obs.text:
            self._count_ungrounded(ctx, "synthesizer", [reply.value.text], doc)

    def _classify(
        self, obs: Observation, candidates: list[Candidate], ctx: WriteContext
    ) -> Structured[SynthesisChoice]:
        observation = {
            "text": obs.text,
            "category": obs.category,
            "author": obs.author,
            "document_date": obs.doc_date,
        }
        messages = synthesis_messages(
            self.synthesis_prompt, observation, [c.prompt() for c in candidates]
        )
        return _client(ctx).structured(
            "synthesizer",
            ctx.config.models.synthesizer,
            messages,
            SynthesisChoice,
            phase="synthesize",
            think=ctx.config.think,
            run_id=ctx.run_id,
        )


class Decision:
    """Apply one model choice: resolve the target, run the guard and the confidence design."""

    def __init__(
        self,
        variant: Variant,
        doc: DocumentWrite,
        obs: Observation,
        candidates: list[Candidate],
        reply: Structured[SynthesisChoice],
        embedder: Embedder,
    ) -> None:
        assert reply.value is not None, "a decision applies a parsed choice"
        self.variant, self.doc, self.obs, self.candidates = variant, doc, obs, candidates
        self.choice: SynthesisChoice = reply.value
        self.call_key = reply.call_key
        self.embedder = embedder
        self.notes: list[str] = []
        self.inputs = [c.record() for c in candidates]  # as they were shown, before any change

    def apply(self) -> None:
        raw = self.choice.operation
        target = self._target()
        operation: str = raw
        if raw != "create" and target is None:
            operation = "create"
            self.notes.append(f"no valid target {self.choice.target!r}: {raw} → create")
        operation, effect = policy.apply_guard(
            self.variant.guard, operation, self.obs.doc_date, target.updated_at if target else None
        )
        if effect:
            self.notes.append(effect)
        before = [target.snapshot()] if target is not None and operation != "create" else []
        fact, after, final = self._apply_operation(operation, target)
        self.doc.decide(
            self.obs,
            candidates=self.inputs,
            raw_operation=raw,
            operation=final,
            guard=self.variant.guard,
            guard_effect="; ".join(self.notes),
            fact_id=fact.id,
            before=before,
            after=after,
            call_key=self.call_key,
            model_text=self.choice.text,
            model_confidence=self.choice.confidence,
            reason=self.choice.reason,
        )

    def _apply_operation(self, operation: str, target: Fact | None) -> Outcome:
        """create, update, reinforce, supersede, or the guard's merge. Every operation but create
        has a target by now: a choice without a valid target became create."""
        if operation == "create":
            return self._create()
        assert target is not None, "only create goes without a target"
        steps = {
            "update": self._update,
            "reinforce": self._reinforce,
            "supersede": self._supersede,
            "merge": self._merge,
        }
        return steps[operation](target)

    def _target(self) -> Fact | None:
        label = self.choice.target.strip().upper()
        for c in self.candidates:
            if label in (c.label, c.fact.id.upper()):
                return c.fact
        return None

    def _text(self, fallback: str) -> str:
        return self.choice.text.strip() or fallback

    def _vector(self, text: str) -> np.ndarray | None:
        return self.obs.vector if text == self.obs.text else self.embedder.embed([text])[0]

    def _create(self) -> Outcome:
        text = self._text(self.obs.text)
        fact = self.doc.create(text, self.choice.confidence, self.obs, vector=self._vector(text))
        return fact, [fact.snapshot()], "create"

    def _update(self, target: Fact) -> Outcome:
        text = self._text(target.text)
        self.doc.change(
            target,
            "update",
            self.obs,
            text=text,
            confidence=self.choice.confidence,
            vector=self._vector(text) if text != target.text else target.vector,
        )
        return target, [target.snapshot()], "update"

    def _reinforce(self, target: Fact) -> Outcome:
        conf = policy.reinforced_confidence(
            self.variant.confidence,
            target.confidence,
            self.variant.reinforce_step,
            self.obs.author,
            target.authors,
        )
        self.doc.change(target, "reinforce", self.obs, confidence=conf)
        return target, [target.snapshot()], "reinforce"

    def _supersede(self, target: Fact) -> Outcome:
        self.doc.change(target, "supersede", self.obs, status="superseded")
        old = target.snapshot()
        text = self._text(self.obs.text)
        fact = self.doc.create(text, self.choice.confidence, self.obs, vector=self._vector(text))
        return fact, [old, fact.snapshot()], "supersede"

    def _merge(self, target: Fact) -> Outcome:
        if self.obs.text in target.text:
            return self._reinforce(target)
        text = policy.merged_text(target.text, self.obs.text, self.obs.doc_date)
        self.doc.change(
            target,
            "update",
            self.obs,
            text=text,
            vector=self.embedder.embed([text])[0],
            touch_date=False,
        )
        return target, [target.snapshot()], "update"
