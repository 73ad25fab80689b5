"""Benchmark (a): one hybrid query over 10,000 facts — ours vs a naive rank-bm25 + numpy version.

    python bench/retrieval.py [--facts 10000] [--queries 200] [--dim 512]

Both compute the same score (0.3 · BM25/max + 0.7 · cosine, Lucene BM25 over character bigrams) and
the script checks that their top-5 rankings agree before timing them.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from _common import fact_texts, machine, per_call_ms

from seorap.engine.retrieval.hybrid import HybridIndex  # noqa: E402
from seorap.engine.retrieval.tokenize import bigram_tokens  # noqa: E402


class NaiveHybrid:
    """What one would write first: rank_bm25 (per-token Python loop over documents) + numpy cosine
    over the raw matrix, then a full Python sort."""

    def __init__(self, ids, texts, vectors, bm25_weight=0.3, dense_weight=0.7):
        from rank_bm25 import BM25

        class LuceneBM25(BM25):
            def __init__(self, corpus):
                super().__init__(corpus, tokenizer=None)

            def _calc_idf(self, nd):
                n = self.corpus_size
                self.idf = {t: math.log(1 + (n - df + 0.5) / (df + 0.5)) for t, df in nd.items()}

            def get_scores(self, query):
                score = np.zeros(self.corpus_size)
                doc_len = np.array(self.doc_len)
                for q in query:
                    q_freq = np.array([(doc.get(q) or 0) for doc in self.doc_freqs])
                    score += self.idf.get(q, 0.0) * (
                        q_freq / (q_freq + 1.5 * (1 - 0.75 + 0.75 * doc_len / self.avgdl))
                    )
                return score

        self.ids, self.texts = ids, texts
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.bm25 = LuceneBM25([bigram_tokens(t) or [""] for t in texts])
        self.w = (bm25_weight, dense_weight)

    def search(self, query, query_vec, k=5):
        bm25 = self.bm25.get_scores(bigram_tokens(query))
        top = bm25.max()
        norm = bm25 / top if top > 0 else np.zeros_like(bm25)
        q = np.asarray(query_vec, dtype=np.float32)
        dense = (
            self.vectors @ q / (np.linalg.norm(self.vectors, axis=1) * np.linalg.norm(q) + 1e-12)
        )
        hybrid = self.w[0] * norm + self.w[1] * dense
        order = sorted(range(len(self.ids)), key=lambda i: (-hybrid[i], self.ids[i]))
        return [(self.ids[i], float(hybrid[i])) for i in order[:k]]


def embedder(dim: int):
    from seorap.engine.models.embedders import HashingEmbedder

    return HashingEmbedder(dim=dim)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--naive-queries", type=int, default=20)
    parser.add_argument("--dim", type=int, default=512)
    args = parser.parse_args()

    print(machine())
    texts, questions = fact_texts(args.facts)
    ids = [f"fact-{i:06d}" for i in range(len(texts))]
    emb = embedder(args.dim)
    start = time.perf_counter()
    vectors = emb.embed(texts)
    print(
        f"facts: {len(texts)}, embedder {emb.name}, embedding took {time.perf_counter() - start:.2f} s"
    )
    queries = [(q, emb.embed([q])[0]) for q in questions[: args.queries]]

    import bm25s  # noqa: F401  (import once, outside the timed build)

    start = time.perf_counter()
    ours = HybridIndex(ids, texts, vectors)
    print(f"ours:  index build {1000 * (time.perf_counter() - start):.0f} ms")
    start = time.perf_counter()
    naive = NaiveHybrid(ids, texts, vectors)
    print(f"naive: index build {1000 * (time.perf_counter() - start):.0f} ms")

    agree = sum(
        [h.fact_id for h in ours.search(q, v)] == [i for i, _ in naive.search(q, v)]
        for q, v in queries[: args.naive_queries]
    )
    print(f"top-5 agreement on {args.naive_queries} queries: {agree}/{args.naive_queries}")

    ours_med, ours_p95 = per_call_ms(ours.search, queries, repeat=3)
    naive_med, naive_p95 = per_call_ms(naive.search, queries[: args.naive_queries])
    explain_med, _ = per_call_ms(ours.explain, queries[:20])
    print(f"ours   search: median {ours_med:.3f} ms, p95 {ours_p95:.3f} ms per query")
    print(f"naive  search: median {naive_med:.1f} ms, p95 {naive_p95:.1f} ms per query")
    print(f"ratio naive/ours (median): {naive_med / ours_med:.0f}x")
    print(
        f"ours  explain (all {len(texts)} candidates as Hit objects): median {explain_med:.1f} ms"
    )
    print(f"target: one query over 10,000 facts <= 5 ms -> {'MET' if ours_p95 <= 5 else 'NOT MET'}")


if __name__ == "__main__":
    main()
