"""오전 and 오후 said without an hour (since lexical-36): "모레 오후 입고" says the afternoon.

Read alone, 오후 named no value, so an answer that left it out, or said 오전 instead, was not
caught. It is read as a value of the time kind, ``daypart`` (key ``am`` or ``pm``): it equals the
same half of the day and a clock time in it (오후 3시, 15:00; a time said without 오전/오후, 3시,
may be either), and differs from the other half. Not when an hour follows (오후 3시 is a time) nor
when it names a group (오전반, 오후 반, 오후부, 오후조)."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.value import Value

_DAYPART = re.compile(
    r"(?<![가-힣])(오전|오후)(?![가-힣]*\s*\d)(?!\s*(?:반|부|조|팀)(?:[은는이가을를에의도만]|[^가-힣]|$))(?![반부조팀])"
)
_HALF = {"오전": "am", "오후": "pm"}


def dayparts(text: str) -> list[Value]:
    """The halves of the day ``text`` names without an hour."""
    return [
        Value("daypart", (_HALF[m[1]],), m[1], m.start(1), m.end(1))
        for m in _DAYPART.finditer(text)
    ]
