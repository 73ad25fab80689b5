"""One typed value of a text, and when two values are the same (the normaliser's units)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from seorap.engine import normalise

UNIT_ALIASES = {
    "번": "회",
    "퍼센트": "%",
    "프로": "%",
    "킬로미터": "km",
    "미터": "m",
    "센티미터": "cm",
    "센티": "cm",
    "밀리미터": "mm",
    "킬로그램": "kg",
    "그램": "g",
    "°c": "℃",
    "도": "℃",
}
"""Counters and units written two ways (in Latin letters or spelt out in Hangul): one name each.
킬로 alone is read as a unit of its own, ``킬로``: it is said for kilograms and kilometres alike,
and only the expected statement tells which (lexical/kilo.py). N도 is degrees (℃: 섭씨 4도)."""

# ---- values ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """One value of a text. ``type`` is ``date``, ``month``, ``year``, ``time``, ``weekday``,
    ``name``, a counter or currency (``원``, ``%``, ``명``, ``년`` ...) or ``수`` (a bare number)."""

    type: str
    key: tuple
    text: str
    start: int
    end: int
    ambiguous: bool = False
    """A clock time without 오전/오후 (``3시``): matches 3:00 and 15:00."""
    target: bool = False
    """The new value of a change (``3월 7일로 연기``, ``2명으로 변경``)."""
    former: bool = False
    """Marked as former (``기존 …``, ``…에서``, ``예전엔 …``, ``(참고, …)``)."""


def kind(v: Value) -> str:
    """The slot kind of a value: durations in any unit are one kind, sizes another, money (any
    currency) a third; every other type is its own kind."""
    return normalise.dimension(v.type) or v.type


PER_COUNTERS = {"번": "회", "인": "명"}
"""Counters that name one denominator: 한 번에 = 회당, 1인당 = 한 명에 (lexical/ranges.py)."""


def same(a: Value, b: Value) -> bool:
    if "per" in (a.type, b.type) and a.type != b.type:  # 한 개에 (a rate's denominator) = 1개
        rate, count = (a, b) if a.type == "per" else (b, a)
        return count.key == ("1",) and PER_COUNTERS.get(count.type, count.type) == rate.key[0]
    if a.type != b.type:
        if kind(a) == kind(b) != a.type and a.key and b.key:
            return normalise.same_quantity(a.type, Decimal(a.key[0]), b.type, Decimal(b.key[0]))
        return False
    if a.type in ("date", "month"):
        (ya, *ra), (yb, *rb) = a.key, b.key
        return ra == rb and (ya is None or yb is None or ya == yb)
    if a.type == "vague-date" and len(a.key) == len(b.key) == 2:
        return bool(a.key[1] == b.key[1])  # 이번 달 말 read against each text's own date
    if a.type == "team":  # 결제팀 = 결제플랫폼팀 (the short name starts the full one)
        shared: bool = a.key[0].startswith(b.key[0]) or b.key[0].startswith(a.key[0])
        return shared
    if a.type == "time":
        if a.key == b.key:
            return True
        return (
            (a.ambiguous or b.ambiguous) and a.key[0] % 12 == b.key[0] % 12 and a.key[1] == b.key[1]
        )
    return a.key == b.key


def shown(v: Value) -> str:
    """``v`` as a rationale names it: a vague date with the period it was read as (이번 달 말
    (2027-03 말)), since the same words name another period in another text."""
    if v.type == "vague-date" and len(v.key) == 2:
        period = v.key[1]
        where = f"{period[1]}-{period[2]:02d}" if period[0] == "month" else str(period[1])
        if period[0] == "quarter":
            where = f"{period[1]} Q{period[2]}"
        part = f" {period[-1]}" if period[0] != "quarter" else ""
        return f"{v.text} ({where}{part})"
    return v.text


def _canon(d: Decimal) -> str:
    return format(d.normalize(), "f")


def _free(mask: list[bool], start: int, end: int) -> bool:
    return not any(mask[start:end])
