"""Where an expected clause's elements sit in the candidate: element lookups, the best window of
adjacent candidate clauses, missing clauses, and the candidate clauses that state an expected one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from fractions import Fraction

from seorap.engine.scoring.lexical.acts import denied_state_words, denies
from seorap.engine.scoring.lexical.analysis import (
    CANCEL,
    RETRACT,
    Analysis,
    Segment,
    _compact,
)
from seorap.engine.scoring.lexical.constructions import conditions, past_the_limit
from seorap.engine.scoring.lexical.courtesy import courtesy_spans, honorific
from seorap.engine.scoring.lexical.lexicon import in_phrases, neutral_word
from seorap.engine.scoring.lexical.limits import PARTIAL_RECALL
from seorap.engine.scoring.lexical.polarity import LIST_WORDS, bound_words, unverified
from seorap.engine.scoring.lexical.text import Morph
from seorap.engine.scoring.lexical.value import Value, same, spelled, spelled_in

_PARTY_SUFFIXES = frozenset("자측방")
"""Suffixes naming the party of a noun (결재자, 상대방, 회사 측): the noun without it names the same
slot (결재는 김 부장님이 = 결재자는 김 부장)."""


def _noun_in(noun: str, nouns: Collection[str], compact: str) -> bool:
    if noun in nouns or (len(noun) >= 2 and noun in compact):
        return True
    if len(noun) >= 3 and noun[-1] in _PARTY_SUFFIXES and noun[:-1] in compact:
        return True
    # LP for 엘피, 시디 for CD: letters said one by one (since lexical-37; value.spelled);
    # 할머님 for 할머니 (lexical-43; courtesy.honorific)
    return any(
        (n.isascii() != noun.isascii() and spelled(n, noun)) or honorific(n, noun) for n in nouns
    )


def _value_in(v: Value, vals: Iterable[Value], compact: str, *, current: bool) -> bool:
    """Is ``v`` stated among ``vals`` (current ones only with ``current``)? A name also counts
    when it appears inside a word (``Aurora로``), unless it is stated there as former."""
    if any(same(v, w) and not (current and w.former) for w in vals):
        return True
    if v.type == "name" and v.key[0] not in compact and spelled_in(v.key[0], compact):
        return True
    if v.type not in ("name", "person") or v.key[0] not in compact:
        return False
    return not current or not any(
        w.former and w.type == "name" and v.key[0] in w.key[0] for w in vals
    )


WINDOW = 3
"""An expected clause must be found within this many adjacent candidate clauses."""


def _local(seg: Segment, cand: Analysis) -> tuple[int, bool]:
    """(elements of the expected clause found in the best window of adjacent candidate clauses,
    whether that window holds all of them with every value current)."""
    total = len(seg.nouns) + len(seg.values)
    if not total:
        return 0, False
    hits, current = [], []
    for c in cand.segments:
        found = {n for n in seg.nouns if _noun_in(n, c.nouns, c.compact)}
        vals = {
            i for i, v in enumerate(seg.values) if _value_in(v, c.values, c.compact, current=False)
        }
        cur = {i for i in vals if _value_in(seg.values[i], c.values, c.compact, current=True)}
        hits.append((found, vals))
        current.append(cur)
    best, complete = 0, False
    for i in range(len(hits)):
        nouns, vals, cur = set(), set(), set()
        for j in range(i, min(i + WINDOW, len(hits))):
            nouns |= hits[j][0]
            vals |= hits[j][1]
            cur |= current[j]
            best = max(best, len(nouns) + len(vals))
            complete = complete or (len(nouns) + len(cur) == total)
    return best, complete


def _anchored(stated: list[Value], exp: Analysis, cand: Analysis, q: Analysis | None) -> bool:
    """Is one of the stated expected values said in a clause about the same thing? "채용은 2명" for
    "2명 (한 자리는 연기)" asked as "채용 인원은 몇 명?" is; "점심 약속은 3월 5일" for "회의는 3월
    5일" is not (the date is there, about something else)."""
    head = _compact((q.text.split() or [""])[0]) if q is not None else ""
    asked = {n for n in q.nouns if n not in head} if q is not None else set()
    for v in stated:
        seg = exp.segment_of(v)
        if seg is None:
            continue
        words = set(seg.nouns) | asked | {w.key[0] for w in seg.values if w.type == "name"}
        if seg.topic:  # "X는 Y": the clause must be about X (or what the question asks)
            words = set(seg.topic) | asked
        words -= {v.key[0]} if v.type == "name" else set()
        # a value naming the subject (2호점 오픈일은 …): a clause stating it is about the same thing
        subject = [
            w
            for w in seg.values
            if seg.topic_end is not None and w.start < seg.topic_end and not same(w, v)
        ]
        for c in cand.segments:
            # the value must be what the candidate clause says, not part of its subject:
            # "라온핏 앱 3.0 출시 목표일은 3월 16일" states 3월 16일, not 3.0
            if not any(
                same(v, w) and not w.former and (c.topic_end is None or w.start >= c.topic_end)
                for w in c.values
            ):
                continue
            if not c.nouns and v.type != "name":
                return True
            if any(_noun_in(w, c.nouns, c.compact) for w in words):
                return True
            if any(same(w, x) for w in subject for x in c.values):
                return True
    return False


def _missing_clauses(exp: Analysis, cand: Analysis, q: Analysis | None) -> tuple[str, ...]:
    """Expected clauses (of a statement with several) whose own nouns and values — those no other
    clause of the statement has and the question does not use (the question's words name the
    subject, every part of the answer shares them) — are all absent from the candidate."""
    if len(exp.segments) < 2:
        return ()
    out = []
    for seg in exp.segments:
        others = [o for o in exp.segments if o is not seg]
        own_nouns = [
            n
            for n in seg.nouns
            if not any(n in o.nouns for o in others)
            and not (q is not None and _noun_in(n, q.nouns, q.compact))
        ]
        own_values = [
            v for v in seg.values if not any(same(v, w) for o in others for w in o.values)
        ]
        if not own_nouns and not own_values:
            continue
        if not any(_noun_in(n, cand.nouns, cand.compact) for n in own_nouns) and not any(
            _value_in(v, cand.values, cand.compact, current=False) for v in own_values
        ):
            out.append(seg.text.strip())
    return tuple(out)


def _count(markers: Counter) -> str:
    return ", ".join(m if n == 1 else f"{m} ×{n}" for m, n in sorted(markers.items())) or "none"


def _touches(seg: Segment, c: Segment) -> bool:
    return any(_noun_in(n, c.nouns, c.compact) for n in seg.nouns) or any(
        _value_in(v, c.values, c.compact, current=False) for v in seg.values
    )


def _share(seg: Segment, c: Segment) -> Fraction:
    """Share of the expected clause's elements (nouns and values) the candidate clause holds."""
    total = len(seg.nouns) + len(seg.values)
    if not total:
        return Fraction(0)
    found = sum(1 for n in seg.nouns if _noun_in(n, c.nouns, c.compact)) + sum(
        1 for v in seg.values if _value_in(v, c.values, c.compact, current=False)
    )
    return Fraction(found, total)


def _states_best(seg: Segment, c: Segment, exp: Analysis) -> bool:
    """Is ``seg`` the expected clause candidate clause ``c`` states best (ties count)? A clause that
    states another expected clause better says nothing about this one: "점검 작업은 결제 승인 DB
    이중화 전환" is the 작업 clause, not a "카드 결제 승인이 중단된다" without its 중단 — that clause
    is missing (PARTIAL), not contradicted (NO)."""
    mine = _share(seg, c)
    return all(mine >= _share(other, c) for other in exp.segments)


def _stating_segments(seg: Segment, cand: Analysis) -> list[Segment]:
    """Candidate clauses holding the expected clause's values (the best-overlapping among them), or,
    without values, the clause(s) with the best noun overlap (at least half of the clause's nouns)."""

    def overlap(c: Segment) -> int:
        return sum(1 for n in seg.nouns if _noun_in(n, c.nouns, c.compact))

    if seg.values:
        holding = [
            c
            for c in cand.segments
            if any(_value_in(v, c.values, c.compact, current=False) for v in seg.values)
        ]
        if not holding:
            return []
        best = max(overlap(c) for c in holding)
        return [c for c in holding if overlap(c) == best]
    if not seg.nouns:
        return []
    scored = [(overlap(c), c) for c in cand.segments]
    best = max((s for s, _ in scored), default=0)
    if Fraction(best, len(seg.nouns)) < PARTIAL_RECALL:
        return []
    return [c for s, c in scored if s == best]


def set_aside(current: list[Value], cand: Analysis) -> list[tuple[str, str]]:
    """(expected value, contrast word): expected values the candidate states only inside a phrase a
    contrast or replacement word sets aside ("Slack 대신 Teams" for Slack)."""
    out = []
    for v in current:
        hits = [w for w in cand.values if same(v, w)]
        if v.type == "name" and not hits:
            at = cand.text.lower().find(v.key[0])
            hits = [] if at < 0 else [Value("name", v.key, v.text, at, at + len(v.key[0]))]
        inside = [word for w in hits for a, b, word in cand.aside if a <= w.start and w.end <= b]
        if hits and len(inside) == len(hits):
            out.append((v.text, inside[0]))
    return out


def near_values(exp: Analysis, cand: Analysis) -> list[Segment]:
    """The candidate clauses next to an expected value: those holding one, or, for a statement
    without values (or none stated), those that touch it."""
    holding = [
        c
        for c in cand.segments
        if any(_value_in(v, c.values, c.compact, current=False) for v in exp.values)
    ]
    return holding or [c for c in cand.segments if any(_touches(s, c) for s in exp.segments)]


def _copula_list(morphs: Sequence[Morph]) -> bool:
    """``A이고 B`` / ``A며 B``: the copula joining two nouns lists them."""
    return any(
        a.tag == "VCP" and b.tag == "EC" and b.form in ("고", "며", "요")
        for a, b in zip(morphs, morphs[1:], strict=False)
    )


def _name_heads(exp: Analysis, cand: Analysis, known: set[str]) -> list[str]:
    """An expected name that the answer states only as the modifier of another noun (부경대학교
    병원, 한빛상사 물류센터): the noun right after it, with no particle between, names another
    thing unless E or the question has it. Not read so: a name in C's subject, a name said plainly
    somewhere else in C, and a noun that is the clause's predicate (푸시 포함, 포함하다)."""
    out = []
    for v in exp.values:
        if v.type != "name":
            continue  # a team's or person's role after it (운영팀 담당, 몫) names no other thing
        heads = []
        for w in cand.values:
            if not same(v, w) or w.former:
                continue
            head = _head_after(cand, w, known, exp)
            if head is None:
                break  # said plainly here: the name is stated
            heads.append(f"{w.text} {head}")
        else:
            out += heads
    return out


def _head_after(cand: Analysis, w: Value, known: set[str], exp: Analysis) -> str | None:
    seg = cand.segment_of(w)
    if seg is not None and seg.topic_end is not None and w.start < seg.topic_end:
        return None  # in the subject (Enterprise 플랜은 …): the subject rule reads it
    after = [m for m in cand.morphs if m.start >= w.end and (seg is None or m.start < seg.end)]
    if not after or after[0].tag not in ("NNG", "NNP"):
        return None
    nxt = after[0]
    if cand.text[w.end : nxt.start].strip() or nxt.form in known:
        return None
    if nxt.form.lower() in exp.compact:
        return None
    if len(after) == 1 or after[1].tag in ("XSV", "XSA"):
        return None  # the clause's predicate said as a noun (… 포함, … 결정)
    return nxt.form


def _outside_values(morphs: list[Morph], c: Segment) -> list[Morph]:
    """``morphs`` of clause ``c`` outside its values (네 명) and the neutral phrases (확인해 보니):
    those are read elsewhere."""
    phrase = in_phrases(morphs)
    return [
        m
        for i, m in enumerate(morphs)
        if i not in phrase and not any(w.start <= m.start < w.end for w in c.values)
    ]


def _known_forms(exp: Analysis, cand: Analysis, q: Analysis | None) -> set[str]:
    """Forms of the expected statement and the question, the answer's forms inside the expected
    text, and the words denying the other state of the expected one (안 열어요 for 휴관)."""
    known = {m.form for m in exp.morphs} | ({m.form for m in q.morphs} if q is not None else set())
    known |= {m.form for m in cand.morphs if m.form.lower() in exp.compact}
    return known | denied_state_words(exp, cand)


def _joins(m: Morph) -> bool:
    """A connective of a list (LIST_WORDS): 도 only as the particle (4도 is degrees)."""
    return m.form in LIST_WORDS and (m.form != "도" or m.tag == "JX")


def _listed(
    c: Segment, nxt: Segment | None, morphs: Sequence[Morph], exp: Analysis, q: Analysis | None
) -> list[str]:
    """Members of a list in clause ``c`` that neither the expected statement nor the question
    has: "A이고 B예요" lists; "요금제는 A이고, 이용료는 B" joins two clauses (B has its own topic)."""
    copula = nxt is not None and nxt.topic_end is None and _copula_list(morphs[-2:])
    if not (any(m.tag == "JC" or _joins(m) for m in morphs) or copula):
        return []
    names = {w.key[0] for w in c.values if w.type in ("name", "person", "team")}
    neutral = {m.form for m in morphs if m.tag.startswith("NN") and neutral_word(m)}
    listed = (set(c.nouns) - neutral) | names
    if copula and nxt is not None:
        # "A이고 B예요": the clause cut after 이고 goes on with the next member
        listed |= set(nxt.nouns) | {
            w.key[0] for w in nxt.values if w.type in ("name", "person", "team")
        }
    return [
        f"{n} (listed)"
        for n in sorted(listed)
        if not _noun_in(n, exp.nouns, exp.compact)
        and n not in exp.compact
        and not (q is not None and _noun_in(n, q.nouns, q.compact))
    ]


def unverified_words(exp: Analysis, cand: Analysis, q: Analysis | None) -> list[str]:
    """Words in the candidate clauses that touch the expected statement which the judge cannot
    vouch for (engine.scoring.lexical.polarity.unverified); the expected text's and question's
    own words are known."""
    known = _known_forms(exp, cand, q)
    contrast_read = any(v.former for v in cand.values)  # the value rules read the contrast
    mine = {m for seg in exp.segments for m in seg.markers}
    negated = denies(exp)
    out: list[str] = [
        f"{m} elsewhere in the answer"
        for c in cand.segments
        if not any(_touches(seg, c) for seg in exp.segments)
        for m in c.markers
        if m not in mine
    ]
    near = set(map(id, near_values(exp, cand)))
    # a retraction or cancellation in another clause holding an expected value ("구하람이고 / 나유진은 빠졌어요"): the
    # polarity rule compares the clause stating E best, this one is not vouched for either
    out += [
        f"{m} next to a value"
        for c in cand.segments
        if id(c) in near
        and any(_value_in(v, c.values, c.compact, current=False) for v in exp.values)
        for m in c.markers
        if m not in mine and m in (RETRACT, CANCEL)
    ]
    out += _name_heads(exp, cand, known)
    courtesy = courtesy_spans(exp, cand)  # 궁금하시면 물어보세요: nothing about the matter
    for i, c in enumerate(cand.segments):
        if not any(_touches(seg, c) for seg in exp.segments):
            continue
        morphs = [
            m
            for m in cand.morphs
            if c.start <= m.start < c.end and not any(a <= m.start < b for a, b in courtesy)
        ]
        if id(c) in near:
            # words inside a value (네 명) or a neutral phrase (확인해 보니) are read elsewhere, and
            # "…넘으면 안 돼요" beside an expected limit says the limit (lexical-38), and a -면 may
            # say E's own condition (constructions.conditions, lexical-39)
            limit = past_the_limit(exp.morphs, morphs) | conditions(exp.morphs, morphs)
            out += unverified(
                _outside_values([m for k, m in enumerate(morphs) if k not in limit], c),
                frozenset(known),
                contrast_read=contrast_read,
                negated=negated,
            )
            out += bound_words(morphs, frozenset(m.form for m in exp.morphs))
        nxt = cand.segments[i + 1] if i + 1 < len(cand.segments) else None
        out += _listed(c, nxt, morphs, exp, q)
    return list(dict.fromkeys(out))
