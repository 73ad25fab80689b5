"""A day of the month said without its month (``19일 예식``, ``20일에 실습``) is a date.

People name the day alone when the month is plain from what they answer: asked about the
ceremony on 12월 19일, "19일 1시 예식" means that date. Read alone, ``19일`` is a count of days
(a duration), so the expected date is "not stated" and a right answer is graded PARTIAL or NO.

Since lexical-9 a bare ``N일`` (1-31) of an answer or a question is read as a date when the
expected statement has a date, and nothing after it makes it a count (``3일간``, ``3일 동안``,
``사흘째``, ``3일마다``, ``3일 뒤``, ``3일 이상`` …) nor before it (``총``, ``약``, ``최대`` …, or
``매달``: a day of every month is no one date). Its
month is the month of the nearest date said before it in the same text (``1월 3일에서 5일로``),
else the month of the expected date with that day, else the one month every expected date is in;
with none of these (expected dates in two months, none on that day) it stays a count. A day that
differs from the expected date's day is so a different date: a wrong value, not a missing one."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.value import Value

COUNT_AFTER = re.compile(
    r"\s*(?:간|동안|째|마다|씩|치|분|만에|만|이내|내내|내|짜리|연속|이상|이하|미만|초과|넘게|넘|가량|정도|"
    r"쯤|뒤|후|전|前|後|밖에|안에)"
)
"""Words after ``N일`` that make it a count of days, not a day of the month."""
COUNT_BEFORE = re.compile(
    r"(?:총|약|최대|최소|최장|단|무려|매|매달|매월|매년|다달이|달마다|격월|연|주|겨우|불과)\s*$"
)
"""Words before ``N일`` that make it a count (총 3일) or a recurring day (매달 15일: no one date)."""


def _bare_day(text: str, v: Value) -> int | None:
    """The day of ``v`` when it is ``N일`` said alone, else None."""
    if v.type != "일" or not v.key or v.former:
        return None
    try:
        day = int(v.key[0])
    except ValueError:
        return None
    if not 1 <= day <= 31 or str(day) != v.key[0] or not v.text.rstrip().endswith("일"):
        return None
    if COUNT_AFTER.match(text, v.end) or COUNT_BEFORE.search(text[: v.start]):
        return None
    return day


def _month_of(day: int, before: list[Value], expected: list[Value]) -> tuple | None:
    """(year, month) of a bare day (module docstring), or None."""
    if before:
        year, month = before[-1].key[0], before[-1].key[1]
        return (year, month)
    on_day = [v.key for v in expected if v.key[2] == day]
    if on_day:
        return (on_day[0][0], on_day[0][1])
    months = {(v.key[0], v.key[1]) for v in expected}
    if len({m for _, m in months}) == 1:
        year = next(iter(months))[0] if len(months) == 1 else None
        return (year, expected[0].key[1])
    return None


def as_dates(a: Analysis, exp: Analysis) -> Analysis:
    """``a`` with every bare day of the month read as a date (module docstring); ``a`` itself when
    there is none or the expected statement states no date."""
    expected = [v for v in exp.values if v.type == "date" and len(v.key) == 3 and v.key[1]]
    if not expected:
        return a
    moved: dict[int, Value] = {}
    said: list[Value] = []
    for v in a.values:
        if v.type in ("date", "month") and v.key[1]:
            said.append(v)
            continue
        dotted = _dotted(a.text, v, expected)
        if dotted is not None:
            moved[id(v)] = dotted
            continue
        day = _bare_day(a.text, v)
        if day is None:
            continue
        ym = _month_of(day, said, expected)
        if ym is not None:
            moved[id(v)] = replace(v, type="date", key=(ym[0], ym[1], day))
    if not moved:
        return a
    return replace(
        a,
        values=tuple(moved.get(id(v), v) for v in a.values),
        segments=tuple(
            replace(s, values=tuple(moved.get(id(v), v) for v in s.values)) for s in a.segments
        ),
    )


_DOTTED = re.compile(r"(\d{1,2})\.(\d{1,2})")
_DOTTED_AFTER = re.compile(r"\s*(?:[~∼–]|부터|까지|에|이에요|예요|입니다|이고|,|$)")
"""What may follow a month and day with a dot; one with a weekday after it (10.2(목)) the
normaliser reads as a date already."""


def _dotted(text: str, v: Value, expected: list[Value]) -> Value | None:
    """``11.19`` read as November 19 (since lexical-34): a bare number written month.day, with a
    range sign, a particle of time or the end of a sentence after it, read so only when
    the expected statement has a date in that month (a rating of 4.5 is no April 5)."""
    m = _DOTTED.fullmatch(v.text.strip())
    if v.type != "수" or m is None or not _DOTTED_AFTER.match(text, v.end):
        return None
    month, day = int(m[1]), int(m[2])
    years = [e.key[0] for e in expected if e.key[1] == month]
    if not 1 <= day <= 31 or not years:
        return None
    return replace(v, type="date", key=(years[0], month, day))


def outside_period(
    cand: Analysis, current: list[Value], stated: list[Value]
) -> list[tuple[str, str]]:
    """(the expected date, the candidate's period) when the candidate names a period read against
    its own date (이달 초 said in December) and every expected date it leaves out lies outside it
    (since lexical-34): a period is no day, but one that misses the day is a wrong value."""
    dates = [v for v in current if v.type == "date" and v not in stated and v.key[0] and v.key[1]]
    if not dates:
        return []
    for w in cand.values:
        period = w.key[1] if w.type == "vague-date" and len(w.key) == 2 else None
        if period is not None and not any(_within(v.key, period) for v in dates):
            return [(dates[0].text, f"{w.text} (another period)")]
    return []


def _within(day: tuple, period: tuple) -> bool:
    """Date key ``day`` (year, month, day) lies in ``period`` (normalise.vague_period)."""
    y, m, d = day
    if period[0] == "month":
        return (y, m) == (period[1], period[2])
    if period[0] == "quarter":
        return (y, (m - 1) // 3 + 1) == (period[1], period[2])
    if period[0] == "week":
        monday = dt.date.fromisoformat(period[1])
        try:
            return 0 <= (dt.date(y, m, d) - monday).days < 7
        except ValueError:
            return False
    return True


def vague_dates(cand: Analysis, current: list[Value], stated: list[Value]) -> tuple[str, ...]:
    """The candidate's vague dates, when an expected date is not stated."""
    return tuple(
        w.text
        for w in cand.values
        if w.type == "vague-date" and any(v.type == "date" and v not in stated for v in current)
    )
