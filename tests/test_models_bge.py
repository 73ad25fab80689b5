"""BGEM3Embedder through the real FlagEmbedding ``BGEM3FlagModel`` on a tiny offline XLM-R model.

Built as docs/design.md#dependency-facts describes (no weights, no network): a 2-layer XLMRobertaModel with
hidden size 32 and initializer_range=1.0 (with the default range every cosine is 1.0), a Unigram
tokenizer trained in memory wrapped as XLMRobertaTokenizerFast, and colbert/sparse linear heads.
Skips with the reason when FlagEmbedding or torch is not installed (``pip install "seorap[bge]"``).
"""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.slow

KO = [
    "주간 회의는 3월 5일 화요일로 연기되었다",
    "주간 회의가 3월 5일 화요일로 미뤄졌다",
    "점심 메뉴는 김치찌개와 계란말이였다",
    "서버 배포는 금요일 오후에 진행한다",
    "김민수 팀장이 예산안을 승인했다",
    "사무실 이전은 다음 달로 확정되었다",
]


def _require_flagembedding():
    try:
        import FlagEmbedding  # noqa: F401
        import torch  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - ImportError or transformers>=5 ModuleNotFoundError
        pytest.skip(
            f"FlagEmbedding/torch not importable ({type(exc).__name__}: {exc}); "
            f'install with `pip install torch==2.13.0` then `pip install "seorap[bge]"`'
        )


@pytest.fixture(scope="module")
def tiny_bge(tmp_path_factory):
    _require_flagembedding()
    import torch
    from tokenizers import (
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
        trainers,
    )
    from transformers import XLMRobertaConfig, XLMRobertaModel, XLMRobertaTokenizerFast

    path = tmp_path_factory.mktemp("tiny-bge-m3")
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    tok.train_from_iterator(
        KO * 4, trainers.UnigramTrainer(vocab_size=120, special_tokens=specials, unk_token="<unk>")
    )
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", 0), ("</s>", 2)],
    )
    fast = XLMRobertaTokenizerFast(
        tokenizer_object=tok,
        bos_token="<s>",
        eos_token="</s>",
        unk_token="<unk>",
        pad_token="<pad>",
        mask_token="<mask>",
        cls_token="<s>",
        sep_token="</s>",
    )
    fast.save_pretrained(path)
    torch.manual_seed(0)
    config = XLMRobertaConfig(
        vocab_size=max(len(fast), 128),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=514,
        pad_token_id=1,
        type_vocab_size=1,
        initializer_range=1.0,
    )
    XLMRobertaModel(config, add_pooling_layer=False).save_pretrained(path)
    torch.save(torch.nn.Linear(32, 32).state_dict(), path / "colbert_linear.pt")
    torch.save(torch.nn.Linear(32, 1).state_dict(), path / "sparse_linear.pt")
    return path


def test_bgem3_dense_vectors_from_the_real_flag_model(tiny_bge):
    from seorap.engine.models.embedders import BGEM3Embedder

    emb = BGEM3Embedder(str(tiny_bge), batch_size=4)
    vectors = emb.embed(KO)
    assert vectors.shape == (len(KO), 32) and vectors.dtype == np.float32 and emb.dim == 32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(
        emb.embed(KO[:2]), vectors[:2], atol=1e-5
    )  # deterministic, batch-independent
    cosines = vectors @ vectors.T
    assert cosines[np.triu_indices(len(KO), 1)].min() < 0.99  # not the degenerate all-1.0 model
    assert emb.name == f"bge-m3:{tiny_bge.name}"


def test_bgem3_sparse_lexical_weights(tiny_bge):
    from seorap.engine.models.embedders import BGEM3Embedder

    weights = BGEM3Embedder(str(tiny_bge)).lexical_weights(KO[:2])
    assert len(weights) == 2 and all(isinstance(w, dict) for w in weights)
    assert all(v >= 0 for w in weights for v in w.values())


def test_make_embedder_builds_bge_from_config_and_caches(tiny_bge):
    from seorap.engine.config import Config
    from seorap.engine.models.embedders import CachedEmbedder, make_embedder
    from seorap.engine.store.database import open_db

    db = open_db(None)
    emb = make_embedder(Config().with_overrides({"models.embedder": str(tiny_bge)}), db)
    assert isinstance(emb, CachedEmbedder)
    first = emb.embed(KO[:3])
    second = emb.embed(KO[:3])
    assert np.array_equal(first, second) and emb.hits == 3 and emb.misses == 3
