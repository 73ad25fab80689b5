"""HybridIndex: hand-computed scores, weights, ties, edge cases (engine/retrieval/hybrid.py)."""

import math
import random

import numpy as np
import pytest

from seorap.engine.retrieval.hybrid import HybridIndex
from seorap.engine.retrieval.tokenize import bigram_tokens

# Tiny index. Bigram tokens: a = [가람, 상사], b = [가람], c = [회의]; N = 3, avgdl = 4/3.
IDS = ["b", "a", "c"]
TEXTS = ["가람", "가람 상사", "회의"]
VECS = np.array([[0.0, 2.0], [3.0, 0.0], [1.0, 1.0]])
IDF = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))  # df(가람) = 2
BM25_A = IDF * 1 / (1 + 1.5 * (0.25 + 0.75 * 2 / (4 / 3)))  # |a| = 2
BM25_B = IDF * 1 / (1 + 1.5 * (0.25 + 0.75 * 1 / (4 / 3)))  # |b| = 1


def by_id(hits):
    return {h.fact_id: h for h in hits}


def test_hand_computed_scores():
    hits = by_id(HybridIndex(IDS, TEXTS, VECS).explain("가람", np.array([1.0, 0.0])))
    assert hits["a"].bm25 == pytest.approx(BM25_A, rel=1e-5)
    assert hits["b"].bm25 == pytest.approx(BM25_B, rel=1e-5)
    assert hits["c"].bm25 == 0
    assert hits["b"].bm25_norm == pytest.approx(1.0)
    assert hits["a"].bm25_norm == pytest.approx(BM25_A / BM25_B, rel=1e-5)  # 0.72449
    assert hits["a"].dense == pytest.approx(1.0)
    assert hits["b"].dense == pytest.approx(0.0, abs=1e-7)
    assert hits["c"].dense == pytest.approx(1 / math.sqrt(2))
    assert hits["a"].hybrid == pytest.approx(0.3 * 0.7244898 + 0.7, rel=1e-5)
    assert hits["b"].hybrid == pytest.approx(0.3)
    assert hits["c"].hybrid == pytest.approx(0.7 / math.sqrt(2))
    assert [(h.fact_id, h.rank) for h in sorted(hits.values(), key=lambda h: h.rank)] == [
        ("a", 1),
        ("c", 2),
        ("b", 3),
    ]


def test_weights_are_configurable():
    index = HybridIndex(IDS, TEXTS, VECS, bm25_weight=1.0, dense_weight=0.0)
    hits = index.explain("가람", np.array([1.0, 0.0]))
    assert [h.fact_id for h in hits] == ["b", "a", "c"]
    assert hits[0].hybrid == pytest.approx(1.0)
    assert hits[1].hybrid == pytest.approx(BM25_A / BM25_B, rel=1e-5)


def test_from_settings_reads_weights_from_dict_or_object():
    class Settings:
        bm25_weight = 0.5
        dense_weight = 0.5
        tokenizer = "bigram"
        top_k = 5

    for settings in ({"bm25_weight": 0.5, "dense_weight": 0.5}, Settings()):
        index = HybridIndex.from_settings(IDS, TEXTS, VECS, settings)
        hit = by_id(index.explain("가람", np.array([1.0, 0.0])))["b"]
        assert hit.hybrid == pytest.approx(0.5)


def test_search_is_top_k_of_explain():
    index = HybridIndex(IDS, TEXTS, VECS)
    q = np.array([1.0, 0.0])
    assert index.search("가람", q, k=2) == index.explain("가람", q)[:2]
    assert len(index.search("가람", q, k=10)) == 3
    assert index.search("가람", q, k=0) == []


def test_ties_are_broken_by_id_not_insertion_order():
    ids = ["z", "y", "m", "x"]
    texts = ["같은 글", "같은 글", "다른 말", "같은 글"]
    vecs = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    index = HybridIndex(ids, texts, vecs)
    q = np.array([1.0, 0.0])
    assert [h.fact_id for h in index.explain("같은 글", q)] == ["x", "y", "z", "m"]
    assert [h.fact_id for h in index.search("같은 글", q, k=2)] == ["x", "y"]
    assert [h.rank for h in index.explain("같은 글", q)] == [1, 2, 3, 4]


def test_query_with_no_shared_token_gives_zero_bm25():
    hits = HybridIndex(IDS, TEXTS, VECS).explain("완전히 무관", np.array([0.0, 1.0]))
    assert all(h.bm25 == 0 and h.bm25_norm == 0 for h in hits)
    assert hits[0].fact_id == "b" and hits[0].hybrid == pytest.approx(0.7)


def test_empty_query_and_zero_vector():
    hits = HybridIndex(IDS, TEXTS, VECS).explain("", np.zeros(2))
    assert [h.fact_id for h in hits] == ["a", "b", "c"]  # all zero: id order
    assert all(h.hybrid == 0 for h in hits)


def test_no_query_vector_means_bm25_only_contribution():
    hits = by_id(HybridIndex(IDS, TEXTS, VECS).explain("가람", None))
    assert hits["b"].dense == 0 and hits["b"].hybrid == pytest.approx(0.3)


def test_empty_index():
    index = HybridIndex([], [], np.zeros((0, 4)))
    assert len(index) == 0
    assert index.search("가람", np.ones(4)) == []
    assert index.explain("", np.ones(4)) == []


def test_index_of_facts_without_tokens():
    index = HybridIndex(["a", "b"], ["", "!!"], np.eye(2))
    hits = index.search("가람", np.array([0.0, 1.0]))
    assert [h.fact_id for h in hits] == ["b", "a"]


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="unique"):
        HybridIndex(["a", "a"], ["x", "y"], np.eye(2))
    with pytest.raises(ValueError, match="texts"):
        HybridIndex(["a"], ["x", "y"], np.eye(2))
    with pytest.raises(ValueError, match="matrix"):
        HybridIndex(["a", "b"], ["x", "y"], np.eye(3))
    with pytest.raises(ValueError, match="dimensions"):
        HybridIndex(["a", "b"], ["x", "y"], np.eye(2)).search("x", np.ones(3))


def reference_bm25(docs, query):
    """Textbook Lucene BM25 written out with Python loops (independent of bm25s)."""
    n = len(docs)
    avgdl = sum(len(d) for d in docs) / n
    scores = []
    for doc in docs:
        total = 0.0
        for token in query:
            df = sum(1 for d in docs if token in d)
            tf = doc.count(token)
            if df == 0 or tf == 0:
                continue
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            total += idf * tf / (tf + 1.5 * (1 - 0.75 + 0.75 * len(doc) / avgdl))
        scores.append(total)
    return scores


def random_corpus(seed, n=120, dim=8):
    rng = random.Random(seed)
    words = ["가람", "상사", "데이터", "이전", "회의", "예산", "월", "오로라", "계획", "DB"]
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 6))) for _ in range(n)]
    ids = [f"f{rng.randint(0, 10**6):07d}-{i}" for i in range(n)]
    vecs = np.array([[rng.choice([0.0, 1.0]) for _ in range(dim)] for _ in range(n)])
    return ids, texts, vecs


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_matches_an_independent_implementation(seed):
    ids, texts, vecs = random_corpus(seed)
    query, qvec = "가람상사 데이터 이전 계획", np.ones(8)
    expected = reference_bm25([bigram_tokens(t) for t in texts], bigram_tokens(query))
    top = max(expected)
    cos = vecs @ qvec / np.maximum(np.linalg.norm(vecs, axis=1) * np.linalg.norm(qvec), 1e-12)
    hybrid = [0.3 * (e / top) + 0.7 * c for e, c in zip(expected, cos)]
    hits = by_id(HybridIndex(ids, texts, vecs).explain(query, qvec))
    for i, fact_id in enumerate(ids):
        assert hits[fact_id].bm25 == pytest.approx(expected[i], rel=1e-4, abs=1e-6)
        assert hits[fact_id].hybrid == pytest.approx(hybrid[i], rel=1e-4, abs=1e-6)


@pytest.mark.parametrize("k", [1, 3, 5, 17, 119, 120, 500])
def test_top_k_equals_ranked_prefix_even_with_many_ties(k):
    ids, texts, vecs = random_corpus(7)  # binary vectors and short texts: many exact ties
    index = HybridIndex(ids, texts, vecs)
    assert index.search("가람 월", np.ones(8), k=k) == index.explain("가람 월", np.ones(8))[:k]


def test_kiwi_option_matches_across_particles():
    pytest.importorskip("kiwipiepy", reason="kiwipiepy not installed")
    index = HybridIndex(
        ["a", "b"], ["데이터베이스를 이전했다", "예산이 늘었다"], np.eye(2), tokenizer="kiwi"
    )
    hits = by_id(index.explain("데이터베이스가 이전되나요", None))
    assert hits["a"].bm25 > 0 and hits["b"].bm25 == 0
    assert hits["a"].rank == 1
