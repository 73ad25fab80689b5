"""A size written as its dimensions, read as one value (since lexical-46; docs/metrics.md).

"액자 안쪽 40×60cm" answered "안쪽이 40×60이고": read number by number, 40 stood alone and 60 was
a length, and the answer's bare 40 and 60 were two values for one slot. A run of two or three
numbers joined by ×, x or * (a unit after any of them) is one value: equal to another with the same
numbers in the same order, in the same length when both carry a unit (297×420mm = 29.7×42cm), the
numbers alone when one of them carries none (40×60 = 40×60cm); a square section said 90각 is
90×90. Only when both texts write a size so: against a text that writes none, the dimensions are
read number by number as before (높이 200mm asked of 250 × 210 × 200 mm, "20센티": the third)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from seorap.engine.scoring.lexical.value import METRES, UNIT_ALIASES, Value

if TYPE_CHECKING:  # analysis.py reads values through values.py, which reads this module
    from seorap.engine.scoring.lexical.analysis import Analysis

_UNIT = "|".join(sorted(METRES, key=len, reverse=True))
_NUMBER = r"(\d+(?:\.\d+)?)"
_BY = rf"\s*(?:{_UNIT})?\s*[×xX*✕]\s*"
_DIMS = re.compile(
    rf"(?<![\d.,A-Za-z]){_NUMBER}{_BY}{_NUMBER}(?:{_BY}{_NUMBER})?\s*({_UNIT})?(?![A-Za-z\d])"
)


_PART = re.compile(rf"{_NUMBER}\s*({_UNIT})?")
_SQUARE = re.compile(r"(?<![\d.,A-Za-z])(\d+)\s*각(?=$|[^가-힣]|으로|이|에|재|짜리|파이프)")
"""90각: a square section, 90×90 (lumber and steel are sized so)."""


def dims(text: str) -> list[Value]:
    """The sizes of ``text`` written as dimensions, each one value of type ``dims`` (key: the unit
    or "", then the numbers)."""
    out = []
    for m in _DIMS.finditer(text):
        numbers = tuple(n for n in (m[1], m[2], m[3]) if n is not None)
        out.append(Value("dims", (m[4] or "", *numbers), m[0].rstrip(), m.start(), m.end()))
    for m in _SQUARE.finditer(text):
        out.append(Value("dims", ("", m[1], m[1]), m[0], m.start(), m.end()))
    return out


def unless_both(exp: Analysis, cand: Analysis) -> tuple[Analysis, Analysis]:
    """The two texts, each size written as dimensions read number by number unless both texts
    write one (module docstring)."""
    if any(v.type == "dims" for v in exp.values) and any(v.type == "dims" for v in cand.values):
        return exp, cand
    return _split(exp), _split(cand)


def _split(a: Analysis) -> Analysis:
    if not any(v.type == "dims" for v in a.values):
        return a

    def parts(v: Value) -> list[Value]:
        if v.type != "dims":
            return [v]
        found = list(_PART.finditer(v.text))
        if len(found) < 2:  # 90각: one number said for both sides
            return [replace(v, type="수", key=(v.key[1],))]
        out = []
        for n in found:
            unit = n[2] or (v.key[0] if n is found[-1] else "")
            start, end = v.start + n.start(), v.start + (n.end() if unit else n.end(1))
            kind = UNIT_ALIASES.get(unit, unit) or "수"
            out.append(
                replace(v, type=kind, key=(n[1],), text=a.text[start:end], start=start, end=end)
            )
        return out

    def split(values: tuple[Value, ...]) -> tuple[Value, ...]:
        return tuple(p for v in values for p in parts(v))

    return replace(
        a,
        values=split(a.values),
        segments=tuple(replace(seg, values=split(seg.values)) for seg in a.segments),
    )
