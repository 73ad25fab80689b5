"""A weekday said beside a date is part of that date (since lexical-11).

"이전 개업일은 2027년 3월 2일(화)" answered "3/2 화요일이요": the weekday says the date again, in
other words. Read as a value of its own, the answer's 화요일 was unaccounted for (the expected
statement's ``(화)`` was not read at all) and a right answer was PARTIAL; "내일" answered "12월 4일
금요일" likewise.

A weekday right beside a date (after it, across spaces, a comma or a bracket: ``3월 2일(화)``,
``3/2 화요일``, ``12월 4일, 금요일``) is read with it:

- in the expected statement, it is part of its date (an answer need not say it again);
- in an answer, it is part of its date when the weekday is known and agrees: the date's own
  year, or the year of the expected date it equals, or else the year nearest the day the answer
  (or the expected statement) was written, gives the weekday by the calendar; else the weekday
  the expected statement says beside that date. It **disagrees** when the weekday known
  is another one: the answer names a day that does not exist (3월 2일 목요일 in a year where it is
  a Tuesday), a wrong value. When no weekday can be known (no year, none said beside the expected
  date), the weekday stays a value of its own, which the answer cannot have verified: PARTIAL.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.value import Value, same

DAYS = "월화수목금토일"
_BETWEEN = re.compile(r"[\s,]*")
"""What may stand between a date and its weekday."""


def _pairs(a: Analysis) -> list[tuple[Value, Value]]:
    """(date, weekday) for each weekday right after a date of ``a``."""
    dates = [v for v in a.values if v.type == "date" and len(v.key) == 3]
    out = []
    for w in (v for v in a.values if v.type == "weekday"):
        for d in dates:
            if d.end <= w.start and _BETWEEN.fullmatch(a.text, d.end, w.start):
                out.append((d, w))
    return out


def _with(a: Analysis, merged: dict[int, Value], dropped: set[int]) -> Analysis:
    def keep(vs: tuple[Value, ...]) -> tuple[Value, ...]:
        return tuple(merged.get(id(v), v) for v in vs if id(v) not in dropped)

    return replace(
        a,
        values=keep(a.values),
        segments=tuple(replace(s, values=keep(s.values)) for s in a.segments),
    )


def _joined(a: Analysis, d: Value, w: Value) -> Value:
    return replace(d, text=a.text[d.start : w.end], end=w.end)


_ASKS_WEEKDAY = re.compile(r"(?:무슨|몇|어느)\s*요일")


def asked(question: str | None) -> bool:
    """The question asks for the weekday itself (몇 월 며칠, 무슨 요일이에요?): a weekday beside a
    date is then a value of its own an answer must say, not read into its date (since lexical-42)."""
    return bool(question and _ASKS_WEEKDAY.search(question))


def expected_weekdays(exp: Analysis) -> tuple[Analysis, dict[tuple, str]]:
    """The expected statement with each weekday beside a date read into the date, and (date key
    -> the weekday said beside it)."""
    pairs = _pairs(exp)
    if not pairs:
        return exp, {}
    merged = {id(d): _joined(exp, d, w) for d, w in pairs}
    said = {d.key: w.key[0] for d, w in pairs}
    return _with(exp, merged, {id(w) for _, w in pairs}), said


def _year(month: int, day: int, ref: dt.date) -> int | None:
    """The year of a month and day said on ``ref``: the one whose date is nearest to it."""
    near = []
    for year in (ref.year - 1, ref.year, ref.year + 1):
        try:
            near.append((abs((dt.date(year, month, day) - ref).days), year))
        except ValueError:
            continue
    return min(near)[1] if near else None


def _known(
    d: Value, exp: Analysis, said: dict[tuple, str], refs: tuple[dt.date | None, ...]
) -> str | None:
    """The weekday of the answer's date ``d``, when it can be known (module docstring)."""
    for e in (d, *(v for v in exp.values if v.type == "date" and same(v, d))):
        year, month, day = e.key
        if year is None and month and day:
            ref = next((r for r in refs if r is not None), None)
            year = _year(month, day, ref) if ref is not None else None
        if year is not None and month and day:
            try:
                return DAYS[dt.date(year, month, day).weekday()]
            except ValueError:
                return None
    return next((w for key, w in said.items() if same(Value("date", key, "", 0, 0), d)), None)


def answer_weekdays(
    cand: Analysis,
    exp: Analysis,
    said: dict[tuple, str],
    refs: tuple[dt.date | None, ...] = (),
) -> tuple[Analysis, list[tuple[str, str]]]:
    """The answer with each weekday beside a date read into it where it agrees, and the
    (right weekday, weekday said) of each one that disagrees (module docstring). ``refs``: the
    days the texts were written (the answer's, the expected statement's), whose year a date said
    without one is in (the nearest)."""
    merged: dict[int, Value] = {}
    dropped: set[int] = set()
    wrong: list[tuple[str, str]] = []
    for d, w in _pairs(cand):
        known = _known(d, exp, said, refs)
        if known is None:
            continue
        if known == w.key[0]:
            merged[id(d)] = _joined(cand, d, w)
            dropped.add(id(w))
        else:
            wrong.append((f"{d.text} ({known})", f"{d.text} {w.text}"))
    if not merged:
        return cand, wrong
    return _with(cand, merged, dropped), wrong
