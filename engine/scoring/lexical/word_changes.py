"""A change between two words, the one replaced stated (since lexical-48; docs/metrics.md).

"목요일 레슨 담당 변경: 최 프로 → 한 프로" answered "목요일 레슨은 최 프로님이 맡아요": the two sides
of the arrow are people named by a surname and a title, no value the rules type, so the one
replaced was never read as a former value and the answer, every noun found, was credited. An arrow
between two short runs of words (at most three each, no typed value in them), in a statement that
says it is a change (변경, 교체, 정정, 수정, 바뀌다, 대체), reads as one: an
answer that says the side before it (its words run together: 최프로) and not the side after it
states the one replaced (NO); one that says both (최 프로에서 한 프로로) or the new side alone does
not."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.analysis import Analysis

_SIDE = r"[가-힣A-Za-z]+(?:\s+[가-힣A-Za-z]+){0,2}"
_ARROW = re.compile(rf"(?<![가-힣A-Za-z])({_SIDE})\s*(?:→|->|⇒)\s*({_SIDE})(?![가-힣A-Za-z])")
_CHANGE = re.compile(r"변경|교체|정정|수정|바뀌|바뀜|바꿈|대체|교대")
"""Words that say the arrow is a change (an arrow alone also draws steps and routes)."""
_PARTICLES = re.compile(r"(?:으로|로|에서|은|는|이|가|을|를)$")


def replaced_stated(exp: Analysis, cand: Analysis) -> list[tuple[str, str]]:
    """(the new side, the replaced side the answer states) for each word change of ``exp`` the
    answer gives the old side of and not the new (module docstring)."""
    if not _CHANGE.search(exp.text):
        return []  # 접수 → 검토 → 승인, 일주문 → 숙소: steps and routes, no change
    out = []
    said = "".join(cand.text.split())
    for m in _ARROW.finditer(exp.text):
        old, new = (_PARTICLES.sub("", "".join(side.split())) for side in (m[1], m[2]))
        if not old or not new or old == new or _typed(exp, m.start(), m.end()):
            continue
        if old in said and new not in said:
            out.append((f"{m[2].strip()} (the new one)", f"{m[1].strip()} (the one replaced)"))
    return out


def _typed(a: Analysis, start: int, end: int) -> bool:
    """A typed value in the span: the value rules read that change themselves."""
    return any(start <= v.start < end for v in a.values)
