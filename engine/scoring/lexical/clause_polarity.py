"""Polarity clause by clause: the markers (negation, cancellation, retraction, postponement) of
each expected clause against those of the candidate's clauses that state it (since lexical-13:
values alone claim none, a negation the question carries, a negation for a cancellation)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from seorap.engine.scoring.lexical.acts import (
    affirmed_denied,
    denied_by_word,
    denied_opposite,
    denies_with_a_word,
    kin,
    negated_words,
)
from seorap.engine.scoring.lexical.analysis import (
    CANCEL,
    NEGATION,
    POSTPONE,
    RETRACT,
    Analysis,
    Segment,
)
from seorap.engine.scoring.lexical.clauses import (
    _count,
    _states_best,
    _stating_segments,
    _touches,
    _value_in,
)
from seorap.engine.scoring.lexical.constructions import past_the_limit
from seorap.engine.scoring.lexical.lexicon import synonym_class
from seorap.engine.scoring.lexical.subjects import replaced
from seorap.engine.scoring.lexical.text import Morph
from seorap.engine.scoring.lexical.unsaid_asides import unsaid_aside_markers
from seorap.engine.scoring.lexical.value import Value, kind, same


def clause_polarity(exp: Analysis, cand: Analysis, q: Analysis | None = None) -> list[tuple]:
    """Polarity, clause by clause: (clause, its markers, the candidate's) of every expected clause
    whose stating candidate clauses carry other markers. A marker the candidate lacks is not
    asked of it when its clauses are values alone, or when the question says it and the candidate
    does not use the word the question negates ("못 쓰는 도크가 몇 번이에요?" — "3번 도크요.")."""
    polarity = []
    for seg in exp.segments:
        chosen = [c for c in _stating_segments(seg, cand) if _states_best(seg, c, exp)]
        if not chosen:
            continue
        tails = [t for c in chosen if (t := _list_tail(c, cand)) is not None]
        chosen += [t for t in dict.fromkeys(tails) if t not in chosen]
        theirs = Counter(m for c in chosen for m in c.markers)
        theirs[NEGATION] -= sum(replaced(exp, cand, c) for c in chosen)
        tail = _list_tail(seg, exp)
        mine = Counter(seg.markers) + Counter(
            m for m in (tail.markers if tail else ()) if m in (NEGATION, CANCEL)
        )
        if not theirs[NEGATION] and _affirms_the_denied(seg, chosen, exp, cand):
            mine[NEGATION] += 1  # 불참 answered 참석합니다: the word's denial, said the other way
        # every marker of the expected clause must be somewhere in the clauses that touch it
        touching = [c for c in cand.segments if _touches(seg, c)]
        touching += [t for c in touching if (t := _list_tail(c, cand)) is not None]
        around = {m for c in touching for m in c.markers}
        _negation_for_cancel(mine, theirs, around)
        extra = {m for m in theirs if theirs[m] > mine[m]}
        lacking = {m for m in mine if mine[m] > 0 and m not in around}
        aside = unsaid_aside_markers(seg, exp, cand)  # (휴식 없음), 휴식 unsaid (lexical-51)
        lacking = {m for m in lacking if mine[m] > aside[m]}
        if all(_values_only(c, cand) for c in chosen) and not _corrects(seg, exp, cand):
            lacking = set()  # "새벽 두 시요.": values alone say nothing of the polarity
        if NEGATION in lacking and _question_negates(q, chosen, cand, seg, exp):
            lacking -= {NEGATION}
        if NEGATION in lacking and _denies_with_a_word(seg, chosen, exp, cand):
            lacking -= {NEGATION}
        if NEGATION in extra and (
            _denies_the_other_state(seg, chosen, exp, cand)
            or _denied_by_a_word(seg, chosen, exp, cand)
            or _negation_of_another_clause(
                seg, chosen, exp, cand, theirs[NEGATION] - mine[NEGATION]
            )
            or _limit_said_by_negation(seg, chosen, exp, cand)
        ):
            extra -= {NEGATION}
        if POSTPONE in extra and any(v.target for c in chosen for v in c.values):
            extra -= {POSTPONE}  # "…로 연기": a change to a new value (the values rules judge it)
        if POSTPONE in lacking and any(v.target for v in seg.values):
            lacking -= {POSTPONE}
        if (lacking or extra & _OF_A_CHANGE) and _new_value_only(seg, chosen, exp, cand):
            lacking -= _OF_A_CHANGE
            extra -= _OF_A_CHANGE - ({NEGATION} - _old_set_aside(seg, exp, cand))
        if RETRACT in extra and _corrected_elsewhere(exp, cand):
            extra -= {RETRACT}
        if RETRACT in lacking and _correction_said(seg, exp, cand):
            lacking -= {RETRACT}  # 1,589원으로 정정 answered "1,589원이에요" (lexical-42)
        if extra or lacking:
            polarity.append((seg.text.strip(), _count(mine), _count(theirs)))
    return polarity


PREDICATE_TAGS = frozenset({"VV", "VA", "VX", "XSV", "XSA", "VCN"})
"""Tags of a morpheme that makes a clause say something of its subject (verbs, adjectives, the
negative copula); the copula 이다 alone only presents a value."""


def _values_only(c: Segment, cand: Analysis) -> bool:
    """Clause ``c`` of the candidate is values and nothing else ("5월 20일부터 22일까지요.",
    "그저께 오전이요."): no predicate, and every noun inside one of its values. It answers the slot
    a question asked and claims no polarity; a noun that is no value (휴진이에요, 진료예요) can."""
    morphs = [m for m in cand.morphs if c.start <= m.start and m.end <= c.end]
    if not c.values or any(m.tag in PREDICATE_TAGS for m in morphs):
        return False
    return all(
        any(v.start <= m.start and m.end <= v.end for v in c.values)
        for m in morphs
        if (m.tag.startswith("NN") or m.tag in ("SL", "SH", "XR")) and m.form not in WHEN_NOUNS
    )


WHEN_NOUNS = frozenset({"오전", "오후", "새벽", "아침", "점심", "저녁", "밤", "낮"})
"""Parts of a day: in a clause of values they are part of the time it gives."""


def _question_negates(
    q: Analysis | None, chosen: Sequence[Segment], cand: Analysis, seg: Segment, exp: Analysis
) -> bool:
    """The question carries the negation ("못 쓰는 도크", "언제 못 써요?") of every act the
    expected clause negates (since lexical-31: "시유 안 된 작품들도 가마에 들어갔어요?" negates 시유,
    not the firing the clause denies too), and the candidate's clauses do not use a word it
    negates (saying 쓸 수 있다 would be the opposite)."""
    if q is None or not any(NEGATION in s.markers for s in q.segments):
        return False
    negated = negated_words(q.morphs)
    mine = _denied_acts([m for m in exp.morphs if seg.start <= m.start < seg.end])
    if not all(w in negated or synonym_class(w, frozenset(negated)) for w in mine):
        return False  # the clause denies something the question does not (넣지 못했다)
    said = {
        m.form
        for m in cand.morphs
        if any(c.start <= m.start < c.end for c in chosen) and (m.tag[0] in "VN" or m.tag == "XR")
    }
    return bool(negated) and not any(
        w in negated or synonym_class(w, frozenset(negated)) for w in said
    )  # 이용할 수 있다 for 못 써요: the same act, so the opposite


def _denied_acts(morphs: Sequence[Morph]) -> set[str]:
    """The acts a clause negates, read narrowly: the verb before …지 않다/못하다 (넣지 못했다: 넣),
    the act before …ㄹ 수 없다 (사용할 수 없습니다: 사용), the word after 안/못 (a light verb's
    noun right before it); ``negated_words`` for the rest."""
    out: set[str] = set()
    for i, m in enumerate(morphs):
        if (m.form, m.tag) == ("지", "EC") and i and morphs[i - 1].tag[0] == "V":
            after = morphs[i + 1 : i + 3]
            if any(x.form in ("않", "못하", "못") for x in after):
                out.add(_act_before(morphs, i - 1))
        elif (m.form, m.tag) == ("수", "NNB") and i >= 2 and morphs[i - 1].tag == "ETM":
            if i + 1 < len(morphs) and morphs[i + 1].form == "없":
                out.add(_act_before(morphs, i - 2))
        elif (m.form, m.tag) in (("안", "MAG"), ("못", "MAG")) and i + 1 < len(morphs):
            j = i - 1  # 시유가 안 된: the noun before 안, its particle skipped
            while j > 0 and morphs[j].tag.startswith("J"):
                j -= 1
            light = morphs[i + 1].form in ("하", "되") and j >= 0
            out.add(morphs[j].form if light else _act_before(morphs, i + 1))
    return (out - {""}) or negated_words(morphs)


def _act_before(morphs: Sequence[Morph], j: int) -> str:
    """The act morpheme ``j`` says: a light verb (하다, 되다) says the noun before it."""
    if morphs[j].form in ("하", "되") and j and morphs[j - 1].tag.startswith("NN"):
        return morphs[j - 1].form
    return morphs[j].form


def _denies_the_other_state(
    seg: Segment, chosen: Sequence[Segment], exp: Analysis, cand: Analysis
) -> bool:
    """The candidate negates the other state of a two-state scale the expected clause says one
    state of (휴관 answered 안 열어요; lexical/acts.py): the same fact."""
    mine = [m for m in exp.morphs if seg.start <= m.start < seg.end]
    theirs = [m for m in cand.morphs if any(c.start <= m.start < c.end for c in chosen)]
    return bool(denied_opposite(mine, negated_words(theirs)))


def _denied_by_a_word(
    seg: Segment, chosen: Sequence[Segment], exp: Analysis, cand: Analysis
) -> bool:
    """The expected clause denies by a word (불참, 금지, 미정, 불필요 …) what the candidate denies
    with 안, 못 or 없다 (lexical/acts.py, ``denied_by_word``): the same fact. A member of a list
    has the words of the list's head too (반입 금지: 음식물, 유리병, 튜브 — 튜브 is denied 반입)."""
    start = _list_start(seg, exp)
    mine = [m for m in exp.morphs if start <= m.start < seg.end]
    theirs = [m for m in cand.morphs if any(c.start <= m.start < c.end for c in chosen)]
    return bool(denied_by_word(mine, theirs))


def _list_start(seg: Segment, exp: Analysis) -> int:
    """Where the list clause ``seg`` belongs to begins: clause ``seg`` and the clauses before it
    with no predicate of their own, back to one with a colon (반입 금지: 음식물 / 유리병 / 튜브),
    are one list under that head (since lexical-37)."""
    start = seg.start
    for s in reversed([s for s in exp.segments if s.end <= seg.start]):
        if not _predicate_less(s, exp) or not _predicate_less(seg, exp):
            break
        if ":" in s.text:
            return s.start
    return start


def _predicate_less(seg: Segment, exp: Analysis) -> bool:
    """No predicate but in a modifier (곰팡이 핀 책: 피- before an adnominal ending)."""
    morphs = [m for m in exp.morphs if seg.start <= m.start < seg.end]
    return not any(
        m.tag in PREDICATE_TAGS and not (i + 1 < len(morphs) and morphs[i + 1].tag == "ETM")
        for i, m in enumerate(morphs)
    )


def _list_tail(seg: Segment, a: Analysis) -> Segment | None:
    """The clause that ends the list ``seg`` is a member of: members with no predicate and no
    value of their own, the last one's predicate said of all (낙서가 심한 책, 곰팡이 핀 책,
    학습지는 매입하지 않는다: each is not bought; since lexical-37). None when ``seg`` is no member."""
    if not _member(seg, a):
        return None
    for s in [s for s in a.segments if s.start >= seg.end]:
        if not _predicate_less(s, a):
            return None if "(" in s.text or ":" in s.text else s  # a note, a head: no predicate
        if not _member(s, a):
            return None
    return None


def _member(seg: Segment, a: Analysis) -> bool:
    """A noun phrase alone (낙서가 심한 책): no value, marker, topic, colon, ending or copula
    ("세미나는 온라인 웨비나로 진행" is a clause of its own)."""
    morphs = [m for m in a.morphs if seg.start <= m.start < seg.end]
    return (
        not seg.values
        and not seg.markers
        and not seg.topic
        and ":" not in seg.text
        and _predicate_less(seg, a)
        and not any(m.tag in ("VCP", "EF", "EC") for m in morphs)
    )


def _negation_of_another_clause(
    seg: Segment, chosen: Sequence[Segment], exp: Analysis, cand: Analysis, more: int
) -> bool:
    """The candidate's clauses that state ``seg`` negate an act another expected clause negates
    (or denies by a word), one such clause for each negation they have over ``seg``'s ("점검:
    7/7, 당일 이용 불가" answered "7일은 점검이라 못 써": 쓰 is 이용): that negation is the other
    clause's (since lexical-37)."""
    theirs = [m for m in cand.morphs if any(c.start <= m.start < c.end for c in chosen)]
    negated = _denied_acts(theirs)
    others = 0
    for s in exp.segments:
        if s is seg or NEGATION not in s.markers:
            continue
        words = frozenset(
            m.form for m in exp.morphs if s.start <= m.start < s.end and m.tag in _ACT_TAGS
        )
        if any(w in words or kin(w, words) for w in negated):
            others += s.markers.count(NEGATION)
    return 0 < more <= others


_ACT_TAGS = frozenset({"VV", "VA", "NNG", "XR"})


def _limit_said_by_negation(
    seg: Segment, chosen: Sequence[Segment], exp: Analysis, cand: Analysis
) -> bool:
    """The expected clause states an upper limit and the answer says what is not allowed past it
    ("20kg 이하만 가능" answered "20킬로그램 넘으면 안 돼요"; constructions.past_the_limit): the
    limit said the other way round, no opposite (since lexical-38)."""
    mine = [m for m in exp.morphs if seg.start <= m.start < seg.end]
    theirs = [m for m in cand.morphs if any(c.start <= m.start < c.end for c in chosen)]
    return bool(past_the_limit(mine, theirs))


def _denies_with_a_word(
    seg: Segment, chosen: Sequence[Segment], exp: Analysis, cand: Analysis
) -> bool:
    """The candidate denies by a word (미완료, 불허) what the expected clause negates (끝나지
    않았다, 허가되지 않았다): the same fact (lexical/acts.py, ``denies_with_a_word``)."""
    mine = [m for m in exp.morphs if seg.start <= m.start < seg.end]
    theirs = [m for m in cand.morphs if any(c.start <= m.start < c.end for c in chosen)]
    return bool(denies_with_a_word(mine, theirs))


def _affirms_the_denied(
    seg: Segment, chosen: Sequence[Segment], exp: Analysis, cand: Analysis
) -> bool:
    """The candidate says what a denying word of the expected clause (or of the head of the list
    it is in) denies, with no negation ("휴진" answered "진료 봅니다"; lexical/acts.py,
    ``affirmed_denied``): the opposite."""
    start = _list_start(seg, exp)
    mine = [m for m in exp.morphs if start <= m.start < seg.end]
    theirs = [m for m in cand.morphs if any(c.start <= m.start < c.end for c in chosen)]
    return bool(affirmed_denied(mine, theirs))


def set_aside_value(v: Value, exp: Analysis) -> bool:
    """An expected value a contrast word sets aside ("화요일이 아니라 수요일", "A 대신 B"), or
    (since lexical-32) one a clause retracts while another states the right one ("8천 원으로
    안내했으나 정정합니다. 1만 원이 맞습니다."): not a value the expected statement holds now, so
    no answer has to state it."""
    return any(a <= v.start < b for a, b, _ in exp.aside) or v in _retracted(exp)


@lru_cache(maxsize=1 << 12)
def _retracted(exp: Analysis) -> tuple[Value, ...]:
    """Values of a clause that retracts, of a kind another clause states another value of (read
    once per statement: every value's set-aside test asks)."""
    retracted = [s for s in exp.segments if RETRACT in s.markers]
    rest = [v for s in exp.segments if s not in retracted for v in s.values]
    return tuple(
        v
        for s in retracted
        for v in s.values
        if any(kind(v) == kind(w) and not same(v, w) for w in rest)
    )


def _corrects(seg: Segment, exp: Analysis, cand: Analysis) -> bool:
    """The expected clause sets a value aside ("13일이 아니라 20일": its negation is about that
    value) and the candidate states it: then its polarity still counts. A bare value answering
    the clause that is not the one set aside ("20일이요") claims no polarity."""
    aside = [
        v for v in seg.values if any(a <= v.start < b for a, b, _ in exp.aside if a >= seg.start)
    ]
    return any(_value_in(v, cand.values, cand.compact, current=False) for v in aside)


_OF_A_CHANGE = frozenset({NEGATION, RETRACT, POSTPONE})
"""Markers a clause that replaces a value carries for the value it replaces (15,000원으로
공지했다가 20,000원으로 정정했다, 6시가 아니라 5시 반, 1시에서 2시로 늦춥니다)."""


def _new_value_only(seg: Segment, chosen: Sequence[Segment], exp: Analysis, cand: Analysis) -> bool:
    """The expected clause replaces a value (one former or set aside, one current of its kind)
    and the candidate states the current one as current and the replaced one never as current:
    the clause's retraction, postponement or negation is about the replaced value, and the
    candidate, saying only the new one, need not carry it (since lexical-29). A candidate that
    marks the replaced value as former may carry the retraction or postponement itself."""
    aside = [v for v in seg.values if v.former or set_aside_value(v, exp)]
    new = [v for v in seg.values if v not in aside and any(kind(v) == kind(o) for o in aside)]
    old = [v for v in aside if any(kind(v) == kind(n) for n in new)]  # not 1인 before 15,000원
    said = [v for c in chosen for v in c.values]
    return (
        bool(new)
        and all(_value_in(v, said, cand.compact, current=True) for v in new)
        and not any(
            same(o, w)
            and not w.former
            and not set_aside_value(w, cand)  # 9시가 아니라 (lexical-40)
            for o in old
            for w in cand.values
        )
    )


def _old_set_aside(seg: Segment, exp: Analysis, cand: Analysis) -> set[str]:
    """{NEGATION} when the answer's negation is the 아니라 that sets the replaced value aside
    ("9시가 아니라 8시 반에 교대해요" for "기존 09:00 → 08:30": since lexical-40)."""
    old = [v for v in seg.values if v.former or set_aside_value(v, exp)]
    said = any(
        word == "아니" and a <= w.start < b and any(same(o, w) for o in old)
        for a, b, word in cand.aside
        for w in cand.values
    )
    return {NEGATION} if said else set()


def _correction_said(seg: Segment, exp: Analysis, cand: Analysis) -> bool:
    """The expected clause retracts a value for a new one — its own target (…로 정정) or a former
    value it marks in error beside a new one elsewhere — and the answer states no old value as
    current: the retraction is about the old value, the answer need not carry it."""
    old = [v for v in exp.values if v.former]
    mine = [v for v in seg.values if v.target or v.former]
    return (
        bool(mine)
        and bool(old)
        and not any(same(o, w) and not w.former for o in old for w in cand.values)
    )


def _corrected_elsewhere(exp: Analysis, cand: Analysis) -> bool:
    """The expected statement retracts a value in one clause and states the right one in another
    (120원으로 공지했으나 정정합니다. kg당 150원이 맞습니다.), and the candidate, saying the
    correction (150원으로 정정됐습니다), states no retracted value as current (since lexical-32)."""
    old = _retracted(exp)
    return bool(old) and not any(same(o, w) and not w.former for o in old for w in cand.values)


def _negation_for_cancel(mine: Counter, theirs: Counter, around: set[str]) -> None:
    """A negation says what a cancellation says (더 이상 안 다닌다 for 폐지된다, 열지 않기로 for
    취소되었다) and the reverse: a cancellation one side lacks, met by a negation the other side
    has over its own, counts as that cancellation. 취소 안 됐다 (both) stays the opposite."""
    for a, b in ((mine, theirs), (theirs, mine)):
        if a[CANCEL] > b[CANCEL] and b[NEGATION] > a[NEGATION]:
            k = min(a[CANCEL] - b[CANCEL], b[NEGATION] - a[NEGATION])
            b[NEGATION] -= k
            b[CANCEL] += k
            if b is theirs:
                around.add(CANCEL)
