"""A speed said by its length and its time (since lexical-52; docs/metrics.md): "분당 105m",
"초당 1.75미터", "초속 175cm" and "6.3km/h" are one kind of value, read as metres per second
(분당 105m = 초속 1.75m = 시속 6.3km). A length beside a time said another way (105m 가는 데 1분)
is not read so: the two stay values of their own."""

from __future__ import annotations

import re
from fractions import Fraction

from seorap.engine.scoring.lexical.value import Value

_SECONDS = {"초": 1, "분": 60, "시": 3600, "시간": 3600, "s": 1, "min": 60, "h": 3600}
"""Seconds per time a speed is said in (초속 and 초당: 초; 시속 and 시간당: 시, 시간)."""
_METRES: dict[str, Fraction] = {
    "km": Fraction(1000), "㎞": Fraction(1000), "킬로미터": Fraction(1000), "킬로": Fraction(1000),
    "m": Fraction(1), "미터": Fraction(1),
    "cm": Fraction(1, 100), "센티미터": Fraction(1, 100), "센티": Fraction(1, 100),
    "mm": Fraction(1, 1000), "밀리미터": Fraction(1, 1000),
}  # fmt: skip
_LENGTH = "|".join(sorted(_METRES, key=len, reverse=True))
_NUMBER = r"\d+(?:\.\d+)?"
_SAID_FIRST = re.compile(
    rf"(?<![가-힣])(초속|초당|분속|분당|시속|시간당)\s*({_NUMBER})\s*({_LENGTH})(?![A-Za-z])",
    re.IGNORECASE,
)
"""초속 1.75m, 분당 105m, 시속 36km, 시간당 36km: the time first."""
_SAID_AFTER = re.compile(
    rf"(?<![\d.])({_NUMBER})\s*(km|㎞|m|cm|mm)\s*/\s*(s|min|h|초|분|시간?)(?![A-Za-z])",
    re.IGNORECASE,
)
"""1.75m/s, 6.3km/h, 105m/분: the time after a slash."""


def _key(number: str, length: str, time: str) -> tuple[str]:
    per_second = Fraction(number) * _METRES[length.lower()] / _SECONDS[time.lower()]
    return (f"{per_second.numerator}/{per_second.denominator}",)


def speeds(text: str) -> list[Value]:
    """The speeds of ``text``, each one value of type ``speed`` keyed by metres per second."""
    out = []
    for m in _SAID_FIRST.finditer(text):
        out.append(Value("speed", _key(m[2], m[3], m[1][:-1]), m[0], m.start(), m.end()))
    for m in _SAID_AFTER.finditer(text):
        out.append(Value("speed", _key(m[1], m[2], m[3]), m[0], m.start(), m.end()))
    return out
