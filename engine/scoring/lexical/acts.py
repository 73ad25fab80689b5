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

from seorap.engine.scoring.lexical.analysis import NEGATION, Analysis
from seorap.engine.scoring.lexical.lexicon import synonym_class
from seorap.engine.scoring.lexical.text import Morph, joined_verbs, not_yet
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
            "닫- 닫히- 폐쇄 폐장 폐관 폐점 휴관 휴장 휴업 휴무 휴점",
        ),
        ("in/out of stock", "입고 반입", "출고 반출 출하"),
        ("export/import", "수출", "수입"),
        ("buy/sell", "사- 구매 구입 매입 사들이-", "팔- 판매 매각 처분"),
        ("charge/discharge", "충전", "방전"),
        ("on/off", "켜- 점등", "끄- 소등"),
        ("enter/leave", "입장 입실 입차 승차", "퇴장 퇴실 출차 하차"),
        ("depart/arrive", "출발 출항 이륙", "도착 입항 착륙 목적지 도착지"),
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
DENIAL_SAYS_OTHER = COMPLEMENTARY | {"approve/refuse"}
"""Scales whose one pole denied in the expected statement is the other said in the answer
(허가되지 않았다 answered 불허됐어요; since lexical-30)."""
_SUBJECT = frozenset({("이", "JKS"), ("가", "JKS"), ("께서", "JKS"), ("은", "JX"), ("는", "JX")})

_VERBS = frozenset({"VV", "VA", "VX"})
_NOUNS = frozenset({"NNG", "NNP", "XR"})


def _words(morphs: Sequence[Morph]) -> set[str]:
    """The morphs as the table writes them: a verb stem with ``-``, a noun bare; a verb with 받
    after a noun (인계받-) joined, and a compound verb the analyser splits (들 + 어 + 오: 들어오-;
    since lexical-44)."""
    out: set[str] = set()
    for i, m in enumerate(morphs):
        if m.tag in _VERBS:
            out.add(m.form + "-")
            out.update(f"{v}-" for v in joined_verbs(morphs, i))  # 들어왔어요: 들 + 어 + 오
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
            if name in DENIAL_SAYS_OTHER and _negated(exp, one):
                continue  # 허가되지 않았다 / 불허: one fact
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
        elif (m.form, m.tag) == ("없이", "MAG"):
            after = [j for j in content if j < i][-1:]  # 건전지 없이: 건전지 (lexical-38)
        elif (m.form, m.tag) in (("않", "VX"), ("못하", "VX"), ("없", "VA"), ("말", "VX")):
            after = [j for j in content if j < i and morphs[j].tag not in ("VX",)][-1:]
            if after and _can_not(morphs, after[0]):
                after = [j for j in content if j < after[0] - 1][-1:]
        elif not_yet(morphs, i):
            after = [i - 2]  # 결정은 아직이에요: 결정 (lexical-34)
        else:
            continue
        for j in after:
            out.add(morphs[j].form)
            if morphs[j].form in LIGHT_VERBS:
                out.update(
                    morphs[k].form for k in content if k < j and morphs[k].tag.startswith("NN")
                )
    return out - {"않", "못하", "없", "말"}


def _can_not(morphs: Sequence[Morph], j: int) -> bool:
    """Morpheme ``j`` is the dependent noun of …ㄹ 수 없다 or …ㄴ 거 없다 (들어오실 수 없어요, 남은
    거 없어요): the negation is of the verb before it, not of the noun (since lexical-37)."""
    return (
        morphs[j].tag == "NNB"
        and morphs[j].form in ("수", "거", "것")
        and j > 0
        and morphs[j - 1].tag == "ETM"
    )


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


DENYING_NOUNS: dict[str, frozenset[str]] = {
    "불참": frozenset({"참석", "참가", "출석", "나오", "가", "오", "참여"}),
    "미정": frozenset({"정하", "정해지", "결정", "확정", "나오"}),
    "미비": frozenset({"갖추", "갖춰지", "준비"}),
    "미만": frozenset({"되", "넘"}),
    "금지": frozenset({"되", "허용", "가능"}),
    "부재": frozenset({"있", "계시"}),
    "고장": frozenset({"되", "작동", "돌아가", "켜지"}),
    "품절": frozenset({"있", "남"}),
    "매진": frozenset({"있", "남"}),
    "소진": frozenset({"있", "남"}),
    "금연": frozenset({"피우", "태우", "흡연"}),
    "불허": frozenset({"허가", "허락", "승인", "허용"}),
    "불가": frozenset({"되", "가능", "허용"}),
    **dict.fromkeys(("미포함", "불포함"), frozenset({"포함", "들"})),
    "무료": frozenset({"받", "내", "들", "돈", "요금"}),
    "무상": frozenset({"받", "내", "들", "돈", "요금"}),
    "면제": frozenset({"내", "받"}),
    "결항": frozenset({"뜨", "운항", "출항"}),
    "결방": frozenset({"방송", "나가"}),
    "결석": frozenset({"출석", "나오", "오"}),
    "결근": frozenset({"출근", "나오", "오"}),
    "휴진": frozenset({"진료", "보", "열"}),
    "휴강": frozenset({"수업", "강의", "있"}),
    "휴항": frozenset({"운항", "뜨"}),
    "불통": frozenset({"되", "통하", "터지"}),
    "불합격": frozenset({"붙", "합격"}),
    "동결": frozenset({"오르", "올리", "인상", "바뀌", "변하"}),
    "부족": frozenset({"있", "남", "충분", "넉넉하"}),  # lexical-49: 재고 부족 = 얼마 안 남았다
    "자제": frozenset({"하", "가", "이용", "쓰"}),  # lexical-49: 이용 자제 = 가지 마
    **dict.fromkeys(
        ("휴관", "휴무", "휴업", "휴원", "휴장"), frozenset({"열", "영업", "운영", "근무", "일하"})
    ),
}
"""Nouns that deny a thing by themselves, with the words they deny (since lexical-24): 불참 = 참석
안 함, 휴진 = 진료 안 봄, 금지 = 하면 안 됨, 무료 = 돈을 안 받음. A noun after the prefix 불, 미,
무 or 비 (불필요, 미제출, 미운영) denies that noun."""
_DENYING_PREFIXES = frozenset({"불", "미", "무", "비"})
_OF_THE_NOUN_BEFORE = frozenset({"금지", "불가", "불허", "미포함", "불포함", "자제"})
"""Denying nouns that deny the act the noun before them names too (since lexical-37): 반입 금지
denies 반입 (갖고 들어오실 수 없어요), 이용 불가 denies 이용 (못 써); 건전지 미포함 denies 건전지
(건전지 없이, since lexical-38)."""


def _denials(morphs: Sequence[Morph]) -> dict[str, frozenset[str]]:
    """The denying words of ``morphs`` with the words each denies (``DENYING_NOUNS``)."""
    out: dict[str, frozenset[str]] = {}
    for i, m in enumerate(morphs):
        if m.tag.startswith("NN") and m.form in DENYING_NOUNS:
            out[m.form] = DENYING_NOUNS[m.form]
            before = morphs[i - 1] if i else None
            if m.form in _OF_THE_NOUN_BEFORE and before is not None:
                if before.tag in ("NNG", "NNP"):
                    out[m.form] = out[m.form] | {before.form}
                elif before.tag == "ETN" and i >= 2 and morphs[i - 2].tag == "VV":
                    out[m.form] = out[m.form] | {morphs[i - 2].form}  # 기대기 금지 (lexical-52)
        elif m.tag == "XPN" and m.form in _DENYING_PREFIXES and i + 1 < len(morphs):
            noun = morphs[i + 1]
            if noun.tag.startswith("NN") and noun.start == m.end:
                before = morphs[i - 1] if i else None  # 건전지 미포함: 건전지 too (lexical-38)
                said = {before.form} if before is not None and before.tag == "NNG" else set()
                out[m.form + noun.form] = frozenset({noun.form, *said})
    return out


def _in_a_denial(morphs: Sequence[Morph], i: int) -> bool:
    """Morpheme ``i`` is the noun a denying word denies by its letters: after a denying prefix
    (미운행: 운행) or before 금지/불가/불허 (반입 금지: 반입) — said only as denied."""
    m, before = morphs[i], morphs[i - 1] if i else None
    after = morphs[i + 1] if i + 1 < len(morphs) else None
    return m.tag.startswith("NN") and (
        (before is not None and before.tag == "XPN" and before.form in _DENYING_PREFIXES)
        or (after is not None and after.form in _OF_THE_NOUN_BEFORE)
    )


def denied_by_word(exp_morphs: Sequence[Morph], cand_morphs: Sequence[Morph]) -> frozenset[str]:
    """The candidate's words it negates (안, 못, 않다, 없다: ``negated_words``) that a denying word
    of the expected text denies too ("경매 불참" answered "경매에 못 나오십니다": 나오; "교체
    불필요", "갈 필요 없대요": 필요) — the same fact said with a negation. Empty when the candidate
    says the denying word itself (불참 안 해요 says the opposite)."""
    denials = _denials(exp_morphs)
    if not denials:
        return frozenset()
    theirs = {m.form for m in cand_morphs} | set(_denials(cand_morphs))
    if any(w in theirs for w in denials):
        return frozenset()
    negated = negated_words(cand_morphs)
    return frozenset(
        w for w in negated if any(w in denied or kin(w, denied) for denied in denials.values())
    )


def kin(word: str, denied: frozenset[str]) -> bool:
    """``word`` is of a meaning class of a denied word, and no pole of a scale (닫다 shares a class
    with 열다, its opposite)."""
    return word not in _POLE_WORDS and synonym_class(word, denied) is not None


def denies_with_a_word(exp_morphs: Sequence[Morph], cand_morphs: Sequence[Morph]) -> frozenset[str]:
    """The reverse of ``denied_by_word`` (since lexical-30): the words the expected clause negates
    (끝나지 않았다, 허가되지 않았다) that a denying word of the candidate denies (미완료, 불허), in
    one meaning class or the same, the candidate negating nothing itself — the same fact."""
    if any((m.form, m.tag) in NEGATORS for m in cand_morphs):
        return frozenset()
    negated = negated_words(exp_morphs)
    if not negated:
        return frozenset()
    return frozenset(
        w
        for denied in _denials(cand_morphs).values()
        for w in negated
        if w in denied or synonym_class(w, denied) is not None
    )


_POLE_WORDS = frozenset(w.rstrip("-") for _, a, b in ANTONYMS for w in a | b)


def affirmed_denied(exp_morphs: Sequence[Morph], cand_morphs: Sequence[Morph]) -> frozenset[str]:
    """The words a denying word of the expected text denies that the candidate says with no
    negation and without the denying word ("경매 불참" answered "경매에 참석하십니다", "휴진"
    answered "진료 봅니다"): the opposite fact (since lexical-24). Main verbs and nouns only (가
    있어요 is no 있다 of presence)."""
    # a word of a scale (휴관: open/close) is the opposite-act rule's, which names the other pole
    denials = {w: d for w, d in _denials(exp_morphs).items() if w not in _POLE_WORDS}
    if not denials or any((m.form, m.tag) in NEGATORS for m in cand_morphs):
        return frozenset()
    theirs = {m.form for m in cand_morphs} | set(_denials(cand_morphs))
    if any(w in theirs for w in denials):
        return frozenset()
    forbidden = _forbidden_nouns(exp_morphs)
    if forbidden & {m.form for m in cand_morphs} and (granted := _permission(cand_morphs)):
        return frozenset({granted})  # 외부 음식 반입 금지 answered 들고 오셔도 돼요 (lexical-43)
    # a word the expected text says itself is no contradiction of it ("무상 수거 신청은 …로
    # 받습니다": 받다 is said of the applications)
    said = {m.form for i, m in enumerate(exp_morphs) if not _in_a_denial(exp_morphs, i)}
    denied = frozenset().union(*denials.values()) - said
    return frozenset(
        m.form
        for m in cand_morphs
        if m.tag in ("VV", "VA", "NNG", "XR")
        and m.form not in said
        and (m.form in denied or kin(m.form, denied))
    )


NEGATORS = frozenset({("안", "MAG"), ("못", "MAG"), ("않", "VX"), ("못하", "VX"), ("없", "VA")})

FORBIDDING = frozenset({"금지", "불가", "불허"})
"""Nouns that forbid (사용 금지): an answer's 안, 못 or 말다 may say them as it may a negation (the
polarity rule compares both; since lexical-52: 사용 금지 = 사용하지 마십시오)."""
_GRANTING = frozenset({"되", "괜찮"})


def denies(exp: Analysis) -> bool:
    """The expected statement denies: a negation marker in a clause, or a forbidding noun (the
    answer's 안, 못, 않다 or 말다 beside a value may then say it; the polarity rule compares both)."""
    return any(NEGATION in s.markers for s in exp.segments) or any(
        m.form in FORBIDDING for m in exp.morphs
    )


def _forbidden_nouns(morphs: Sequence[Morph]) -> set[str]:
    """The nouns right before a forbidding word (외부 음식 반입 금지: 외부, 음식, 반입)."""
    out: set[str] = set()
    for i, m in enumerate(morphs):
        if m.form in FORBIDDING and m.tag.startswith("NN"):
            j = i - 1
            while (
                j >= 0
                and morphs[j].tag in ("NNG", "NNP")
                and morphs[j].end + 1 >= morphs[j + 1].start
            ):
                out.add(morphs[j].form)
                j -= 1
    return out


def _permission(morphs: Sequence[Morph]) -> str | None:
    """The permission an answer grants (-어도 돼요, -아도 괜찮아요), in words: "외부 음식 반입 금지"
    answered "외부 음식 들고 오셔도 괜찮아요" allows what the statement forbids, whatever verb says
    the act, when it names what the forbidding word's nouns name (since lexical-43). None without
    one; the caller has made sure no negation is said."""
    for i, m in enumerate(morphs[:-1]):
        after = morphs[i + 1]
        if m.tag == "EC" and m.form.endswith("도") and m.form[:-1] in ("어", "아", "여", "해"):
            if after.form in _GRANTING and after.tag in ("VV", "VA"):
                return f"-{m.form} {after.form}-"
    return None


@lru_cache(maxsize=1 << 12)
def denied_state_words(exp: Analysis, cand: Analysis) -> frozenset[str]:
    """The answer's words that deny the other state of a two-state scale the expected statement
    says one state of (안 + 열- for 휴관): accounted for by that state (lexical/accounting.py)."""
    if denies_with_a_word(exp.morphs, cand.morphs):  # 불허 for 허가되지 않았다, 미완료
        words = _denials(cand.morphs)
        denied = frozenset().union(*words.values())
        return frozenset(
            {m.form for m in cand.morphs if m.tag == "XPN" and m.form in _DENYING_PREFIXES}
            | {w for w in words if w in DENYING_NOUNS}
            | {m.form for m in cand.morphs if m.form in denied}
        )
    negated = negated_words(cand.morphs)
    if not negated:
        return frozenset()
    if denied_opposite(exp.morphs, negated):
        return frozenset(negated | {f for f, _ in NEGATORS} | {"지"})
    by_word = denied_by_word(exp.morphs, cand.morphs)
    if not by_word:
        return frozenset()
    denied = frozenset().union(*_denials(exp.morphs).values())
    said = {m.form for m in cand.morphs if m.form in denied}  # 진료를 안 보십니다 for 휴진
    return frozenset(by_word | said | {f for f, _ in NEGATORS} | {"지"})


@lru_cache(maxsize=1 << 12)
def stated_by_denial(exp: Analysis, cand: Analysis) -> frozenset[str]:
    """The expected statement's words the answer states by denying the other state (휴관 in 안
    열어요): found, for recall."""
    negated = negated_words(cand.morphs)
    if not negated:
        return frozenset()
    by_word = denied_by_word(exp.morphs, cand.morphs)
    denials = _denials(exp.morphs)
    return denied_opposite(exp.morphs, negated) | {
        w for w, denied in denials.items() if by_word & denied
    }
