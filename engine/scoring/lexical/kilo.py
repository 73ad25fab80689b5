"""킬로 alone, read against the expected statement (since lexical-19; docs/metrics.md).

Korean says 킬로 for kilograms and for kilometres alike ("7킬로 나가요", "3킬로 걸어요"). The
analyser reads it as a unit of its own (``킬로``); an answer's 킬로 is read as kg when the expected
statement states a mass and no length, as km when it states a length and no mass, and stays
unread (a value of no kind the statement has, so never equal to one) otherwise."""

from __future__ import annotations

from dataclasses import replace

from seorap.engine import normalise
from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.value import Value

_AS = {"mass": "kg", "length": "km"}


def read_kilo(a: Analysis, exp: Analysis) -> Analysis:
    """``a`` with each 킬로 value read as kg or km by the expected statement's units."""
    if not any(v.type == "킬로" for v in a.values):
        return a
    said = {d for v in exp.values if (d := normalise.dimension(v.type)) is not None and d in _AS}
    if len(said) != 1:
        return a
    unit = _AS[said.pop()]

    def read(v: Value) -> Value:
        return replace(v, type=unit) if v.type == "킬로" else v

    return replace(
        a,
        values=tuple(read(v) for v in a.values),
        segments=tuple(replace(s, values=tuple(read(v) for v in s.values)) for s in a.segments),
    )
