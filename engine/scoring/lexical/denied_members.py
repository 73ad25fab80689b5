"""A member of a denied list said allowed (since lexical-51; docs/metrics.md).

"냉동 오징어는 반품·교환 안 됨" answered "교환은 안 되고 반품만 돼요": the answer has a negation for
the statement's, clause for clause, but it allows one of the two things the statement denies
together. Members joined by ·, / or 및 right before a denial (안 되다, 불가, 금지, 않다) are denied
each; an answer clause that names one of them, says 되다 or 가능 of it and carries no negation or
denying word allows it (NO). A clause that denies it (반품도 안 돼요) or names another thing is not
read."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.analysis import NEGATION, Analysis

_MEMBERS = re.compile(
    r"(?<![가-힣])((?:[가-힣]{2,}(?:\s*[·/,]\s*|\s+및\s+)){1,8}[가-힣]{2,})\s*(?:은|는|이|가|도)?\s*"
    r"(?:안\s*됨|안\s*돼|안\s*되|불가|금지|하지\s*않|되지\s*않|받지\s*않)"
)
_SPLIT = re.compile(r"\s*[·/,]\s*|\s+및\s+")
"""One way only to read a join (및 apart from its words), and at most nine members: no document
text makes the patterns try its members in more than one way, or read far for each start."""
_ALLOWED = frozenset({"되", "가능"})
_DENYING = frozenset({"불가", "금지", "불가능"})


def allowed_members(exp: Analysis, cand: Analysis) -> list[tuple[str, str]]:
    """(the member the statement denies, the answer saying it is allowed)."""
    members = [w for m in _MEMBERS.finditer(exp.text) for w in _SPLIT.split(m[1]) if w]
    out = []
    for c in cand.segments:
        morphs = [m for m in cand.morphs if c.start <= m.start < c.end]
        if NEGATION in c.markers or any(m.form in _DENYING for m in morphs):
            continue
        if not any(m.form in _ALLOWED and m.tag in ("VV", "NNG") for m in morphs):
            continue
        said = [w for w in members if any(m.form == w for m in morphs)]
        if said:
            out.append((f"{said[0]} (denied)", f"{said[0]} allowed"))
    return out
