"""Words that change what a value means: hedges as classes (docs/metrics.md), contrast and
replacement words that set a value aside, retraction verbs, and the closed lists of words the judge
knows to be neutral — everything else next to a value is *unverified* (the judge fails closed)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from seorap.engine.scoring.lexical.lexicon import neutral_word, synonym_class
from seorap.engine.scoring.lexical.text import Morph

RETRACT_VERBS = frozenset(
    {"접", "엎", "엎어지", "포기", "그만두", "뒤집", "무르", "물리", "거두", "빠지", "바로잡"}
)
"""Verbs of giving a plan up, turning a decision over or leaving someone out (by kiwipiepy's VV
stem; 빠지다 since lexical-5: "서아린은 빠졌어요"). 빼다 is read as a contrast word (A 빼고 B)."""
RETRACT_NOUNS = frozenset({"포기", "백지화", "원점", "물거품", "없던 일", "취하", "파기", "해지"})
"""Nouns of the same (포기하다, 원점으로 돌아가다, 계약 파기)."""

NEGATING_ADVERBS = frozenset({("없이", "MAG"), ("전혀", "MAG"), ("결코", "MAG")})
"""Adverbs that carry a negation themselves (QA 승인 없이 = without)."""

ASIDE_WORDS = frozenset(
    {
        ("대신", "NNG"),
        ("대신", "MAG"),
        ("말", "VV"),
        ("말", "VX"),
        ("아니", "VCN"),
        ("빼", "VV"),
        ("제외", "NNG"),
        ("옛날", "NNG"),
        ("예전", "NNG"),
        ("과거", "NNG"),
        ("옛말", "NNG"),
        ("다가", "EC"),
    }
)
"""Contrast and replacement words: the phrase before one (A 대신 B, A 말고 B, A가 아니라 B, A 빼고,
A는 옛날 얘기고) is set aside — not what the sentence states."""

LIST_WORDS = frozenset({"및", "그리고", "도", "랑", "이랑", "하고", "와", "과", "이고"})
"""Connectives that join list members: a noun listed beside the expected ones must be known."""

# ---- hedges, as classes -------------------------------------------------------------------------

MODAL_NOUNS = frozenset({"듯", "듯이", "모양", "것", "거", "수", "지", "법", "터", "셈"})
"""Dependent nouns that, after an adnominal ending, make a guess: …ㄴ 듯하다, …ㄴ 모양이다,
…ㄹ 것이다 / 거예요, …ㄹ 수도 있다, …ㄹ지도, …ㄹ 법하다."""
NOMINAL_NOUNS = frozenset(
    {
        "데",
        "중",
        "때",
        "후",
        "전",
        "뒤",
        "동안",
        "만큼",
        "대로",
        "바",
        "줄",
        "적",
        "김",
        "채",
        "뿐",
        "등",
        "분",
    }
)
"""Dependent nouns that, after an adnominal ending, name a time, a place, a manner or (분, since
lexical-25) a person: 보내신 분 is who sent it (…하는 중,
…한 후, …한 대로): no guess. Every other dependent noun after an adnominal ending is read as one
(a closed class, so an unlisted modal construction is a hedge, never neutral)."""
LIKELIHOOD_NOUNS = frozenset(
    {"가능성", "공산", "전망", "예상", "추정", "분위기", "잠정", "유력", "확률", "짐작", "추측"}
)
"""Nouns that say how likely something is rather than that it is."""
APPROXIMATION = frozenset(
    {
        "약",
        "대략",
        "얼추",
        "거의",
        "대충",
        "쯤",
        "가량",
        "안팎",
        "내외",
        "전후",
        "남짓",
        "정도",
        "즈음",
    }
)
"""Words that make a value approximate (약 300만 원, 300만 원 안팎, 14일 전후)."""
GUESS_ADVERBS = frozenset({"아마", "아마도", "어쩌면", "혹시", "혹은", "또는", "글쎄", "왠지"})
HEARSAY_ENDINGS = frozenset(
    {"다고", "ᆫ다고", "는다고", "라고", "대", "ᆫ대", "는대", "대요", "래", "래요",
     "더라", "더라고"}
)  # fmt: skip
"""Quoted or reported speech (…한대요, …라고 하네요): the answer says where it has the value from,
not that the value is in doubt, so these endings are neutral (NEUTRAL_ENDINGS). Doubt needs a word
of its own (…것 같다, 아마, 유력, …ㄹ 수도), which the other hedge classes read; 들었다 ("I heard")
stays a hedge, as it is said of what one has not checked."""
GUESS_ENDINGS = frozenset({"나", "ᆯ까", "ᆯ걸", "겠", "ᆯ지", "을지", "ᆯ지도"})
"""…나 보다 (an inference), …ㄹ까, …ㄹ걸, the suppositional 겠."""


def hedge_classes(morphs: Sequence[Morph]) -> set[str]:
    """Hedge classes found in ``morphs`` (each named with the words that showed it)."""
    found: set[str] = set()
    for i, m in enumerate(morphs):
        nxt = morphs[i + 1] if i + 1 < len(morphs) else None
        if (
            m.tag == "ETM"
            and nxt is not None
            and nxt.tag == "NNB"
            and nxt.form not in MODAL_NOUNS
            and nxt.form not in NOMINAL_NOUNS
        ):
            found.add(f"guess (…{m.form} {nxt.form})")  # any other adnominal + dependent noun
        elif m.tag == "ETM" and nxt is not None and nxt.tag == "NNB" and nxt.form in MODAL_NOUNS:
            after = morphs[i + 2] if i + 2 < len(morphs) else None
            if nxt.form in ("것", "거") and not (
                after is not None
                and (after.form == "같" or (after.tag == "VCP" and m.form in ("ᆯ", "을")))
            ):
                continue  # …하는 것은: a nominalisation, no guess
            if nxt.form in ("수", "지") and not (after is not None and after.form == "도"):
                continue
            found.add(f"guess (…{m.form} {nxt.form})")
        elif m.tag.startswith("NN") and m.form in LIKELIHOOD_NOUNS:
            found.add(f"likelihood ({m.form})")
        elif m.tag == "XR" and m.form in LIKELIHOOD_NOUNS:
            found.add(f"likelihood ({m.form})")
        elif m.form in APPROXIMATION and m.tag in ("MM", "MAG", "NNG", "NNB", "XSN", "JX"):
            found.add(f"approximation ({m.form})")
        elif m.tag == "MM" and m.form == "한" and nxt is not None and nxt.tag == "SN":
            found.add("approximation (한 + number)")
        elif m.tag in ("MAG", "MAJ") and m.form in GUESS_ADVERBS:
            found.add(f"guess ({m.form})")
        elif m.form == "듣" and m.tag == "VV":
            found.add("hearsay (들었다)")
        elif m.tag.startswith("E") and m.form in GUESS_ENDINGS:
            if m.form == "나" and not (nxt is not None and nxt.form == "보"):
                continue
            found.add(f"guess (…{m.form})")
    return found


# ---- what the judge knows to be neutral ------------------------------------------------------------

NEUTRAL_ENDINGS = frozenset(
    {
        "다", "ᆫ다", "는다", "어요", "아요", "여요", "에요", "예요", "이에요", "요", "ᆸ니다",
        "습니다", "ᆸ니까", "습니까", "어", "아", "여", "지요", "죠", "네요", "네", "음", "ᆷ", "기",
        "ᆫ", "은", "는", "ᆯ", "을", "고", "며", "으며", "면서", "으면서", "어서", "아서",
        "여서", "지만", "게", "도록", "어야", "아야", "었", "았", "였", "시", "으시", "세요", "으세요",
        "셨", "ᆫ데", "는데", "은데", "니", "으니", "라", "이라", "지", "기로", "로", "ᆫ지", "다가",
        *HEARSAY_ENDINGS,
    }
)  # fmt: skip
"""Endings (EF, EC, EP, ETM, ETN) that state, connect, mark tense and honour, or report what
someone said (HEARSAY_ENDINGS)."""
NEUTRAL_ADVERBS = frozenset(
    {
        "이번", "바로", "다시", "이미", "모두", "전부", "다", "함께", "같이", "직접", "먼저", "또",
        "그리고", "계속", "현재", "지금", "총", "각각", "새로", "따로", "정식", "최종", "최종적",
        "결국", "드디어", "이제", "매주", "매일", "매달", "매월", "매년", "오늘", "내일", "및",
        "그래서", "따라서", "또한", "정상", "모두다", "곧바로", "일단", "우선", "새", "첫", "각",
        "매", "전체", "그대로", "역시", "꼭", "반드시", "확정", "공식", "각자", "주로", "당장",
    }
)  # fmt: skip
"""Adverbs and determiners (MAG, MAJ, MM) that do not change a value."""


NEUTRAL_AUXILIARIES = frozenset(
    {"있", "주", "두", "놓", "가", "오", "지", "하", "되", "버리", "내"}
)
"""Auxiliary verbs (VX) of aspect and benefaction: 하고 있다, 해 주다, 해 두다, 되어 가다."""
CONTRAST_ENDINGS = frozenset({"지만", "는데", "ᆫ데", "은데", "으나", "나"})
"""Endings that set a clause against the next: neutral only where the value rules understood the
contrast (a value marked former, 예전엔 A였지만 지금은 B); otherwise unverified."""


NEGATING_WORDS = frozenset(
    {("안", "MAG"), ("못", "MAG"), ("않", "VX"), ("못하", "VX"), ("말", "VX")}
)
"""Negation by adverb or auxiliary: neutral beside a value only when the expected statement is
negated too (the polarity rule has then checked that both say no). 말 (-지 말다) since lexical-52."""
PASSING_VERBS = frozenset({"지나", "넘", "경과"})
"""…분 지나면 만료: a condition that only counts time, not one that may not happen."""


def _neutral_condition(morphs: Sequence[Morph], i: int, known: frozenset[str]) -> bool:
    """A -면 that states no condition on the value: ``…하면 되다`` (all one needs to do) and time
    passing followed by what the expected statement says happens then (``120분 지나면 만료`` for
    "만료 시간은 2시간"; ``30분 넘으면 실패로 처리`` for "30분마다 돈다" is another statement). Any
    other -면 makes the value conditional (``승인되면 3월 5일``)."""
    nxt = morphs[i + 1] if i + 1 < len(morphs) else None
    prev = morphs[i - 1] if i > 0 else None
    if nxt is not None and nxt.form == "되" and nxt.tag == "VV":
        return True
    if prev is None or prev.form not in PASSING_VERBS:
        return False
    then = [m for m in morphs[i + 1 :] if m.tag in ("NNG", "NNP", "VV", "VA")]
    return bool(then) and all(m.form in known for m in then)


BOUNDS = (
    frozenset({"이하", "이내", "안쪽", "최대", "미만", "최고"}),
    frozenset({"이상", "초과", "최소", "최저", "넘게"}),
)
"""Words that make a value a bound rather than the value (2억 원 이상, 최대 3일): an upper and a
lower class. A bound of a class the expected statement has no word of is unverified."""
LIMIT_NOUNS = frozenset({"목표", "한도", "상한", "하한", "기준", "제한", "범위"})
"""Nouns that make the expected value itself a limit (응답 시간 목표는 200ms): any bound may say it."""


UPPER_LIMITS = frozenset({"한도", "상한", "최대", "최고", "이하", "이내", "정원"})
"""Words that make the expected value an upper limit (이용 한도 40시간, 최대 수용 인원 45명):
…ㄹ 수 있다 beside it says what the limit allows (40시간까지 쓸 수 있어요; since lexical-37)."""
UPPER_BOUNDS = frozenset({"이하", "이내", "미만", "최대", "한도", "상한", "제한", "까지"})
"""Words that make an expected value an upper limit past which an answer may say what is not
allowed (20kg 이하만 가능 / 20킬로그램 넘으면 안 돼요; constructions.past_the_limit, lexical-38).
Beside UPPER_LIMITS (…ㄹ 수 있다), BOUNDS (a bound word's class) and LIMIT_NOUNS (any bound)."""


def bound_words(morphs: Sequence[Morph], known: frozenset[str]) -> list[str]:
    """Bound words among ``morphs`` (one clause stating a value) of a class the expected
    statement (its words ``known``) neither uses nor makes a limit of; and ``…ㄹ 수 있다`` (can
    be), which says what is possible, not what is."""
    if known & LIMIT_NOUNS:
        return []
    out = []
    for i, m in enumerate(morphs):
        nxt = morphs[i + 1] if i + 1 < len(morphs) else None
        form = m.form + "게" if m.form == "넘" and nxt is not None and nxt.form == "게" else m.form
        for cls in BOUNDS:
            if form in cls and not (cls & known):
                out.append(form)
        if (
            m.tag == "ETM"
            and m.form in ("ᆯ", "을")
            and nxt is not None
            and nxt.form == "수"
            and any(x.form in ("있", "없") for x in morphs[i + 2 : i + 4])
            and not ({"수", "있"} <= known and {"ᆯ", "을"} & known)
            and "가능" not in known  # 가능합니다 said as …ㄹ 수 있어요
            and not known & UPPER_LIMITS  # 최대 45명: 45명까지 받을 수 있어요 (lexical-37)
        ):
            out.append("-ㄹ 수 있-")  # unless the expected statement says it too (since lexical-24)
    return out


def unverified(
    morphs: Sequence[Morph],
    known: frozenset[str],
    *,
    contrast_read: bool = False,
    negated: bool = False,
) -> list[str]:
    """Words among ``morphs`` (one clause stating a value) the judge cannot vouch for: adverbs,
    determiners, auxiliary verbs and endings outside the neutral lists and not in ``known`` (the
    expected text's and question's own words); a contrast ending unless ``contrast_read``; a
    negating adverb or auxiliary unless the expected statement is ``negated`` too."""
    out: list[str] = []
    for i, m in enumerate(morphs):
        if m.tag == "EC" and m.form in CONTRAST_ENDINGS and not contrast_read:
            out.append(f"-{m.form}")
            continue
        if m.form in known:
            continue
        if negated and (m.form, m.tag) in NEGATING_WORDS:
            continue
        if m.tag == "EC" and m.form in ("면", "으면") and _neutral_condition(morphs, i, known):
            continue
        if m.tag in ("MAG", "MAJ", "MM") and m.form not in NEUTRAL_ADVERBS:
            if not neutral_word(m):
                out.append(m.form)
        elif m.tag == "VX" and m.form not in NEUTRAL_AUXILIARIES and not neutral_word(m):
            out.append(f"-{m.form}-")
        elif m.tag[:2] in ("EF", "EC", "EP", "ET") and m.form not in NEUTRAL_ENDINGS:
            if not neutral_word(m):  # the neutral lexicon's endings (since lexical-19)
                out.append(f"-{m.form}")
    return list(dict.fromkeys(out))


def aside_spans(
    text: str, morphs: Sequence[Morph], segments: list[tuple[int, int]]
) -> list[tuple[int, int, str]]:
    """(start, end, word): the phrase before a contrast or replacement word, from the start of its
    clause (or the previous such word) to the word."""
    out: list[tuple[int, int, str]] = []
    for i, m in enumerate(morphs):
        if (m.form, m.tag) not in ASIDE_WORDS:
            continue
        if m.form == "아니" and not _follows_noun_phrase(text, m.start):
            continue
        nxt = morphs[i + 1].form if i + 1 < len(morphs) else ""
        if m.form in ("옛날", "예전", "과거", "옛말") and nxt not in ("얘기", "이야기", "일", "말"):
            continue  # 예전엔 A: the former-value rule reads it (the value after it)
        if m.form in ("말", "빼") and nxt != "고":
            continue  # A 말고 B, A 빼고: not 말다/빼다 as the predicate
        if m.form == "말" and i and morphs[i - 1].tag == "EC":
            continue  # 늦지 말고: a verb's 말다 (do not), not "A 말고 B"
        after = morphs[i + 2].form if i + 2 < len(morphs) else ""
        if m.form == "대신" and nxt == "하" and after not in ("고", "어", "여", "아"):
            continue  # B로 대신합니다 (= 대체하다): the predicate; A를 대신하고 B sets A aside
        if m.form == "대신" and (i == 0 or _NOT_A_NOUN.match(morphs[i - 1].tag)):
            continue  # 총무님이 대신 받아서: on someone's behalf, nothing set aside (lexical-44)
        if m.form == "제외" and not (nxt == "하" and after in ("고", "면", "ᆫ")):
            continue  # A를 제외하고; a bare 제외 is the predicate (Lambda는 … 제외)
        seg = next(((a, b) for a, b in segments if a <= m.start < b), (0, len(text)))
        start = max([seg[0], *(e for _, e, _ in out if seg[0] <= e <= m.start)])
        if m.form == "아니":  # 3월 1일부터는 9시가 아니라: the topic before is not set aside
            topics = [t.end for t in morphs[: max(i - 1, 0)] if t.tag == "JX" and t.end > start]
            last = max([start, *topics])  # not the 는 of "A는 아니고" itself
            if any(last <= t.start < m.start and t.tag in _NUMBER_TAGS for t in morphs):
                start = last  # only when a value is what is set aside (무선 제본이 아니라: not)
        if m.start > start:
            out.append((start, m.start, m.form))
    return out


_NUMBER_TAGS = frozenset({"SN", "NR", "W_SERIAL"})
_NOT_A_NOUN = re.compile(r"J|E|S[FPSEOW]")
"""Tags after which 대신 is an adverb (a particle, an ending, punctuation): nothing before it to
set aside."""


def _follows_noun_phrase(text: str, at: int) -> bool:
    """``A가 아니라``, ``A는 아니고``: 아니 right after a noun phrase and its particle."""
    before = text[:at].rstrip()
    return bool(before) and before[-1] in "가이은는"


OPPOSITES: tuple[tuple[frozenset[str], ...], ...] = (
    (frozenset({"금지", "불허", "불가"}), frozenset({"허용", "허가"})),
    (
        frozenset({"온라인", "비대면", "원격", "웨비나"}),
        frozenset({"오프라인", "대면", "현장", "집합"}),
    ),
    (frozenset({"내부", "자체", "직접", "인하우스"}), frozenset({"외주", "아웃소싱", "외부 업체"})),
    (
        frozenset({"매주", "주간", "주 1회"}),
        frozenset({"매달", "매월", "월간", "월 1회"}),
        frozenset({"매일", "일간"}),
        frozenset({"매년", "연간"}),
        frozenset({"격주"}),
    ),
    (frozenset({"정규직"}), frozenset({"계약직"})),
    (frozenset({"유료"}), frozenset({"무료"})),
    (frozenset({"찬성"}), frozenset({"반대"})),
    (frozenset({"상향", "인상", "증액"}), frozenset({"하향", "인하", "감액"})),
    # a date or a period moved later or longer, or earlier or shorter (lexical-52)
    (frozenset({"연장", "미뤄", "미루", "늦춰", "늦추"}), frozenset({"앞당", "단축"})),
    (frozenset({"왕복"}), frozenset({"편도"})),  # a fare both ways or one way (lexical-53)
)
"""Values of one slot given as common nouns: the poles of each group exclude each other (금지 vs
허용, 온라인 vs 오프라인, 매주 vs 매달). Matched on the text without spaces."""


COUNTERPARTS: tuple[tuple[frozenset[str], ...], ...] = (
    (frozenset({"평일", "주중"}), frozenset({"주말", "토요일", "일요일", "공휴일", "휴일"})),
    (frozenset({"성인", "어른"}), frozenset({"어린이", "아동", "청소년", "소인", "학생"})),
    (frozenset({"주간"}), frozenset({"야간"})),
    (frozenset({"상행", "상행선"}), frozenset({"하행", "하행선"})),
    (frozenset({"내국인"}), frozenset({"외국인"})),
    (frozenset({"회원"}), frozenset({"비회원"})),
    (frozenset({"성수기"}), frozenset({"비수기"})),
)
"""Owners of one slot that take turns (평일 / 주말: the same fee, the same hours, for another
part of the week): an answer's clause about the other one is no other slot, it is the same slot
of another owner."""


def counterpart(word: str, nouns: Sequence[str]) -> bool:
    """``word`` is another owner of a slot one of ``nouns`` owns: the other pole of a group of
    :data:`COUNTERPARTS` (listed only: by shape, 납입 would be 가입's)."""
    for n in nouns:
        for group in COUNTERPARTS:
            if any(word in pole for pole in group) and any(n in pole for pole in group):
                if not any(word in pole and n in pole for pole in group):
                    return True
    return False


def _poles(text: str, group: tuple[frozenset[str], ...]) -> dict[int, str]:
    """{pole index: word} for the group's words in ``text``, longest first (비대면 is not 대면)."""
    found: dict[int, str] = {}
    words = sorted(((w, i) for i, p in enumerate(group) for w in p), key=lambda x: (-len(x[0]), x))
    for word, i in words:
        key = word.replace(" ", "")
        if key in text:
            found.setdefault(i, word)
            text = text.replace(key, "|")
    return found


def opposite(expected: str, candidate: str) -> tuple[str, str] | None:
    """(expected word, candidate word) when the candidate fills a slot with another pole of a group
    than the expected statement and never says the expected pole."""
    for group in OPPOSITES:
        mine, theirs = _poles(expected, group), _poles(candidate, group)
        if len(mine) != 1 or not theirs or next(iter(mine)) in theirs:
            continue
        return next(iter(mine.values())), next(iter(theirs.values()))
    return None


def _siblings(a: str, b: str) -> bool:
    """Two nouns of one slot's poles by their shape: the same length (two syllables or more) and
    all syllables shared but one that is not the last (정문 / 후문, 입고 / 출고, 오전반 / 오후반), or
    the same ending of two syllables or more after another start (인바운드 / 아웃바운드)."""
    if a == b or min(len(a), len(b)) < 2:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 and diff[0] != len(a) - 1
    tail = 0
    while tail < min(len(a), len(b)) and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    return tail >= 2 and tail < min(len(a), len(b)) and a[0] != b[0]


def sibling(
    expected_nouns: Sequence[str], candidate_nouns: Sequence[str], known: str, said: str
) -> tuple[str, str] | None:
    """(expected noun, candidate noun): an expected noun the candidate never says, and a noun of
    the candidate that neither the expected statement nor the question has (``known``) and that is
    its sibling by shape (:func:`_siblings`) — the other pole of the slot, with no pair listed in
    :data:`OPPOSITES` (inbound / outbound kinds). ``said``: the candidate without spaces."""
    for x in expected_nouns:
        if x in said or not all("가" <= ch <= "힣" for ch in x):
            continue
        for y in candidate_nouns:
            if y not in known and _siblings(x, y) and synonym_class(y, frozenset({x})) is None:
                return x, y  # 본인 for 개인: one meaning class, no sibling (lexical-38)
    return None
