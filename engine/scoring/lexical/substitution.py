"""A word put where an expected word stands (since lexical-7; docs/metrics.md, rule ``substituted``).

"보도국 야간 편집 인력은 4명" answered "예능국 야간 편집 인력은 4명": every value is there and
every other word, but the word that says *whose* staff is another one. Read as recall, that is one
expected element missing of five, and the values carry a YES. Read by position, it is a swap: the
answer has a word the expected answer and the question do not know, in the place of an expected
word it leaves out — before the same word. Whatever the word means (another department, the other
direction of a flow, another crop), the answer is about something else: NO.

Words are the noun runs of a clause (adjacent noun-like morphemes with no space between them:
보도국, 아웃바운드, 작목반). An expected word counts as left out when the answer's text does not
hold it; the answer's word counts as unknown when neither the expected answer's nor the question's
text holds it, it holds neither word, no meaning class of the predicate table joins it to a word of
theirs, and it is not wholly neutral (해당, 이번). Its place is the same when the word right after
it in the answer's clause (across a space or 의 only: one noun phrase) is the word right after the
one left out in the expected clause or the question: the same head with another modifier. Kind
nouns (날짜, 장소 …) are never read as left out. A paraphrase in the same place (송년 행사 for 회식)
is read the same way: a NO where a person might say YES — the judge fails closed.
"""

from __future__ import annotations

from collections.abc import Sequence

from seorap.engine.scoring.lexical.accounting import CASE_PARTICLES, KIND_NOUNS
from seorap.engine.scoring.lexical.analysis import _STOP_NOUNS, Analysis, Segment
from seorap.engine.scoring.lexical.courtesy import honorific
from seorap.engine.scoring.lexical.lexicon import Entry, builtin_neutral, synonym_class
from seorap.engine.scoring.lexical.value import same, spelled

_WORD_TAGS = frozenset({"NNG", "NNP", "SL", "SH", "XPN", "XSN", "XR"})
"""Morphemes a word of a slot's name is made of (numbers and counters belong to values)."""
_SUFFIXES = frozenset({"간", "째", "당", "용", "별", "씩", "쯤", "경", "께", "여"})
"""Suffixes the analyser can leave on their own after a value (한 달간, 3일째): no word."""


def _words(
    a: Analysis, seg: Segment, agreed: Sequence[tuple[int, int]] = ()
) -> list[tuple[str, tuple[str, ...], bool, bool]]:
    """The noun runs of one clause, in order: (the word lower-cased, its morphemes, whether the
    next word follows it across a space or 의 only — the two make one noun phrase, whether it lies
    inside one of the ``agreed`` spans: part of a value the other text states too, 모레 and 이번
    주 금요일 for one day, compared as values and never as words)."""
    runs: list[tuple[list[str], int, int]] = []
    for m in a.morphs:
        if not seg.start <= m.start < seg.end or m.tag not in _WORD_TAGS:
            continue
        if runs and runs[-1][2] == m.start:
            runs[-1][0].append(m.form)
            runs[-1] = (runs[-1][0], runs[-1][1], m.end)
        else:
            runs.append(([m.form], m.start, m.end))
    # a suffix left on its own (객실 당) is no word; dropped before the words are joined, so a
    # word joined to the next always has one (it had none when the suffix ended the clause)
    runs = [r for r in runs if "".join(r[0]).strip() and r[0][0] not in _SUFFIXES]
    return [
        (
            "".join(parts).lower(),
            tuple(parts),
            i + 1 < len(runs) and "".join(a.text[end : runs[i + 1][1]].split()) in ("", "의"),
            any(a0 <= start and end <= a1 for a0, a1 in agreed),
        )
        for i, (parts, start, end) in enumerate(runs)
    ]


def _agreed(a: Analysis, others: Sequence[Analysis | None]) -> list[tuple[int, int]]:
    """The spans of ``a``'s values that one of ``others`` states too, and of its relative dates
    left unresolved (모레 with no day to read it from): the value rules judge those (unresolved:
    not verified), not this one."""
    theirs = [w for o in others if o is not None for w in o.values]
    return [
        (v.start, v.end)
        for v in a.values
        if v.type == "vague-date" or any(same(v, w) for w in theirs)
    ]


def _neutral(forms: tuple[str, ...], entries: Sequence[Entry]) -> bool:
    return all(any(e.forms == (f,) for e in entries) for f in forms)


def substituted(
    exp: Analysis, cand: Analysis, q: Analysis | None, extra: Sequence[Entry] = ()
) -> list[tuple[str, str, str]]:
    """(expected word, the answer's word in its place, where the expected word is: "the expected
    statement" or "the question"), per the module docstring."""
    known = exp.compact + "|" + (q.compact if q is not None else "")
    forms = frozenset(
        m.form.lower()
        for a in (exp, q)
        if a is not None
        for m in a.morphs
        if m.tag not in CASE_PARTICLES  # a case particle is in no meaning class (가 is no 가다)
    )
    nouns = [*exp.nouns, *(q.nouns if q is not None else ())]
    names = [str(v.key[0]) for a in (exp, q) if a is not None for v in a.values if v.type == "name"]
    entries = (*builtin_neutral(), *extra)
    out: list[tuple[str, str, str]] = []
    sides = [  # each clause's words read once: (whose, [words of each clause])
        (
            "the expected statement" if a is exp else "the question",
            [_words(a, s, _agreed(a, [cand])) for s in a.segments],
        )
        for a in (exp, q)
        if a is not None
    ]
    answers = [_words(cand, s, _agreed(cand, [exp, q])) for s in cand.segments]
    whole = {w for _, clauses in sides for ws in clauses for w, _, _, _ in ws if len(w) >= 2}
    for where, clauses in sides:
        for expected, answer in ((e, a) for e in clauses for a in answers):
            for i, (x, _, x_joined, x_value) in enumerate(expected):
                if x in cand.compact or x in KIND_NOUNS or x in _STOP_NOUNS or not x_joined:
                    continue
                right = expected[i + 1][0]
                for j, (y, parts, y_joined, y_value) in enumerate(answer):
                    if x_value or y_value:
                        continue
                    if y in known or x in y or y in x or _neutral(parts, entries):
                        continue
                    if any(w in y for w in whole):  # a derived form (인플루언서용)
                        continue
                    if any(synonym_class(p, forms, nouns) for p in parts) or honorific(x, y):
                        continue
                    if any(spelled(n, y) for n in (x, *names)):  # 해썹 for HACCP
                        continue
                    if y_joined and answer[j + 1][0] == right:
                        out.append((x, y, where))
    return list(dict.fromkeys(out))
