"""Two sides of one time threshold (since lexical-46; docs/metrics.md).

"예약 취소: 72시간 전까지 전액 환불, 그 이후 취소는 50% 환불" asked "72시간 안쪽으로 취소하면 얼마나
돌려받아요?" and answered "72시간 전까지 취소하시면 전액 환불돼요": every value the answer states is
the statement's, but of the side the question does not ask. The statement counts back from an event
(72시간 전까지) and names what comes after (그 이후, 지나서); the question asks inside the
threshold (안쪽, 이내, 안에, 미만, 남기고: the late side) without 전; the answer states the threshold
with 전까지 (or 전에, 이전): the early side, which the question did not ask (NO)."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.value import Value, same

_EARLY = re.compile(r"\s*(?:전까지|전에|이전|前)")
_LATE_ASKED = re.compile(r"\s*(?:안쪽|이내|안에|미만|남기고|남겨|남았|내로)")
_AFTER = re.compile(r"이후|그\s*후|지나|넘으면|넘어서|넘긴")


def other_side(exp: Analysis, cand: Analysis, q: Analysis | None) -> list[tuple[str, str]]:
    """(the side asked, the side the answer states) for an answer that states the early side of a
    threshold the question asks inside of (module docstring)."""
    if q is None or "전" in q.text:
        return []
    for v in exp.values:
        if not _EARLY.match(exp.text, v.end) or not _AFTER.search(exp.text, v.end):
            continue
        asked = _at(q, v)
        inside = _LATE_ASKED.match(q.text, asked.end) if asked is not None else None
        said = _at(cand, v)
        if asked and inside and said is not None and _EARLY.match(cand.text, said.end):
            return [(f"{asked.text} {inside[0].strip()}", f"{said.text} 전")]
    return []


def _at(a: Analysis, v: Value) -> Value | None:
    return next((w for w in a.values if same(v, w)), None)
