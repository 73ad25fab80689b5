"""Answerers: turn retrieved context into an answer (docs/metrics.md).

- :class:`ReaderAnswerer` (``reader``, ``--answerer reader``): a reference reader. From the retrieved
  items it answers with the one(s) that best match the question and, when two of them answer the
  same part of the question, only the more recent — so a store that keeps a stale value next to the
  current one can still be answered right, honestly.
- :class:`ExtractiveAnswerer` (``extractive``, the offline default and the baseline): the answer is the retrieved items
  themselves, in rank order, joined with " / " — at depth k all k of them, so a compound question is
  answered only as well as retrieval gathered its facts, and every stale or unrelated fact retrieved
  is in the answer too. No context -> "정보 없음".
  With unscored context (the full-context baseline passes whole documents) both split the documents
  into sentences first; the extractive answerer then keeps the ``MAX_ITEMS`` (5) sentences with the
  highest character-bigram recall of the question.
- :class:`LLMAnswerer`: a model via :meth:`ModelClient.text`; the context goes inside <facts> or
  <documents> tags and the system prompt (engine/prompts/answer.txt) says it is data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol, Sequence

from seorap.engine.config import Config
from seorap.engine.memory.sentences import split_sentences
from seorap.engine.scoring import lexical, prompts

NO_ANSWER = "정보 없음"
MAX_ITEMS = 5


class Answerer(Protocol):
    name: str

    def answer(self, question: str, context: Sequence[str], scores: Sequence[float] | None = None,
               *, kind: str = "facts", recency: Sequence[int] | None = None) -> str: ...


class ExtractiveAnswerer:
    """The baseline: every retrieved item, in rank order (with ranked context: all k of them)."""

    name = "extractive"

    def answer(self, question: str, context: Sequence[str], scores: Sequence[float] | None = None,
               *, kind: str = "facts", recency: Sequence[int] | None = None) -> str:
        items = list(context)
        if scores is None and kind == "documents":
            items = [s for text in items for s in split_sentences(text)]
        if not items:
            return NO_ANSWER
        limit = len(items)
        if scores is None:
            scores = [lexical.recall(question, text) for text in items]
            limit = MAX_ITEMS
        ranked = sorted(zip(scores, range(len(items))), key=lambda p: (-p[0], p[1]))
        chosen = [i for _, i in ranked[:limit]]
        return " / ".join(items[i] for i in chosen)


SAME_PART = 0.8
"""An older item is dropped when a more recent item contains at least this share of its matched
question weight: both answer the same part of the question, and the newer one wins."""


@dataclass(frozen=True)
class _Item:
    text: str
    rank: int
    recency: int
    matched: frozenset[str]
    """Question bigrams the item contains (only those that tell items apart, weight > 0)."""
    weight: float
    """Summed weight of ``matched``."""


def _same_part(older: _Item, newer: _Item, weight: dict[str, float]) -> bool:
    if older.weight <= 0:
        return False
    return sum(weight[b] for b in older.matched & newer.matched) >= SAME_PART * older.weight


class ReaderAnswerer:
    """The reference reader (deterministic, no model); rules in docs/metrics.md:

    1. Items = the retrieved facts in rank order (documents: their sentences; unranked context is
       ranked by rule 2's match, ties in text order). Recency = the arrival position of a fact's
       current version (documents: their order).
    2. A question bigram b weighs log(N / df(b)) (N items, df = items containing it): a word every
       item shares, such as the subject's name, weighs 0 and tells nothing. An item's match is the
       summed weight of the question bigrams it contains.
    3. Most recent first, an item is dropped when a strictly more recent item contains at least
       SAME_PART of its match: both answer the same part of the question, the newer one wins.
    4. The answer starts with the best-ranked remaining item (retrieval's pick, which also serves a
       paraphrased question that shares no word with any fact), then greedily adds the item whose
       not-yet-covered question bigrams weigh most (ties: more recent, then better ranked) while it
       adds any; at most MAX_ITEMS, in rank order, joined with " / ".
    """

    name = "reader"

    def answer(self, question: str, context: Sequence[str], scores: Sequence[float] | None = None,
               *, kind: str = "facts", recency: Sequence[int] | None = None) -> str:
        texts = list(context)
        ages = list(recency) if recency is not None else [0] * len(texts)
        ranks = list(scores) if scores is not None else [0.0] * len(texts)
        if kind == "documents":
            units = [(s, age, r) for text, age, r in zip(texts, ages, ranks) for s in split_sentences(text)]
            texts, ages, ranks = [u[0] for u in units], [u[1] for u in units], [u[2] for u in units]
        if not texts:
            return NO_ANSWER
        sets = [lexical.bigram_set(t) for t in texts]
        weight = {}
        for b in lexical.bigram_set(question):
            df = sum(1 for s in sets if b in s)
            if 0 < df < len(texts):
                weight[b] = math.log(len(texts) / df)
        matched = [frozenset(b for b in weight if b in s) for s in sets]
        match = [sum(weight[b] for b in m) for m in matched]
        key = (lambda i: (-ranks[i], i)) if scores is not None else (lambda i: (-match[i], i))
        items = [_Item(texts[i], rank, ages[i], matched[i], match[i])
                 for rank, i in enumerate(sorted(range(len(texts)), key=key))]
        remaining: list[_Item] = []
        for it in sorted(items, key=lambda it: (-it.recency, it.rank)):
            if not any(newer.recency > it.recency and _same_part(it, newer, weight) for newer in remaining):
                remaining.append(it)
        remaining.sort(key=lambda it: it.rank)
        chosen = [remaining.pop(0)]
        covered = set(chosen[0].matched)
        while remaining and len(chosen) < MAX_ITEMS:
            gain = {id(it): sum(weight[b] for b in it.matched - covered) for it in remaining}
            best = max(remaining, key=lambda it: (gain[id(it)], it.recency, -it.rank))
            if gain[id(best)] <= 0:
                break
            chosen.append(best)
            covered |= best.matched
            remaining.remove(best)
        return " / ".join(it.text for it in sorted(chosen, key=lambda it: it.rank))


class LLMAnswerer:
    def __init__(self, client, model: str, *, phase: str = "answer") -> None:
        self.client = client
        self.model = model
        self.phase = phase
        self.name = model

    def answer(self, question: str, context: Sequence[str], scores: Sequence[float] | None = None,
               *, kind: str = "facts", recency: Sequence[int] | None = None) -> str:
        messages = prompts.answer_messages(question, list(context), kind=kind)
        return self.client.text("answerer", self.model, messages, phase=self.phase).strip()


def make_answerer(config: Config, client=None) -> Answerer:
    model = config.models.answerer
    if model in OFFLINE:
        return OFFLINE[model]()
    if client is None:
        raise ValueError(f"answerer model {model!r} needs a ModelClient")
    return LLMAnswerer(client, model)


OFFLINE: dict[str, type[ReaderAnswerer] | type[ExtractiveAnswerer]] = {
    "reader": ReaderAnswerer, "extractive": ExtractiveAnswerer}
"""Offline answerers by the name used for ``models.answerer``."""
