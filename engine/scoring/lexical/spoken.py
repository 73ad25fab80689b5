"""Quantities said in two parts: a duration said in two units (1년 6개월 = 18개월), a stay (1박
2일), a mass in kilograms and grams (48킬로 500그램), a half after a duration (3년 반 = 42개월)
and 반년 (6개월). Numbers said in words (네 명, 사흘) are read as
their digits before these (lexical/numerals.py)."""

from __future__ import annotations

import re
from decimal import Decimal

from seorap.engine import normalise
from seorap.engine.scoring.lexical.value import UNIT_ALIASES, Value, _canon, _free


def _merge_durations(text: str, numbers: list[Value]) -> list[Value]:
    """``1시간 20분`` is one duration (4800 seconds), ``1년 6개월`` one of 18 months, not two
    values."""
    out: list[Value] = []
    for v in numbers:
        prev = out[-1] if out else None
        joined = _joined(text, prev, v)
        if joined is not None:
            out[-1] = joined
            continue
        for scale, base in ((normalise.SECONDS, "초"), (normalise.MONTHS, "개월")):
            if (
                prev is not None
                and prev.type in scale
                and v.type in scale
                and not text[prev.end : v.start].strip()
                and scale[prev.type] > scale[v.type]
            ):
                total = scale[prev.type] * Decimal(prev.key[0]) + scale[v.type] * Decimal(v.key[0])
                out[-1] = Value(base, (_canon(total),), text[prev.start : v.end], prev.start, v.end)
                break
        else:
            out.append(v)
    return [_with_half(text, v) for v in out]


def _joined(text: str, prev: Value | None, v: Value) -> Value | None:
    """Two parts of one quantity (since lexical-41): a stay of N nights and M days (1박 2일: no day
    of a month), and a mass in kilograms and grams (48킬로 500그램 = 48.5kg)."""
    if prev is None or text[prev.end : v.start].strip():
        return None
    span = text[prev.start : v.end]
    if prev.type == "박" and v.type == "일":
        return Value("박일", (prev.key[0], v.key[0]), span, prev.start, v.end)
    if prev.type in ("kg", "킬로") and v.type == "g":
        total = Decimal(prev.key[0]) + Decimal(v.key[0]) / 1000
        return Value("kg", (_canon(total),), span, prev.start, v.end)
    return None


_HALF = re.compile(
    r"\s*반(?=$|[^가-힣]|이|은|을|의|에|으|동안|간|만|짜리|정도|쯤|가|으로|로|째|마다|씩|뒤|후|전|"
    r"까지|부터|이내|이상|넘|만에|도|요)"
)
"""반 (half) right after a duration: 3년 반 = 42개월, 1시간 반 = 90분 (a word starting with 반 —
반기, 반납, 반영 — is no half)."""


_HALF_YEAR = re.compile(
    r"(?<![가-힣])반년(?![가-힣])|(?<![가-힣])반년(?=간|동안|"
    r"이|은|을|의|에|으로|로|째|만|까지|부터|도|쯤|씩|마다|이내|내|치|뒤|후|전)"
)


def _halves(text: str, mask: list[bool]) -> list[Value]:
    """반년 (half a year) = 6개월; 절반, 반값 and 반액 (half of a thing, half the price) = 50%
    (since lexical-50)."""
    return (
        [
            Value("개월", ("6",), m[0], m.start(), m.end())
            for m in _HALF_YEAR.finditer(text)
            if _free(mask, m.start(), m.end())
        ]
        + [
            Value("%", ("50",), m[0], m.start(), m.end())
            for m in _HALF_OF.finditer(text)
            if _free(mask, m.start(), m.end())
        ]
        + [
            Value(UNIT_ALIASES.get(m[1].lower(), m[1].lower()), ("0.5",), m[0], m.start(), m.end())
            for m in _HALF_UNIT.finditer(text)
            if _free(mask, m.start(), m.end())
        ]
    )


_HALF_OF = re.compile(r"(?<![가-힣])(?:절반|반값|반액)")
_HALF_UNIT = re.compile(
    r"(?<![가-힣])반\s*(킬로그램|킬로미터|킬로|키로|리터|kg|km|l|L)(?![A-Za-z]|로미터|로그램)"
)
"""반 킬로, 반 리터: half of the unit, 0.5 of it (since lexical-51; 킬로 alone is read by the
statement, lexical/kilo.py)."""


def _with_half(text: str, v: Value) -> Value:
    """``v`` with a 반 written after it added (3년 반 → 42개월), else ``v``."""
    m = _HALF.match(text, v.end)
    if m is None or v.type in ("초", "ms") or len(v.key) != 1:
        return v
    for scale, base in ((normalise.SECONDS, "초"), (normalise.MONTHS, "개월")):
        if v.type in scale:
            total = scale[v.type] * (Decimal(v.key[0]) + Decimal("0.5"))
            return Value(base, (_canon(total),), text[v.start : m.end()], v.start, m.end())
    if v.type in _HALVED:  # 4리터 반 = 4.5L, 1킬로 반 = 1.5 (since lexical-24)
        half = _canon(Decimal(v.key[0]) + Decimal("0.5"))
        return Value(v.type, (half,), text[v.start : m.end()], v.start, m.end())
    return v


_HALVED = frozenset({"l", "ml", "kg", "g", "km", "m", "cm", "킬로", "톤"})
"""Units a half may follow (4리터 반); not counters (세 명 반 is no one)."""
