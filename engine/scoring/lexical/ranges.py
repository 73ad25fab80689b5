"""Values that lend each other their unit or take the place of one: a range written with one unit
("6~8월", "9~11시") and a rate's denominator ("한 개에 12만 원", "1회당 50분").

A rate's denominator is no value of the slot: "타이어 네 개 바꾸고 한 개에 십이만 원" states four
tyres and a price per tyre, not two counts of tyres offered for one slot. It is read as a value of
its own type, ``per``, keyed by its counter (번 and 회, 인 and 명 as one), which equals an expected
"<counter>당" (개당, 회당, 인당) and a count of one (1개, 한 달), and competes with no other
count (since lexical-16)."""

from __future__ import annotations

import re

from seorap.engine import normalise
from seorap.engine.scoring.lexical.value import PER_COUNTERS, UNIT_ALIASES, Value, kind

RANGE_JOIN = re.compile(r"^\s*[~∼\-]\s*$")
_DAY_RANGE = re.compile(r"\s*(?:부터|에서|[~∼\-])\s*$")
_UNTIL = re.compile(r"\s*(?:\(?[월화수목금토일](?:요일)?\)?\s*)?까지")
"""까지 after the end day, or after its weekday (14일 수요일까지; since lexical-52)."""


def range_units(text: str, values: list[Value]) -> list[Value]:
    """A range shares its unit: "6~8월" runs from 6월 to 8월, "9~11시" from 9시 to 11시 (a bare
    number before ~ and a month or an hour is that month or hour; since lexical-16)."""
    out = list(values)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if a.type == "date" and b.type in ("일", "수") and _DAY_RANGE.match(text, a.end, b.start):
            day = int(b.key[0]) if str(b.key[0]).isdigit() else 0
            # 7월 5일부터 9일까지, 10.18~19: the end day of the start's month (since lexical-50)
            ends = (
                _UNTIL.match(text, b.end)
                if b.type == "일"
                else RANGE_JOIN.match(text[a.end : b.start])
            )
            if ends and a.key[2] < day <= 31:
                out[i + 1] = Value("date", (a.key[0], a.key[1], day), b.text, b.start, b.end)
            continue
        if a.type != "수" or b.type not in ("month", "time") or not str(a.key[0]).isdigit():
            continue
        if not RANGE_JOIN.match(text[a.end : b.start]):
            continue
        n = int(a.key[0])
        if b.type == "month" and 1 <= n <= 12:
            out[i] = Value("month", (b.key[0], n), a.text, a.start, a.end)
        elif b.type == "time" and 0 <= n <= 24:
            out[i] = Value("time", (n, 0), a.text, a.start, a.end, ambiguous=b.ambiguous)
    return out


def breakdown_units(text: str, values: list[Value]) -> list[Value]:
    """A total's breakdown in a bracket right after it shares its counter: "47명 (성인 19, 유소년
    28)" counts 19명 and 28명 (bare numbers after a word each, since lexical-50)."""
    out = list(values)
    for i, total in enumerate(out):
        if total.type in _NOT_PER or not _OPENS.match(text, total.end):
            continue
        close = text.find(")", total.end)
        inside = [j for j in range(i + 1, len(out)) if out[j].end <= close]
        if close < 0 or not inside or not all(out[j].type == "수" for j in inside):
            continue
        if all(
            _NAMED_PART.search(text, 0, out[j].start) and _PART_END.match(text, out[j].end)
            for j in inside
        ):
            for j in inside:
                v = out[j]
                out[j] = Value(total.type, v.key, v.text, v.start, v.end)
    return out


_OPENS = re.compile(r"\s*\(")
_NAMED_PART = re.compile(r"[가-힣]\s*$")
_PART_END = re.compile(r"\s*[,)/·]")
"""A part of a total named by a word right before its number, the number ending it (성인 19,)."""


_ONE_PERSON = re.compile(r"인(?:당)?(?![가-힣])")
_PER_AFTER = re.compile(r"\s*(?:에|당)(?![가-힣])")
_NOT_PER = frozenset({"수", "date", "month", "year", "time", "weekday", "name", "vague-date"})
_BREAK = re.compile(r"[,.;!?\n]|(?:이|하)?고\s")


def per_unit(text: str, values: list[Value]) -> list[Value]:
    """A count of one followed by 에 or 당 and by another value in its clause is a rate's
    denominator (module docstring): typed ``per``."""
    out = list(values)
    for i, v in enumerate(out[:-1]):
        if v.type == "수" and v.key == ("1",) and (person := _ONE_PERSON.match(text, v.end)):
            out[i] = Value("per", ("명",), text[v.start : person.end()], v.start, person.end())
            continue  # 1인, 1인당: per person (since lexical-35)
        if v.type in _NOT_PER or v.key != ("1",) or normalise.dimension(v.type) == "money":
            continue
        after = _PER_AFTER.match(text, v.end)
        priced = not text[v.end : out[i + 1].start].strip() and kind(out[i + 1]) == "money"
        if not priced and (after is None or _BREAK.search(text, after.end(), out[i + 1].start)):
            continue  # 1인 8만 원: a count of one right before a price is its denominator too
        unit = PER_COUNTERS.get(v.type, v.type)
        out[i] = Value("per", (unit,), v.text, v.start, v.end)
    return out


def per_in(w: Value, compact: str) -> bool:
    """Does a text (compact: lower-cased, no spaces) say rate ``w`` as "<counter>당"?"""
    units = {w.key[0], *(k for k, v in PER_COUNTERS.items() if v == w.key[0])}
    # g당 is not said by kg당 (nor 명당 by 2명당's digits: the unit must start a word's letters)
    return w.type == "per" and any(
        re.search(rf"(?<![a-z]){re.escape(str(u))}당", compact) for u in units
    )


_RATE_UNITS = "kg|g|mg|km|m|cm|mm|ml|l|㎡|㎥|t|킬로그램|킬로미터|킬로리터|킬로|키로|그램|미터|센티|리터|톤|평|근"
_BARE_RATE = re.compile(
    rf"(?<![A-Za-z0-9가-힣.])({_RATE_UNITS})(?:당|\s*에(?=\s*[0-9]))(?![A-Za-z])", re.IGNORECASE
)


_TIME_RATE = re.compile(r"(?<![A-Za-z0-9가-힣.])(분|초|시간|일|주)당(?=\s*[0-9])")
"""분당 180원, 시간당 6만 원: a time said without a number as a rate's denominator, a number right
after it (분당 alone is also a town; since lexical-47)."""


_ONE_NIGHT = re.compile(r"(?<![가-힣])하룻\s?밤")
"""하룻밤: one night, 1박 (a stay's count of one, or its price's denominator; since lexical-52)."""


def bare_rates(text: str) -> list[Value]:
    """A unit said without a number as a rate's denominator: "kg당 380원", "키로에 380원", "평당
    3천만 원" (a price per one of it, the ``per`` of "1kg당"; since lexical-43). The unit is
    read with its other spellings as one (그램 = g, 키로 = 킬로)."""
    out = []
    for m in (*_BARE_RATE.finditer(text), *_TIME_RATE.finditer(text)):
        unit = m[1].lower()
        out.append(Value("per", (UNIT_ALIASES.get(unit, unit),), m[1], m.start(1), m.end(1)))
    out += [Value("per", ("박",), m[0], m.start(), m.end()) for m in _ONE_NIGHT.finditer(text)]
    return out
