"""Questions and retrieval (view 4)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlite_utils import Database

from seorap.engine.config import RetrievalConfig
from seorap.engine.corpus import Corpus
from seorap.engine.models.base import Embedder
from seorap.engine.models.embedders import HashingEmbedder
from seorap.engine.retrieval.hybrid import Hit, HybridIndex
from seorap.engine.scoring.extrinsic import OURS, OWN, Question
from seorap.engine.scoring.extrinsic import questions as trajectory_questions
from seorap.engine.scoring.holders import holds_part
from seorap.engine.store.database import facts_at, loads
from seorap.engine.store.queries import scores as scores_q
from seorap.engine.store.queries import verdicts as scored
from seorap.engine.store.queries.catalog import readable_names
from seorap.engine.store.queries.writes import question_lookups
from seorap.engine.views.common import NOT_SCORED, human_overrides, latest_scoring


@dataclass(frozen=True)
class RankedFact(Hit):
    """One retrieval ``Hit`` as view 4 shows it: the same scores and rank, plus whether the fact
    holds the question's expected answer (known only against the ground truth, so not a Hit's)."""

    holds_answer: bool
    own_score: float | None = None
    """The system's own search score, for a fact its own search ranked (then bm25, bm25_norm,
    dense and hybrid are NaN: seorap's retrieval did not rank it)."""


@dataclass(frozen=True)
class QuestionRow:
    kind: str
    """compound | single."""
    item: str
    question: str
    expected: str
    answer: str
    """The memory answer at top-5."""
    verdict: str | None
    verdict_id: str
    rationale: str
    overridden: bool
    ranking: list[RankedFact]
    depth: dict[int, float | None]
    """k -> judged score of the memory answer with the top-k facts (the depth curve)."""
    baselines: dict[str, str]
    """source (naive-rag, full-context, no-context) -> verdict label."""
    read_path: str = OURS
    """Whose ranking: ``hybrid`` (seorap's) or ``own search`` (the system's, engine/scoring/
    answer_path.py)."""

    @property
    def own_search(self) -> bool:
        """Ranked by the system's own search (its scores in ``own_score``), not by hybrid."""
        return self.read_path == OWN

    @property
    def answer_ranks(self) -> list[int]:
        return [h.rank for h in self.ranking if h.holds_answer]


@dataclass(frozen=True)
class QuestionsView:
    run_id: str
    trajectory_id: str
    scored: bool
    questions: list[QuestionRow]
    live: str = ""
    """Non-empty when the rankings were computed live (no stored retrievals): names the embedder
    and says that answers and verdicts need `seorap score`."""
    stale_ids: frozenset[str] = frozenset()
    """The trajectory's stale facts as the scoring found them (active facts still stating a
    retired claim): marked in every ranking."""


def questions_view(db: Database, run_id: str, trajectory_id: str, top_k: int = 5) -> QuestionsView:
    """Each question with its ranking (BM25/dense/hybrid), answer-holding ranks, answer, verdict."""
    scoring = latest_scoring(db, run_id)
    if scoring is None or not {"verdicts", "retrievals", "answers"} <= readable_names(db):
        return QuestionsView(run_id, trajectory_id, False, [])
    if not scored.has_retrievals(db, run_id, trajectory_id, scoring):
        return QuestionsView(run_id, trajectory_id, False, [])
    verdicts = scored.question_verdicts(db, run_id, trajectory_id, scoring)
    rankings = {r["item"]: r for r in scored.memory_rankings(db, run_id, trajectory_id, scoring)}
    answers = {
        (r["item"], r["source"], r["k"]): r["answer"]
        for r in scored.answers(db, run_id, trajectory_id, scoring)
    }
    over = human_overrides(db, [v["id"] for v in verdicts])
    items = sorted(
        {(v["kind"], v["item"]) for v in verdicts}, key=lambda x: (x[0] != "compound", x[1])
    )
    out = [
        _question(
            kind,
            item,
            [v for v in verdicts if v["item"] == item],
            rankings.get(item),
            answers,
            over,
            top_k,
        )
        for kind, item in items
    ]
    return QuestionsView(
        run_id, trajectory_id, True, out, stale_ids=_stale_ids(db, run_id, trajectory_id, scoring)
    )


def _stale_ids(db: Database, run_id: str, trajectory_id: str, scoring: str) -> frozenset[str]:
    """The stale fact ids of the trajectory's score card (none when it has no card)."""
    card = loads(scores_q.card(db, run_id, trajectory_id, scoring) or "", {})
    return frozenset((card.get("intrinsic") or {}).get("stale_fact_ids") or ())


def live_questions_view(
    db: Database,
    corpus: Corpus,
    run_id: str,
    trajectory_id: str,
    embedder: Embedder | None = None,
    settings: RetrievalConfig | dict[str, Any] | None = None,
) -> QuestionsView:
    """The questions of a trajectory ranked live over the run's final active facts with
    engine.retrieval.HybridIndex.explain (BM25 / dense / hybrid / rank per fact), for a run with no
    stored retrievals. Answer-holding facts are those the scoring's lexical ruler relates to the
    expected answer (engine.scoring.holders.holds_part). No answer or verdict is invented: both stay
    empty until `seorap score`. ``embedder`` defaults to the offline hashing embedder."""

    if embedder is None:
        embedder = HashingEmbedder()
    t = corpus.get(trajectory_id)
    qs = trajectory_questions(t)
    stored = question_lookups(db, run_id, trajectory_id)
    if stored:  # the system's own search answered: its ranking, not ours
        return _own_live(db, run_id, trajectory_id, qs, stored)
    facts = [f for f in facts_at(db, run_id, trajectory_id) if f.status == "active"]
    index = None
    if facts:
        vectors = np.asarray(embedder.embed([f.text for f in facts]), dtype=np.float32)
        index = HybridIndex.from_settings(
            [f.id for f in facts], [f.text for f in facts], vectors, settings, t.language
        )
    qvecs = (
        np.asarray(embedder.embed([q.question for q in qs]), dtype=np.float32)
        if qs
        else np.zeros((0, 0), dtype=np.float32)
    )
    out = []
    for q, qvec in zip(qs, qvecs):
        hits = index.explain(q.question, qvec) if index is not None else []
        ranking = [
            RankedFact(
                h.fact_id,
                h.text,
                h.bm25,
                h.bm25_norm,
                h.dense,
                h.hybrid,
                h.rank,
                holds_part(q.answer, h.text, q.question),
            )
            for h in hits
        ]
        out.append(
            QuestionRow(
                q.kind, q.item, q.question, q.answer, "", None, "", "", False, ranking, {}, {}
            )
        )
    note = (
        f"ranking computed live over {len(facts)} active facts (embedder {embedder.name}); "
        f"answers and verdicts: {NOT_SCORED}"
    )
    return QuestionsView(run_id, trajectory_id, False, out, note)


def _own_live(
    db: Database, run_id: str, trajectory_id: str, qs: list[Question], stored: dict[str, dict]
) -> QuestionsView:
    """The questions of an unscored run ranked by the system's own search, as the run stored it
    after the trajectory's last document (engine/scoring/answer_path.py)."""
    texts = {f.id: f.text for f in facts_at(db, run_id, trajectory_id)}
    out = []
    for q in qs:
        row = stored.get(q.item)
        hits = loads(row["hits"], []) if row else []
        ranking = [
            _ranked(
                {
                    "fact_id": h["id"],
                    "text": texts.get(h["id"], ""),
                    "score": h["score"],
                    "rank": n,
                },
                holds_part(q.answer, texts.get(h["id"], ""), q.question),
            )
            for n, h in enumerate(hits, 1)
        ]
        out.append(
            QuestionRow(
                q.kind, q.item, q.question, q.answer, "", None, "", "", False, ranking, {}, {}, OWN
            )
        )
    note = (
        "ranking by the system's own search, stored when the run was written; answers and "
        f"verdicts: {NOT_SCORED}"
    )
    return QuestionsView(run_id, trajectory_id, False, out, note)


def filter_questions(questions: Iterable[QuestionRow], text: str = "") -> list[QuestionRow]:
    """Pure filter: every word of ``text`` (case-insensitive) in the question, its expected answer,
    the memory answer, the item id, the kind or the verdict."""
    words = text.lower().split()
    return [
        q
        for q in questions
        if all(
            w
            in " ".join([q.kind, q.item, q.question, q.expected, q.answer, q.verdict or ""]).lower()
            for w in words
        )
    ]


def _question(
    kind: str,
    item: str,
    rows: list[dict[str, Any]],
    retrieval: dict[str, Any] | None,
    answers: dict[tuple[str, str, int], str],
    over: dict[str, dict[str, Any]],
    top_k: int,
) -> QuestionRow:
    memory = {v["k"]: v for v in rows if v["source"] == "memory"}
    main = memory.get(top_k) or next(iter(memory.values()), rows[0])
    holders = set(loads(retrieval["answer_fact_ids"], [])) if retrieval else set()
    ranking = [
        _ranked(h, h["fact_id"] in holders)
        for h in (loads(retrieval["ranking"], []) if retrieval else [])
    ]
    o = over.get(main["id"])
    return QuestionRow(
        kind,
        item,
        main["question"] or "",
        main["expected"] or "",
        answers.get((item, "memory", main["k"]), main.get("candidate") or ""),
        o["label"] if o else main["label"],
        main["id"],
        main["rationale"] or "",
        bool(o),
        ranking,
        {k: v["score"] for k, v in sorted(memory.items()) if k is not None},
        {v["source"]: v["label"] for v in rows if v["source"] != "memory"},
        OWN if any(h.own_score is not None for h in ranking) else OURS,
    )


def _ranked(h: dict[str, Any], holds: bool) -> RankedFact:
    """One stored ranking entry: hybrid's scores, or the system's own ``score``."""
    if h.get("hybrid") is None:
        nan = float("nan")
        score = float(h.get("score") or 0.0)
        return RankedFact(h["fact_id"], h["text"], nan, nan, nan, nan, h["rank"], holds, score)
    return RankedFact(
        h["fact_id"],
        h["text"],
        h["bm25"],
        h["bm25_norm"],
        h["dense"],
        h["hybrid"],
        h["rank"],
        holds,
    )
