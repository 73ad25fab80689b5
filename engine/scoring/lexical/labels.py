"""Words told apart by labels, swapped between them (since lexical-50; docs/metrics.md).

"탑노트: 자몽, 미들노트: 장미, 베이스노트: 샌달우드" answered "탑노트는 샌달우드, 베이스는 자몽이에요":
every word of the statement is in the answer, but the top and the base notes hold each other's.
The words after the labels are no values the rules type, so no value rule paired them with their
labels. A statement of two or more "label: words" pairs (each side at most three words, no typed
value after the label) is read as such; an answer clause that names one label (the label, or its
start down to what sets it apart from the others: 베이스 for 베이스노트 beside 탑노트; or a word of
it no other label has: 초급반 for 피겨 초급반 강사 beside 중급반 강사) and says the
words of another label and not its own swaps them (NO). A clause naming two labels is not read."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.analysis import Analysis, _compact

_WORDS = r"[가-힣A-Za-z]+(?:\s+[가-힣A-Za-z]+){0,2}"
_PAIR = re.compile(rf"(?:^|(?<=[,;/\n.—–\]-]))\s*({_WORDS})\s*:\s*({_WORDS})\s*(?=$|[,;/\n.])")
_WHO = frozenset({"name", "person"})
"""Values that may be a label's words: people named (강사: 윤서진 코치)."""
_PARTICLE = re.compile(r"(?:은요|는요|은|는|이|가|의|도|에는|에선|엔)$")


def _pairs(exp: Analysis) -> list[tuple[str, str, str]]:
    """(label, its words compact, its words as written) of each "label: words" pair of the
    statement, when it has two or more and no typed value but a name stands in one."""
    found = [
        (m[1].strip(), _compact(m[2]), m[2].strip())
        for m in _PAIR.finditer(exp.text)
        if not any(m.start() <= v.start < m.end() and v.type not in _WHO for v in exp.values)
    ]
    labels = {label for label, _, _ in found}
    words = {w for _, w, _ in found}
    if len(found) < 2 or len(labels) < len(found) or len(words) < len(found):
        return []
    return found


def _distinct(label: str, labels: list[str]) -> str:
    """The start of ``label`` that sets it apart: without the ending all labels share (노트)."""
    others = [x for x in labels if x != label]
    end = 0
    while end < len(label) and all(
        len(x) > end and x[len(x) - 1 - end] == label[len(label) - 1 - end] for x in others
    ):
        end += 1
    return label[: len(label) - end] or label


def _named(word: str, label: str, labels: list[str], distinct: str) -> bool:
    """Does the answer's word (its particle dropped) name ``label`` (``distinct``: its start that
    sets it apart)?"""
    w = _PARTICLE.sub("", word)
    if len(w) >= 2 and w in label.split() and not any(w in x.split() for x in labels if x != label):
        return True  # 초급반 of "피겨 초급반 강사" beside "중급반 강사"
    return len(w) >= len(distinct) and label.replace(" ", "").startswith(w)


def swapped(exp: Analysis, cand: Analysis) -> list[tuple[str, str]]:
    """(the label's words, the words the answer gives it) for each answer clause that names one
    label and says another label's words and not its own (module docstring)."""
    pairs = _pairs(exp)
    if not pairs:
        return []
    labels = [label for label, _, _ in pairs]
    distinct = {label: _distinct(label, labels) for label in labels}
    out = []
    for seg in cand.segments:
        words = re.findall(r"[가-힣A-Za-z]+", seg.text)
        named = [p for p in pairs if any(_named(x, p[0], labels, distinct[p[0]]) for x in words)]
        if len(named) != 1:
            continue
        label, own, shown = named[0]
        said = _compact(seg.text)
        other = [written for lb, w, written in pairs if lb != label and w in said]
        if other and own not in said:
            out.append((f"{label}: {shown}", f"{label}: {other[0]}"))
    return out
