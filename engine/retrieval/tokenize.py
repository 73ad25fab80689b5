"""Tokenizers for BM25 over Korean text (docs/design.md#read-path-and-models).

``bigram`` (default, the reference study's choice):
  1. lowercase;
  2. every character that is not a letter or digit (punctuation, symbols, ``_``) becomes a space;
  3. split on whitespace;
  4. each token of two or more characters yields its overlapping character bigrams
     (``가람상사`` -> ``가람 람상 상사``); a one-character token is kept as is (``월`` -> ``월``).

  Bigrams never cross a space, so ``가람 상사`` gives ``가람 상사`` but not ``람상``.

``words``: steps 1-3 above, the words themselves: what retrieval uses on a corpus declared in
  another language than Korean (``for_language``), whichever of the two above is configured.

``kiwi`` (kiwipiepy, a core dependency since the lexical judge uses it): kiwipiepy morphemes, keeping content
  morphemes only (nouns, numerals, foreign words, numbers, verb and adjective stems, roots,
  general adverbs), lowercased. Particles and endings are dropped, so ``예산이`` and
  ``예산을`` share ``예산``. kiwipiepy is imported on first use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from seorap.engine.errors import UsageError

if TYPE_CHECKING:
    from kiwipiepy import Kiwi

TOKENIZERS = ("bigram", "kiwi", "words")

KOREAN_TOKENIZERS = ("bigram", "kiwi")
"""Tokenizers made for Korean: on a corpus declared in another language, retrieval uses ``words``."""

_NOT_WORD = re.compile(r"[\W_]+")

# Kiwi part-of-speech tags kept by the ``kiwi`` tokenizer (Sejong tag set as used by kiwipiepy).
CONTENT_TAGS = frozenset(
    {"NNG", "NNP", "NNB", "NR", "NP", "SL", "SN", "SH", "VV", "VA", "XR", "MAG"}
)


def words(text: str) -> list[str]:
    """Lowercased whitespace tokens with punctuation and symbols removed."""
    return _NOT_WORD.sub(" ", text.lower()).split()


def bigrams(word: str) -> list[str]:
    """Overlapping character bigrams of one token; a one-character token stays whole."""
    if len(word) < 2:
        return [word] if word else []
    return [word[i : i + 2] for i in range(len(word) - 1)]


MEMO_MAX_CHARS = 512
"""Texts up to this length (facts, claims, questions) are memoised; longer ones (documents) are not,
so the cache stays small (at most 65,536 short texts)."""


def bigram_tokens(text: str) -> list[str]:
    """The ``bigram`` tokenizer (see the module docstring). Short texts are memoised (scoring
    re-tokenizes the same claims and facts many times); each call returns a fresh list."""
    if len(text) > MEMO_MAX_CHARS:
        return list(_bigram_tokens(text))
    return list(_bigram_tuple(text))


def bigram_set(text: str) -> frozenset[str]:
    """The distinct bigram tokens of ``text`` (memoised; for overlap measures such as token F1)."""
    if len(text) > MEMO_MAX_CHARS:
        return frozenset(_bigram_tokens(text))
    return _bigram_frozenset(text)


def _bigram_tokens(text: str) -> tuple[str, ...]:
    tokens: list[str] = []
    for word in words(text):
        tokens.extend(bigrams(word))
    return tuple(tokens)


_bigram_tuple = lru_cache(maxsize=1 << 16)(_bigram_tokens)


@lru_cache(maxsize=1 << 16)
def _bigram_frozenset(text: str) -> frozenset[str]:
    return frozenset(_bigram_tuple(text))


@lru_cache(maxsize=1)
def _kiwi() -> Kiwi:
    try:
        # start-up: kiwipiepy loads only when this runs
        from kiwipiepy import Kiwi
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError(
            "the kiwi tokenizer needs kiwipiepy: pip install 'seorap[kiwi]' (or pip install kiwipiepy)"
        ) from exc
    return Kiwi()


def kiwi_tokens(text: str) -> list[str]:
    """The ``kiwi`` tokenizer: content morphemes, lowercased (see the module docstring)."""
    if not text.strip():
        return []
    return [t.form.lower() for t in _kiwi().tokenize(text) if t.tag in CONTENT_TAGS]


def kiwi_tokens_many(texts: list[str]) -> list[list[str]]:
    """Tokenize many texts with kiwi in one batch call (faster than one call per text)."""
    if not texts:
        return []
    results = _kiwi().tokenize(texts)
    return [[t.form.lower() for t in tokens if t.tag in CONTENT_TAGS] for tokens in results]


def for_language(name: str, language: str | None) -> str:
    """The tokenizer to use on a corpus declared in ``language``: the configured one on Korean (or
    when no language is known), ``words`` on any other (character bigrams of English words match
    fragments such as ``th`` and ``he`` across unrelated words; kiwi reads Korean morphemes)."""
    if language is None or language == "ko" or name not in KOREAN_TOKENIZERS:
        return name
    return "words"


def get_tokenizer(name: str) -> Callable[[str], list[str]]:
    """Look a tokenizer up by name: ``bigram``, ``kiwi`` or ``words``."""
    if name == "words":
        return words
    if name == "bigram":
        return bigram_tokens
    if name == "kiwi":
        return kiwi_tokens
    raise UsageError(f"unknown tokenizer {name!r}; choose one of {', '.join(TOKENIZERS)}")


def tokenize_many(texts: list[str], name: str = "bigram") -> list[list[str]]:
    """Tokenize a list of texts with the named tokenizer."""
    if name == "kiwi":
        return kiwi_tokens_many(list(texts))
    tokenize = get_tokenizer(name)
    return [tokenize(text) for text in texts]
