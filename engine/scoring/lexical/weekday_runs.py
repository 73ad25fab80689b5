"""Weekdays written by their first syllable (since lexical-24): in a list or a span (월·수, 화/목,
월~금), or three or more written together in the week's order (월수금, 화목토; not 화목, 수금 —
words of their own)."""

from __future__ import annotations

import re

WEEKDAY = re.compile(
    r"([월화수목금토일])(?:요일|욜)|(?<=[일\d.])\s*\(([월화수목금토일])\)|(?<=\d)\s([화수목금토])(?![가-힣\w])"
)
"""화요일, 화욜, (화) right after a date (3월 2일(화), 3/2 (화), 7. 14.(수)), and 화 … 토 alone after
a date in digits (2/19 금; since lexical-52: 월 and 일 alone are a month and a day)."""
_WEEKDAY_RUN = re.compile(
    r"(?<![가-힣])[월화수목금토일](?:\s*[·,/~∼]\s*[월화수목금토일])+"
    r"(?=$|[^가-힣]|요일|욜|에|은|는|만|마다|이요|요)"
)
"""Weekdays written by their first syllable in a list or a span (월·수, 화/목, 월~금; since
lexical-24)."""
_WEEKDAYS_JOINED = re.compile(
    r"(?<![가-힣])[월화수목금토일]{3,7}(?=$|[^가-힣]|요일|에|은|는|만|마다|이요|요|로)"
)
"""Three or more weekdays written together in the week's order (월수금, 화목토)."""


def _in_order(run: str) -> bool:
    """A run written without separators names its days in the week's order (월수금, not 수월)."""
    days = [c for c in run if c in "월화수목금토일"]
    if any(c in run for c in "·,/~∼"):
        return True
    return all(
        "월화수목금토일".index(a) < "월화수목금토일".index(b) for a, b in zip(days, days[1:])
    )


def weekday_runs(text: str) -> list[tuple[int, str]]:
    """(where, day) for each weekday of the runs in ``text``."""
    out = []
    for m in [*_WEEKDAY_RUN.finditer(text), *_WEEKDAYS_JOINED.finditer(text)]:
        if _in_order(m[0]):
            out += [(m.start() + d.start(), d[0]) for d in re.finditer(r"[월화수목금토일]", m[0])]
    return out
