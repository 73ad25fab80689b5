"""Two owners' poles of one scale swapped (since lexical-27; docs/metrics.md).

"호두과자 매장은 5월 한 달간 문을 닫고, 편의점은 정상 영업합니다" answered "편의점이 문을 닫고,
호두과자 매장은 그대로 영업한대요": both poles of open/close are said, each of another owner, and
the answer gives each owner the other's. The opposite-act rule (lexical/acts.py) stays silent when
the statement says both poles; this one reads them owner by owner: an expected clause that says one
pole of a scale and is about an owner (the nouns before its 은/는, or before its first 이/가), and
an answer clause about that owner (and no other owner of the scale) that says the other pole and
not the first."""

from __future__ import annotations

import re
from dataclasses import replace

from seorap.engine.scoring.lexical.acts import ANTONYMS, _says, _words
from seorap.engine.scoring.lexical.analysis import Analysis, Segment, _compact
from seorap.engine.scoring.lexical.text import Morph
from seorap.engine.scoring.lexical.value import Value, kind, same

EXTRA_SCALES = (
    ("before/after a meal", frozenset({"식전"}), frozenset({"식후"})),
    ("open/close", frozenset({"영업"}), frozenset({"닫-", "휴업"})),
    (
        "in/out",
        frozenset({"입고", "반입", "들어오-"}),
        frozenset({"출고", "반출", "출하", "나가-"}),
    ),
    (
        "enter/leave",
        frozenset({"입구", "입장", "입실", "들어가-", "들어오-"}),
        frozenset({"출구", "퇴장", "퇴실", "나가-", "나오-"}),
    ),
)
"""Poles read only owner by owner or value by value: 식전/식후, 영업 (open for business) against
닫다, and goods or people going in and out said in everyday verbs (입고 12장 / 12장 들어오고;
lexical-39) — words too common elsewhere for the opposite-act rule's whole-statement reading."""


def _morphs(a: Analysis, seg: Segment) -> list[Morph]:
    return [m for m in a.morphs if seg.start <= m.start < seg.end]


def _owner(a: Analysis, seg: Segment) -> frozenset[str]:
    """The clause's owner: its nouns before 은/는, else before its first 이/가 (or 께서)."""
    if seg.topic:
        return seg.topic
    nouns: set[str] = set()
    for m in _morphs(a, seg):
        if m.tag == "JKS":
            return frozenset(nouns)
        if m.tag.startswith("NN"):
            nouns.add(m.form)
    return frozenset()


def _past_head(a: Analysis, seg: Segment, one: frozenset[str], other: frozenset[str]) -> Segment:
    """The clause without a head before its colon (or a label in brackets before it: [입출고])
    that names both poles, a label of what follows ("정육점 입출고: 한우 갈비 20kg 입고": 입출고
    names the ledger, the clause says 입고; since lexical-43, brackets since lexical-44)."""
    label = _LABEL.match(seg.text)
    colon = label.end() - 1 if label else seg.text.find(":")
    if colon < 0 or any(v.start < seg.start + colon for v in seg.values):
        return seg
    head = _compact(seg.text[:colon])
    if not _both(head, one, other):
        return seg  # a head of one pole (입고: 원단 12장) says it of what follows
    rest = seg.text[colon + 1 :]
    return replace(seg, start=seg.start + colon + 1, text=rest, compact=_compact(rest))


_LABEL = re.compile(r"\s*\[[^\]]{1,20}\]")


def _both(compact: str, one: frozenset[str], other: frozenset[str]) -> bool:
    """Does a text name both poles: each word, or one word with the other's first syllable
    before it (입출고 = 입고 and 출고, 출퇴근, 승하차)?"""
    nouns = [(a, b) for a in one for b in other if not a.endswith("-") and not b.endswith("-")]
    return any(
        (a in compact and b in compact) or a[0] + b in compact or b[0] + a in compact
        for a, b in nouns
    )


def _pole(words: set[str], seg: Segment, one: frozenset[str], other: frozenset[str]) -> int:
    """1 when the clause (its ``words``) says ``one`` and not ``other``, -1 the reverse, 0
    otherwise."""
    first, second = bool(_says(words, seg.compact, one)), bool(_says(words, seg.compact, other))
    return (first and not second) - (second and not first)


def swapped(exp: Analysis, cand: Analysis) -> tuple[str, str] | None:
    """(an owner with its expected pole, the same owner with the answer's) when two owners' poles
    of one scale are swapped (module docstring); None otherwise."""
    mine = [(s, _owner(exp, s), _words(_morphs(exp, s))) for s in exp.segments]
    theirs = [(c, _words(_morphs(cand, c))) for c in cand.segments]
    for name, one, other in (*ANTONYMS, *EXTRA_SCALES):
        owned = [(o, _pole(w, s, one, other)) for s, o, w in mine]
        owned = [(o, p) for o, p in owned if o and p]
        if len({p for _, p in owned}) < 2:
            continue  # both poles, each said of an owner
        for owner, pole in owned:
            rivals = {n for o, p in owned if o != owner for n in o} - owner
            for c, words in theirs:
                if not any(n in c.compact for n in owner) or any(n in c.compact for n in rivals):
                    continue
                if _pole(words, c, one, other) == -pole:
                    said = "/".join(sorted(one if pole > 0 else other))
                    return f"{' '.join(sorted(owner))} {said}", f"the other pole ({name})"
    return None


def values_swapped(exp: Analysis, cand: Analysis) -> tuple[str, str] | None:
    """(a value with its expected pole, the answer's pole) when the statement says both poles of
    a scale, each in clauses with values, and an answer clause that says one pole states a value
    only the other pole's clauses hold, of a kind its own pole's clauses have (since lexical-37:
    "매입가는 정가의 20%, 판매가는 정가의 50%" answered "정가 50%에 사 드리고 20%에 팔아요")."""
    clauses = [s for s in exp.segments if s.values]
    theirs = [(c, _words(_morphs(cand, c))) for c in cand.segments if c.values]
    for name, one, other in (*ANTONYMS, *EXTRA_SCALES):
        mine = [
            (s, _words(_morphs(exp, s))) for s in (_past_head(exp, c, one, other) for c in clauses)
        ]
        poles = {1: one, -1: other}
        held: dict[int, list[Value]] = {1: [], -1: []}
        said: dict[int, set[str]] = {1: set(), -1: set()}
        for s, words in mine:
            pole = _pole(words, s, one, other)
            if pole:
                held[pole] += s.values
                said[pole] |= _says(words, s.compact, poles[pole])
        if not held[1] or not held[-1]:
            continue
        for c, words in theirs:
            for w in c.values:
                pole = _pole_of(w, c, cand, words, one, other)
                if not pole or w.former or any(same(w, v) for v in held[pole]):
                    continue
                theirs_held = next((v for v in held[-pole] if same(w, v)), None)
                if theirs_held is not None and any(kind(v) == kind(w) for v in held[pole]):
                    mine_words = "/".join(sorted(said[-pole]))
                    theirs_words = "/".join(sorted(poles[pole] & _words(_morphs(cand, c))))
                    # the statement's words for the value on its side (since lexical-45)
                    return (
                        f"{theirs_held.text} ({mine_words})",
                        f"{w.text} ({theirs_words}, {name})",
                    )
    return None


def _pole_of(
    w: Value,
    c: Segment,
    cand: Analysis,
    words: set[str],
    one: frozenset[str],
    other: frozenset[str],
) -> int:
    """The pole the answer says value ``w`` with: its clause's, or — when the clause holds other
    values too — the pole said between ``w`` and the next value (the verb after it: "1,200만 원에
    들여와서 … 1,450만 원에 팔 거예요" sells only the second; since lexical-38)."""
    if len(c.values) == 1:
        return _pole(words, c, one, other)
    end = min((v.start for v in c.values if v.start >= w.end), default=c.end)
    span = [m for m in cand.morphs if w.end <= m.start < end]
    said = _words(span)
    first, second = bool(said & one), bool(said & other)
    return (first and not second) - (second and not first)
