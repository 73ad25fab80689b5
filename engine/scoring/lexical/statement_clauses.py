"""The clauses of a statement as the question reader counts them (asked.py): segments joined into
one clause when they list members of one thing (a run of values after a comma, a bracket, a colon's
list) and kept apart when each pairs an owner with its value (since lexical-46 also a name with a
value of another kind, 이준호 23번, or a label with a colon of its own, 욕실: 태현)."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.analysis import Analysis, Segment, _compact
from seorap.engine.scoring.lexical.value import Value, kind

Clause = tuple[frozenset[str], tuple[Value, ...], str, tuple[Segment, ...]]
"""A clause's nouns, its values, its text without spaces and its segments."""


def clauses(exp: Analysis) -> list[Clause]:
    """(nouns, values, text, segments) per clause: a segment with no noun but its values joins the
    one before (a list's members after a comma), and so does one inside a bracket an earlier
    segment opened (3대(1번, 4번, 6번): one list) or a colon opened (설비: A, B, C)."""
    out: list[Clause] = []
    for seg in exp.segments:
        own = [n for n in seg.nouns if not any(n in v.text for v in seg.values)]
        before = exp.text[: seg.start]
        inside = before.count("(") > before.count(")")  # 3대(1번, 4번, 6번): one list
        listed = (
            bool(out)
            and _after_colon(exp.text, out[-1][3][0].start, seg.start)
            and all(v.type in _MEMBER_TYPES for v in seg.values)  # a thing listed, no slot's value
            and not _LABELLED.match(seg.text)  # 욕실: 태현 after 주방: 민지 (lexical-46)
            and not _owner_and_value(seg)  # 이준호 23번 after 정하은 17번 (lexical-46)
        )
        if out and (not own and not _owner_and_value(seg) or inside or listed):
            nouns, values, text, segs = out[-1]
            out[-1] = (nouns, values + seg.values, text + _compact(seg.text), (*segs, seg))
        else:
            out.append((frozenset(seg.nouns), seg.values, _compact(seg.text), (seg,)))
    return out


def _owner_and_value(seg: Segment) -> bool:
    """A segment without a noun of its own that names an owner by a value and gives it a value of
    another kind ("3학년 … 2만 5천 원, 5학년은 3만 2천 원"; "성인풀 1.4m, 유아풀 60cm") is a clause
    of its own, not a list's member (since lexical-34)."""
    kinds_ = {kind(v) for v in seg.values}
    named = bool(seg.values) and seg.values[0].type in (
        "name",
        "person",
    )  # 이준호 23번 (lexical-46)
    return len(kinds_) >= 2 and (named or any(v.type not in _MEMBER_TYPES for v in seg.values))


_MEMBER_TYPES = frozenset({"name", "회", "수", "호"})
_LABELLED = re.compile(r"\s*[가-힣A-Za-z0-9 ]{1,12}\s*[:：]")
"""A segment that opens with a label and a colon of its own (욕실: 태현): a pair, no member."""
"""Values a listed thing may hold (1번 천장크레인, 냉각탑): a time or an amount makes the segment
a slot of its own (오전 반 10:00~12:00)."""


def _after_colon(text: str, start: int, at: int) -> bool:
    """A colon opens a list between ``start`` and ``at`` with no sentence ended in between (대상
    설비: A, B, C — the members one clause)."""
    span = text[start:at]
    return ":" in span and not any(stop in span[span.index(":") :] for stop in ".!?\n")
