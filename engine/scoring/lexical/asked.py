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

from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.value import Value, kind, same

DAY_KINDS = frozenset({"date", "weekday", "month", "year", "vague-date", "time"})
AMOUNT_KINDS = frozenset({"money", "수", "%", "size", "mass", "length", "duration"})
_COUNTERS = "개월|개|대|건|곳|번|회|층|권|장|잔|병|마리|척|채|상자|박스|팔레트|톤|kg|평|호실|호|반|학년|살|세"

ASKS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (re.compile(r"몇\s*시(?!간|즌|리즈)"), frozenset({"time"})),
    (re.compile(r"언제|며칠|몇\s*월|몇\s*일|무슨\s*요일|몇\s*요일|날짜"), DAY_KINDS),
    (
        re.compile(r"몇\s*(?:시간|분|일|주|개월|달|년)\s*(?:동안|간|걸)|얼마나\s*(?:걸|오래)|기간"),
        frozenset({"duration"}),
    ),
    (re.compile(r"몇\s*(?:명|분|사람)|인원"), frozenset({"명"})),
    (re.compile(r"몇\s*분"), frozenset({"duration"})),  # 몇 분: people or minutes, both asked
    (re.compile(r"누가|누구|누군"), frozenset({"person", "team", "name"})),
    (re.compile(r"얼마"), AMOUNT_KINDS),
)
"""Question words and the kinds of value each asks for."""
_BY_COUNTER = re.compile(rf"몇\s*({_COUNTERS})")
OPEN = re.compile(r"어느|무슨(?!\s*요일)|어떤|어떻게|어때|뭐|무엇|무얼|어디|왜")
"""Question words whose kind of value cannot be told: nothing is left out."""


def kinds(q: Analysis | None) -> frozenset[str]:
    """The kinds of value question ``q`` asks for (empty: every expected value is asked)."""
    if q is None or OPEN.search(q.text):
        return frozenset()
    out: set[str] = set()
    for pattern, asked in ASKS:
        if pattern.search(q.text):
            out |= asked
    for m in _BY_COUNTER.finditer(q.text):
        out.add(m[1].lower())
    return frozenset(out)


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
    answered = [v for v in stated if _of(v, asked)]
    places = {_place(exp, v) for v in answered} - {None}
    return [
        v
        for v in unsaid
        if not _of(v, asked)
        and (
            _place(exp, v) in places or (answered and (_named(v, q) or _describes_named(exp, v, q)))
        )
    ]


def _named(v: Value, q: Analysis) -> bool:
    """The question names ``v`` itself (as a value or in its words): asked about 코코, an answer
    need not say 코코 again."""
    return any(same(v, w) for w in q.values) or "".join(v.text.lower().split()) in q.compact


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
