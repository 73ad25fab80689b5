"""A polarity said in a bracket about a thing the answer does not speak of (since lexical-51).

"공연 시간 1시간 50분 (휴식 없음)" answered "110분 동안 해요": the bracket's negation is of 휴식,
which the answer never names; it leaves that aside out, it does not say the opposite. Markers
inside a bracket of the expected clause none of whose nouns the answer has are not asked of the
answer's clauses (a missing part, for the recall rules); said of a noun the answer has (휴식 있어요),
or of a word of its meaning class ("(휴무 아님)" answered "일요일마다 쉬어요"), they are."""

from __future__ import annotations

import re
from collections import Counter

from seorap.engine.scoring.lexical.analysis import Analysis, Segment, _markers
from seorap.engine.scoring.lexical.lexicon import synonym_class

_BRACKET = re.compile(r"\([^()]*\)")


def unsaid_aside_markers(seg: Segment, exp: Analysis, cand: Analysis) -> Counter[str]:
    """The markers of ``seg`` said inside brackets whose nouns the answer does not have."""
    out: Counter[str] = Counter()
    forms = frozenset(m.form for m in cand.morphs)
    for b in _BRACKET.finditer(exp.text, seg.start, seg.end):
        morphs = [m for m in exp.morphs if b.start() < m.start < b.end()]
        nouns = [m.form for m in morphs if m.tag in ("NNG", "NNP") and len(m.form) >= 2]
        if nouns and not any(n in cand.compact or synonym_class(n, forms) for n in nouns):
            out.update(_markers(morphs))
    return out
