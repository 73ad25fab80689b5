"""The state a clause gives its matter (since lexical-6; docs/metrics.md, rule ``state``): still
open (under review, planned, pending) or settled (decided, excluded, cancelled, completed).

A candidate does not state a claim when, in the clauses that state the claim's values, it gives
the matter a state of the other group and none of the claim's: "Y로 결정, X와 Z는 제외" does not
hold "X, Y, Z를 비교 검토 중", nor the reverse. Merged facts are long, so only those clauses are
read (or, when a clause has no word of state, the sentence around it)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from seorap.engine.scoring.lexical.analysis import Analysis, Segment
from seorap.engine.scoring.lexical.clauses import _touches, _value_in
from seorap.engine.scoring.lexical.text import Morph, not_yet

OPEN = frozenset(
    {
        "검토",
        "논의",
        "고려",
        "계획",
        "예정",
        "추진",
        "협의",
        "비교",
        "미정",
        "후보",
        "검토중",
        "보류",
        "앞두",
    }
)
"""Words of a matter still open: under review, discussed, planned, pending."""
SETTLED = frozenset(
    {
        "결정", "확정", "정하", "정해지", "선정", "낙점", "채택", "제외", "빼", "탈락", "배제",
        "완료", "마치", "끝나", "마무리", "취소", "철회", "중단", "폐지", "무산", "종료", "불발",
        "체결", "타결", "성사",
    }
)  # fmt: skip
"""Words of a matter settled: decided, excluded, cancelled, completed."""
_SENTENCE = re.compile(r"[.;/\n]")


def states(morphs: Sequence[Morph]) -> frozenset[str]:
    """``open`` and/or ``settled`` for the state words among ``morphs`` (nouns and verb stems);
    the dependent noun 중 after a noun (검토 중, 진행 중) is open, and so is a settled word an open
    word right after it waits for (취소를 검토, 끝날 예정: since lexical-19)."""
    out = set()
    for i, m in enumerate(morphs):
        if m.tag.startswith(("NN", "VV", "XR")) and m.form in OPEN:
            out.add("open")
        elif m.tag.startswith(("NN", "VV", "XR")) and m.form in SETTLED:
            if _negated(morphs, i) or not_yet(morphs, i + 2):  # 확정은 아직
                out.add("open")  # 아직 안 정해졌어요, 확정되지 않았다: not settled yet
            elif not _awaited(morphs, i) and not _scheduled(morphs, i):
                out.add("settled")
        elif m.form == "중" and m.tag == "NNB" and i and morphs[i - 1].tag.startswith("NN"):
            out.add("open")
    return frozenset(out)


_GLUE = ("J", "E", "XS", "VX")
"""Tags between a settled word and the open word it is the object of (취소를 검토, 끝날 예정)."""


def _awaited(morphs: Sequence[Morph], i: int) -> bool:
    """The settled word at ``i`` is what an open word right after it waits for (취소를 검토하다,
    곧 끝날 예정, 체결을 앞두다, 확정 예정): the matter is still open."""
    for m in morphs[i + 1 : i + 5]:
        if m.tag.startswith(("NN", "VV", "XR")) and m.form in OPEN:
            return True
        if not m.tag.startswith(_GLUE):
            return False
    return False


_NEGATORS = frozenset({("안", "MAG"), ("못", "MAG"), ("않", "VX"), ("못하", "VX")})
_BEFORE = frozenset({("안", "MAG"), ("못", "MAG")})


def _negated(morphs: Sequence[Morph], i: int) -> bool:
    """The settled word at ``i`` is negated (since lexical-24): 안/못 right before it, or 않다,
    못하다, 안/못 + 되다 right after it (정해지지 않았다, 확정 안 됐어요); or a denying prefix
    written onto it (미완료, 미확정: since lexical-30)."""
    if i and (morphs[i - 1].form, morphs[i - 1].tag) in _BEFORE:
        return True
    if i and morphs[i - 1].tag == "XPN" and morphs[i - 1].form in ("미", "불", "비", "무"):
        return morphs[i - 1].end == morphs[i].start
    for m in morphs[i + 1 : i + 5]:
        if (m.form, m.tag) in _NEGATORS:
            return True
        if not (m.tag.startswith(("J", "E", "XS")) or (m.tag == "VV" and m.form in ("되", "하"))):
            return False
    return False


_PAST = frozenset({"었", "았", "였", "었었", "았었"})


def _scheduled(morphs: Sequence[Morph], i: int) -> bool:
    """The settled verb at ``i`` ends a sentence without the past (네 시에 끝나요, 다음 주에
    확정됩니다) or modifies a noun as the future (끝날 시간): a time it is due, not a matter
    settled. A noun alone or with the copula (완료, 확정입니다) stays settled."""
    j = i + 1
    if morphs[i].tag != "VV" and not (j < len(morphs) and morphs[j].tag == "XSV"):
        return False
    past = False
    while j < len(morphs) and morphs[j].tag in ("XSV", "EP", "VX", "EC"):
        if morphs[j].tag == "EC" and morphs[j].form not in ("어", "아", "여"):
            return False  # a clause that goes on: the tense is the next verb's
        past = past or morphs[j].form in _PAST
        j += 1
    if j == len(morphs):
        return False
    end = morphs[j]
    return (end.tag == "EF" and not past) or (end.tag == "ETM" and end.form in ("ᆯ", "을", "ㄹ"))


def _sentence(a: Analysis, c: Segment) -> tuple[int, int]:
    starts = [0, *(m.end() for m in _SENTENCE.finditer(a.text) if m.end() <= c.start)]
    ends = [m.start() for m in _SENTENCE.finditer(a.text) if m.start() >= c.end]
    return max(starts), min(ends, default=len(a.text))


def _morphs(a: Analysis, start: int, end: int) -> list[Morph]:
    return [m for m in a.morphs if start <= m.start < end]


def fact_states(claim: Analysis, fact: Analysis) -> frozenset[str]:
    """The states the fact gives in its clauses stating the claim's values (or touching it)."""
    holding = [
        c
        for c in fact.segments
        if any(_value_in(v, c.values, c.compact, current=False) for v in claim.values)
    ] or [c for c in fact.segments if any(_touches(s, c) for s in claim.segments)]
    out: set[str] = set()
    for c in holding:
        found = states(_morphs(fact, c.start, c.end))
        out |= found or states(_morphs(fact, *_sentence(fact, c)))
    return frozenset(out)


def clash(claim: Analysis, fact: Analysis) -> tuple[str, str] | None:
    """(the claim's state, the fact's) when the fact gives the matter a state of the other group
    and none of the claim's; None otherwise (also when either says no state)."""
    mine = states(claim.morphs)
    if len(mine) != 1:
        return None
    theirs = fact_states(claim, fact)
    if theirs and not (theirs & mine):
        return min(mine), min(theirs)
    return None
