"""Who does it, and what a list holds (since lexical-6; docs/metrics.md): an expected agent (보안팀이
검토한다) replaced by another in the answer (개발팀장이 검토합니다), a member listed beside the
expected ones (결제 API와 회원 API, 그리고 정산 API), and a retraction said in a clause that only
points back (…돌리려던 거, 팀 반발이 커서 결국 접었어요)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from seorap.engine.scoring.lexical.accounting import names_slot, subject_words
from seorap.engine.scoring.lexical.analysis import CANCEL, RETRACT, Analysis, _compact
from seorap.engine.scoring.lexical.clauses import _touches
from seorap.engine.scoring.lexical.polarity import counterpart
from seorap.engine.scoring.lexical.text import Morph
from seorap.engine.scoring.lexical.value import same

_AGENT_PARTICLES = frozenset({("이", "JKS"), ("가", "JKS"), ("께서", "JKS")})
_ROLE = re.compile(r".+(?:팀|팀장|본부|실장|부장|사장|이사|대표|님|측|사)$")
"""A common noun that names who acts (개발팀장, 영업본부, 운영사)."""
_WORDS = ("NNG", "NNP", "SL", "SH")
_SET_APART = re.compile(r"\((?=[^()]*(?:제외|빼고|미포함|불가|정상|그대로|예외))[^()]*\)")
"""A bracket that sets its members apart from the statement's list: excluded (제외, 빼고, 미포함,
불가, 예외) or left as they are (정상 운영, 그대로)."""


def _word_before(morphs: Sequence[Morph], i: int) -> Morph | None:
    """The noun before position ``i``, punctuation skipped; 쪽 (side) points to the noun before it."""
    j = i - 1
    while j >= 0 and (morphs[j].tag[0] == "S" and morphs[j].tag not in ("SL", "SH")):
        j -= 1
    if j >= 0 and morphs[j].form == "쪽":
        return _word_before(morphs, j)
    return morphs[j] if j >= 0 and morphs[j].tag in _WORDS else None


def _run(morphs: Sequence[Morph], m: Morph) -> tuple[str, bool]:
    """The word ``m`` ends (adjacent nouns with no space: 보안+팀) and whether it identifies who
    acts (a proper noun or latin name in it, or a role noun such as 개발팀장)."""
    i = morphs.index(m)
    j = i
    while j > 0 and morphs[j - 1].end == morphs[j].start and morphs[j - 1].tag in _WORDS:
        j -= 1
    word = "".join(x.form for x in morphs[j : i + 1]).lower()
    ident = any(x.tag in ("NNP", "SL", "SH") for x in morphs[j : i + 1])
    return word, ident or bool(_ROLE.match(word))


def agents(morphs: Sequence[Morph]) -> list[str]:
    """Words among ``morphs`` that name who acts: an identifying noun (a proper noun, a latin name, a role
    such as 개발팀장) before 이/가/께서, or before 에서 (결제팀에서 맡다, 한빛페이 쪽에서 내다)."""
    out = []
    for i, m in enumerate(morphs):
        if (m.form, m.tag) in _AGENT_PARTICLES or (m.form == "에서" and m.tag == "JKB"):
            w = _word_before(morphs, i)
            if w is None:
                continue
            word, ident = _run(morphs, w)
            if ident:
                out.append(word)
    return out


def wrong_agent(exp: Analysis, cand: Analysis, q: Analysis | None) -> tuple[str, str] | None:
    """(expected agent, the answer's): E names who acts, the answer never names it and names
    another (a word neither E nor the question has) in a clause touching E."""
    known = exp.compact + "|" + (q.compact if q is not None else "")
    said = [v for v in exp.values if any(same(v, w) for w in cand.values)]
    mine = [
        x
        for x in agents(exp.morphs)
        if x not in cand.compact
        and not any(_compact(v.text) in x or x in _compact(v.text) for v in said)
    ]
    if not mine:
        return None
    known += "|" + "|".join(_compact(w.text) for w in cand.values if any(same(v, w) for v in said))
    for c in cand.segments:
        if not any(_touches(s, c) for s in exp.segments):
            continue
        other = [
            x
            for x in agents([m for m in cand.morphs if c.start <= m.start < c.end])
            if x not in known
        ]
        if other:
            return mine[0], other[0]
    return None


_JOIN = frozenset({("및", "MAG"), ("및", "MAJ"), ("그리고", "MAJ")})


def _word_after(morphs: Sequence[Morph], i: int) -> Morph | None:
    j = i + 1
    while j < len(morphs) and morphs[j].tag[0] == "S" and morphs[j].tag not in ("SL", "SH"):
        j += 1
    return morphs[j] if j < len(morphs) and morphs[j].tag in _WORDS else None


def extra_members(exp: Analysis, cand: Analysis, q: Analysis | None) -> list[str]:
    """Words the answer lists right beside a word of E (joined by 와/과/하고/랑, 및, 그리고, the
    copula 이고, or since lexical-23 a comma alone) that neither E nor the question has: another
    member of the list. A member the statement sets apart in brackets ("(실내 스파는 정상 운영)",
    "(안내견 제외)") is not one of its list's: listed beside them it is a member added (lexical-45)."""
    known = _compact(_SET_APART.sub(" ", exp.text)) + "|" + (q.compact if q is not None else "")
    m = cand.morphs
    expected_values = [v for v in cand.values if any(same(v, w) for w in exp.values)]
    out = []
    for i, x in enumerate(m):
        joins = x.tag == "JC" or (x.form, x.tag) in _JOIN
        joins = joins or (x.form == "고" and x.tag == "EC" and i > 0 and m[i - 1].tag == "VCP")
        comma = _comma_after(cand, i)  # 스마트폰 활용, 탁구 (since lexical-23)
        if not joins and not comma:
            continue
        before = _word_before(m, i - 1 if x.form == "고" else i) if joins else x
        after = _word_after(m, i) if joins else m[i + 1]
        if before is None or after is None:
            continue
        if _new_slot(cand, before.start, after.start, exp, q):
            continue  # …출시이고, 사전 예약은 …: the next clause names a slot of its own
        a, b = before.form.lower(), after.form.lower()
        if comma and not joins:
            # after a comma only a new member appended counts: a new word before it may be the
            # head of the member phrase it ends (65세 이상 어르신, 장애인)
            in_value = any(v.start <= after.start < v.end for v in cand.values)
            if a in known and b not in known and not in_value:
                if not _known_in_phrase(cand, i + 1, known):
                    out.append(b)  # a value (토요일) is the value rules' to judge
        elif (a in known) != (b in known):
            new = after if a in known else before
            if not any(v.start <= new.start < v.end for v in expected_values):
                out.append(b if a in known else a)  # not 화요일 for 화·목요일 (lexical-44)
    return list(dict.fromkeys(out))


def _comma_after(a: Analysis, i: int) -> bool:
    """Morpheme ``i`` is a noun that a comma alone separates from the noun after it (a list's
    members written "A, B, C")."""
    m = a.morphs
    if i + 1 >= len(m) or m[i].tag not in ("NNG", "NNP") or m[i + 1].tag not in ("NNG", "NNP"):
        return False
    return a.text[m[i].end : m[i + 1].start].strip() == ","


def _known_in_phrase(a: Analysis, i: int, known: str) -> bool:
    """A word of the member phrase starting at morpheme ``i`` (up to the next comma or clause end)
    that E or the question has (탁구 이렇게 네 개요: none; 생활 중국어: 중국어)."""
    m = a.morphs
    end = a.text.find(",", m[i].start)
    end = len(a.text) if end < 0 else end
    return any(
        x.form.lower() in known
        for x in m[i + 1 :]
        if x.start < end and x.tag in ("NNG", "NNP", "SL")
    )


def _new_slot(a: Analysis, first: int, second: int, exp: Analysis, q: Analysis | None) -> bool:
    """Are the two positions in different clauses, the second with a topic (은/는) naming a slot
    of its own (accounting.names_slot: 사전 예약은 beside 출시일; 이사 날짜는 beside 이전 날짜 is
    the same slot)?"""
    one = next((c for c in a.segments if c.start <= first < c.end), None)
    two = next((c for c in a.segments if c.start <= second < c.end), None)
    if one is two or two is None or two.topic_end is None:
        return False
    if two.values and any(counterpart(w, exp.nouns) for w in subject_words(a, two, two.topic_end)):
        return True  # 주말은 1시간까지 beside 평일 2시간: another owner's own statement, no member
    return names_slot(a, two, two.topic_end, exp, q)


def retracted_after(exp: Analysis, cand: Analysis) -> list[tuple[str, str]]:
    """(clause, marker): a retraction or cancellation E does not make, in a clause of the answer
    with no value and no topic of its own that follows a clause touching E — it points back
    (…돌리려던 거, 팀 반발이 커서 결국 접었어요)."""
    mine = {mk for s in exp.segments for mk in s.markers}
    out = []
    for i, c in enumerate(cand.segments):
        if i == 0 or c.values or c.topic_end is not None:
            continue
        if any(_touches(s, c) for s in exp.segments):
            continue
        if not any(_touches(s, cand.segments[i - 1]) for s in exp.segments):
            continue
        for mk in c.markers:
            if mk in (RETRACT, CANCEL) and mk not in mine:
                out.append((c.text.strip(), mk))
    return out
