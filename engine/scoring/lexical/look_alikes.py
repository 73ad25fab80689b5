"""Words that look like a denial or a retraction and deny nothing (docs/metrics.md): a bidding
(늦지 않게 오세요), not being sure (확실하진 않아요), a price taken off (20프로씩 빠져요), work folded
up (장사 접었어요). The analysis reads them before it marks a clause negated or retracted."""

from __future__ import annotations

from collections.abc import Sequence

from seorap.engine.scoring.lexical.text import Morph

_BIDDEN = frozenset({"늦", "잊", "놓치", "빠뜨리", "헷갈리"})
"""Verbs a speaker bids the hearer not to do (늦지 않게 오세요, 잊지 말고): since lexical-24 their
않다/말다 deny no fact of the matter."""


def retracts_nothing(morphs: Sequence[Morph], i: int) -> bool:
    """빠지 at ``i`` right after an amount (20프로씩 빠져요, 3천 원 빠져요): a price comes down, no one
    is left out; 접 after the work it ends (장사 접었어요, 수색 접었어): the work closed, no plan
    given up — what 폐업 and 종료 say (since lexical-41)."""
    near = morphs[max(0, i - 4) : i]
    if morphs[i].form == "빠지":
        return any(m.tag == "SN" or m.tag == "NR" for m in near)
    k = i - 1
    if k >= 0 and morphs[k].tag == "JKO":
        k -= 1
    return morphs[i].form == "접" and k >= 0 and morphs[k].form in _WORK_ENDED


_WORK_ENDED = frozenset({"장사", "가게", "영업", "수색", "사업", "작업", "운영"})


_SURE = frozenset({"확실", "정확", "분명", "확정적"})


def unsure(morphs: Sequence[Morph], i: int) -> bool:
    """않 at ``i`` closes "확실/정확/분명하지(는) 않다": the speaker is not sure (since lexical-39)."""
    k = i - 1
    if k >= 0 and morphs[k].tag == "JX":
        k -= 1  # 확실하진: the topic particle between
    return (
        k >= 2
        and (morphs[k].form, morphs[k].tag) == ("지", "EC")
        and morphs[k - 1].form == "하"
        and morphs[k - 2].form in _SURE
    )


def bids(morphs: Sequence[Morph], i: int) -> bool:
    """않/말 at ``i`` closes "<늦/잊 …>지": a bidding (``_BIDDEN``)."""
    return (
        i >= 2
        and morphs[i - 1].form == "지"
        and morphs[i - 1].tag == "EC"
        and morphs[i - 2].form in _BIDDEN
        and morphs[i - 2].tag.startswith("V")
    )


_ASKED_FOR = frozenset({("달", "VX"), ("요청", "NNG"), ("부탁", "NNG")})
"""A request for an act (취소해 달라고, 취소 요청)."""


def asked_then_done(morphs: Sequence[Morph], i: int) -> bool:
    """The word at ``i`` names an act asked for (취소해 달라고 해서, 취소 요청이 와서) and the same word
    says it done later in the text (… 취소됐어요): one act, said twice, counted once (since
    lexical-52; a cancellation of a cancellation names its act by another word, 철회)."""
    asked = any((m.form, m.tag) in _ASKED_FOR for m in morphs[i + 1 : i + 4])
    return asked and any(m.form == morphs[i].form for m in morphs[i + 4 :])
