"""Measuring one candidate against one expected statement (the inputs to the rules)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from seorap.engine.scoring.lexical import (
    acts,
    agents,
    asked,
    days,
    denied_members,
    dims,
    kilo,
    labels,
    owners_poles,
    pairs,
    premise,
    roles,
    scope,
    stale,
    states,
    thresholds,
    weekdays,
    word_changes,
)
from seorap.engine.scoring.lexical.accounting import range_nouns, unaccounted
from seorap.engine.scoring.lexical.analysis import Analysis, Segment, analyse
from seorap.engine.scoring.lexical.clause_polarity import clause_polarity, set_aside_value
from seorap.engine.scoring.lexical.clauses import (
    _anchored,
    _local,
    _noun_in,
    _value_in,
    near_values,
    set_aside,
    unverified_words,
)
from seorap.engine.scoring.lexical.competitors import _variant, competitors
from seorap.engine.scoring.lexical.constructions import found_otherwise
from seorap.engine.scoring.lexical.lexicon import Entry
from seorap.engine.scoring.lexical.owners import asked_clauses_missing, not_given
from seorap.engine.scoring.lexical.polarity import hedge_classes, opposite, sibling
from seorap.engine.scoring.lexical.shares import share_for_change
from seorap.engine.scoring.lexical.subjects import (
    in_expected,
    words_set_aside,
    wrong_owner,
    wrong_subject,
)
from seorap.engine.scoring.lexical.substitution import substituted
from seorap.engine.scoring.lexical.value import Value, kind, same, shown
from seorap.engine.scoring.lexical.word_values import comment_values, word_beside_rival

# ---- measuring one candidate against one expected statement ---------------------------------------


@dataclass(frozen=True)
class Match:
    """How one candidate measures against one expected statement (inputs to :func:`grade`)."""

    found: int
    """Expected elements (nouns and values) found in the candidate."""
    total: int
    """Expected elements."""
    missing: tuple[str, ...] = ()
    """Expected values (as written) the candidate does not state as current, with no competing value."""
    wrong: tuple[tuple[str, str], ...] = ()
    """(expected value, value stated instead): the candidate fills the slot with another value."""
    multi: tuple[tuple[str, str], ...] = ()
    """(expected value, other value): both stated as current for one slot (no former mark)."""
    polarity: tuple[tuple[str, str, str], ...] = ()
    """(expected segment, expected markers, candidate markers) that disagree."""
    hedges: tuple[str, ...] = ()
    """Hedge words in the candidate that the expected statement does not use."""
    values_expected: int = 0
    values_stated: int = 0
    """Expected values stated as current in the candidate."""
    segment_complete: bool = False
    """Some clause of the expected statement is found whole (all its values and nouns)."""
    missing_nouns: tuple[str, ...] = ()
    missing_clauses: tuple[str, ...] = ()
    anchored: bool = False
    """A typed expected value (not a name) is what a candidate clause says (stated as current after
    the clause's 은/는 topic, not inside its subject) and that clause is about it: a bare value, or
    a clause sharing a noun with the expected clause or with the question (its first word, the
    subject, aside)."""
    """Clauses of the expected statement none of whose own elements (those no other clause of it
    shares) is in the candidate: a part of the answer left out."""
    contrast: tuple[tuple[str, str], ...] = ()
    """(expected value, contrast word): stated only where a contrast word sets it aside."""
    unverified: tuple[str, ...] = ()
    """Words next to the expected values the judge does not know to be neutral."""
    unresolved: tuple[str, ...] = ()
    """Relative dates of the candidate it cannot resolve to a day (no reference date, or a period
    such as 다음 달 초) while an expected date is not stated: neither right nor wrong."""
    subject: tuple[tuple[str, str], ...] = ()
    """(expected subject word, candidate word): an expected value stated about something else."""
    unaccounted: tuple[str, ...] = ()
    """Answers only (full accounting, lexical-6): the answer's morphemes nothing accounts for."""
    state: tuple[str, str] | None = None
    """(expected state, candidate state): open against settled (lexical/states.py)."""
    substituted: tuple[tuple[str, str, str], ...] = ()
    """Answers only (lexical-7): (expected word, the answer's unknown word in its place, whose
    word it is: "the expected statement" or "the question"); lexical/substitution.py."""
    rivalled: tuple[str, ...] = ()
    """Expected values not stated while the answer gives another current value of their kind
    somewhere (한 300만 원 안팎 for 310만 원): a hedged answer with one is NO (lexical-37)."""

    @property
    def recall(self) -> Fraction:
        return Fraction(self.found, self.total) if self.total else Fraction(1)

    @property
    def number_conflict(self) -> bool:
        """A wrong value (kept for callers that only ask whether a value clashes)."""
        return bool(self.wrong)


def _hedges(exp: Analysis, cand: Analysis) -> tuple[str, ...]:
    """Hedge words of the answer the statement does not use, by word and by class."""
    said = (cand.hedges - exp.hedges) | _class_hedges(exp, cand) | _may_be_other(exp, cand)
    if exp.hedges & _ALTERNATIVES:  # 지연 또는 보류 said 늦어지거나 보류되거나 (lexical-46)
        said -= _ALTERNATIVES
    return tuple(sorted(said))


_ALTERNATIVES = frozenset({"또는", "혹은", "거나", "이나", "나", "아니면"})
"""Words that offer alternatives: one the statement uses itself allows the answer any of them."""


def _rivalled(
    current: list[Value], stated: list[Value], exp: Analysis, cand: Analysis
) -> tuple[str, ...]:
    """Match.rivalled: expected values not stated while the answer gives another current value
    of their kind somewhere (lexical-37)."""
    return tuple(
        v.text
        for v in current
        if v not in stated
        and any(
            kind(w) == kind(v) and not w.former and not in_expected(w, exp) for w in cand.values
        )
    )


def _may_be_other(exp: Analysis, cand: Analysis) -> set[str]:
    """ "…ㄹ 수도 있다" in a clause with a value the statement does not have, of a kind it has
    (기존 RDS 그대로 갈 수도, 10권까지 신청할 수도): another value offered, as with 또는 (since
    lexical-37)."""
    if "…ㄹ 수도 있다" not in cand.hedges:
        return set()
    at = [m.start for m in cand.morphs if (m.form, m.tag) == ("수", "NNB")]
    for c in cand.segments:
        if not any(c.start <= a < c.end for a in at):
            continue
        for w in c.values:
            rival = any(kind(v) == kind(w) for v in exp.values)  # 한번 확인해 보세요: no rival
            if rival and not w.former and not in_expected(w, exp):
                return {f"another value (또는): «{w.text}» …ㄹ 수도 있다"}
    return set()


def _rivals(v: Value, exp: Analysis, cand: Analysis) -> list[Value]:
    """Values beside a stated expected value in the very clause that states it, of its kind, not
    expected, not former and not set aside ("5년 자리에 6년이 들어갑니다"): two values for one slot
    whatever the slot words say. Names only as versions of the expected one (AES-256, AES-257)."""
    homes = [c for c in cand.segments if any(same(v, w) and not w.former for w in c.values)]
    out = []
    for c in homes:
        for w in c.values:
            if kind(w) != kind(v) or w.former or in_expected(w, exp):
                continue
            if w.type == "name" and not _variant(w.key[0], v.key[0]):
                continue
            if any(a <= w.start and w.end <= b for a, b, _ in cand.aside):
                continue
            out.append(w)
    return out


def _class_hedges(exp: Analysis, cand: Analysis) -> set[str]:
    """Hedge classes (polarity.hedge_classes) next to an expected value — in the candidate clauses
    that hold one (or, for a statement without values, that touch it): "약 320만 원" in a clause
    about another value hedges nothing — and that the expected statement does not make itself."""
    clauses = near_values(exp, cand)
    near = [m for m in cand.morphs if any(c.start <= m.start < c.end for c in clauses)]
    made = {h.split(" (")[0] for h in hedge_classes(exp.morphs)}  # 약 4.5MB ~ 4,500KB 정도
    return {h for h in hedge_classes(near) if h.split(" (")[0] not in made}


@lru_cache(maxsize=1 << 16)
def _shares_nothing(exp: Analysis, cand: Analysis) -> bool:
    """No expected noun or value is in the candidate: no rule can credit it (the common case when a
    claim meets every fact of a store)."""
    return not any(_noun_in(n, cand.nouns, cand.compact) for n in exp.nouns) and not any(
        _value_in(v, cand.values, cand.compact, current=False) for v in exp.values
    )


def _topics(exp: Analysis) -> Analysis | None:
    """The expected statement's topics (what comes before 은/는 in each clause), read as the
    question an answer with none given replies to (``_recall``)."""
    said = " ".join(exp.text[s.start : s.topic_end] for s in exp.segments if s.topic_end)
    return analyse(said) if said.strip() else None


def _recall(
    exp: Analysis, cand: Analysis, q: Analysis | None = None, skip: Sequence[Segment] = ()
) -> tuple[int, int, bool]:
    """(elements found, elements expected, some clause found whole): each expected clause's nouns
    and values, found within a few adjacent candidate clauses; since lexical-11 a noun the answer
    leaves out that the question says is found (asked "이번에 어떤 어종 들어왔어요?", an answer
    need not say 이번 and 어종 again). With no question, an answer replies to the expected
    statement's topic (Korean drops a topic both speakers know: "성인 2만 원이에요" for "야간 개장
    입장료는 성인 2만 원"): its nouns count as found. Its values do not: they stay missing (the
    value rules), and another owner named is a wrong subject. ``skip``: clauses the question does
    not ask (asked.unasked_segments), counted neither way (since lexical-20)."""
    segments = [s for s in exp.segments if s not in skip]
    found, complete = 0, False
    for seg in segments:
        n, whole = _local(seg, cand)
        found += n
        complete = complete or whole
    if q is not None:
        found += sum(
            1
            for seg in segments
            for noun in seg.nouns
            if not _noun_in(noun, cand.nouns, cand.compact) and _noun_in(noun, q.nouns, q.compact)
        )
        found += sum(  # a value the question says (유아풀 깊이가 얼마예요?: "0.6m예요"; lexical-34)
            1
            for seg in segments
            for v in seg.values
            if asked.said(v, q) and not asked.said(v, cand)
        )
    elements = sum(len(seg.nouns) + len(seg.values) for seg in segments)
    return found, elements, complete


def _found(
    exp: Analysis, cand: Analysis, q: Analysis | None, account: bool, stated: list[Value]
) -> tuple[int, int, bool, tuple[str, ...]]:
    """_recall's figures and the expected nouns the candidate leaves out; a noun the candidate
    states by denying the other state (휴관 as 안 열어요, lexical/acts.py) is found; clauses the
    question does not ask are not counted (asked.unasked_segments)."""
    skip = asked.unasked_segments(stated, exp, q)
    found, elements, complete = _recall(exp, cand, q or (_topics(exp) if account else None), skip)
    by_denial = acts.stated_by_denial(exp, cand)
    kept = [s for s in exp.segments if s not in skip]
    nouns = [n for n in exp.nouns if any(n in s.nouns for s in kept)] if skip else exp.nouns
    missing = tuple(n for n in nouns if not _noun_in(n, cand.nouns, cand.compact))
    by_denial = by_denial | found_otherwise(exp, cand, missing)
    found += sum(1 for n in missing if n in by_denial)
    return found, elements, complete, tuple(n for n in missing if n not in by_denial)


def _typed_values(
    current: list[Value], stated: list[Value], exp: Analysis, cand: Analysis, q: Analysis | None
) -> tuple[list[Value], list[tuple[str, str]], list[tuple[str, str]]]:
    """(missing, wrong, stated beside a rival) among the expected current values."""
    missing: list[Value] = []
    wrong: list[tuple[str, str]] = []
    multi: list[tuple[str, str]] = []
    for v in current:
        others = competitors(v, exp, cand, q, v in stated)
        if v in stated:
            others = others or _rivals(v, exp, cand)
            if others:
                multi.append((shown(v), shown(others[0])))
        elif others:
            wrong.append((shown(v), shown(others[0])))
        elif (old := stale.former_instead(v, current, exp, cand)) is not None:
            wrong.append((shown(v), f"{old.text} (the former value)"))
        else:
            missing.append(v)
    return missing, wrong, multi


def _who_and_lists(
    exp: Analysis,
    cand: Analysis,
    q: Analysis | None,
    current: list[Value],
    wrong: list[tuple[str, str]],
    multi: list[tuple[str, str]],
) -> None:
    """Add to ``wrong`` another agent, an opposite pole, a sibling noun or values swapped between
    the owners of a list (lexical/pairs.py), and to ``multi`` the members listed beside E's
    (lexical-6)."""
    who = agents.wrong_agent(exp, cand, q)
    if who is not None:
        wrong.append(who)
    wrong += pairs.swapped(exp, cand) or pairs.across(exp, cand) or pairs.by_name(exp, cand)
    wrong += roles.wrongs(exp, cand, q) + thresholds.other_side(exp, cand, q)
    wrong += word_changes.replaced_stated(exp, cand) + labels.swapped(exp, cand)
    wrong += denied_members.allowed_members(exp, cand)
    for extra in agents.extra_members(exp, cand, q):
        multi.append((", ".join(v.text for v in current) or " ".join(exp.nouns[:3]), extra))
    known = exp.compact + "|" + (q.compact if q is not None else "")
    premise = sibling(exp.nouns, q.nouns, exp.compact, q.compact) if q is not None else None
    if premise is not None and q is not None and _same_head(*premise, exp, q):
        # asked of another owner ("가사과 창구도 …?" of 민사신청과 창구): a wrong premise, no word
        known = known.replace(premise[1], "\0")  # the answer may take from the question
    nouns = [n for n in cand.nouns if n not in range_nouns(cand)]  # 150센티에서 200센티 사이
    flip = opposite(exp.compact, cand.compact) or sibling(exp.nouns, nouns, known, cand.compact)
    if flip is not None and not acts.denies_with_a_word(exp.morphs, cand.morphs):
        wrong.append(flip)  # not 불허 for 허가되지 않았다: one fact (lexical-30)
    act = (
        acts.opposite_act(exp, cand)
        or owners_poles.swapped(exp, cand)
        or owners_poles.values_swapped(exp, cand)
    )
    if act is not None:
        wrong.append(act)


def _same_head(x: str, y: str, exp: Analysis, q: Analysis) -> bool:
    """The question's ``y`` and the expected ``x`` modify one head noun (가사과 창구 / 민사신청과
    창구, 후문 주차장 / 정문 주차장): the question asks of another owner of the same thing. Nouns of
    the same shape that do not (확정된 원인 / 알림 설정) are two words, no premise."""
    i, j = exp.nouns.index(x), q.nouns.index(y)
    return bool(set(q.nouns[j + 1 : j + 2]) & set(exp.nouns[i + 1 : i + 3]))


def _analyses(
    expected: str,
    candidate: str,
    question: str | None,
    expected_date: dt.date | None,
    candidate_date: dt.date | None,
) -> tuple[Analysis, Analysis, Analysis | None, list[tuple[str, str]]]:
    """The three texts analysed, a day said alone in the answer or the question read as a date of
    the expected statement's month (lexical/days.py), a weekday beside a date read with it
    (lexical/weekdays.py); and the answer's weekdays that disagree with their dates."""
    asked = weekdays.asked(question)  # 무슨 요일: the weekday is asked itself (lexical-42)
    # 40×60cm: one value when both write one (lexical/dims.py)
    exp, cand = dims.unless_both(
        analyse(expected, expected_date), analyse(candidate, candidate_date)
    )
    exp, said = (exp, {}) if asked else weekdays.expected_weekdays(exp)
    cand = kilo.read_kilo(days.as_dates(cand, exp), exp)
    joined, clash = weekdays.answer_weekdays(cand, exp, said, (candidate_date, expected_date))
    cand = cand if asked else joined  # a weekday asked stays a value of its own
    q = days.as_dates(analyse(question, candidate_date), exp) if question else None
    return exp, cand, q, clash


def _stated(current: list[Value], cand: Analysis) -> list[Value]:
    """The expected current values the candidate states as current (a month by a date in it)."""
    return [
        v
        for v in current
        if _value_in(v, cand.values, cand.compact, current=True) or _month_of_date(v, cand)
    ]


def _month_of_date(v: Value, cand: Analysis) -> bool:
    """An expected month the candidate states by a date in it (3월 answered 3/14; since
    lexical-21), the date current and its year, if said, the month's."""
    if v.type != "month":
        return False
    return any(
        w.type == "date"
        and not w.former
        and w.key[1] == v.key[1]
        and (w.key[0] is None or v.key[0] is None or w.key[0] == v.key[0])
        for w in cand.values
    )


def _premise_false(exp: Analysis, q: Analysis | None, expected_date: dt.date | None) -> bool:
    """The expected statement denies what a yes/no sentence of the question says (premise.py)."""

    def contradicts(sentence: str) -> bool:
        m = measure(exp.text, sentence, None, expected_date, None)
        return bool(m.wrong or m.polarity or m.state or m.subject or m.contrast)

    return premise.denied(q, contradicts)


def _unaccounted(
    exp: Analysis,
    cand: Analysis,
    q: Analysis | None,
    neutral: Sequence[Entry],
    expected_date: dt.date | None,
) -> tuple[str, ...]:
    """The answer's words nothing accounts for, its question's premise read first (premise.py)."""
    premise_false = _premise_false(exp, q, expected_date)
    return tuple(unaccounted(exp, cand, q, neutral, premise_false=premise_false))


def measure(
    expected: str,
    candidate: str,
    question: str | None = None,
    expected_date: dt.date | None = None,
    candidate_date: dt.date | None = None,
    *,
    account: bool = False,
    neutral: Sequence[Entry] = (),
) -> Match:
    """Measure ``candidate`` against ``expected``; relative dates in each are resolved against its
    own document's date (``expected_date``, ``candidate_date``; unresolved without one).
    ``account``: an answer, all accounted for (``neutral``: the user's lexicon entries too)."""
    exp, cand, q, clash = _analyses(expected, candidate, question, expected_date, candidate_date)
    current = [v for v in exp.values if not v.former and not set_aside_value(v, exp)]
    if _shares_nothing(exp, cand):
        return Match(
            0,
            len(exp.nouns) + len(exp.values),
            values_expected=len(current),
            missing_nouns=exp.nouns,
        )
    stated = _stated(current, cand)
    found, elements, complete, missing_nouns = _found(exp, cand, q, account, stated)
    unstated, wrong, multi = _typed_values(current, stated, exp, cand, q)
    missing, setting = not_given(unstated, current, stated, exp, cand, q, account)
    word_missing, word_wrong = comment_values(exp, cand)
    missing += word_missing
    wrong += word_wrong + clash + asked.other_end_given(stated, exp, q)
    wrong += asked.other_clause_given(exp, cand, q) + asked.other_owner_named(exp, cand, q)
    wrong += days.outside_period(cand, current, stated) + share_for_change(exp, cand)
    beside = word_beside_rival(expected, exp, cand, q)
    if beside is not None:
        multi.append(beside)
    subject = wrong_subject(stated, exp, cand, q) or wrong_owner(stated, exp, cand, q)
    _who_and_lists(exp, cand, q, current, wrong, multi)
    return Match(
        found,
        elements,
        tuple(missing),
        tuple(wrong),
        tuple(multi),
        tuple(clause_polarity(exp, cand, q))
        + tuple((c, "none", mk) for c, mk in agents.retracted_after(exp, cand)),
        _hedges(exp, cand),
        len(current) - len(setting),
        len(stated),
        complete,
        missing_nouns,
        asked_clauses_missing(exp, cand, q, stated) + scope.limit_missing(exp, cand, q),
        _anchored(stated, exp, cand, q),
        tuple(set_aside(current, cand)) + words_set_aside(exp, cand, q),
        tuple(unverified_words(exp, cand, q)),
        days.vague_dates(cand, current, stated),
        subject,
        _unaccounted(exp, cand, q, neutral, expected_date) if account else (),
        states.clash(exp, cand),
        tuple(substituted(exp, cand, q, neutral)) if account else (),
        _rivalled(current, stated, exp, cand),
    )
