"""Clauses that qualify the asked value (since lexical-49; docs/metrics.md).

A question that picks one clause of a statement leaves the others unasked, but two kinds of clause
say what the picked value is for the case the question asks about, so they are asked with it:

- an exception opened by 단 or 다만 that gives a value of the asked kind ("분재 위탁 관리비 월 5만
  원, 단 소나무류는 월 7만 원" asked "분재 맡기면 한 달에 얼마예요?": the base fee alone leaves the
  pines' fee out);
- a clause whose condition the question's own value meets ("기본 10만 원, 60cm 넘는 수조는 5만 원
  추가" asked about a 90cm tank: the surcharge applies). A question value that does not meet the
  condition (a 45cm tank) leaves the clause another case's, as before;
- since lexical-53, a clause that says the values may change ("입고 예정 4월 8일, 본사 사정으로
  변동 가능") or limits whom they are for ("50만 원 지급, … 관내 거주자 한정"): an answer that
  gives the value as certain, or to anyone, leaves it out."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.statement_clauses import Clause
from seorap.engine.scoring.lexical.value import Value, kind

_EXCEPTION = re.compile(r"\s*(?:단|다만)(?:\s|,)")
_ABOVE = re.compile(r"\s*(넘는|넘으면|넘어가면|넘을|넘게|초과|이상|부터는)")
_BELOW = re.compile(r"\s*(미만|이하|안 되는|안 되면|못 미치는|아래)")
_INCLUSIVE = frozenset({"이상", "부터는", "이하"})


_MAY_CHANGE = r"(?:변동|변경|조정)\s*(?:될\s*수|가능|있을\s*수)|바뀔\s*수|유동적|미확정"
_CHANGE = re.compile(_MAY_CHANGE)
_EVERY_VALUE = re.compile(
    rf"{_MAY_CHANGE}|(?<![가-힣])한정(?![가-힣])|에\s*한해|에\s*한함|만\s*해당"
)
"""A clause that says the statement's values may change (본사 사정으로 변동 가능) or limits whom
or what they are for (관내 거주자 한정): it qualifies every value (since lexical-53)."""


def qualifies_every_value(text: str) -> bool:
    """Clause ``text`` says the values may change or limits whom they are for."""
    return bool(_EVERY_VALUE.search(text))


def qualifies(c: Clause, held: set[str], exp: Analysis, q: Analysis) -> bool:
    """Does clause ``c`` qualify a value of a touched clause (``held``: their kinds and types)?"""
    values = c[1]
    if any(kind(v) in held for v in values) and _EXCEPTION.match(c[3][0].text):
        return True
    if any(qualifies_every_value(s.text) for s in c[3]):
        return True
    return any(_met(v, exp.text, q) for v in values)


def overridden(clauses: tuple[Clause, ...], touched: tuple[Clause, ...]) -> tuple[Clause, ...]:
    """``touched`` without a clause whose exception (the clause after it, opened by 단 or 다만)
    the question touches too: asked about 해외 필자 of "외부 필자 원고료는 매월 10일 지급, 단 해외
    필자는 매월 25일 지급", the question asks the exception's case, and the general clause is
    another case's (since lexical-51)."""
    out = list(touched)
    for before, c in zip(clauses, clauses[1:]):
        if c in touched and before in out and _EXCEPTION.match(c[3][0].text):
            out.remove(before)
    return tuple(out)


def _met(v: Value, text: str, q: Analysis) -> bool:
    """A question value of ``v``'s type meets the condition ``v`` sets (60cm 넘는: 90cm)."""
    above = _ABOVE.match(text, v.end)
    said = above or _BELOW.match(text, v.end)
    bound = _number(v)
    if said is None or bound is None:
        return False
    for w in q.values:
        n = _number(w)
        if w.type != v.type or n is None:
            continue
        if n == bound and said[1] in _INCLUSIVE:
            return True
        if (above and n > bound) or (not above and n < bound):
            return True
    return False


def _number(v: Value) -> Decimal | None:
    try:
        return Decimal(str(v.key[0])) if v.key else None
    except (InvalidOperation, ValueError):
        return None


_SAID_TO_CHANGE = re.compile(r"변동|변경|조정|바뀌|바뀔|달라지|유동|미확정|아직|확실")


def change_unsaid(exp: Analysis, cand: Analysis) -> tuple[str, ...]:
    """The words that say a value may change, said in the clause of the value itself ("수리 완료
    예정 10월 8일 (부품 도착 따라 변동 가능)"), when the answer neither says so nor hedges: the
    value given as certain leaves them out (since lexical-54; a clause of its own is asked with the
    value by ``qualifies``)."""
    if cand.hedges or _SAID_TO_CHANGE.search(cand.text):
        return ()
    return tuple(
        _phrase(seg.text, m.start(), m.end())
        for seg in exp.segments
        if seg.values
        for m in [_CHANGE.search(seg.text)]
        if m is not None
    )


def _phrase(text: str, start: int, end: int) -> str:
    """The words around ``text[start:end]`` from a bracket or a comma before them to a bracket
    after them (부품 도착 따라 변동 가능)."""
    opens = max(text.rfind(c, 0, start) for c in "(),") + 1
    closes = min((i for i in (text.find(c, end) for c in "()") if i >= 0), default=len(text))
    return text[opens:closes].strip()
