"""An answer that keeps the value the statement changed from (since lexical-25; docs/metrics.md).

"3월 2일부터 점호를 밤 11시에서 밤 12시로 변경" answered "점호는 밤 11시입니다" states no value of
the statement's current ones and one it marks as former: the old value said as the current one, a
wrong value — not a new slot missing. An answer that says both, the old one as old ("원래 11시였는데
12시로"), is the other rules'."""

from __future__ import annotations

from seorap.engine.scoring.lexical.analysis import Analysis
from seorap.engine.scoring.lexical.value import Value, kind, same


def former_instead(v: Value, current: list[Value], exp: Analysis, cand: Analysis) -> Value | None:
    """The answer's value, of ``v``'s kind and not said as former, that is the one the expected
    statement changed from, when ``v`` itself is not stated (since lexical-25: "점호를 밤 11시에서
    밤 12시로 변경" answered "점호는 밤 11시입니다"); since lexical-32 also one it sets aside or
    retracts (not current: "8천 원으로 안내했으나 정정합니다. 1만 원이 맞습니다.")."""
    old = [f for f in exp.values if (f.former or f not in current) and kind(f) == kind(v)]
    for w in cand.values:
        if w.former or kind(w) != kind(v) or any(same(w, c) for c in current):
            continue
        if any(same(w, f) for f in old):
            return w
    return None
