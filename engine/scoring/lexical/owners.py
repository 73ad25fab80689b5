"""Values that name whose a clause is (the owner before its 은/는): when an answer need not say
them again."""

from __future__ import annotations

from seorap.engine.scoring.lexical import asked
from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.clauses import _missing_clauses
from seorap.engine.scoring.lexical.qualifiers import change_unsaid, qualifies_every_value
from seorap.engine.scoring.lexical.value import Value, same


def owner_asked(text: str, exp: Analysis, q: Analysis | None) -> bool:
    """An expected value in its clause's subject (before 은/는) that the question states (as a
    value, or in its words): it names the owner the question already picked, so an answer need
    not repeat it."""
    if q is None:
        return False
    for v in exp.values:
        seg = exp.segment_of(v)
        if v.text != text or seg is None or seg.topic_end is None or v.start >= seg.topic_end:
            continue
        if any(same(v, w) for w in q.values) or "".join(v.text.split()) in q.compact:
            return True
    return False


_NAMING = frozenset({"person", "name", "team", "호", "호실", "병동", "학년", "반"})
"""Kinds of value that name an owner: a person, a name, a team, a room, a ward, a class."""


def beside_the_asked_owner(text: str, exp: Analysis, q: Analysis | None) -> bool:
    """An expected value naming an owner right beside one the question names, nothing between
    them ("105호 강태민 님 돼지 앞다리 1kg" asked "105호는 뭐 시켰어요?"): two names of the same
    owner, and the question picked it by one (since lexical-43)."""
    if q is None:
        return False
    for v in exp.values:
        seg = exp.segment_of(v)
        if v.text != text or v.type not in _NAMING or seg is None:
            continue
        for w in seg.values:
            if w is v or w.type not in _NAMING or not any(same(w, x) for x in q.values):
                continue
            between = exp.text[min(v.end, w.end) : max(v.start, w.start)]
            if not between.strip():
                return True
    return False


OWNER_TYPES = frozenset({"name", "month"})
"""Kinds of value that name whose the clause is when they stand before its topic particle:
한빛운수 차고지는, 4월 예약은."""


def owner_unnamed(text: str, exp: Analysis, cand: Analysis) -> bool:
    """An expected value naming the clause's owner (before its 은/는: 심야버스 N37번은) that the
    answer leaves out, naming no other of its kind: an answer that names no owner is not
    penalised (one that names another is judged by the wrong-subject rules)."""
    for v in exp.values:
        seg = exp.segment_of(v)
        if v.text != text or v.type not in OWNER_TYPES or seg is None:
            continue
        if seg.topic_end is None or v.end > seg.topic_end:
            continue
        rivals = [
            w for w in cand.values if w.type == v.type and not any(same(w, x) for x in exp.values)
        ]
        word = _word_at(exp.text, v.start, v.end)
        if rivals or any(len(n) >= 2 and n in word for n in cand.nouns):
            continue  # another owner, or a part of this one in some other role (공항 for 인천공항)
        return True
    return False


def _word_at(text: str, start: int, end: int) -> str:
    """The word (between spaces) around ``text[start:end]``."""
    a = text.rfind(" ", 0, start) + 1
    b = text.find(" ", end)
    return text[a : b if b >= 0 else len(text)]


def not_given(
    missing: list[Value],
    current: list[Value],
    stated: list[Value],
    exp: Analysis,
    cand: Analysis,
    q: Analysis | None,
    account: bool,
) -> tuple[list[str], list[Value]]:
    """(the missing values an answer had to state, the setting values it need not): neither a
    value naming the owner the question picked (``owner_asked``), nor in an answer (``account``)
    an owner it names no other of (``owner_unnamed``), nor the setting of what the question word
    asks, nor a clause it does not ask, nor a value it names itself (lexical/asked.py) is
    missing."""
    setting = asked.setting([v for v in current if v in missing], stated, exp, q)
    setting += [v for v in asked.unasked_clauses(stated, exp, q) if v in missing]
    given = asked.named_by_question(current, stated, q)
    setting += [v for v in given if v not in setting]  # said by the question (lexical-35)
    # told by the value, not its text (since lexical-47): the 10시 a booking the question asks
    # ends at is missing though the other booking's 10시, in a clause not asked, is not
    return [
        v.text
        for v in missing
        if not owner_asked(v.text, exp, q)
        and not beside_the_asked_owner(v.text, exp, q)
        and not (account and owner_unnamed(v.text, exp, cand))
        and v not in setting
    ], setting


def asked_clauses_missing(
    exp: Analysis, cand: Analysis, q: Analysis | None, stated: list[Value]
) -> tuple[str, ...]:
    """_missing_clauses, less those the question does not ask (asked.unasked_clauses), and words
    of change in a value's own clause the answer leaves out (qualifiers.change_unsaid)."""
    unasked = asked.unasked_clauses(stated, exp, q)
    return tuple(
        c
        for c in _missing_clauses(exp, cand, q)
        if not _of_no_asked_kind(c, exp, q, stated)
        and not any(
            s.text.strip() == c
            and s.values
            and (
                all(v in unasked for v in s.values)
                or any(v.former for v in s.values)
                and all(v.former or v.type == "name" for v in s.values)
            )
            for s in exp.segments
        )  # a clause the question does not ask, or one of former values only (lexical-35)
    ) + change_unsaid(exp, cand)  # (… 변동 가능) beside the value (lexical-54)


_SAID_BY_WORDS = frozenset({"person", "team", "name"})
"""Kinds a clause can say without a value (담당 원장님 for 누가)."""


def _of_no_asked_kind(c: str, exp: Analysis, q: Analysis | None, stated: list[Value]) -> bool:
    """Clause ``c`` holds no value and the question asks for a day or a time only (언제, 몇 시),
    which the answer has stated from another clause: the clause (본관 연습실에서 합니다) is not
    asked (since lexical-38); an amount or a count likewise (얼마로 = 230cm, 색상 차콜 not asked;
    since lexical-52). A question that names a kind no question word types (장소, 준비물)
    or joins a second ask (언제 하고, 그때 들어가도 돼요?) asks every clause."""
    wanted = asked.kinds(q)
    # a day, a time or an amount asked alone: a clause without one cannot answer it
    if q is None or not wanted or wanted & _SAID_BY_WORDS or asked.asks_more(q.text):
        return False
    seg = next((s for s in exp.segments if s.text.strip() == c), None)
    return (
        seg is not None
        and not seg.values
        and not qualifies_every_value(seg.text)  # 변동 가능: asked with the value (lexical-53)
        and any(asked._of(v, wanted) for v in stated if exp.segment_of(v) is not seg)
    )
