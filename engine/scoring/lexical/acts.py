"""Acts of opposite meaning (since lexical-19; docs/metrics.md): the answer says the expected
statement's act turned round — 늘린다 answered 줄입니다, 시작 answered 마감, 출고 answered 입고 —
with every value of it right.

Each line of ``ANTONYMS`` is two poles of one scale, written from the meaning of the words (the
verb stems and the nouns of 하다/되다 verbs kiwipiepy gives). The rule fires only when the expected
statement says one pole and never the other, and the answer says the other and never the first: a
statement that names both ends (9시 시작, 18시 종료) or an answer that says both (늘리고 … 줄여요)
is left to the other rules. A scale whose poles are one event seen from its two sides (buy/sell,
hand over/take over: 김 사장이 넘기다 = 박 사장이 인수하다) fires only when the answer's subjects
are the expected statement's own."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.text import Morph
from seorap.engine.scoring.lexical.value import same

ANTONYMS: tuple[tuple[str, frozenset[str], frozenset[str]], ...] = tuple(
    (name, frozenset(a.split()), frozenset(b.split()))
    for name, a, b in (
        (
            "more/less",
            "늘리- 늘- 늘어나- 올리- 오르- 인상 상승 증가 상향 증액 확대 확장",
            "줄이- 줄- 줄어들- 내리- 내려가- 인하 하락 감소 하향 감액 축소 삭감 단축",
        ),
        (
            "start/end",
            "시작 개시 개막 착수 개강 시작되-",
            "끝나- 끝내- 마치- 종료 마감 폐막 완료 마무리 종강",
        ),
        (
            "open/close",
            "열- 열리- 개방 개장 개관 개점",
            "닫- 닫히- 폐쇄 폐장 폐관 폐점 휴관 휴장 휴업",
        ),
        ("in/out of stock", "입고 반입", "출고 반출 출하"),
        ("export/import", "수출", "수입"),
        ("buy/sell", "사- 구매 구입 매입 사들이-", "팔- 판매 매각 처분"),
        ("charge/discharge", "충전", "방전"),
        ("on/off", "켜- 점등", "끄- 소등"),
        ("enter/leave", "입장 입실 입차 승차", "퇴장 퇴실 출차 하차"),
        ("depart/arrive", "출발 출항 이륙", "도착 입항 착륙"),
        ("hire/let go", "채용 고용 영입", "해고 해임 방출"),
        ("approve/refuse", "승인 허가 허락 수락 통과", "거절 반려 거부 불허 기각"),
        ("take over/hand over", "인수 넘겨받- 물려받- 인계받-", "넘기- 넘겨주- 양도 인계하-"),
        ("install/remove", "설치 부착", "철거 제거 해체 탈거"),
        ("include/exclude", "포함", "제외 별도"),
        ("at least/at most", "최소 이상", "최대 이하 미만"),
        ("take on/step down", "취임 부임 선임 맡-", "사임 사퇴 퇴임 물러나- 그만두-"),
        ("up/down", "올라가- 상행", "내려가- 하행"),
        ("win/lose", "승리 이기- 우승", "패배 지- 패하-"),
    )
)
"""(scale, one pole, the other): verbs end in ``-`` (kiwipiepy VV/VA stems), nouns do not."""

CONVERSE = frozenset({"export/import", "buy/sell", "take over/hand over", "win/lose"})
"""Scales whose two poles are one event said from either side."""
COMPLEMENTARY = frozenset({"open/close", "on/off", "include/exclude"})
"""Scales of two states with nothing between: one denied is the other said (안 열어요 = 휴관)."""
_SUBJECT = frozenset({("이", "JKS"), ("가", "JKS"), ("께서", "JKS"), ("은", "JX"), ("는", "JX")})

_VERBS = frozenset({"VV", "VA", "VX"})
_NOUNS = frozenset({"NNG", "NNP", "XR"})


def _words(morphs: Sequence[Morph]) -> set[str]:
    """The morphs as the table writes them: a verb stem with ``-``, a noun bare; a verb with 받
    after a noun (인계받-) joined."""
    out: set[str] = set()
    for i, m in enumerate(morphs):
        if m.tag in _VERBS:
            out.add(m.form + "-")
            if i > 0 and morphs[i - 1].tag in _NOUNS and morphs[i - 1].end == m.start:
                out.add(morphs[i - 1].form + m.form + "-")
        elif m.tag in _NOUNS and not (i > 0 and morphs[i - 1].tag == "XPN"):
            out.add(m.form)  # 미포함, 비대면: a prefix that denies the noun is another word
        elif m.tag == "XSV" and i > 0 and morphs[i - 1].tag in _NOUNS:
            out.add(morphs[i - 1].form + m.form + "-")  # 인계하-, 시작되-
    return out


def _says(words: set[str], compact: str, pole: frozenset[str]) -> frozenset[str]:
    """The words of ``pole`` a text says: among its morphs, or a noun of it anywhere in its text
    not after a prefix that denies it (the analyser reads 입고 as 입 + 고 in one sentence and as a
    noun in the next; 미포함 is no 포함)."""
    found = {w for w in pole if not w.endswith("-") and _noun_pattern(w).search(compact)}
    return frozenset((words & pole) | found)


@cache
def _noun_pattern(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![미불비무]){re.escape(word)}")


def _subjects(a: Analysis) -> set[str]:
    """The noun phrases before 이/가/께서/은/는 (김 사장님, 조합), spaces dropped."""
    m, out = a.morphs, set()
    nouns = _NOUNS | {"XSN", "NNB"}
    for i, x in enumerate(m):
        if (x.form, x.tag) not in _SUBJECT or i == 0 or m[i - 1].tag not in nouns:
            continue
        j = i - 1
        while j > 0 and m[j - 1].tag in nouns and m[j].start - m[j - 1].end <= 1:
            j -= 1
        out.add(a.text[m[j].start : m[i - 1].end].replace(" ", ""))
    return out


def _negated(cand: Analysis, pole: frozenset[str]) -> bool:
    """A clause of the answer saying a word of ``pole`` also negates, cancels or retracts (그날은
    안 열어요 for 휴관): the other pole denied is the first one said."""
    return any(
        seg.markers and _words([m for m in cand.morphs if seg.start <= m.start < seg.end]) & pole
        for seg in cand.segments
    )


def _stating(exp: Analysis, cand: Analysis) -> list[Morph]:
    """The expected statement's morphemes in the clauses holding a value the answer states (all of
    them when it states none): "당도 최소 11브릭스, 산도 최대 1.0%" answered "당도는 최대 11브릭스"
    says 최대 where the clause it answers says 최소 (since lexical-20)."""
    said = [s for s in exp.segments if any(same(v, w) for v in s.values for w in cand.values)]
    if not said:
        return list(exp.morphs)
    return [m for m in exp.morphs if any(s.start <= m.start < s.end for s in said)]


def opposite_act(exp: Analysis, cand: Analysis) -> tuple[str, str] | None:
    """(the expected act, the answer's): of one scale, the expected statement says one pole and
    never the other, the answer says the other (as a word of its own) and never the first. A
    statement that says both poles is read again in the clauses holding a value the answer states
    only (since lexical-20: "당도 최소 11브릭스, 산도 최대 1.0%")."""
    said = _words(cand.morphs)
    whole = (_words(exp.morphs), exp.compact)
    scoped: tuple[set[str], str] | None = None
    same_subjects: bool | None = None
    for name, a, b in ANTONYMS:
        for one, other in ((a, b), (b, a)):
            if not said & other or _says(said, cand.compact, one) or _negated(cand, other):
                continue
            if name in CONVERSE:
                if same_subjects is None:
                    same_subjects = _subjects(cand) <= _subjects(exp)
                if not same_subjects:
                    continue  # 박 사장이 인수 for 김 사장이 넘기다: the same event from its other side
            says, both = _poles(whole, one, other)
            if says and both:  # the whole statement says both: read the clauses answered
                if scoped is None:
                    part = _stating(exp, cand)
                    scoped = (_words(part), "".join(m.form for m in part))
                says, both = _poles(scoped, one, other)
            if says and not both:
                return f"{sorted(says)[0]} ({name})", sorted(said & other)[0]
    return None


def _poles(
    reading: tuple[set[str], str], one: frozenset[str], other: frozenset[str]
) -> tuple[frozenset[str], bool]:
    """(the words of pole ``one`` a reading says, whether it says pole ``other`` too)."""
    words, text = reading
    return _says(words, text, one), bool(_says(words, text, other))


LIGHT_VERBS = frozenset({"하", "되"})
"""Verbs that take their meaning from the noun before them (사용 안 되다, 진료 안 하다)."""


def negated_words(morphs: Sequence[Morph]) -> set[str]:
    """Words a negation applies to: the verb after 안/못, the word before 않다/못하다/없다; a light
    verb (하다, 되다) brings the noun before it."""
    content = [i for i, m in enumerate(morphs) if m.tag[0] in "VN" or m.tag == "XR"]
    out: set[str] = set()
    for i, m in enumerate(morphs):
        if (m.form, m.tag) in (("안", "MAG"), ("못", "MAG")):
            after = [j for j in content if j > i][:1]
        elif (m.form, m.tag) in (("않", "VX"), ("못하", "VX"), ("없", "VA")):
            after = [j for j in content if j < i and morphs[j].tag not in ("VX",)][-1:]
        else:
            continue
        for j in after:
            out.add(morphs[j].form)
            if morphs[j].form in LIGHT_VERBS:
                out.update(
                    morphs[k].form for k in content if k < j and morphs[k].tag.startswith("NN")
                )
    return out - {"않", "못하", "없"}


def denied_opposite(exp_morphs: Sequence[Morph], negated: set[str]) -> frozenset[str]:
    """The expected clause's words of a two-state scale whose other state the answer negates
    (``negated``: stems, negated_words): 휴관 answered 안 열어요, 별도 answered 포함 안 돼요 — the
    same fact, said the other way (empty: none)."""
    mine = _words(exp_morphs)
    denied = negated | {w + "-" for w in negated}
    out: set[str] = set()
    for name, one, other in ANTONYMS:
        if name in COMPLEMENTARY:
            for a, b in ((one, other), (other, one)):
                if mine & a and denied & b and not mine & b:
                    out |= {w.rstrip("-") for w in mine & a}
    return frozenset(out)


NEGATORS = frozenset({("안", "MAG"), ("못", "MAG"), ("않", "VX"), ("못하", "VX"), ("없", "VA")})


@lru_cache(maxsize=1 << 12)
def denied_state_words(exp: Analysis, cand: Analysis) -> frozenset[str]:
    """The answer's words that deny the other state of a two-state scale the expected statement
    says one state of (안 + 열- for 휴관): accounted for by that state (lexical/accounting.py)."""
    negated = negated_words(cand.morphs)
    if not negated or not denied_opposite(exp.morphs, negated):
        return frozenset()
    return frozenset(negated | {f for f, _ in NEGATORS} | {"지"})


@lru_cache(maxsize=1 << 12)
def stated_by_denial(exp: Analysis, cand: Analysis) -> frozenset[str]:
    """The expected statement's words the answer states by denying the other state (휴관 in 안
    열어요): found, for recall."""
    negated = negated_words(cand.morphs)
    return denied_opposite(exp.morphs, negated) if negated else frozenset()
