"""Candidate values that fill an expected value's slot with something else (the wrong-value and
multi-value rules read them)."""

from __future__ import annotations

import re

from seorap.engine import normalise
from seorap.engine.scoring.lexical.accounting import names_other_slot
from seorap.engine.scoring.lexical.analysis import Analysis, Segment
from seorap.engine.scoring.lexical.clauses import _noun_in, _value_in
from seorap.engine.scoring.lexical.subjects import in_expected
from seorap.engine.scoring.lexical.value import Value, kind, unit_of


def _slot_words(seg: Segment | None, question: Analysis | None) -> frozenset[str]:
    """Nouns naming the slot an expected value fills: its clause's nouns plus the question's."""
    words = set(seg.nouns) if seg is not None else set()
    if question is not None:
        words |= set(question.nouns)
    values = [*(seg.values if seg is not None else ()), *(question.values if question else ())]
    return frozenset(words | {c for v in values if len(c := unit_of(v)) >= 2 and _thing(c)})


_HANGUL = re.compile(r"^[가-힣]+$")


def _thing(counter: str) -> bool:
    """A counter that names a thing (포대, 상자), not a measure (시간, 개월, kg): once a count is a
    value (한 포대), its counter names the slot as the noun did."""
    return bool(_HANGUL.match(counter)) and normalise.dimension(counter) is None


def _variant(a: str, b: str) -> bool:
    """Two names that differ only in their digits (AES-256, AES-257): versions of one thing."""
    return (
        a != b and re.sub(r"\d", "", a) == re.sub(r"\d", "", b) and any(c.isdigit() for c in a + b)
    )


def competitors(
    v: Value, exp: Analysis, cand: Analysis, q: Analysis | None, stated: bool
) -> list[Value]:
    """Candidate values that fill the slot of expected value ``v`` with something else.

    A candidate value competes when it has v's type, is not one of the expected values, is not
    marked former, and its clause is about the same slot: it holds every slot word (``K``) that the
    candidate clause stating ``v`` holds (when v is stated) or that the candidate holds anywhere
    (when it is not). A bare value (a clause without nouns: "3월 5일, 3월 7일") always competes.
    Names compete only as bare values or when ``v`` is not stated (a list of names is not a hedge
    by itself); names the question uses are its topic, never an answer."""
    slot = _slot_words(exp.segment_of(v), q)
    home: list[Segment] = []
    if stated:
        home = [c for c in cand.segments if _value_in(v, c.values, c.compact, current=True)]
        keys = {n for n in slot if any(_noun_in(n, c.nouns, c.compact) for c in home)}
    else:
        keys = {n for n in slot if _noun_in(n, cand.nouns, cand.compact)}
    out = []
    for w in cand.values:
        if kind(w) != kind(v) or w.former or in_expected(w, exp):
            continue
        if any(a <= w.start and w.end <= b for a, b, _ in cand.aside):
            continue  # set aside by a contrast word ("A 쓰다가 B로"): not a current value
        if w.type == "name" and q is not None and w.key[0] in q.compact:
            continue
        seg = cand.segment_of(w)
        if (
            stated
            and seg is not None
            and seg not in home
            and names_other_slot(cand, seg, w, exp, q)
        ):
            continue  # a value for another slot in a clause of its own (첫 출근일은 6월 15일)
        if seg is None or not seg.nouns:
            out.append(w)  # a bare value
        elif w.type == "name" and stated and not _variant(w.key[0], v.key[0]):
            continue
        elif keys and all(_noun_in(n, seg.nouns, seg.compact) for n in keys):
            out.append(w)
        elif not keys and not slot:
            out.append(w)
    return out
