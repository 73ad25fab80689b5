"""Sentences of courtesy (since lexical-19; docs/metrics.md): an answer that closes with an offer,
an invitation or a wish ("궁금한 거 있으시면 편하게 물어보세요.", "편하실 때 언제든 들러 주세요!",
"즐거운 주말 되세요!") says nothing about the matter, and its words are accounted for.

A sentence is one of courtesy only when it touches nothing of the expected statement (no expected
noun, no value of the answer, no negation, cancellation or retraction) and every word of it is in
the closed list below, or in the wish form (a courtesy adjective, any noun, 되세요/보내세요). A
condition or an obligation (…만, …어야 해요) is not courtesy: it stays unaccounted for."""

from __future__ import annotations

import re
from functools import lru_cache

from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.text import Morph

COURTESY = frozenset(
    {
        # asking and telling: 궁금한 거 있으시면 물어보세요, 말씀 주세요, 연락 주세요
        "궁금", "궁금하", "묻", "물어보", "보", "문의", "말씀", "연락", "안내", "자세히", "도움", "설명",
        # coming by: 언제든 들러 주세요, 편하실 때 오세요, 방문해 주세요
        "언제", "언제든", "언제든지", "들르", "오", "방문", "편하", "편히", "때", "미리",
        # giving and offering: 드릴게요, 주세요, 도와드릴게요
        "주", "드리", "돕", "도와주", "도와드리",
        # thanks and wishes: 감사합니다, 좋은 하루 되세요
        "감사", "고맙", "즐겁", "좋", "행복하", "편안하", "되", "보내", "바라",
        # what is left to ask: 더 필요하신 거 있으면, 다른 궁금한 점
        "더", "필요", "필요하", "있", "거", "것", "점", "사항", "부분", "다른", "혹시", "그럼", "또",
        "하", "저희", "참고", "이",
        # biddings: 늦지 않게 오세요, 잊지 말고 챙기세요 (since lexical-24)
        "늦", "잊", "않", "말", "챙기", "조심", "천천히",
    }
)  # fmt: skip
"""Content words of courtesy: each asks, offers, invites, thanks or wishes; none names a value."""
GREETINGS = frozenset({"안녕", "반갑", "고객", "님"})
"""Words of an opening greeting (안녕하세요, 반갑습니다, 고객님): a first sentence of these only
says hello (since lexical-26)."""
_WISH_ADJECTIVES = frozenset({"즐겁", "좋", "행복하", "편안하", "건강하"})
_SENTENCE = re.compile(r"(?:(?!:\)|\^\^|(?<=[가-힣])~+\s)[^.!?\n])+(?:[.!?\n]+|:\)|\^\^|~+(?=\s))?")
"""A sentence: up to its stop, an emoticon that ends it (:), ^^) or a tilde after a word and
before a space (수요일이에요~ 궁금한 …; 9~11시 is a span)."""
_FUNCTION = ("E", "J", "XS", "S")
_NOT_COURTESY = frozenset({"만", "어야", "아야", "여야", "야"})
"""Forms that make a sentence a condition or an obligation (…만 가능, …주셔야 해요)."""


def _morphs(cand: Analysis, start: int, end: int) -> list[Morph]:
    return [m for m in cand.morphs if start <= m.start and m.end <= end]


def _wish(morphs: list[Morph]) -> bool:
    """즐거운 스키 되세요, 좋은 주말 보내세요: a courtesy adjective, a noun, then 되/보내."""
    content = [m for m in morphs if not m.tag.startswith(_FUNCTION)]
    return (
        len(content) == 3
        and content[0].form in _WISH_ADJECTIVES
        and content[1].tag.startswith("NN")
        and content[2].form in ("되", "보내")
    )


@lru_cache(maxsize=1 << 12)
def courtesy_spans(exp: Analysis, cand: Analysis) -> tuple[tuple[int, int], ...]:
    """The answer's sentences of courtesy, as (start, end) spans; never its first sentence (the
    answer itself)."""
    out = []
    for n, s in enumerate(_SENTENCE.finditer(cand.text)):
        morphs = _morphs(cand, s.start(), s.end())
        if n == 0:
            if morphs and all(
                m.form in GREETINGS for m in morphs if not m.tag.startswith(_FUNCTION)
            ):
                out.append((s.start(), s.end()))  # 안녕하세요!: a greeting, not the answer
            continue
        if not morphs or any(s.start() <= v.start < s.end() for v in cand.values):
            continue
        if any(seg.markers for seg in cand.segments if s.start() <= seg.start < s.end()):
            continue
        if any(m.form in _NOT_COURTESY for m in morphs):
            continue
        content = [m for m in morphs if not m.tag.startswith(_FUNCTION)]
        if any(m.tag.startswith("NN") and m.form in exp.nouns for m in content):
            continue
        if _wish(morphs) or all(m.form in COURTESY for m in content):
            out.append((s.start(), s.end()))
    return tuple(out)


def honorific(x: str, y: str) -> bool:
    """One word is the other said with 님 (할머니 / 할머님, 아버지 / 아버님, 선생 / 선생님): the same
    person, in another register (since lexical-43)."""
    for a, b in ((x, y), (y, x)):
        if len(a) >= 2 and a.endswith("님"):
            stem = a[:-1]
            if b == stem or (len(b) == len(a) and b[:-1] == stem and b[-1] in "니지"):
                return True
    return False
