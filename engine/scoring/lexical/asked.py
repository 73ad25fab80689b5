"""What a question asks for, by its question word, and so which expected values an answer must say.

Asked "개막작 몇 시에 틀어요?", "저녁 7시 반이요" answers it: the expected statement's date and
hall are the setting of the fact, not what was asked, and a person answering leaves them out.
Since lexical-9 an expected value the answer leaves out is not *missing* when the question asks,
by a question word, for values of other kinds only (몇 시 → a time; 언제, 며칠 → a day or a time;
몇 명 → people; 누가 → a person or a team; 얼마 → an amount; 몇 + a counter → that counter;
얼마나 걸려요, 며칠 동안 → a duration).

It stays missing when the question has no question word (a yes/no question: its answer must say
the value), when it has an open one whose kind cannot be told (어느, 무슨, 어떤, 뭐, 어디, 어떻게,
왜: "어느 진료실" asks for a room that may be a number), or when the value is of an asked kind.
Only the setting of the asked value is left out: values said in the same place as an asked value
the answer states (the same clause of the expected statement, the same side of its topic particle,
the same bracket), and, since lexical-11, values in a bracket written right after a word the
question names (``코코(말티즈, 보호자 이수진 님)`` asked about 코코: it says which one is meant) and
the values the question itself names (코코). A value in a clause of its own (``2명 (한
자리는 1분기로 연기)``) is a condition or an exception, and an answer without it is missing a
clause. A value the answer states otherwise is never left out: it is a wrong value (the other
rules)."""

from __future__ import annotations

import re
from functools import lru_cache

from seorap.engine.scoring.lexical.analysis import Analysis, Segment, _compact
from seorap.engine.scoring.lexical.clauses import _noun_in
from seorap.engine.scoring.lexical.lexicon import synonym_class
from seorap.engine.scoring.lexical.qualifiers import overridden, qualifies
from seorap.engine.scoring.lexical.statement_clauses import Clause
from seorap.engine.scoring.lexical.statement_clauses import clauses as _clauses
from seorap.engine.scoring.lexical.topic import statement_topic as _head
from seorap.engine.scoring.lexical.value import UNIT_ALIASES, Value, kind, same

DAY_KINDS = frozenset({"date", "weekday", "month", "year", "vague-date", "time"})
AMOUNT_KINDS = frozenset(
    {"money", "수", "%", "size", "mass", "length", "duration", "volume", "area", "power", "speed"}
)
_COUNTERS = (
    "개월|개|대|건|곳|번|회|층|권|장|잔|병|마리|척|채|상자|박스|팔레트|톤|kg|평|호실|호|반|학년|살|세|"
    "도(?!록|서|로|시)|(?:킬로|키로)(?!미터|그램|리터|와트|바이트)|(?:밀리|미리)(?!초|미터|리터|그램)"
)
_SHORT_UNITS = {"킬로": frozenset({"mass", "length"}), "밀리": frozenset({"length", "volume"})}
"""몇 킬로 / 몇 미리 ask a mass or a length / a length or a volume, as the statement's unit tells
(lexical-43; lexical/kilo.py); 밀리초 and 킬로미터 are words of their own, not asked so."""

ASKS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (re.compile(r"몇\s*시(?!간|즌|리즈)"), frozenset({"time"})),
    (re.compile(r"언제|며칠|몇\s*월|몇\s*일|날짜"), DAY_KINDS),
    (re.compile(r"무슨\s*요일|몇\s*요일|어느\s*요일"), frozenset({"weekday", "date"})),
    (
        re.compile(r"몇\s*(?:시간|분|일|주|개월|달|년)\s*(?:동안|간|걸)|얼마나\s*(?:걸|오래)|기간"),
        frozenset({"duration"}),
    ),
    (
        re.compile(r"몇\s*(?:명|분|사람)|인원"),
        frozenset({"명", "인분", "인"}),
    ),  # 120인분: lexical-39
    (re.compile(r"몇\s*분"), frozenset({"duration"})),  # 몇 분: people or minutes, both asked
    (re.compile(r"누가|누구|누군"), frozenset({"person", "team", "name"})),
    (re.compile(r"얼마"), AMOUNT_KINDS),
)
"""Question words and the kinds of value each asks for."""
_PRICE_ASKED = re.compile(
    r"(?:비용|요금|가격|값|금액|단가|료|비|돈)\s*(?:은|는|이|가|을|를)?\s*얼마(?!나)"
)
"""얼마 after a price's noun asks for money only (since lexical-24): "수강료 얼마예요?" does not
ask how many weeks the course runs."""


def _groups(text: str) -> list[frozenset[str]]:
    """The kinds each question word of ``text`` asks for, one set per word (몇 + a counter: that
    counter)."""
    out = [asked for pattern, asked in ASKS if pattern.search(text)]
    if AMOUNT_KINDS in out and len(_PRICE_ASKED.findall(text)) == text.count("얼마"):
        out[out.index(AMOUNT_KINDS)] = frozenset({"money"})
    counters = (_counter(m[1]) for m in _BY_COUNTER.finditer(text))
    return out + [_SHORT_UNITS.get(c, frozenset({c})) for c in counters]


def _counter(word: str) -> str:
    """A counter as values are typed (몇 번 asks for 번, which values call 회; since lexical-27)."""
    return UNIT_ALIASES.get(word.lower(), word.lower())


_BY_COUNTER = re.compile(rf"몇\s*({_COUNTERS})")
OPEN = re.compile(
    r"어느|무슨(?!\s*요일)|어떤|어떻게|어때|뭐|무엇|무얼|어디|왜"
    r"|장소|위치|방법|준비물|이유|조건|절차|서류"
)
"""Question words whose kind of value cannot be told, and (since lexical-28) nouns that ask for a
kind no question word types (장소, 방법, 준비물 …: "날짜랑 장소 알려 주세요" asks the place's clause
too): nothing is left out."""


def _named_kinds(q: Analysis) -> frozenset[str]:
    """The kinds the question's words ask for, open words beside them or not (kinds() gives none
    when an open word makes the whole question's kind unknown)."""
    return frozenset().union(*_groups(q.text))


def kinds(q: Analysis | None) -> frozenset[str]:
    """The kinds of value question ``q`` asks for (empty: every expected value is asked)."""
    if q is None or OPEN.search(q.text):
        return frozenset()
    return _named_kinds(q)


def _of(v: Value, asked: frozenset[str]) -> bool:
    return kind(v) in asked or v.type in asked


def setting(
    unsaid: list[Value], stated: list[Value], exp: Analysis, q: Analysis | None
) -> list[Value]:
    """The expected values of ``unsaid`` that are the setting of what question ``q`` asks: of no
    asked kind, in a clause of ``exp`` that holds a ``stated`` value of an asked kind."""
    if not unsaid:
        return []
    asked = kinds(q)
    if not asked or q is None:
        return []
    other_end = _other_ends(unsaid, stated, exp, q)
    answered = [v for v in stated if _of(v, asked)]
    places = {_place(exp, v) for v in answered} - {None}
    return [
        v
        for v in unsaid
        if v in other_end
        or not _of(v, asked)
        and (_place(exp, v) in places or (answered and (said(v, q) or _describes_named(exp, v, q))))
    ]


_RANGE = re.compile(r"^\s*(?:[~∼–\-]|부터|에서)\s*$")
_ASKS_START = re.compile(r"시작|부터|열어|열어요|여는|열리|오픈|개장|개시|출발")
_ASKS_END = re.compile(r"까지|끝나|끝내|마감|종료|닫|폐장|마치")


def _ends(exp: Analysis, q: Analysis | None) -> list[tuple[Value, Value]]:
    """(the end asked, the other end) of each expected range (A~B, A부터 B, A에서 B) when the
    question asks for one end only: its start (시작, 부터, 열어 …) or its end (까지, 끝나, 마감 …)."""
    if q is None:
        return []
    start = bool(_ASKS_START.search(q.text))
    if start == bool(_ASKS_END.search(q.text)):
        return []
    out = []
    for a, b in zip(exp.values, exp.values[1:], strict=False):
        join = _RANGE.match(exp.text[a.end : b.start])
        if kind(a) != kind(b) or join is None or a.former or b.target:
            continue  # 22시에서 21시 30분으로: a change, not a range
        if join[0].strip() in ("부터", "에서") and not exp.text.startswith("까지", b.end):
            continue  # A부터 B까지, A에서 B까지; 6,000원에서 7,000원으로 is no range
        out.append((a, b) if start else (b, a))
    return out


def _other_ends(
    unsaid: list[Value], stated: list[Value], exp: Analysis, q: Analysis
) -> list[Value]:
    """The unsaid ends of the expected ranges whose asked end the answer states (since
    lexical-24): asked "몇 시에 시작해요?" of "운영 시간 오전 9시~오후 1시", "오전 9시요" answers
    it; asked "언제까지 해요?", the end does. The other end of a former range (08:00~12:00에서 …
    으로: its asked end former) is not asked either (since lexical-47)."""
    return [
        other for end, other in _ends(exp, q) if (end in stated or end.former) and other in unsaid
    ]


def other_end_given(
    stated: list[Value], exp: Analysis, q: Analysis | None
) -> list[tuple[str, str]]:
    """(the end asked, the other end) where the answer states a range's other end for the end
    the question asks and not the asked one: "몇 시에 시작해요?" of "오전 9시~오후 1시" answered
    "오후 1시에 시작해요" says the closing time is the opening time (a wrong value)."""
    return [
        (end.text, other.text)
        for end, other in _ends(exp, q)
        if other in stated and end not in stated
    ]


def unasked_clauses(stated: list[Value], exp: Analysis, q: Analysis | None) -> list[Value]:
    """Values of the expected clauses a question does not touch, when it touches others and the
    answer states a value of one of those (since lexical-20): "하드커버는 몇 부예요?" of "논문 제본은
    하드커버 10부, 소프트커버 5부" asks the first clause only, and "10부요" answers it (a name the
    question says, 하드커버, need not be said again either). See ``unasked_segments``."""
    segs = unasked_segments(stated, exp, q)
    if not segs or q is None:
        return []
    named = [
        v
        for s in exp.segments
        if s not in segs
        for v in s.values
        if v.type == "name" and _compact(v.text) in q.compact
    ]
    return [v for s in segs for v in s.values] + named


def unasked_segments(stated: list[Value], exp: Analysis, q: Analysis | None) -> tuple[Segment, ...]:
    """The segments of the expected clauses a question does not touch (``unasked_clauses``).

    A clause is a segment with a noun of its own (a run of values after it, "5km, 10km, 20km", is
    part of it). It touches the question by a noun of its own — one no other clause has, and not
    the statement's topic (the first clause's words before 은/는 or, without one, before its first
    value: "뷔페 오픈 11:30, 마감 14:30" is all about 뷔페) — or by a value the question names. Only
    a question that asks for one thing by a question word (몇, 언제, 얼마, 누가, 어디, 어느 …) picks
    clauses; "계획 알려 주세요" and "어떻게 됐어요?" ask the whole."""
    return _unasked_segments(tuple(stated), exp, q)


@lru_cache(maxsize=1 << 12)
def _unasked_segments(
    stated: tuple[Value, ...], exp: Analysis, q: Analysis | None
) -> tuple[Segment, ...]:
    if q is None or not (
        _PICKS.search(q.text)
        or _ALTERNATIVES.search(q.text)
        or any(p.search(q.text) for p, _ in ASKS)
    ):
        return ()
    if _NAMED_KIND.search(q.text) or _asks_twice(q.text):
        return ()  # 날짜랑 장소: a kind no question word types is asked of every clause
    clauses = _clauses(exp)
    if len(clauses) < 2:
        return ()
    touched = _touched(clauses, exp, q, stated)
    if not touched or len(touched) == len(clauses):
        return ()
    if not any(v in stated for c in touched for v in c[1]):
        return ()
    # what a question word asks for that no touched clause holds is asked of the others ("한 달에
    # 얼마를 내며": 월 310만 원 is asked though the question names none of its words); one value of
    # the word's kinds answers it (얼마 held by a fee does not ask the course's weeks too)
    held = {kind(v) for c in touched for v in c[1]} | {v.type for c in touched for v in c[1]}
    open_asks = frozenset().union(*(g for g in _groups(q.text) if not g & held))
    return tuple(
        s
        for c in clauses
        if c not in touched
        and not any(_of(v, open_asks) for v in c[1])
        and not any(
            v.target and kind(v) in held for v in c[1]
        )  # …로 연기: the asked value's new one
        and not qualifies(c, held, exp, q)  # 단 소나무류는 월 7만 원; 60cm 넘는 수조는 (lexical-49)
        for s in c[3]
    )


def _touched(
    clauses: list[Clause], exp: Analysis, q: Analysis, stated: tuple[Value, ...]
) -> list[Clause]:
    """The clauses the question touches (``_touches_question``). The first clause's topic is the
    statement's when another clause is touched by a word of its own and the first holds no value
    of a kind the question asks ("물레 체험반은 정원 8명이고 수강료는 1인 45,000원" asked "물레
    체험 수강료 얼마예요?": the fee's clause; asked "몇 명 뽑고 … 언제", the first clause's 2명 stays
    asked); with no clause
    touched by a word, a question word of a kind picks the one clause that holds values of that
    kind, when every other clause holds values of other kinds only ("투어 몇 시에 해요?" of "투어는
    토요일 오후 2시, 소요 시간 50분"; not "치어 입식 4월 5일, 성어 출하 4월 12일" asked "치어 언제":
    the answer's date would pick its own clause)."""
    _, head, by_words = _by_words(exp, q)
    touched = list(by_words)
    first = clauses[0]
    if first in touched and len(touched) > 1 and not any(_of(v, kinds(q)) for v in first[1]):
        topic = exp.segments[0].topic
        if not _touches_question(first, clauses, head | topic, q):
            touched.remove(first)  # not when it holds what the question asks (몇 명: its 2명)
    if touched:
        return touched
    asked = kinds(q)
    picked = [c for c in clauses if any(_of(v, asked) for v in c[1])]
    if len(picked) != 1 or not all(c[1] for c in clauses):
        return []  # the answer's own values never pick among clauses the question does not
    return picked if any(v in stated for v in picked[0][1]) else []


_QUESTION_WORD = re.compile(r"몇|며칠|언제|얼마|어디|누구|누가|어느|무슨|뭐|무엇|무얼|어떻게")


def asks_more(text: str) -> bool:
    """A question that names a kind no question word types (장소랑 날짜) or joins a second ask."""
    return bool(_NAMED_KIND.search(text) or _JOINED_ASKS.search(text))


def _asks_twice(text: str) -> bool:
    """Two question words joined in one question (몇 번 포트로 넣고, 끝나면 어디로 나와요?; 언제,
    어디서 해요?) ask two things: every clause is asked (since lexical-32)."""
    return len(_QUESTION_WORD.findall(text)) >= 2 and bool(_JOINED_ASKS.search(text))


_NAMED_KIND = re.compile(
    r"장소|위치|방법|준비물|이유|조건|절차|서류|각각|각자|둘 다|둘다|(?<=[가-힣])별(?=\s|$|로)"
)
"""Nouns that ask for a kind of answer no question word types (lexical-28), and words that ask
for each of several things (신고랑 납부 기한 각각: lexical-30; 레인별 마감: lexical-34)."""
_PICKS = re.compile(r"어느|무슨|어떤|뭐|무엇|무얼|어디|누구|몇|며칠")
"""Question words that ask for one thing (몇 + any counter too; not 어떻게, 어때, 왜: those ask
the whole)."""
_ALTERNATIVES = re.compile(r"[가-힣](?:요|까|니|냐)\s*,\s*[^,?]+[가-힣](?:요|까|니|냐)\s*\?\s*$")
"""A question offering two answers (들어와요, 나가요?) asks for one of them (lexical-44)."""


@lru_cache(maxsize=1 << 12)
def _by_words(
    exp: Analysis, q: Analysis
) -> tuple[tuple[Clause, ...], frozenset[str], tuple[Clause, ...]]:
    """(the statement's clauses, its topic, the clauses the question's words touch): read once per
    (statement, question) for the rules of this module that pick a clause."""
    clauses = tuple(_clauses(exp))
    head = _head(exp)
    touched = tuple(c for c in clauses if _touches_question(c, list(clauses), head, q))
    named = [c for c in touched if any(same(v, w) for v in c[1] for w in q.values)]
    if named and len(named) < len(touched):  # 5학년 asked: 3학년's clause is another owner's
        touched = tuple(c for c in touched if c in named or not _names_another(c, q))
    return clauses, head, overridden(clauses, touched)  # 단 해외 필자는 … (lexical-51)


def _names_another(c: Clause, q: Analysis) -> bool:
    """The clause holds a value of the kind of one the question names, and not that one: it is
    about another owner ("3학년 … 2만 5천 원" when the question asks about 5학년; lexical-34)."""
    return any(
        kind(v) == kind(w) and not any(same(v, x) for x in q.values)
        for v in c[1]
        for w in q.values
        if w.type not in _CONTEXT_TYPES
    )


_CONTEXT_TYPES = frozenset({"person", "name", "team"})
"""A person or a name the question says may be its context, not the owner it asks about
("홍수진 기자 휴가 때 교육청은 누가 챙겨요?": the one who covers is another person)."""


def _touches_question(c: Clause, clauses: list[Clause], head: frozenset[str], q: Analysis) -> bool:
    """A noun of the clause's own (in no other clause's text, not the statement's topic) or a
    value of it is in the question."""
    others = "|".join(d[2] for d in clauses if d is not c)
    own = [n for n in c[0] if n not in others and n not in head]
    return (
        any(_noun_in(n, q.nouns, q.compact) for n in own)
        or any(synonym_class(n, frozenset(q.nouns)) for n in own)  # 애 for 어린이 (lexical-32)
        or any(_compact(v.text) in q.compact for v in c[1] if not v.text.isdigit())
    )


def named_by_question(current: list[Value], stated: list[Value], q: Analysis | None) -> list[Value]:
    """Expected values the question says itself, once the answer states another expected value
    (since lexical-21): asked "3월부터 휴관일이 무슨 요일이에요?", "화요일이요" need not say 3월
    again. A yes/no question's values stay asked when the answer states none ("네 맞아요")."""
    if q is None or not any(v in stated for v in current):
        return []
    return [v for v in current if v not in stated and said(v, q)]


def said(v: Value, q: Analysis) -> bool:
    """The question names ``v`` itself (as a value or in its words): asked about 코코, an answer
    need not say 코코 again."""
    return (
        any(same(v, w) or (w.type == "수" and w.key == v.key) for w in q.values)
        or "".join(v.text.lower().split()) in q.compact
    )  # 512 names 512GB: a question names a thing by its number alone (lexical-46)


_WORD_BEFORE = re.compile(r"([가-힣A-Za-z0-9]+)$")


def _describes_named(exp: Analysis, v: Value, q: Analysis) -> bool:
    """``v`` is in a bracket right after a word the question names (코코(말티즈, 보호자 이수진 님),
    asked about 코코): the bracket tells which one the question means, not what it asks."""
    at = _bracket(exp.text, v.start)
    if at < 0:
        return False
    word = _WORD_BEFORE.search(exp.text[:at])
    return word is not None and word[1].lower() in q.compact.lower()


def _place(exp: Analysis, v: Value) -> tuple[int, bool, int] | None:
    """Where ``v`` is said: its clause, which side of the clause's topic particle, and the bracket
    it is in (``2명 (한 자리는 1분기로 연기)``: 2명 and 1분기 are said in two places)."""
    seg = exp.segment_of(v)
    if seg is None:
        return None
    after_topic = seg.topic_end is not None and v.start >= seg.topic_end
    return (seg.start, after_topic, _bracket(exp.text, v.start))


def _bracket(text: str, at: int) -> int:
    """Where the innermost bracket around ``at`` opens (-1 outside any)."""
    depth: list[int] = []
    for i, ch in enumerate(text[:at]):
        if ch in "([{":
            depth.append(i)
        elif ch in ")]}" and depth:
            depth.pop()
    return depth[-1] if depth else -1


def other_clause_given(exp: Analysis, cand: Analysis, q: Analysis | None) -> list[tuple[str, str]]:
    """(the asked value, the answer's) when the question picks one clause by its words and asks a
    kind of value, and the answer gives, of that kind, only a value another clause holds (since
    lexical-25: "중상자 몇 명이에요?" of "부상자 3명 중 2명은 경상, 1명은 중상" answered "두 명이요")."""
    asked = kinds(q)
    if q is None or not asked or len(_groups(q.text)) != 1 or _JOINED_ASKS.search(q.text):
        return []  # a question that asks one thing only
    if _NAMED_KIND.search(q.text):
        return []  # 학년별: each clause is asked
    clauses, _, touched = _by_words(exp, q)
    if len(clauses) < 2 or len(touched) != 1:
        return []
    mine = [v for v in touched[0][1] if _of(v, asked)]
    if not mine or any(same(v, w) for v in mine for w in cand.values):
        return []
    for w in cand.values:
        if w.former or not any(kind(w) == kind(v) for v in mine):
            continue
        if any(c is not touched[0] and any(same(w, v) for v in c[1]) for c in clauses):
            return [(mine[0].text, f"{w.text} (another clause's)")]
    return []


_JOINED_ASKS = re.compile(r"이랑|랑|하고|및|각각|그리고|[고며]\s|,|\?\s*\S")
"""What joins two asks in one question (예약금 얼마고 취소하면 …, 뿌리염색이랑 전체염색), and a
question mark with a second question after it (언제 들어와요? 몇 시쯤이요?: lexical-36)."""


_WHO = re.compile(r"어디|누구|누가|어느|데가|곳이")
"""Question words that ask for an owner: a place, a person, a branch."""


def other_owner_named(exp: Analysis, cand: Analysis, q: Analysis | None) -> list[tuple[str, str]]:
    """(the asked clause, the name the answer gives) when a question asking for an owner (어디,
    누구, 어느 …) picks one clause by its words and the answer names only the owner of another
    clause, nothing of the picked one's own (since lexical-26: "야간 진료 밤 11시까지 하는 데가
    어디예요?" of "본원 야간 진료 … 밤 11시까지 …. 송도 분원은 밤 9시에 마감" answered "송도
    분원이요")."""
    if q is None or not _WHO.search(q.text) or _NAMED_KIND.search(q.text):
        return []
    clauses, head, touched = _by_words(exp, q)
    if len(clauses) < 2 or len(touched) != 1:
        return []
    mine = touched[0]
    others = "|".join(c[2] for c in clauses if c is not mine)
    own = [
        n
        for n in mine[0]
        if n not in others and n not in head and not _noun_in(n, q.nouns, q.compact)
    ]
    if any(_noun_in(n, cand.nouns, cand.compact) for n in own):
        return []  # the answer names the picked clause's owner too
    owners = [  # the words another clause is about: before its 은/는 (송도 분원은 …)
        n
        for c in clauses
        if c is not mine
        for seg in c[3]
        for n in sorted(seg.topic, key=lambda n: (exp.text.find(n, seg.start), n))  # text order
        if n not in mine[2] and n not in head and not _noun_in(n, q.nouns, q.compact)
    ]
    named = [n for n in owners if _noun_in(n, cand.nouns, cand.compact)]
    if named:
        return [(f"the owner in «{mine[3][0].text.strip()}»", f"{named[0]} (another clause's)")]
    return []
