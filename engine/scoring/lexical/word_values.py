"""Values that are words, not typed values: the comment of "X는 Y" (lexical/measure.py)."""

from __future__ import annotations

from fractions import Fraction

from seorap.engine.scoring.lexical.acts import denies_with_a_word
from seorap.engine.scoring.lexical.analysis import Analysis, Segment, _compact
from seorap.engine.scoring.lexical.clauses import _noun_in
from seorap.engine.scoring.lexical.lexicon import synonym_class
from seorap.engine.scoring.lexical.limits import PARTIAL_RECALL
from seorap.engine.scoring.lexical.subjects import list_members


def comment_values(exp: Analysis, cand: Analysis) -> tuple[list[str], list[tuple[str, str]]]:
    """(missing, wrong) word values: the comment of "X는 Y" when the clause has no typed value."""
    missing: list[str] = []
    wrong: list[tuple[str, str]] = []
    members = list_members(exp)
    for seg in exp.segments:
        if any(v.type != "name" for v in seg.values) or not seg.topic or not seg.comment:
            continue
        hit = [n for n in seg.comment if _noun_in(n, cand.nouns, cand.compact)]
        if Fraction(len(hit), len(seg.comment)) >= PARTIAL_RECALL:
            # every member of a listed value must be there ("식빵과 우유" is not "식빵")
            missing += sorted(
                n for n in seg.comment if n not in hit and n in members and n not in seg.topic
            )
            continue
        for cseg in cand.segments:
            if not (seg.topic & (cseg.nouns | cseg.topic)):
                continue
            new = sorted(
                n
                for n in (cseg.comment - seg.topic)
                if not _noun_in(n, exp.nouns, exp.compact)
                and synonym_class(n, frozenset(seg.comment)) is None  # 철회 for 취소 (lexical-30)
            )
            if new and not _denies(exp, seg, cand, cseg):
                wrong.append((" ".join(sorted(seg.comment)), " ".join(new)))
                break
    return missing, wrong


def _denies(exp: Analysis, seg: Segment, cand: Analysis, cseg: Segment) -> bool:
    """The answer's clause denies by a word (불허) what the expected clause negates (허가되지
    않았다): the same fact, no other value (since lexical-30)."""
    return bool(
        denies_with_a_word(
            [m for m in exp.morphs if seg.start <= m.start < seg.end],
            [m for m in cand.morphs if cseg.start <= m.start < cseg.end],
        )
    )


def word_beside_rival(
    expected: str, exp: Analysis, cand: Analysis, q: Analysis | None
) -> tuple[str, str] | None:
    """A word value stated next to another one for the same "X는 …" (answers; one-clause
    statements): (the expected words, the other words), or None."""
    if len(exp.segments) != 1 or any(v.type != "name" for v in exp.values):
        return None
    seg = exp.segments[0]
    words = seg.comment if seg.topic else seg.nouns | {v.key[0] for v in seg.values}
    topic = set(seg.topic) | (set(q.nouns) if q is not None else set())
    if not (words and all(_noun_in(w, cand.nouns, cand.compact) for w in words) and topic):
        return None
    known = exp.compact + (q.compact if q is not None else "")
    # the first word of the statement (or question) names the subject, not the slot
    head = _compact(((q.text if q is not None and not seg.topic else expected).split() or [""])[0])
    for cseg in cand.segments:
        if not cseg.topic or not all(
            _noun_in(t, topic, "".join(topic)) or t in known for t in cseg.topic
        ):
            continue
        if not any(t not in head and (t in topic or t in known) for t in cseg.topic):
            continue
        if all(_noun_in(w, cseg.nouns, cseg.compact) for w in words):
            continue  # the clause stating the value: its other words are its predicate
        new = sorted(
            n for n in cseg.comment if n not in known and not _noun_in(n, exp.nouns, exp.compact)
        )
        if new:
            return (" ".join(sorted(words)), " ".join(new))
    return None
