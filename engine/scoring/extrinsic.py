"""Extrinsic score card of one trajectory: ask questions (docs/metrics.md).

Questions: every ``extrinsicQA`` item (``compound``) and every ``singleQA`` item (``single``).
Sources answered and judged for each question:

- ``memory`` at k = 1, 3, 5, 10 (k = 5, ``TOP_K``, is the headline; the others make the depth curve)
  over the final active facts, ranked by engine.retrieval.HybridIndex; for a system that declares
  its own search, ranked by that search instead (its hits stored when the run was written:
  engine/scoring/answer_path.py), or n/a when the run stored none;
- ``full-context``: every document of the trajectory (state documents and distractors);
- ``naive-rag``: one top-5 hybrid retrieval over raw document chunks (``chunk_documents``);
- ``no-context``: the question alone (the guessing floor).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

import numpy as np

from seorap.engine.corpus import SingleQA, Trajectory, parse_timestamp
from seorap.engine.memory.sentences import split_sentences
from seorap.engine.retrieval.hybrid import Hit, HybridIndex
from seorap.engine.scoring import metrics
from seorap.engine.scoring.holders import answer_holders
from seorap.engine.scoring.stats import mean

if TYPE_CHECKING:
    from seorap.engine.config import RetrievalConfig
    from seorap.engine.scoring.answer_path import OwnRankings
    from seorap.engine.scoring.answerers import Answerer
    from seorap.engine.scoring.judges import Judge

DEPTHS = (1, 3, 5, 10)
TOP_K = 5
CHUNK_CHARS = 300
SOURCES = ("memory", "full-context", "naive-rag", "no-context")
OWN, OURS = "own search", "hybrid"
"""The memory answers' read path: the system's own search, or seorap's hybrid retrieval."""


@dataclass(frozen=True)
class Ranked:
    """One fact of a memory ranking as the answerer is given it."""

    fact_id: str
    text: str
    score: float
    recency: int


@dataclass(frozen=True)
class Question:
    kind: str
    """compound | single."""
    item: str
    question: str
    answer: str
    expected_date: date | None = None
    """The date relative dates in the expected answer are read against (its state's document)."""
    answer_date: date | None = None
    """... and in an answer: the question is asked as of the trajectory's last document."""


def questions(trajectory: Trajectory) -> list[Question]:
    states = trajectory.states
    last = states[-1].when.date() if states else None

    def when(index: int | None) -> date | None:
        if not states:
            return None
        return states[index if index is not None and 0 <= index < len(states) else -1].when.date()

    out = [
        Question("compound", f"compound/{i}", q.question, q.answer, last, last)
        for i, q in enumerate(trajectory.extrinsic_qa)
    ]
    out += [
        Question("single", f"single/{i}", q.question, q.answer, when(q.state), _asked(q, last))
        for i, q in enumerate(trajectory.single_qa)
        if q.excluded is None  # an imported item with no answer to score against
    ]
    return out


def _asked(q: SingleQA, last: date | None) -> date | None:
    """The date a question is asked: its own (an imported set's ``askedAt``), else the last
    document's."""
    return parse_timestamp(q.asked_at).date() if q.asked_at else last


def chunk_documents(trajectory: Trajectory, max_chars: int = CHUNK_CHARS) -> list[tuple[str, str]]:
    """(chunk id, text): each document's sentences packed greedily into chunks of <= max_chars
    (a longer sentence is a chunk of its own); ids are ``{doc_id}#{n}``."""
    out = []
    for arrival in trajectory.arrivals():
        doc = arrival.document
        chunks: list[str] = []
        for sentence in split_sentences(doc.text):
            if chunks and len(chunks[-1]) + 1 + len(sentence) <= max_chars:
                chunks[-1] += " " + sentence
            else:
                chunks.append(sentence)
        out += [(f"{doc.id}#{n}", text) for n, text in enumerate(chunks)]
    return out


class Asker:
    """Answers and judges the questions of one trajectory; collects rows for the tables."""

    def __init__(
        self,
        answerer: Answerer,
        judge: Judge,
        embed: Callable[[Sequence[str]], np.ndarray],
        retrieval_settings: RetrievalConfig | dict[str, Any] | None,
    ) -> None:
        self.answerer = answerer
        self.judge = judge
        self.embed = embed
        self.settings = retrieval_settings
        self.verdicts: list[dict] = []
        self.answers: list[dict] = []
        self.retrievals: list[dict] = []
        self.ungraded: list[dict] = []
        """Answers the judge did not grade (n/a on this language): token F1 still reads them."""
        self.not_applicable: dict[str, str] = {}
        """``judge`` / ``answerer`` -> why it gave n/a on this corpus (language_na)."""
        self.read_path = OURS
        """How the memory answers read the facts: ``hybrid`` or ``own search``."""
        self.memory_na: str | None = None
        """Why memory answers are n/a (a system with its own search whose run stored no hits)."""

    def index(
        self, ids: list[str], texts: list[str], language: str | None = None
    ) -> HybridIndex | None:
        if not ids:
            return None
        return HybridIndex.from_settings(ids, texts, self.embed(texts), self.settings, language)

    def run(
        self,
        trajectory: Trajectory,
        facts: dict[str, str],
        recency: dict[str, int] | None = None,
        own: OwnRankings | None = None,
    ) -> None:
        """``recency``: {fact id: arrival position of its current version} (the reader prefers the
        more recent of two facts answering the same part of a question); ``own``: the system's
        own search for each question (None: seorap's hybrid retrieval over ``facts``)."""
        recency = recency or {}
        language = trajectory.language  # words for English, not Korean character bigrams
        self.not_applicable = language_na(self.judge.name, self.answerer.name, language)
        self.read_path, self.memory_na = (OURS, None) if own is None else (OWN, own.na)
        fact_index = (
            self.index(list(facts), list(facts.values()), language) if own is None else None
        )
        chunks = chunk_documents(trajectory)
        chunk_index = self.index([c for c, _ in chunks], [t for _, t in chunks], language)
        documents = [a.document.text for a in trajectory.arrivals()]
        doc_order = {a.document.id: n for n, a in enumerate(trajectory.arrivals())}
        for q in questions(trajectory):
            qvec = self.embed([q.question])[0]
            ranking = self._ours(q, fact_index, qvec, recency) if own is None else self._own(q, own)
            if "answerer" in self.not_applicable:  # no answer is guessed in a language not read
                continue
            if ranking is not None:  # None: memory answers n/a (``memory_na`` says why)
                self._memory(q, ranking)
            rag = chunk_index.search(q.question, qvec, TOP_K) if chunk_index else []
            self._record_retrieval(q, "naive-rag", rag)
            self._ask(
                q,
                "naive-rag",
                TOP_K,
                [h.text for h in rag],
                [h.hybrid for h in rag],
                [h.fact_id for h in rag],
                kind="documents",
                recency=[doc_order.get(h.fact_id.rsplit("#", 1)[0], 0) for h in rag],
            )
            self._ask(
                q,
                "full-context",
                None,
                documents,
                None,
                [],
                kind="documents",
                recency=list(range(len(documents))),
            )
            self._ask(q, "no-context", None, [], None, [])

    def _memory(self, q: Question, ranking: list[Ranked]) -> None:
        """The memory answer at each k of the depth curve, from the top k of ``ranking``."""
        for k in DEPTHS:
            top = ranking[:k]
            self._ask(
                q,
                "memory",
                k,
                [h.text for h in top],
                [h.score for h in top],
                [h.fact_id for h in top],
                recency=[h.recency for h in top],
            )

    def _ours(
        self, q: Question, index: HybridIndex | None, qvec: np.ndarray, recency: dict[str, int]
    ) -> list[Ranked]:
        """seorap's read path: the hybrid ranking of every final active fact."""
        hits = index.explain(q.question, qvec) if index else []
        self._record_retrieval(q, "memory", hits)
        return [Ranked(h.fact_id, h.text, h.hybrid, recency.get(h.fact_id, 0)) for h in hits]

    def _own(self, q: Question, own: OwnRankings) -> list[Ranked] | None:
        """The system's own search for ``q`` as stored when the run was written; None (memory
        answers n/a) when the run stored none for it."""
        hits = own.rankings.get((q.kind, q.item))
        if hits is None:
            self.memory_na = self.memory_na or own.missing
            return None
        self._record(
            q,
            "memory",
            [
                {"fact_id": h.fact_id, "text": h.text, "score": h.score, "rank": n + 1}
                for n, h in enumerate(hits)
            ],
        )
        return hits

    def path(self) -> dict[str, str | None]:
        """The score card's read-path fields: ``read_path`` and, when memory answers are n/a,
        ``read_path_na`` (why)."""
        return {"read_path": self.read_path, "read_path_na": self.memory_na}

    def _ask(
        self,
        q: Question,
        source: str,
        k: int | None,
        context: list[str],
        scores: list[float] | None,
        ids: list[str],
        *,
        kind: str = "facts",
        recency: list[int] | None = None,
    ) -> None:
        answer = self.answerer.answer(q.question, context, scores, kind=kind, recency=recency)
        if "judge" in self.not_applicable:
            self.ungraded.append(
                {"setup": "answer", "source": source, "k": k, "item": q.item}
                | {"expected": q.answer, "candidate": answer}
            )
            self._record_answer(q, source, k, answer, ids)
            return
        verdict = self.judge.grade_answer(
            q.question, q.answer, answer, expected_date=q.expected_date, answer_date=q.answer_date
        )
        self._record_answer(q, source, k, answer, ids)
        self.verdicts.append(
            {
                "kind": q.kind,
                "setup": "answer",
                "source": source,
                "k": k,
                "state_index": None,
                "item": q.item,
                "question": q.question,
                "expected": q.answer,
                "candidate": answer,
                "label": verdict.label,
                "score": verdict.score,
                "rationale": verdict.rationale,
                "call_key": verdict.call_key,
                "cached": int(verdict.cached),
            }
        )

    def _record_answer(
        self, q: Question, source: str, k: int | None, answer: str, ids: list[str]
    ) -> None:
        self.answers.append(
            {
                "kind": q.kind,
                "item": q.item,
                "source": source,
                "k": k,
                "answerer": self.answerer.name,
                "question": q.question,
                "answer": answer,
                "context_ids": json.dumps(ids, ensure_ascii=False),
            }
        )

    def _record_retrieval(self, q: Question, source: str, hits: Sequence[Hit]) -> None:
        entries = [
            {
                "fact_id": h.fact_id,
                "text": h.text,
                "bm25": h.bm25,
                "bm25_norm": h.bm25_norm,
                "dense": h.dense,
                "hybrid": h.hybrid,
                "rank": h.rank,
            }
            for h in hits
        ]
        self._record(q, source, entries)

    def _record(self, q: Question, source: str, entries: list[dict]) -> None:
        """One ranking row: each entry has fact_id, text and rank, and hybrid's scores (bm25,
        bm25_norm, dense, hybrid) or the system's own ``score``."""
        pairs = ((e["fact_id"], e["text"]) for e in entries)
        holders = answer_holders(q.answer, q.question, pairs)
        self.retrievals.append(
            {
                "kind": q.kind,
                "item": q.item,
                "source": source,
                "question": q.question,
                "ranking": json.dumps(entries, ensure_ascii=False),
                "answer_fact_ids": json.dumps(holders, ensure_ascii=False),
            }
        )


KOREAN_ONLY = {
    "judge": (
        "lexical",
        "the lexical judge reads Korean (particles, endings, hedges); on a corpus declared {lang} "
        "it would guess: judged figures n/a; read token F1 or score with a model judge",
    ),
    "answerer": (
        "reader",
        "the reference reader reads Korean sentences; on a corpus declared {lang} it would guess: "
        "no answers; use --answerer extractive (offline) or a model",
    ),
}


def language_na(judge: str, answerer: str, language: str) -> dict[str, str]:
    """Which offline rulers give n/a on a corpus of ``language``, and why (docs/metrics.md#token-f1):
    the lexical judge and the reference reader read Korean only."""
    if language == "ko":
        return {}
    names = {"judge": judge.split("/")[0], "answerer": answerer}
    return {
        role: why.format(lang=language)
        for role, (name, why) in KOREAN_ONLY.items()
        if names[role] == name
    }


def card(verdicts: list[dict]) -> dict:
    """Extrinsic figures from the answer verdict rows of one trajectory."""

    def scores(kind: str, source: str, k: int | None = None) -> list[float | None]:
        return [
            v["score"]
            for v in verdicts
            if v["kind"] == kind and v["source"] == source and (k is None or v["k"] == k)
        ]

    def both(source: str, k: int | None = None) -> list[float | None]:
        return scores("compound", source, k) + scores("single", source, k)

    memory = [v for v in verdicts if v["source"] == "memory" and v["k"] == TOP_K]
    rag = {(v["kind"], v["item"]): v["score"] for v in verdicts if v["source"] == "naive-rag"}
    pairs = [(v["score"], rag.get((v["kind"], v["item"]))) for v in memory]
    bt = metrics.benefit_tax([p[0] for p in pairs], [p[1] for p in pairs])
    return {
        "compound": mean(scores("compound", "memory", TOP_K)),
        "single": mean(scores("single", "memory", TOP_K)),
        "baselines": {
            "full_context": mean(both("full-context")),
            "naive_rag": mean(both("naive-rag")),
            "no_context": mean(both("no-context")),
            "compound": {
                s: mean(scores("compound", s)) for s in ("full-context", "naive-rag", "no-context")
            },
        },
        "depth_curve": {k: mean(both("memory", k)) for k in DEPTHS},
        "benefit_tax": {
            "n": bt.n,
            "benefit": bt.benefit,
            "tax": bt.tax,
            "both_right": bt.both_right,
            "both_wrong": bt.both_wrong,
            "net": bt.net,
        },
        "unparseable": sum(v["label"] == "UNPARSEABLE" for v in verdicts),
    }
