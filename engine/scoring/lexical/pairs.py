"""Values paired with their owners in a list, swapped (since lexical-12).

"다음 정기 점검은 1호기 화요일, 2호기 수요일" answered "1호기 수요일, 2호기 화요일": every value is
stated, each in a clause of its own, and each clause is about a unit the expected statement names;
read value by value, that is a YES. Read as pairs, the two days changed places.

A pair is a clause (a comma-separated part) holding one value of a kind and the word right before
it (its owner: ``1호기``, ``A반은`` without its particle). The owners of a list are told apart by a
number or a Latin letter and are otherwise one word (1호기 and 2호기, A레인 and B레인): "채용은
2명 … 개발자 1명은" lists no owners. When the expected statement lists two or more such pairs of
one kind with different owners, an answer's clause that pairs one of those owners with the value
of another owner is a swap: a wrong value (NO), whatever else it states. An owner the expected
statement does not name, or a clause holding two values of the kind, is not read as a pair.

Since lexical-18 a pair is also read across clauses (``across``): "6년근 채굴 9/20 시작. 4년근
채굴 일정 미정" answered "4년근 채굴이 9월 20일부터": every value the answer states is one of the
expected statement's, but 4년 comes from the other clause, where the clause of 9/20 has a value of
its kind (6년) the answer leaves out: 4년 stands where 6년 stood. Clauses an answer merges
without such a stand-in ("6/2 09:00, 본사 3층 교육장" said in one clause) are no swap, nor a value
both clauses hold, nor one said after the value ("9월 20일부터고 4년근은 미정": another matter).

Since lexical-45 owners told apart by a word are read too (``by_name``): "드레스 리허설 금요일 19시
/ 테크 리허설 목요일 14시" answered "드레스 리허설은 목요일 오후 2시, …": the answer's clause is
about (its topic, before 은/는, names) a word only one expected clause has (드레스), and states, of a
kind that clause holds, a value only another clause holds and none of its own: the days changed
owners, whatever the answer calls the other one (테크니컬 리허설).
"""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.analysis import Analysis, Segment
from seorap.engine.scoring.lexical.value import Value, kind, same

_PARTICLE = re.compile(r"(?:은|는|이|가|도|의|에|에서|께서)$")
_MARK = re.compile(r"[0-9A-Za-z]+")
"""What tells the owners of one list apart: 1호기 and 2호기, A레인 and B레인 (the rest is the
same word)."""


def _owner(text: str, start: int, end: int) -> str | None:
    """The word right before a value (``text[start:end]``: from its clause's start), without a
    particle; None when there is none."""
    words = text[start:end].split()
    if not words:
        return None
    word = _PARTICLE.sub("", words[-1].strip("(),.:;\"'")).lower()
    return word or None


def pairs(a: Analysis) -> list[tuple[str, Value]]:
    """(owner, value) for each clause of ``a`` holding exactly one value of a kind."""
    out = []
    for seg in a.segments:
        by_kind: dict[str, list[Value]] = {}
        for v in seg.values:
            by_kind.setdefault(kind(v), []).append(v)
        for vs in by_kind.values():
            if len(vs) != 1 or vs[0].former:
                continue
            owner = _owner(a.text, seg.start, vs[0].start)
            if owner is not None:
                out.append((owner, vs[0]))
    return out


def swapped(exp: Analysis, cand: Analysis) -> list[tuple[str, str]]:
    """(expected owner and value, the answer's) for each owner the answer pairs with the value of
    another owner of the expected list (module docstring)."""
    mine = [
        (o, v)
        for o, v in pairs(exp)
        if _MARK.search(o) or (_NAMED.fullmatch(o) and exp.text.lower().count(o) == 1)
    ]
    out = []
    for owner, w in pairs(cand):
        listed = [(o, v) for o, v in mine if kind(v) == kind(w)]
        names = [o for o, _ in listed]
        if len(set(names)) < 2 or not _one_family(names):
            continue
        own = [v for o, v in listed if o == owner]
        others = [v for o, v in listed if o != owner]
        if own and not any(same(v, w) for v in own) and any(same(v, w) for v in others):
            out.append((f"{owner} {own[0].text}", f"{owner} {w.text}"))
    return out


def _one_family(owners: list[str]) -> bool:
    """Owners of one list: one word told apart by a number or a letter (1호기, 2호기), or, since
    lexical-51, words each said once (해랑호 7번 선석, 바다새호 12번 선석)."""
    marked = [o for o in owners if _MARK.search(o)]
    if marked:
        return len(marked) == len(owners) and len({_MARK.sub("", o) for o in owners}) == 1
    return len(set(owners)) == len(owners)


_NAMED = re.compile(r"[가-힣]{2,}")
"""An owner said as a word of its own (해랑호), not a mark, and said once: a word of two clauses
(굽 교체, 밑창 전체 교체) names no owner (since lexical-51)."""


def across(exp: Analysis, cand: Analysis) -> list[tuple[str, str]]:
    """(the expected pairing, the answer's) for a value an answer's clause takes from another
    expected clause in place of one of its own (module docstring)."""
    for c in cand.segments:
        held = [(v, _holding(exp, v)) for v in c.values if not v.former]
        for v, in_v in held:
            for x, in_x in held:
                # the owner is named before the value it owns (4년근 채굴이 9월 20일부터)
                if x.start >= v.start or kind(x) == kind(v) or not in_v or not in_x:
                    continue
                if set(in_v) & set(in_x):
                    continue
                lost = [  # per clause holding v: its values of x's kind the answer leaves out
                    [y for y in seg.values if kind(y) == kind(x) and not _said(y, c)]
                    for seg in in_v
                ]
                if all(lost):
                    return [(f"{lost[0][0].text} {v.text}", f"{x.text} {v.text}")]
    return []


def _said(y: Value, c: Segment) -> bool:
    return any(same(y, w) for w in c.values)


def _holding(exp: Analysis, v: Value) -> list[Segment]:
    return [seg for seg in exp.segments if any(same(v, y) and not y.former for y in seg.values)]


def by_name(exp: Analysis, cand: Analysis) -> list[tuple[str, str]]:
    """(the expected owner and value, the answer's) for an answer clause about the word that tells
    one expected clause's owner apart that states another clause's value in place of that clause's
    own (module docstring)."""
    owners = _named_owners(exp) if len(exp.segments) > 1 else []
    for c in cand.segments:
        if not owners or not c.topic or c.topic_end is None:
            continue
        for mine, name, held in owners:
            if name not in c.topic or any(n in c.compact for n in held[1]):
                continue
            for w in c.values:
                if w.former or w.start < c.topic_end or not any(same(w, y) for y in held[0]):
                    continue
                theirs = [y for y in mine.values if kind(y) == kind(w) and not y.former]
                if (
                    theirs
                    and not any(same(y, w) for y in theirs)
                    and not any(_said(y, c) for y in theirs)
                ):
                    return [(f"{name} {theirs[0].text}", f"{name} {w.text}")]
    return []


def _named_owners(exp: Analysis) -> list[tuple[Segment, str, tuple[list[Value], set[str]]]]:
    """(clause, the word naming its owner, (the values and owner words of the other clauses of the
    list)) for clauses whose owners are one head noun told apart by a word before it (드레스 리허설,
    테크 리허설)."""
    out = []
    for seg in exp.segments:
        for other in exp.segments:
            if other is seg or not seg.values or not other.values:
                continue
            for head in set(seg.nouns) & set(other.nouns):
                mine = [n for n in seg.nouns if n not in other.nouns and n + head in seg.compact]
                rival = {n for n in other.nouns if n not in seg.nouns and n + head in other.compact}
                if mine and rival:
                    out.append((seg, mine[0], (list(other.values), rival)))
    return out
