"""A weekday counted within its month (첫째 월요일, 둘째·넷째 일요일, 마지막 주 금요일), since
lexical-50 (docs/metrics.md).

"매월 첫째 월요일과 셋째 월요일" names two days; read as weekdays alone they were one value (월요일
twice), and an answer naming the first alone stated every value. Each is read as a value of its own
type, ``nth-weekday``, keyed by (the ordinal, the weekday): 첫째 = 첫 번째 = 1, 마지막 = -1. A plain
weekday is another type: an answer that drops the ordinal does not state the value."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.value import Value

_ORDINALS = {
    "첫째": 1, "첫": 1, "둘째": 2, "두": 2, "셋째": 3, "세": 3, "넷째": 4, "네": 4,
    "다섯째": 5, "다섯": 5, "마지막": -1, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5,
}  # fmt: skip
_ORD = r"(첫째|둘째|셋째|넷째|다섯째|마지막|첫(?=\s*주)|(?:첫|두|세|네|다섯|[1-5])\s*번째|[1-5]째)"
_JOIN = r"\s*(?:[·,/]|와|과|랑|이랑|하고|및)\s*"
_RUN = re.compile(
    rf"(?<![가-힣\d]){_ORD}(?:{_JOIN}{_ORD}){{0,6}}\s*(?:주\s*)?(?:차\s*)?([월화수목금토일])요일"
)
_ONE = re.compile(_ORD)


def nth_weekdays(text: str) -> list[Value]:
    """The weekdays counted within their month in ``text`` (module docstring)."""
    out: list[Value] = []
    for m in _RUN.finditer(text):
        day = m[m.lastindex or 0]
        ords = list(_ONE.finditer(text, m.start(), m.end()))
        for i, o in enumerate(ords):
            said = o[0] if o[0] in _ORDINALS else re.sub(r"\s*번째$|째$", "", o[0])  # 두 번째: 두
            n = _ORDINALS[said]
            end = m.end() if i == len(ords) - 1 else o.end()
            out.append(Value("nth-weekday", (n, day), text[o.start() : end], o.start(), end))
    return out
