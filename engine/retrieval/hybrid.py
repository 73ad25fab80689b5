"""Hybrid retrieval over facts: BM25 over Korean character bigrams + dense cosine
(docs/design.md#read-path-and-models).

    hybrid = bm25_weight · BM25 / max(BM25 over the candidates) + dense_weight · cosine

with ``bm25_weight = 0.3`` and ``dense_weight = 0.7`` by default. The BM25 part is normalised per
query by its maximum (0 for every candidate when the maximum is 0, e.g. no shared token). BM25 is
bm25s's ``lucene`` variant (k1 = 1.5, b = 0.75):

    idf(t) = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
    BM25(q, d) = Σ over query tokens t (repeats counted) of
                 idf(t) · tf(t, d) / (tf(t, d) + k1 · (1 - b + b · |d| / avgdl))

Ranking is by hybrid score, highest first; equal scores are ordered by fact id (ascending), so a
ranking never depends on insertion order. Every ranking is explainable: :meth:`HybridIndex.explain`
returns each candidate's BM25, normalised BM25, cosine, hybrid score and rank.

Speed: tokens are mapped to ids with our own vocabulary and indexed once by bm25s (a sparse
matrix of precomputed term scores); a query is a handful of sparse column sums plus one numpy
matrix-vector product, with no Python loop over documents (docs/benchmarks.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from seorap.engine.retrieval.tokenize import for_language, get_tokenizer, tokenize_many

if TYPE_CHECKING:
    import bm25s

K1 = 1.5
B = 0.75


@dataclass(frozen=True)
class Hit:
    fact_id: str
    text: str
    bm25: float
    """Raw BM25 score of the fact for the query."""
    bm25_norm: float
    """BM25 divided by the highest BM25 among the candidates (0 when that is 0)."""
    dense: float
    """Cosine similarity of the fact's vector and the query vector."""
    hybrid: float
    """bm25_weight · bm25_norm + dense_weight · dense."""
    rank: int
    """1 = best."""


@dataclass(frozen=True)
class Scores:
    """Per-candidate score arrays for one query (index order, not ranked)."""

    bm25: np.ndarray
    bm25_norm: np.ndarray
    dense: np.ndarray
    hybrid: np.ndarray


class HybridIndex:
    """An immutable index over facts (ids, texts, one embedding vector per fact)."""

    def __init__(
        self,
        ids: list[str],
        texts: list[str],
        vectors: np.ndarray | None,
        *,
        bm25_weight: float = 0.3,
        dense_weight: float = 0.7,
        tokenizer: str = "bigram",
    ) -> None:
        self.ids = list(ids)
        self.texts = list(texts)
        _check_ids(self.ids, self.texts)
        self.bm25_weight = float(bm25_weight)
        self.dense_weight = float(dense_weight)
        self.tokenizer = tokenizer
        self._tokenize = get_tokenizer(tokenizer)
        self._vectors = _unit_rows(vectors, len(self.ids))
        self._id_order = _id_order(self.ids)
        self._vocab, self._bm25 = _build_bm25(tokenize_many(self.texts, tokenizer))

    @classmethod
    def from_settings(
        cls,
        ids: list[str],
        texts: list[str],
        vectors: np.ndarray | None,
        settings: Any = None,
        language: str | None = None,
    ) -> HybridIndex:
        """Build with weights and tokenizer from a retrieval settings object or dict (config);
        ``language``, the corpus's declared one, swaps a Korean tokenizer for ``words`` on another
        language (engine/retrieval/tokenize.py, ``for_language``)."""
        keys = ("bm25_weight", "dense_weight", "tokenizer")
        if settings is None:
            options = {}
        elif isinstance(settings, dict):
            options = {k: settings[k] for k in keys if k in settings}
        else:
            options = {k: getattr(settings, k) for k in keys if hasattr(settings, k)}
        options["tokenizer"] = for_language(options.get("tokenizer", "bigram"), language)
        return cls(ids, texts, vectors, **options)

    def __len__(self) -> int:
        return len(self.ids)

    def query_tokens(self, query: str) -> list[str]:
        """The query's tokens (the same tokenizer as the facts)."""
        return self._tokenize(query)

    def scores(self, query: str, query_vec: np.ndarray | None) -> Scores:
        """Score every candidate (arrays in index order)."""
        bm25 = self._bm25_scores(query)
        top = float(bm25.max(initial=0.0))
        bm25_norm = bm25 / top if top > 0 else np.zeros_like(bm25)
        dense = self._dense_scores(query_vec)
        hybrid = self.bm25_weight * bm25_norm + self.dense_weight * dense
        return Scores(bm25, bm25_norm, dense, hybrid)

    def search(self, query: str, query_vec: np.ndarray | None, k: int = 5) -> list[Hit]:
        """The top ``k`` facts, best first (ties by fact id)."""
        scores = self.scores(query, query_vec)
        return self._hits(scores, _top_k(scores.hybrid, self._id_order, k))

    def explain(self, query: str, query_vec: np.ndarray | None) -> list[Hit]:
        """Every candidate with its BM25, normalised BM25, cosine, hybrid score and rank."""
        scores = self.scores(query, query_vec)
        return self._hits(scores, _ranked(scores.hybrid, self._id_order))

    def _hits(self, scores: Scores, order: np.ndarray) -> list[Hit]:
        # Gather with numpy and convert to Python floats in bulk: ~3x faster than per element.
        rows = zip(
            order.tolist(),
            scores.bm25[order].tolist(),
            scores.bm25_norm[order].tolist(),
            scores.dense[order].tolist(),
            scores.hybrid[order].tolist(),
        )
        ids, texts = self.ids, self.texts
        return [
            Hit(ids[i], texts[i], bm25, norm, dense, hybrid, rank)
            for rank, (i, bm25, norm, dense, hybrid) in enumerate(rows, start=1)
        ]

    def _bm25_scores(self, query: str) -> np.ndarray:
        n = len(self.ids)
        if self._bm25 is None:
            return np.zeros(n)
        token_ids = [self._vocab[t] for t in self._tokenize(query) if t in self._vocab]
        if not token_ids:
            return np.zeros(n)
        scores: np.ndarray = self._bm25.get_scores_from_ids(token_ids).astype(np.float64)
        return scores

    def _dense_scores(self, query_vec: np.ndarray | None) -> np.ndarray:
        n = len(self.ids)
        if query_vec is None or self._vectors is None:
            return np.zeros(n)
        q = np.asarray(query_vec, dtype=np.float32).ravel()
        if q.shape[0] != self._vectors.shape[1]:
            raise ValueError(
                f"query vector has {q.shape[0]} dimensions, the index has {self._vectors.shape[1]}"
            )
        norm = float(np.linalg.norm(q))
        if norm == 0.0:
            return np.zeros(n)
        dense: np.ndarray = (self._vectors @ (q / norm)).astype(np.float64)
        return dense


def _check_ids(ids: list[str], texts: list[str]) -> None:
    if len(ids) != len(texts):
        raise ValueError(f"{len(ids)} ids but {len(texts)} texts")
    if len(set(ids)) != len(ids):
        raise ValueError("fact ids must be unique")


def _unit_rows(vectors: np.ndarray | None, n: int) -> np.ndarray | None:
    """Rows scaled to unit length (zero rows stay zero), float32, C-contiguous."""
    if vectors is None:
        return None
    matrix = np.ascontiguousarray(vectors, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[0] != n:
        raise ValueError(f"vectors must be a {n}×d matrix, got shape {matrix.shape}")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def _id_order(ids: list[str]) -> np.ndarray:
    """Position of each id in sorted order (the tie-breaker)."""
    order = np.empty(len(ids), dtype=np.int64)
    order[np.argsort(np.array(ids, dtype=object), kind="stable")] = np.arange(len(ids))
    return order


def _build_bm25(docs: list[list[str]]) -> tuple[dict[str, int], bm25s.BM25 | None]:
    """Our own vocabulary (token -> id) and a bm25s index over token ids; None when no tokens."""
    vocab: dict[str, int] = {}
    doc_ids = [[vocab.setdefault(token, len(vocab)) for token in doc] for doc in docs]
    if not vocab:
        return vocab, None
    # start-up: bm25s loads only when this runs
    import bm25s

    index = bm25s.BM25(k1=K1, b=B, method="lucene")
    index.index((doc_ids, vocab), create_empty_token=False, show_progress=False)
    return vocab, index


def _ranked(hybrid: np.ndarray, id_order: np.ndarray) -> np.ndarray:
    """All indices, best hybrid first, ties by id."""
    return np.lexsort((id_order, -hybrid))


def _top_k(hybrid: np.ndarray, id_order: np.ndarray, k: int) -> np.ndarray:
    """Indices of the best ``k``, ranked; exact with ties (all tied at the cut are considered)."""
    n = hybrid.shape[0]
    if k <= 0 or n == 0:
        return np.zeros(0, dtype=np.int64)
    if k >= n:
        return _ranked(hybrid, id_order)
    cut = np.partition(hybrid, n - k)[n - k]
    candidates = np.flatnonzero(hybrid >= cut)
    order = np.lexsort((id_order[candidates], -hybrid[candidates]))
    return candidates[order[:k]]
