"""Constructions that say a word of the expected statement another way (since lexical-29;
docs/metrics.md): a noun's humble 드리다 for its 하다, …ㄹ 수 있다 for 가능, …ㄹ 때 for 시, 한 of
"per one …", 처리/진행 between an act's noun and 하다; and the expected nouns an answer states
without their letters (``found_otherwise``: by a construction, by a denying word, by a word of
their meaning class), for recall."""

from __future__ import annotations

from collections.abc import Sequence

from seorap.engine.scoring.lexical import acts
from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.lexicon import CONVERSE, synonym_class
from seorap.engine.scoring.lexical.polarity import UPPER_BOUNDS, UPPER_LIMITS
from seorap.engine.scoring.lexical.text import Morph


def said_by_construction(exp: Analysis, morphs: Sequence[Morph]) -> set[int]:
    """Morphemes of the answer a construction of E's meaning accounts for (since lexical-29):
    a noun's humble 드리다, which is its 하다 (연락 드립니다, 안내드렸는데; not when E says an act
    received, 받다); …ㄹ 수 있다 for E's 가능 (not 불가) or beside E's upper limit; …ㄹ 때 for E's
    시 (하원 시 / 하원할 때)."""
    e = {(m.form, m.tag) for m in exp.morphs}
    can = (("가능", "NNG") in e and "불가" not in exp.compact) or states_a_limit(exp)
    when = ("시", "NNB") in e
    received = any(m.form in CONVERSE and m.tag[0] == "V" for m in exp.morphs)
    out: set[int] = conditions(exp.morphs, morphs)
    for i, m in enumerate(morphs):
        if (m.form, m.tag) == ("드리", "VV") and i and morphs[i - 1].tag == "NNG" and not received:
            out.add(i)
        if _per_one(morphs, i) or _light_noun(morphs, i):
            out.add(i)
        if m.tag != "ETM" or m.form not in ("ᆯ", "을") or i + 1 >= len(morphs):
            continue
        nxt = morphs[i + 1]
        if nxt.tag in ("NNG", "NNB") and nxt.form not in ("거", "것"):
            out.add(i)  # 할 예정, 올 때, 쓸 수: the noun after it is read (not a guess: 할 거예요)
        if when and (nxt.form, nxt.tag) == ("때", "NNG"):
            out |= {i, i + 1}
        if can and _can_at(morphs, i):
            out |= {i, i + 1, i + 2}
    return out | past_the_limit(exp.morphs, morphs)


_IF = frozenset({"면", "으면"})
_CONDITION = frozenset(
    {("시", "NNB"), ("경우", "NNG"), ("면", "EC"), ("으면", "EC"), ("때", "NNG"), ("후", "NNG")}
    | {("어야", "EC"), ("아야", "EC")}
)


def conditions(exp_morphs: Sequence[Morph], morphs: Sequence[Morph]) -> set[int]:
    """The answer's -면 that adds no condition (since lexical-39): E states one itself (우천 시,
    공휴일인 경우, 초과 시 — "비가 오면", "넘으면" say it), a duration or amount says what it takes
    (40분이면 올라가요, 4주면 나와요 for "40분 걸린다"), or "…면 안 되다" denies what E denies
    (세탁기에 돌리시면 안 돼요 for 사용 불가; the polarity rules compare the denial)."""
    stated = any((m.form, m.tag) in _CONDITION for m in exp_morphs)
    denied = any(m.form in _DENIAL_WORDS for m in exp_morphs)
    out: set[int] = set()
    for i, m in enumerate(morphs):
        if m.form not in _IF or m.tag != "EC":
            continue
        after = [n.form for n in morphs[i + 1 : i + 3]]
        if stated or (i > 0 and _takes(morphs, i)):
            out.add(i)
        elif denied and after[:1] in (["안"], ["못"]) and after[1:2] in (["되"], ["하"]):
            out |= {i, i + 2}
    return out


_DENIAL_WORDS = frozenset({"금지", "불가", "불허", "않", "못", "없", "안", "불가능", "제한"})


def _takes(morphs: Sequence[Morph], i: int) -> bool:
    """The -면 at ``i`` follows a counted amount (40분이면, 4주면, 한 시간이면)."""
    k = i - 1
    if morphs[k].tag == "VCP" and k:
        k -= 1
    return (
        morphs[k].tag in ("NNB", "NNG", "SL") and k > 0 and morphs[k - 1].tag in ("SN", "NR", "MM")
    )


_PASSING = frozenset({"넘", "넘기", "초과", "넘어가", "넘어서"})
_NOT = frozenset({"안", "못", "않", "없", "못하"})


def past_the_limit(exp_morphs: Sequence[Morph], morphs: Sequence[Morph]) -> set[int]:
    """Morphemes of "…넘으면 안 되다" (what is not allowed past a value) when the expected text
    states an upper limit: its 넘-, 면, the negation and the 되다/하다 after it (since lexical-38:
    "20kg 이하만 가능" answered "20킬로그램 넘으면 안 돼요"). "20kg 이하는 안 돼요" has no such
    condition: it stays the opposite."""
    if not any(m.form in UPPER_BOUNDS for m in exp_morphs):
        return set()
    out: set[int] = set()
    for i, m in enumerate(morphs[:-1]):
        if m.form not in _PASSING or morphs[i + 1].form not in ("면", "으면"):
            continue
        at = next(
            (k for k in range(i + 2, min(i + 6, len(morphs))) if morphs[k].form in _NOT), None
        )
        if at is None:
            continue
        out |= {i, i + 1, at}
        if at + 1 < len(morphs) and morphs[at + 1].form in ("되", "하", "못하"):
            out.add(at + 1)
    return out


def states_a_limit(exp: Analysis) -> bool:
    return any(m.form in UPPER_LIMITS and m.tag[:2] in ("NN", "XR") for m in exp.morphs)


def _light_noun(morphs: Sequence[Morph], i: int) -> bool:
    """처리/진행 between an act's noun and 하다/되다 (폐기 처리합니다, 테스트 진행합니다): the act's
    하다, nothing of its own; the act's noun is read (since lexical-30)."""
    return (
        morphs[i].tag == "NNG"
        and morphs[i].form in ("처리", "진행")
        and 0 < i < len(morphs) - 1
        and morphs[i - 1].tag == "NNG"
        and morphs[i + 1].tag == "XSV"
        and morphs[i + 1].form in ("하", "되")
    )


def _per_one(morphs: Sequence[Morph], i: int) -> bool:
    """한 at ``i`` opens "per one …" (한 달에, 한 개에, 한 사람당, 한 번에): it says the rate's
    denominator is one, never a value of its own; the unit after it is read (since lexical-30)."""
    return (
        (morphs[i].form, morphs[i].tag) == ("한", "MM")
        and i + 2 < len(morphs)
        and morphs[i + 1].tag in ("NNB", "NNG")
        and (
            morphs[i + 2].form in ("에", "당", "마다")
            or morphs[i + 2].tag == "XSN"
            and morphs[i + 2].form == "당"
        )
    )


def _can_at(morphs: Sequence[Morph], i: int) -> bool:
    """…ㄹ 수 있다 starts at morpheme ``i``."""
    return (
        i + 2 < len(morphs)
        and morphs[i].tag == "ETM"
        and morphs[i].form in ("ᆯ", "을")
        and (morphs[i + 1].form, morphs[i + 1].tag) == ("수", "NNB")
        and morphs[i + 2].form == "있"
    )


def says_possible(exp: Analysis, cand: Analysis) -> bool:
    """E says 가능 (not 불가) and the answer says …ㄹ 수 있다: E's 가능 is found (lexical-29)."""
    return (
        "가능" in exp.nouns
        and "불가" not in exp.compact
        and any(_can_at(cand.morphs, i) for i in range(len(cand.morphs)))
    )


def found_otherwise(exp: Analysis, cand: Analysis, missing: Sequence[str]) -> frozenset[str]:
    """Expected nouns (``missing``: not found by their letters) the answer states another way:
    가능 by …ㄹ 수 있다 (lexical-29); a word E negates by the answer's denying word (허가 by 불허);
    a noun by a word of its meaning class (보관 by 보존; never by 하다, 되다, 있다) (lexical-30)."""
    out = set(acts.denies_with_a_word(exp.morphs, cand.morphs))
    if says_possible(exp, cand):
        out.add("가능")
    theirs = frozenset(
        m.form
        for m in cand.morphs
        if m.tag in ("NNG", "VV", "VA") and m.form not in ("하", "되", "있")
    )
    out |= {n for n in missing if synonym_class(n, theirs) is not None}
    return frozenset(out)
