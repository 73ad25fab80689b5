"""Which retrieved facts hold part of a question's expected answer (the ★ of the questions view, the
answer ranks and the bottleneck diagnosis; docs/metrics.md).

A compound answer is several clauses ('5년 동안 보관, 매일 새벽 3시에 수행, 서울과 부산 두 곳에
사본 저장') and a store of small facts holds it in pieces: '백업은 매일 새벽 3시에 수행' holds one
clause, '백업 보관 기간은 5년' another. :func:`lexical.related` asks a fact to state half of the
whole answer's elements, so only the fact holding the longest clause was marked. A fact holds part
of the answer here when

- it is related to the whole answer (:func:`seorap.engine.scoring.lexical.related`), or
- it states, not as a former value, a value of one clause of the answer ('5년', '새벽 3시') that
  the question does not already state, **and** shares a content noun with that clause ('보관',
  '수행'): a value alone is not enough — '설립 5년 차' is not the backup's retention.

Read lexically (values and nouns), like the judge: a fact that states the right value in the right
words about another subject is still marked; the judge's verdict, not this mark, scores answers.
"""

from __future__ import annotations

from collections.abc import Iterable

from seorap.engine.scoring import lexical

DEPENDENT_NOUN = "NNB"
"""kiwipiepy's tag of dependent nouns (동안, 곳, 것): shared by unrelated clauses, never evidence."""


def _words(analysis: lexical.Analysis) -> set[str]:
    """Content nouns and names of a text, dependent nouns left out."""
    dependent = {m.form for m in analysis.morphs if m.tag == DEPENDENT_NOUN}
    names = {v.key[0] for v in analysis.values if v.type == "name"}
    return (set(analysis.nouns) | names) - dependent


def holds_part(expected: str, fact: str, question: str = "") -> bool:
    """True when ``fact`` holds part of the answer ``expected`` to ``question`` (module rules)."""
    if lexical.related(expected, fact):
        return True
    exp = lexical.analyse(expected)
    asked = lexical.values(question) if question else ()
    stated = [v for v in lexical.analyse(fact).values if not v.former]
    if not stated:
        return False
    fact_words = _words(lexical.analyse(fact))
    dependent = {m.form for m in exp.morphs if m.tag == DEPENDENT_NOUN}
    for seg in exp.segments:
        wanted = [
            v for v in seg.values if not v.former and not any(lexical.same(v, q) for q in asked)
        ]
        if not wanted or not any(lexical.same(w, s) for w in wanted for s in stated):
            continue
        values = {v.key[0] for v in seg.values if v.type == "name"}
        clause_words = set(seg.nouns) - dependent - values
        if clause_words & fact_words:
            return True
    return False


def answer_holders(expected: str, question: str, facts: Iterable[tuple[str, str]]) -> list[str]:
    """The ids of ``facts`` ((id, text) pairs, in rank order) that hold part of the answer."""
    return [fid for fid, text in facts if holds_part(expected, text, question)]
