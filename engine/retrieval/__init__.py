"""The read path: hybrid retrieval (BM25 + dense) and the Korean tokenizers behind its BM25."""
