"""Reading around the values: what an expected clause is about (its subject) and whether the
answer's clause is about the same thing, words set aside by a contrast or replacement word, and the
members of a listed value (rules new in lexical-5, docs/metrics.md)."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.analysis import Analysis, Segment, _compact
from seorap.engine.scoring.lexical.clauses import _noun_in
from seorap.engine.scoring.lexical.lexicon import synonym_class
from seorap.engine.scoring.lexical.ranges import per_in
from seorap.engine.scoring.lexical.value import Value, kind, same


def in_expected(w: Value, exp: Analysis) -> bool:
    """Is candidate value ``w`` one of the expected statement's values (a name: in its text)?"""
    if any(same(w, v) for v in exp.values):
        return True
    return (w.type == "name" and w.key[0] in exp.compact) or per_in(w, exp.compact)


def replaced(exp: Analysis, cand: Analysis, c: Segment) -> int:
    """Negations of clause ``c`` that only replace something the expected statement does not say:
    ``월요일이 아니라 화요일`` for "화요일" (the phrase before 아니 holds no expected word or value,
    past the clause's topic). ``한식당이 아니라 중식당`` for "한식당" keeps its negation."""
    n = 0
    for a, b, word in cand.aside:
        if word != "아니" or not (c.start <= a < c.end):
            continue
        start = max(a, c.topic_end or a)
        vals = [w for w in c.values if start <= w.start < b]
        if any(in_expected(w, exp) for w in vals):
            continue
        words = _phrase_nouns(cand, start, b)
        if any(x in exp.nouns or x in exp.compact for x in words):
            continue
        n += 1
    return n


def _phrase_nouns(a: Analysis, start: int, end: int) -> set[str]:
    """The nouns of ``a`` between ``start`` and ``end`` outside its values."""
    return {
        n
        for n in a.nouns
        if any(
            start <= i < end and not any(v.start <= i < v.end for v in a.values)
            for i in _spots(a.text.lower(), n)
        )
    }


def _spots(text: str, word: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(word), text)]


def words_set_aside(
    exp: Analysis, cand: Analysis, q: Analysis | None
) -> tuple[tuple[str, str], ...]:
    """(expected word, contrast word): a word value of the expected statement (the nouns after its
    topic, or all of a clause without one) that the answer says only inside a phrase a contrast or
    replacement word sets aside ("한식당이 아니라 중식당", "소담 대신 호텔") — past the answer
    clause's own topic, which names the subject."""
    text = cand.text.lower()
    out: list[tuple[str, str]] = []
    for seg in exp.segments:
        for n in sorted(seg.comment if seg.topic else seg.nouns):
            if q is not None and _noun_in(n, q.nouns, q.compact):
                continue
            spots = [
                i
                for i in _spots(text, n)
                if not any(
                    c.start <= i < c.end and c.topic_end and i < c.topic_end for c in cand.segments
                )
            ]
            words = [w for i in spots for a, b, w in cand.aside if a <= i < b]
            if spots and len(words) == len(spots):
                out.append((n, words[0]))
    return tuple(out)


def list_members(a: Analysis) -> frozenset[str]:
    """Nouns joined by a list connective (식빵과 우유, 한국어 및 영어, A, B): members of one value."""
    m = a.morphs
    out: set[str] = set()
    for i, x in enumerate(m):
        if not (x.tag == "JC" or x.form in ("및", "그리고", ",")):
            continue
        for y in (m[i - 1] if i else None, m[i + 1] if i + 1 < len(m) else None):
            if y is not None and y.tag in ("NNG", "NNP", "SL"):
                out.add(y.form.lower())
    return frozenset(out)


def _subject_words(a: Analysis, seg: Segment, before: int) -> dict[str, bool]:
    """The words naming what a clause is about — its nouns and names before ``before`` (its topic
    particle, or the value it states) — each with whether it identifies (a proper noun or a name:
    김, Enterprise) or only describes (요금제, 앱). Typed values are left to the value rules."""
    words: dict[str, bool] = {}
    for m in a.morphs:
        if seg.start <= m.start < before and m.tag in ("NNG", "NNP", "SL", "SH"):
            if any(v.start <= m.start < v.end and v.type not in _NAMED for v in seg.values):
                continue
            if m.form in _BOUND_BEFORE and _before_value(a, seg, m.end):
                continue  # 최소 5분은: a bound of the value, no subject (lexical-39)
            words.setdefault(m.form.lower(), m.tag != "NNG")
    return {w: ident for w, ident in words.items() if w not in _NEUTRAL_SUBJECT}


_NAMED = ("name", "person", "team")
_BOUND_BEFORE = frozenset({"최소", "최대", "최저", "최고", "최장", "최단"})


def _before_value(a: Analysis, seg: Segment, at: int) -> bool:
    """A value of ``seg`` starts right after ``at`` (spaces between)."""
    gap = len(a.text[at:]) - len(a.text[at:].lstrip())
    return any(v.start == at + gap for v in seg.values)


_NEUTRAL_SUBJECT = frozenset({"이번", "올해", "다음", "새", "신규", "기존", "동안"})
"""Words before a value that name no subject: when (이번, 올해), how new (신규), how long (석 달
동안: since lexical-50)."""


def wrong_subject(
    stated: list[Value], exp: Analysis, cand: Analysis, q: Analysis | None
) -> tuple[tuple[str, str], ...]:
    """(expected subject word, candidate word): an expected value stated in a clause about
    something else — a word naming the subject of the expected clause (the words before its topic
    particle: 김 대리의 휴가는) is absent from the answer, and the answer's clause stating the value
    names another before it (정 대리 휴가가). A subject left out (the question named it) is no
    wrong subject, nor one reworded around the same identifying word (Enterprise 요금제,
    Enterprise 플랜), nor one with a single descriptive word of several reworded (지원 마감일은,
    지원서는)."""
    known = exp.compact + (q.compact if q is not None else "")
    for v in stated:
        seg = exp.segment_of(v)
        if seg is None or seg.topic_end is None or v.start < seg.topic_end:
            continue
        mine = _subject_words(exp, seg, seg.topic_end)
        absent = {
            w: ident
            for w, ident in mine.items()
            if not _noun_in(w, cand.nouns, cand.compact) and w not in cand.compact
        }
        if not absent:
            continue
        for c in cand.segments:
            here = [w for w in c.values if same(v, w) and not w.former]
            if not here:
                continue
            theirs = _subject_words(cand, c, c.topic_end or here[0].start)
            other = [
                w
                for w in theirs
                if _compact(w) not in known
                and not any(a <= cand.text.lower().find(w) < b for a, b, _ in cand.aside)
            ]
            shared_id = any(ident and w in mine and w not in absent for w, ident in theirs.items())
            # a derived form of an expected subject word (신청 → 신청서) is no other subject
            other = [w for w in other if not any(len(x) >= 2 and x in w for x in mine)]
            # …nor a word of an expected noun's meaning class (아침 for 조식, 어른 for 성인: lexical-31)
            other = [w for w in other if synonym_class(w, frozenset((*mine, *exp.nouns))) is None]
            # an identifying word replaced (김 → 정), or most of a descriptive subject (모바일 앱
            # → 웹 버전); one descriptive word reworded (마감일 → 지원서) is a paraphrase
            if other and (any(absent.values()) or (not shared_id and 2 * len(absent) >= len(mine))):
                return ((next(iter(absent)), other[0]),)
    return ()


OWNER_KINDS = frozenset(
    {"name", "person", "team", "학년", "병동", "반", "호", "호실", "층", "차", "학기"}
)
"""Kinds of value that pick a slot's owner: a name (a host id, a platform, a product, a version
line), a person, a team, a grade, a class, a ward, a room, a floor, a round."""


def _owners(exp: Analysis, q: Analysis | None) -> list[Value]:
    """Values that pick the owner of the asked slot: the question's, and those in the subject of
    an expected clause (before its 은/는)."""
    found = list(q.values) if q is not None else []
    for seg in exp.segments:
        found += [w for w in seg.values if seg.topic_end is not None and w.start < seg.topic_end]
    return [o for o in found if kind(o) in OWNER_KINDS]


def wrong_owner(
    stated: list[Value], exp: Analysis, cand: Analysis, q: Analysis | None
) -> tuple[tuple[str, str], ...]:
    """(the asked owner, the answer's): an expected value stated in a clause that, before the
    value, names another owner of the same kind (2학년 / 3학년, db-03 / db-04, 결제팀 / 인프라팀)
    and never the asked one. An answer that names no owner is not penalised."""
    owners = [o for o in _owners(exp, q) if not any(same(o, v) for v in stated)]
    if not owners:
        return ()
    asked = list(q.values) if q is not None else []
    for v in stated:
        for c in cand.segments:
            here = [w for w in c.values if same(v, w) and not w.former]
            if not here or c.topic_end is None or any(same(x, o) for x in c.values for o in owners):
                continue
            if any(_compact(o.text) in c.compact for o in owners):
                continue  # the asked owner is named (한빛물류, read as 한빛 + 물류)
            for x in c.values:
                if x.start >= min(here[0].start, c.topic_end) or in_expected(x, exp):
                    continue  # only the clause's subject names its owner
                if any(same(x, y) for y in asked):
                    continue
                rival = next((o for o in owners if kind(o) == kind(x)), None)
                if rival is not None:
                    return ((rival.text, x.text),)
    return ()
