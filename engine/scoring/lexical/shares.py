"""A share and a change said with one percentage (since lexical-34).

"로딩 시간 40% 단축" cuts the time by 40 percent; "40%로 줄었어요" and "40% 수준으로 줄었어요" leave
40 percent of it: the same number, another value. A percentage right before a word of change (단축,
감소, 줄다, 늘다, 인상 …, with 이/가 or nothing between) is the change; one before 수준, or before
(으)로 and a word of change, is what is left. An answer that reads the expected statement's change
as the share left, or the reverse, states a wrong value."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.value import Value, same

_CHANGE = (
    r"(?:줄|감소|낮아|낮추|낮췄|떨어|내려|내렸|늘|증가|올랐|올리|오르|높아|높이|인하|인상|단축|축소|"
    r"확대|절감|삭감|상승|하락)"
)
_SHARE = re.compile(rf"\s*(?:수준|(?:으로|로)\s*{_CHANGE})")
_BY = re.compile(rf"\s*(?:[이가]\s*)?{_CHANGE}")
_NAMES = {"share": "share left", "change": "change"}


def _reading(a: Analysis, v: Value) -> str | None:
    """``share`` (what is left), ``change`` (by how much) or None for percentage ``v`` of ``a``."""
    if v.type != "%":
        return None
    if _SHARE.match(a.text, v.end):
        return "share"
    if _BY.match(a.text, v.end):
        return "change"
    return None


def share_for_change(exp: Analysis, cand: Analysis) -> list[tuple[str, str]]:
    """(the expected percentage, the answer's) where one is a change and the other a share."""
    for v in exp.values:
        mine = _reading(exp, v)
        if mine is None:
            continue
        for w in cand.values:
            theirs = _reading(cand, w)
            if theirs is not None and theirs != mine and same(v, w):
                said = "the share left" if theirs == "share" else "the change"
                return [(v.text, f"{w.text} ({said}, not the {_NAMES[mine]})")]
    return []
