"""킬로 alone, read against the expected statement (since lexical-19; docs/metrics.md).

Korean says 킬로 for kilograms and for kilometres alike ("7킬로 나가요", "3킬로 걸어요"). The
analyser reads it as a unit of its own (``킬로``); an answer's 킬로 is read as kg when the expected
statement states a mass and no length, as km when it states a length and no mass, and stays
unread (a value of no kind the statement has, so never equal to one) otherwise. A rate's
denominator said so (키로에 380원, 킬로당) is read the same way, and 밀리 (or 미리), said for
millimetres and millilitres alike, as mm or ml (since lexical-43); 메가 and 기가, said for bytes
and for a line's speed, as MB or Mbps, GB or Gbps (since lexical-45)."""

from __future__ import annotations

from dataclasses import replace

from seorap.engine import normalise
from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.value import VOLUME, Value, unit_of

_AS = {
    "킬로": {"mass": "kg", "length": "km"},
    "밀리": {"length": "mm", "volume": "ml"},
    "메가": {"size": "mb", "rate": "mbps"},
    "기가": {"size": "gb", "rate": "gbps"},
}
"""Each unit said short, read by the one dimension the statement has among those it may say."""


def read_kilo(a: Analysis, exp: Analysis) -> Analysis:
    """``a`` with each 킬로 value read as kg or km, and each 밀리 as mm or ml, by the expected
    statement's units."""
    for short, readings in _AS.items():
        a = _read(a, exp, short, readings)
    return a


def _read(a: Analysis, exp: Analysis, short: str, readings: dict[str, str]) -> Analysis:
    if not any(unit_of(v) == short for v in a.values):
        return a
    said = {d for v in exp.values if (d := _dimension(unit_of(v))) is not None and d in readings}
    if len(said) != 1:
        return a
    unit = readings[said.pop()]

    def read(v: Value) -> Value:
        if v.type == "per" and unit_of(v) == short:
            return replace(v, key=(unit,))
        return replace(v, type=unit) if v.type == short else v

    return replace(
        a,
        values=tuple(read(v) for v in a.values),
        segments=tuple(replace(s, values=tuple(read(v) for v in s.values)) for s in a.segments),
    )


def _dimension(unit: str) -> str | None:
    return "volume" if unit in VOLUME else normalise.dimension(unit)
