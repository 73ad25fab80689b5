"""Dates said as an offset from a day (3일 뒤, 2주 후, 30일 전) and a month's last day (9월 말일),
read for engine/normalise.py's relative dates (since lexical-45: weeks, an offset before a clock
time, 말일 after a month)."""

from __future__ import annotations

import calendar
import datetime as dt
import re

Key = tuple[int | None, int, int]
Said = tuple[int, int, Key | None]
"""(start, end, (year or None, month, day)); the key None when vague or unresolved."""

_OFFSET = re.compile(
    r"(?<![\d.])(\d{1,3})\s*(일|주)\s*(후|뒤|전)"
    r"(?=$|[\s.,)?!]|에|인|이|엔|까지|부터|쯤|으로|로|예요|였|입니|이다|야)"
)
"""3일 뒤, 2주 후, 30일 전: days or weeks (since lexical-45) counted from a day."""
_AT_HOUR = re.compile(
    r"\s*(?:(?:오전|오후|아침|저녁|밤|낮|새벽)\s*)?(?:\d{1,2}\s*시(?:\s*\d{1,2}\s*분|\s*반)?|\d{1,2}:\d{2})"
    r"\s*(?:에|부터|까지)?\s*(?:[,.]|$)"
)
"""A clock time closing the clause after the offset: the offset says when the clause's matter
happens (재측정 3일 뒤 저녁 7시), not how long after it something else does."""
_MONTH_LAST = re.compile(r"(?<![\d.])(?:(\d{4})\s*년\s*)?(\d{1,2})\s*월\s*(?:말일|마지막\s*날)")
"""9월 말일: a month's last day (since lexical-45); February's needs the year (said, or the
document's)."""
_PARTICLE_END = frozenset("은는이가을를도에서로엔")


def _after_event(text: str, at: int) -> bool:
    """Is the number at ``at`` directly after a bare noun (``만료 30일 전``)? Then N일 전/후 counts
    from that event. After a particle (``점검은 3일 뒤``) or at the start it counts from the
    document's date."""
    before = text[:at].rstrip()
    return bool(before) and "가" <= before[-1] <= "힣" and before[-1] not in _PARTICLE_END


def month_ends(text: str, ref: dt.date | None) -> list[Said]:
    """9월 말일: the month's last day; February's without a year (said or ``ref``'s) is vague."""
    out: list[Said] = []
    for m in _MONTH_LAST.finditer(text):
        year, month = int(m[1]) if m[1] else None, int(m[2])
        known = year or (ref.year if ref is not None else None)
        key: Key | None = None
        if 1 <= month <= 12 and (month != 2 or known is not None):
            last = calendar.monthrange(known or 2001, month)[1]  # 2001: any year but February's
            key = (year, month, last)
        out.append((m.start(), m.end(), key))
    return out


def offsets(text: str, ref: dt.date | None) -> list[Said]:
    """N일 (or 주) 뒤/후/전 counted from ``ref``; not one counted from an event (만료 30일 전)."""
    out: list[Said] = []
    for m in _OFFSET.finditer(text):
        if _after_event(text, m.start()) and not (m[3] != "전" and _AT_HOUR.match(text, m.end())):
            continue  # 만료 30일 전: counted from the event, not from the document's date
        sign = -1 if m[3] == "전" else 1
        days = int(m[1]) * (7 if m[2] == "주" else 1)
        day = None if ref is None else ref + dt.timedelta(days=sign * days)
        out.append((m.start(), m.end(), None if day is None else (day.year, day.month, day.day)))
    return out
