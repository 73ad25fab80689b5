"""The Korean BM25 tokenizers (engine/retrieval/tokenize.py)."""

import subprocess
import sys

import pytest

from seorap.engine.retrieval.tokenize import (
    bigram_tokens,
    bigrams,
    get_tokenizer,
    tokenize_many,
    words,
)


def test_bigrams_of_a_korean_word():
    assert bigrams("가람상사") == ["가람", "람상", "상사"]


def test_single_character_token_is_kept():
    assert bigram_tokens("월 예산") == ["월", "예산"]


def test_bigrams_do_not_cross_spaces():
    assert bigram_tokens("가람 상사") == ["가람", "상사"]


def test_lowercase_and_punctuation_stripped():
    assert bigram_tokens("Aurora, DB!") == ["au", "ur", "ro", "or", "ra", "db"]
    assert words("PostgreSQL 14(약 3TB)를") == ["postgresql", "14", "약", "3tb", "를"]


def test_punctuation_splits_tokens():
    assert words("Aurora/AlloyDB") == ["aurora", "alloydb"]
    assert bigram_tokens("1.2M") == ["1", "2m"]


def test_empty_and_punctuation_only():
    assert bigram_tokens("") == []
    assert bigram_tokens("  ...!?  ") == []


def test_get_tokenizer_rejects_unknown():
    with pytest.raises(ValueError, match="unknown tokenizer"):
        get_tokenizer("whitespace")


def test_importing_retrieval_does_not_import_kiwi():
    code = (
        "import sys, numpy as np\n"
        "from seorap.engine.retrieval.hybrid import HybridIndex\n"
        "HybridIndex(['a'], ['가람상사'], np.ones((1, 2))).search('가람', np.ones(2))\n"
        "assert 'kiwipiepy' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.fixture(scope="module")
def kiwi():
    pytest.importorskip("kiwipiepy", reason="kiwipiepy not installed (pip install 'seorap[kiwi]')")
    return get_tokenizer("kiwi")


def test_kiwi_keeps_content_morphemes_and_drops_particles(kiwi):
    tokens = kiwi("가람상사는 데이터베이스를 Aurora로 이전했다.")
    assert "데이터" in tokens and "베이스" in tokens
    assert "aurora" in tokens
    assert "이전" in tokens
    assert "를" not in tokens and "는" not in tokens and "." not in tokens


def test_kiwi_batch_matches_single(kiwi):
    texts = ["월 120만 원으로 올랐다", "세미나는 온라인 웨비나로 바뀌었다", ""]
    assert tokenize_many(texts, "kiwi") == [kiwi(t) for t in texts]


def test_memoised_tokens_are_fresh_lists():
    first = bigram_tokens("가람상사")
    first.append("zz")
    assert bigram_tokens("가람상사") == ["가람", "람상", "상사"]


def test_bigram_set():
    from seorap.engine.retrieval.tokenize import bigram_set

    assert bigram_set("가람 가람 상사") == frozenset({"가람", "상사"})


def test_long_texts_are_tokenized_the_same_without_memo():
    from seorap.engine.retrieval.tokenize import MEMO_MAX_CHARS, bigram_set

    long_text = "가람상사 데이터베이스 " * (MEMO_MAX_CHARS // 5)
    assert len(long_text) > MEMO_MAX_CHARS
    assert bigram_tokens(long_text)[:4] == ["가람", "람상", "상사", "데이"]
    assert bigram_set(long_text) == frozenset(bigram_tokens("가람상사 데이터베이스"))
