"""Answerers: turn retrieved context into an answer (docs/metrics.md).

- :class:`ReaderAnswerer` (``reader``, ``--answerer reader``): a reference reader. From the retrieved
  items it answers with the one(s) that best match the question and, when two of them answer the
  same part of the question, only the more recent — so a store that keeps a stale value next to the
  current one can still be answered right, honestly — and of each, only the clauses that hold what
  the question asks (with their subject), so a full-accounting judge can credit the answer.
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
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from seorap.engine.config import Config
from seorap.engine.memory.sentences import split_sentences
from seorap.engine.scoring import lexical, prompts
from seorap.engine.scoring.glossary import Glossary

if TYPE_CHECKING:
    from seorap.engine.models.client import ModelClient

NO_ANSWER = "정보 없음"
MAX_ITEMS = 5


class Answerer(Protocol):
    name: str

    def answer(
        self,
        question: str,
        context: Sequence[str],
        scores: Sequence[float] | None = None,
        *,
        kind: str = "facts",
        recency: Sequence[int] | None = None,
    ) -> str: ...


class ExtractiveAnswerer:
    """The baseline: every retrieved item, in rank order (with ranked context: all k of them)."""

    name = "extractive"

    def answer(
        self,
        question: str,
        context: Sequence[str],
        scores: Sequence[float] | None = None,
        *,
        kind: str = "facts",
        recency: Sequence[int] | None = None,
    ) -> str:
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


MONEY = frozenset({"원", "달러", "유로", "엔"})
PERCENT = frozenset({"%", "%p"})
FREQUENCY = frozenset({"회"})
DURATION = frozenset({"년", "개월", "주", "일", "시간", "분", "초"})
WHEN = frozenset({"date", "month", "weekday", "year", "분기"})
CLOCK = frozenset({"time"})
NOT_AMOUNTS = WHEN | CLOCK | {"name"}
_UNIT = "|".join(sorted((re.escape(u) for u in lexical._UNITS), key=len, reverse=True))
ASKS: tuple[tuple[str, re.Pattern[str], frozenset[str] | None], ...] = (
    ("clock", re.compile(r"몇\s*시(?!간)"), CLOCK),
    ("counter", re.compile(rf"몇\s*({_UNIT})"), None),
    ("frequency", re.compile(r"자주|주기|몇\s*번"), FREQUENCY),
    ("percent", re.compile(r"비율|[가-힣]율|퍼센트|%"), PERCENT),
    ("duration", re.compile(r"얼마\s*동안|얼마나\s*오래|기간"), DURATION),
    ("money", re.compile(r"금액|비용|요금(?!제)|이용료|가격|지출|예산|얼마를\s*내"), MONEY),
    ("when", re.compile(r"언제|며칠|날짜|일자|시점|마감일|기한|몇\s*월"), WHEN | CLOCK),
)
"""Question words that ask for a typed value, and the value types that answer them
(docs/metrics.md, reader rule 2). ``counter``: the counter after 몇 (몇 명 -> 명)."""


def asked_types(question: str) -> dict[str, frozenset[str]]:
    """{ask: value types} for each kind of value the question asks for; a bare 얼마 (no money,
    percentage or duration word) asks for any amount."""
    out: dict[str, frozenset[str]] = {}
    for name, pattern, types in ASKS:
        for m in pattern.finditer(question):
            if types is None:
                unit = lexical._UNIT_ALIASES.get(m[1].lower(), m[1].lower())
                out[f"{name}:{unit}"] = frozenset({unit})
            else:
                out[name] = types
    if "얼마" in question and not out.keys() & {"percent", "duration", "money", "frequency"}:
        out["amount"] = frozenset()
    return out


def _typed(text: str, asks: dict[str, frozenset[str]]) -> set[str]:
    """The ask tokens ``text`` answers: ``⟨ask⟩`` for each ask one of its values fills."""
    types = {v.type for v in lexical.values(text) if not v.former}
    return {
        f"⟨{name}⟩"
        for name, want in asks.items()
        if (types & want if want else types - NOT_AMOUNTS)
    }


def _said(text: str) -> str:
    """``text`` without the subject of each clause (the words before its 은/는 topic particle)."""
    a = lexical.analyse(text)
    cut = [(seg.start, seg.topic_end) for seg in a.segments if seg.topic_end is not None]
    return "".join(ch for i, ch in enumerate(text) if not any(x <= i < y for x, y in cut))


_COMPOUND = re.compile(r",|[가-힣](?:며|고|하고|이며|이고|과|와)\s|그리고|및")
"""A question asking several things (…하고, …이며, a comma): each item may answer another part."""


def _greedy(remaining: list[_Item], weight: dict[str, float], single: bool) -> list[_Item]:
    """Rule 4: the best-ranked item, then the item adding the most uncovered weight while one
    adds any (``single``: a question asking one thing, counted past each item's subject)."""
    chosen = [remaining.pop(0)]
    covered = set(chosen[0].matched)
    while remaining and len(chosen) < MAX_ITEMS:
        # one slot asked: an item is added for what it says, not for naming the subject
        gain = {
            id(it): math.fsum(weight[b] for b in (it.slot if single else it.matched) - covered)
            for it in remaining
        }
        best = max(remaining, key=lambda it: (gain[id(it)], it.recency, -it.rank))
        if gain[id(best)] <= 0:
            break
        chosen.append(best)
        covered |= best.matched
        remaining.remove(best)
    return chosen


def _single(question: str, asks: dict[str, frozenset[str]]) -> bool:
    """Does the question ask for one thing (no comma, no …하고/…이며 joining two asks)?"""
    return len(asks) <= 1 and not _COMPOUND.search(question)


def _holding(chosen: list[_Item], question: str, asks: dict[str, frozenset[str]]) -> list[_Item]:
    """The items that hold the asked slot: for a question asking one kind of value and nothing
    else, those answering that kind (when any does); otherwise all of them."""
    if len(asks) != 1 or not _single(question, asks):
        return chosen
    token = f"⟨{next(iter(asks))}⟩"
    holding = [it for it in chosen if token in it.slot]
    return holding or chosen


def clauses_of(text: str) -> list[str]:
    """``text`` cut into the lexical judge's clauses (at , . ; / and after a joining …고/…며); a
    clause without a subject of its own (no 은/는) that goes on from a joining ending takes the
    subject of the clause it continues ("가람상사는 … 운영하고 약 3TB를 쓴다" -> "가람상사는 약
    3TB를 쓴다"); one with its own ("… 운영하고 용량은 약 3TB") keeps its own."""
    a = lexical.analyse(text)
    out = []
    for i, seg in enumerate(a.segments):
        clause = text[seg.start : seg.end].strip()
        subject = _continued_subject(a, i)
        out.append(f"{subject} {clause}" if subject else clause)
    return [c for c in out if c]


JOINING = frozenset({"고", "며", "으며", "면서", "으면서"})
"""Connective endings after which the next clause goes on with the same subject."""


def _continued_subject(a: lexical.Analysis, i: int) -> str:
    """The subject (the words up to its 은/는) of the clause that segment ``i`` continues after a
    joining ending, when segment ``i`` has none of its own; "" otherwise."""
    segments = a.segments
    if segments[i].topic_end is not None:
        return ""
    for j in range(i - 1, -1, -1):
        last = [m for m in a.morphs if segments[j].start <= m.start < segments[j].end][-1:]
        if not last or last[0].tag != "EC" or last[0].form not in JOINING:
            return ""
        end = segments[j].topic_end
        if end is not None:
            return a.text[segments[j].start : end].strip()
    return ""


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
    slot: frozenset[str] = frozenset()
    """The parts of ``matched`` the item holds past its subject (after each clause's 은/는) and the
    kinds of value it answers: what it says, not what it is about."""


def _same_part(older: _Item, newer: _Item, weight: dict[str, float]) -> bool:
    if older.weight <= 0:
        return False
    return math.fsum(weight[b] for b in older.matched & newer.matched) >= SAME_PART * older.weight


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
       adds any — for a question asking one thing, counting only the parts it holds past its
       subject (after its 은/는) and the kinds of value it answers, so a fact is not added for
       naming the question's subject; at most MAX_ITEMS, in rank order, joined with " / ". A
       question asking one kind of value and nothing else (no comma, no …하고/…이며/…과) is
       answered by the items holding that kind only.
    5. Each chosen item is said by its clauses that hold what the question asks (the lexical
       judge's clauses, each with its subject; :func:`clauses_of`): rules 2 and 4 over the item's
       clauses (weights over its clauses; a clause is counted for a typed value only past its
       subject; the first clause is the best-matching one), so a merged fact or a long sentence
       answers with "이사 비용은 680만 원", not with every claim beside it. An item whose
       clauses nothing tells apart is said whole.
    """

    name = "reader"

    def __init__(self, glossary: Glossary | None = None) -> None:
        self.glossary = glossary or Glossary()
        """Same-meaning names: an item and the question are matched with every alias read as its
        first name (the answer keeps the item's own words)."""

    def _read(self, text: str) -> str:
        return self.glossary.apply(text)[0] if self.glossary else text

    def answer(
        self,
        question: str,
        context: Sequence[str],
        scores: Sequence[float] | None = None,
        *,
        kind: str = "facts",
        recency: Sequence[int] | None = None,
    ) -> str:
        texts = list(context)
        ages = list(recency) if recency is not None else [0] * len(texts)
        ranks = list(scores) if scores is not None else [0.0] * len(texts)
        if kind == "documents":
            units = [
                (s, age, r)
                for text, age, r in zip(texts, ages, ranks)
                for s in split_sentences(text)
            ]
            texts, ages, ranks = [u[0] for u in units], [u[1] for u in units], [u[2] for u in units]
        if not texts:
            return NO_ANSWER
        asks = asked_types(question)
        read = [self._read(t) for t in texts]
        sets = [lexical.bigram_set(t) | _typed(t, asks) for t in read]
        weight = {}
        asked = lexical.bigram_set(self._read(question)) | {f"⟨{name}⟩" for name in asks}
        for b in sorted(asked):
            df = sum(1 for s in sets if b in s)
            if 0 < df < len(texts):
                weight[b] = math.log(len(texts) / df)
        matched = [frozenset(b for b in weight if b in s) for s in sets]
        match = [math.fsum(weight[b] for b in m) for m in matched]
        key = (lambda i: (-ranks[i], i)) if scores is not None else (lambda i: (-match[i], i))
        slots = [
            m & (lexical.bigram_set(_said(t)) | _typed(t, asks)) for m, t in zip(matched, read)
        ]
        items = [
            _Item(texts[i], rank, ages[i], matched[i], match[i], slots[i])
            for rank, i in enumerate(sorted(range(len(texts)), key=key))
        ]
        remaining: list[_Item] = []
        for it in sorted(items, key=lambda it: (-it.recency, it.rank)):
            if not any(
                newer.recency > it.recency and _same_part(it, newer, weight) for newer in remaining
            ):
                remaining.append(it)
        remaining.sort(key=lambda it: it.rank)
        chosen = _greedy(remaining, weight, _single(question, asks))
        return " / ".join(
            self._clauses(question, asks, it.text)
            for it in sorted(_holding(chosen, question, asks), key=lambda it: it.rank)
        )

    def _clauses(self, question: str, asks: dict[str, frozenset[str]], text: str) -> str:
        """Rule 5: the clauses of one chosen item that hold what the question asks, each with its
        subject, in the item's order joined with ", "; the item whole when nothing tells its
        clauses apart (every question part in all of them or in none)."""
        clauses = clauses_of(text)
        if len(clauses) < 2:
            return text
        read = [self._read(c) for c in clauses]
        said = [_said(c) for c in read]
        # a value in a clause's subject names what it is about, not what it answers
        sets = [lexical.bigram_set(c) | _typed(x, asks) for c, x in zip(read, said)]
        asked = lexical.bigram_set(self._read(question)) | {f"⟨{name}⟩" for name in asks}
        weight = {}
        for b in sorted(asked):
            df = sum(1 for s in sets if b in s)
            if 0 < df < len(clauses):
                weight[b] = math.log(len(clauses) / df)
        if not weight:
            return text
        matched = [frozenset(b for b in weight if b in s) for s in sets]
        match = [math.fsum(weight[b] for b in m) for m in matched]
        slots = [m & (lexical.bigram_set(x) | _typed(x, asks)) for m, x in zip(matched, said)]
        units = [
            _Item(clauses[i], i, 0, matched[i], match[i], slots[i])
            for i in sorted(range(len(clauses)), key=lambda i: (-match[i], i))
        ]
        chosen = _holding(_greedy(units, weight, _single(question, asks)), question, asks)
        return ", ".join(it.text for it in sorted(chosen, key=lambda it: it.rank))


class LLMAnswerer:
    def __init__(self, client: ModelClient, model: str, *, phase: str = "answer") -> None:
        self.client = client
        self.model = model
        self.phase = phase
        self.name = model

    def answer(
        self,
        question: str,
        context: Sequence[str],
        scores: Sequence[float] | None = None,
        *,
        kind: str = "facts",
        recency: Sequence[int] | None = None,
    ) -> str:
        messages = prompts.answer_messages(question, list(context), kind=kind)
        return self.client.text("answerer", self.model, messages, phase=self.phase).strip()


def make_answerer(
    config: Config, client: ModelClient | None = None, *, glossary: Glossary | None = None
) -> Answerer:
    model = config.models.answerer
    if model == "reader":
        return ReaderAnswerer(glossary)
    if model in OFFLINE:
        return OFFLINE[model]()
    if client is None:
        raise ValueError(f"answerer model {model!r} needs a ModelClient")
    return LLMAnswerer(client, model)


OFFLINE: dict[str, type[ReaderAnswerer] | type[ExtractiveAnswerer]] = {
    "reader": ReaderAnswerer,
    "extractive": ExtractiveAnswerer,
}
"""Offline answerers by the name used for ``models.answerer``."""
