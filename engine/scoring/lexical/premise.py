"""A question's premise, read against the expected statement (since lexical-19; docs/metrics.md).

A yes/no question states something and asks whether it holds ("저희 1조도 들어가요?", "오늘
새벽 경매 열려요?"). When the expected statement denies it (a wrong value, a polarity, a state, a
wrong subject: the judge's own rules, the question read as a candidate), an answer's opening
아니요 says what the statement says, and an opening 네 affirms what it denies. A sentence of the
question with a question word (누가, 언제, 얼마 …) or a negation of its own ("안 되죠?": Korean
answers those the other way round) is not read."""

from __future__ import annotations

import re
from collections.abc import Callable

from seorap.engine.scoring.lexical.analysis import NEGATION, Analysis
from seorap.engine.scoring.lexical.asked import ASKS, OPEN

_SENTENCES = re.compile(r"[^?.!\n]+[?.!\n]*")


def yes_no_sentences(q: Analysis) -> list[str]:
    """The sentences of the question that ask yes or no: no question word, no negation."""
    out = []
    for s in _SENTENCES.finditer(q.text):
        text = s.group().strip()
        if not text or OPEN.search(text) or any(p.search(text) for p, _ in ASKS):
            continue
        if any(
            NEGATION in seg.markers
            for seg in q.segments
            if s.start() <= seg.start + len(seg.text) - len(seg.text.lstrip()) < s.end()
        ):
            continue
        out.append(text)
    return out


def denied(q: Analysis | None, contradicts: Callable[[str], bool]) -> bool:
    """Does the expected statement deny what question ``q`` asks yes or no of? ``contradicts``
    measures a text against the statement (the judge's measure, passed in); the whole question is
    measured, its other sentences giving the yes/no one its slot ("B동 필터 교체 누가 해요? 저희
    1조도 들어가요?"), when it has a yes/no sentence."""
    return q is not None and bool(yes_no_sentences(q)) and contradicts(q.text)
