"""Full accounting (answers only, since lexical-6; docs/metrics.md): every morpheme of an answer
must be accounted for before YES.

A morpheme is accounted for when it is

- inside a value the rules have read: an expected value, a value of the question, a value marked
  former, a phrase a contrast word sets aside (the contrast rules read it), or a value for another
  slot in a clause of its own (:func:`other_slot`);
- a word of the expected answer or of the question (a noun also inside a longer word, or holding
  one: 마감일 / 마감), or a predicate of the same meaning class as one of theirs
  (predicates.tsv: 옮기다 = 이전하다);
- an entry of the neutral lexicon (neutral.tsv and the user's), with the tags it is listed with;
- a negation when the expected answer is negated too (the polarity rule compared both);
- punctuation.

Everything else is *unverified* and named in the rationale, so a user can extend the lexicon or
the glossary."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from seorap.engine.scoring.lexical.acts import denied_state_words, denies
from seorap.engine.scoring.lexical.analysis import Analysis, Segment
from seorap.engine.scoring.lexical.clauses import _noun_in
from seorap.engine.scoring.lexical.constructions import said_by_construction
from seorap.engine.scoring.lexical.courtesy import courtesy_spans
from seorap.engine.scoring.lexical.lexicon import (
    Entry,
    builtin_neutral,
    in_phrases,
    receives_given,
    synonym_class,
)
from seorap.engine.scoring.lexical.polarity import (
    APPROXIMATION,
    BOUNDS,
    LIMIT_NOUNS,
    NEGATING_WORDS,
    PASSING_VERBS,
    _neutral_condition,
    counterpart,
)
from seorap.engine.scoring.lexical.subjects import in_expected
from seorap.engine.scoring.lexical.text import Morph, joined_verbs
from seorap.engine.scoring.lexical.value import Value, kind, same, spelled
from seorap.engine.scoring.lexical.values import _CHANGE_TARGET

WORDS = ("SL", "SH", "SN")
"""Tags starting with S that are words (latin, Hanja, digits); every other S tag is punctuation."""
KIND_NOUNS = frozenset({"날짜", "날", "일자", "시간", "시각", "기간", "장소", "일정", "시점"})
"""Nouns that name the kind of a value: no other slot by themselves."""
FORMER_WORDS = frozenset(
    {
        "기존",
        "예전",
        "이전",
        "원래",
        "당초",
        "종전",
        "처음",
        "과거",
        "지만",
        "었",
        "았",
        "였",
        "에서",
    }
)
"""Words that mark a value as former, and the contrast ending after it (예전엔 A였지만 지금은 B):
accounted for when the answer has a value marked former (the value rules have read the change)."""
CHANGE_WORDS = frozenset({"변경", "바뀌", "바꾸", "교체", "전환", "옮기", "대체"})
"""Predicates of a change: accounted for when the answer marks a value former or sets one aside
(the rules have read which value is current)."""
NEWS = frozenset({"앞당기", "당기", "미루", "늦추", "연기", "연장", "단축", "밀리"})
"""Predicates of a schedule moved: a clause about another slot that says its date or time moved
is news the expected statement does not carry, never what else the answer knows of the asked
matter (since lexical-20: 납기도 1주일 앞당겨졌다고 하더라고요)."""
PRICE_CHANGE = frozenset(
    {"할인", "할증", "감면", "면제", "환불", "인상", "인하", "추가금", "할인율"}
)
"""Words that change what is paid: a clause with one changes the asked amount for someone, it is
no other slot (since lexical-23: 형제자매는 20% 할인돼요 beside the right fee)."""
_WHO = frozenset({"name", "person", "team"})
"""Value types of who or what, not of a slot's measure: a clause saying someone did something
(취하서는 사무장님이 접수하셨어요) is a claim, no other slot (person and team since lexical-37)."""
BUT = frozenset({"다만", "단", "하지만", "그런데", "근데", "그러나", "대신"})
"""Conjunctions that open an exception or a contrast: a clause after one qualifies what was
said before it, it is no other slot (since lexical-37)."""
CASE_PARTICLES = frozenset({"JKS", "JKC", "JKG", "JKO", "JKV", "JKQ", "JC"})
"""Case and linking particles: no word of a meaning class (가 is no 가다, 나 no 나다)."""
_NEGATING = NEGATING_WORDS | {("아니", "VCN")}


def subject_words(a: Analysis, c: Segment, upto: int) -> list[str]:
    """Nouns of clause ``c`` before ``upto`` (its topic particle, or the value it states)."""
    ms = a.morphs
    return [
        _with_prefix(ms, i).lower()
        for i, m in enumerate(ms)
        if c.start <= m.start < upto and m.tag in ("NNG", "NNP", "SL")
    ]


def _with_prefix(ms: Sequence[Morph], i: int) -> str:
    """A noun with the prefix written onto it: 재방송 is no 방송."""
    p = ms[i - 1] if i else None
    return (
        p.form + ms[i].form
        if p is not None and p.tag == "XPN" and p.end == ms[i].start
        else ms[i].form
    )


def names_other_slot(
    cand: Analysis, c: Segment, w: Value, exp: Analysis, q: Analysis | None
) -> bool:
    """Does clause ``c`` of the answer, stating value ``w``, name a slot of its own: a word before
    its topic particle (or before ``w``) that neither the expected answer nor the question has, and
    that names more than the kind of a value (첫 출근일은 6월 15일 beside 이전 날짜는 6월 13일)?"""
    upto = c.topic_end if c.topic_end is not None and c.topic_end <= w.start else w.start
    return names_slot(cand, c, upto, exp, q)


def names_slot(cand: Analysis, c: Segment, upto: int, exp: Analysis, q: Analysis | None) -> bool:
    """Do the words of clause ``c`` before ``upto`` name a slot neither the expected answer nor
    the question has (a word of neither, no kind noun, in no meaning class of theirs)?"""
    known = exp.compact + "|" + (q.compact if q is not None else "")
    forms, particles = _known_forms(exp, q)
    forms = forms - particles
    return any(
        len(x) >= 2
        and x not in KIND_NOUNS
        and x not in known
        and not _noun_in(x, exp.nouns, known)
        and synonym_class(x, forms) is None  # 이사 날짜 for 이전 날짜: the same slot
        and not counterpart(x, exp.nouns)  # 주말 for 평일: the same slot, another owner
        for x in subject_words(cand, c, upto)
    )


def other_slot(c: Segment, cand: Analysis, exp: Analysis, q: Analysis | None) -> bool:
    """A clause that states a value for another slot, on its own: a typed value that is no expected
    value, in a clause stating no expected value, with no polarity marker, naming its own slot, in
    an answer to a question (what else it knows of the asked matter). Without a question there is
    no asked matter: such a clause is a claim the expected statement does not support (since
    lexical-9; "19일에 열고, 입장료는 만 원이에요" for "12월 19일에 개장"). A clause that says
    the other slot changed (앞당겨졌다, 미뤄졌다) is news, not a value it knows of (lexical-20)."""
    if q is None or c.markers or any(in_expected(w, exp) for w in c.values):
        return False
    if another_owner(cand, c, exp):
        return False
    if any(m.form in NEWS | PRICE_CHANGE and c.start <= m.start < c.end for m in cand.morphs):
        return False  # 앞당겨졌다고 (news), 20% 할인돼요 (the asked amount changed for someone)
    if any(
        m.form in BUT and m.tag in ("MAJ", "MAG") for m in cand.morphs if c.start <= m.start < c.end
    ):
        return False  # 다만 주말에는 12시에 닫아요: an exception to the asked value (lexical-37)
    return any(
        w.type not in _WHO and not w.former and names_other_slot(cand, c, w, exp, q)
        for w in c.values
    )


def another_owner(cand: Analysis, c: Segment, exp: Analysis) -> bool:
    """Does clause ``c`` say the expected matter of another owner? Its topic names something the
    expected statement does not, and either the topic's head is an expected noun (지상 주차장은 … beside
    지하 주차장 …) or what it says of the topic repeats one (매표소는 주말에도 현장 발권 beside 온라인
    발권 …). That is the expected slot of an owner the expected statement says nothing of, not
    another slot: an unsupported claim (since lexical-15)."""
    if c.topic_end is None:
        return False
    words = subject_words(cand, c, c.topic_end)
    if not words or all(_noun_in(w, exp.nouns, exp.compact) for w in words):
        return False
    if len(words) > 1 and _noun_in(words[-1], exp.nouns, exp.compact):
        return True
    return any(len(n) >= 2 and _noun_in(n, exp.nouns, exp.compact) for n in c.comment)


def _known_forms(exp: Analysis, q: Analysis | None) -> tuple[frozenset[str], frozenset[str]]:
    """(the forms of the expected answer's and the question's morphemes, those of them seen only
    as a case or linking particle). A meaning class is looked up without the second: the subject
    particle 가 is no verb 가다 (까지 of 언제까지, an auxiliary particle, is a deadline still).
    ``기로`` is a form when one says a decision with …하기로 하다 (its meaning class is
    ``decided``)."""
    forms: set[str] = set()
    particles: set[str] = set()
    content: set[str] = set()
    for a in (exp, q):
        if a is None:
            continue
        ms = a.morphs
        for i, m in enumerate(ms):
            nxt = ms[i + 1] if i + 1 < len(ms) else None
            if nxt is not None and nxt.tag == "XSN" and nxt.start == m.end and m.tag[:2] == "NN":
                form = (m.form + nxt.form).lower()  # 요금제, not 요금 (a fee is no plan)
            elif not (m.tag == "XSN" and i and ms[i - 1].end == m.start):
                form = m.form.lower()
            else:
                continue
            forms.add(form)
            (particles if m.tag in CASE_PARTICLES else content).add(form)
        pairs = zip(a.morphs, a.morphs[1:], strict=False)
        if any(x.form == "기" and x.tag == "ETN" and y.form == "로" for x, y in pairs):
            forms.add("기로")
    return frozenset(forms), frozenset(particles - content)


def _in_spans(m: Morph, spans: Sequence[tuple[int, int]]) -> bool:
    return any(a <= m.start < b for a, b in spans)


def _value_spans(exp: Analysis, cand: Analysis, q: Analysis | None) -> list[tuple[int, int]]:
    """Spans of the answer's values the rules have read (module docstring)."""
    asked = q.values if q is not None else ()
    spans = [
        (w.start, w.end)
        for w in cand.values
        if in_expected(w, exp) or any(same(w, x) for x in asked)
    ]
    for w in cand.values:
        if w.former:  # the former value's phrase up to its 에서 / → (PostgreSQL 14에서)
            m = _FORMER_PHRASE.match(cand.text, w.end)
            spans.append((w.start, m.end() if m else w.end))
        elif w.target and in_expected(w, exp):  # …로 변경/연기/옮기다: the change the rules read
            m = _CHANGE_TARGET.match(cand.text[w.end :])
            spans.append((w.start, w.end + (m.end() if m else 0)))
    for a, _, word in cand.aside:  # the phrase set aside, the contrast word and its ending
        after = [m for m in cand.morphs if m.start >= a and m.form == word]
        end = _aside_end(cand.morphs, after[0]) if after else a
        spans.append((a, end))
    spans += [(c.start, c.end) for c in cand.segments if other_slot(c, cand, exp, q)]
    spans += [(w.start, w.end) for w in cand.values if counts_the_list(w, cand, exp)]
    return spans


_COUNTS = frozenset({"수", "곳", "개", "가지", "종류", "명", "건"})
_MEMBERS = re.compile(r"\s*(?:,|·|/|그리고|및|(?<=[가-힣])(?:이랑|랑|하고|와|과)\s)\s*")


def counts_the_list(w: Value, cand: Analysis, exp: Analysis) -> bool:
    """``w`` counts the list just before it, each member an expected word (농협 공판장이랑 온라인
    직거래, 로컬푸드 매장 세 군데요): the number of members the answer has listed, no value of its
    own (since lexical-37)."""
    if w.type not in _COUNTS or w.former or not w.key[0].isdigit():
        return False
    start = max(cand.text.rfind(x, 0, w.start) for x in ".!?\n") + 1
    members = [x for x in _MEMBERS.split(cand.text[start : w.start]) if x.strip()]
    known = [*exp.nouns, *(v.key[0] for v in exp.values if v.type == "name")]
    return len(members) == int(w.key[0]) >= 2 and all(
        any(len(n) >= 2 and n in x.replace(" ", "").lower() for n in known) for x in members
    )


_FORMER_PHRASE = re.compile(r"[^,./;에→]{0,16}?(?:에서|→|->)")


def _aside_end(morphs: Sequence[Morph], word: Morph) -> int:
    """The end of a contrast word with the endings and light verb after it (아니+라, 제외+하+고)."""
    i = morphs.index(word)
    end = word.end
    for m in morphs[i + 1 : i + 4]:
        if m.tag.startswith("E") or m.tag in ("XSV", "VV") and m.form == "하":
            end = m.end
        else:
            break
    return end


_RUN = frozenset({"NNG", "NNP", "NNB", "XSN", "XPN", "SL", "SH", "SN"})


def _noun_run(morphs: Sequence[Morph], i: int) -> str:
    """The word a noun morpheme is part of (adjacent noun morphemes with no space: 스토리+지)."""
    a = b = i
    while a > 0 and morphs[a - 1].end == morphs[a].start and morphs[a - 1].tag in _RUN:
        a -= 1
    while (
        b + 1 < len(morphs) and morphs[b].end == morphs[b + 1].start and morphs[b + 1].tag in _RUN
    ):
        b += 1
    return "".join(m.form for m in morphs[a : b + 1]).lower()


_NEW_SENSE = frozenset({"성", "적", "화"})
"""Suffixes that make a noun say something else of it: 가능성 (a possibility, not 가능), 형식적."""


@lru_cache(maxsize=1 << 10)
def _names(exp: Analysis, q: Analysis | None) -> tuple[str, ...]:
    """The names (Latin-letter values) of the expected statement and the question."""
    return tuple(
        str(v.key[0]) for a in (exp, q) if a is not None for v in a.values if v.type == "name"
    )


def _word_known(
    m: Morph,
    i: int,
    morphs: Sequence[Morph],
    exp: Analysis,
    q: Analysis | None,
    forms: frozenset[str],
    content: frozenset[str],
) -> bool:
    """``forms``: the expected answer's and the question's (``_known_forms``); ``content``: the
    same without particles, for the meaning classes."""
    form = m.form.lower()
    if form in forms:
        return True
    compact = exp.compact + "|" + (q.compact if q is not None else "")
    nouns = [*exp.nouns, *(q.nouns if q is not None else ())]
    if m.tag[:2] in ("NN", "XR", "SL", "SH", "XS", "XP"):
        word = _noun_run(morphs, i)
        if len(word) >= 2 and word in compact:
            return True
        if len(form) >= 2 and (
            form in compact or any(len(n) >= 2 and form.startswith(n) for n in nouns)
        ):  # a derived form (마감일 for 마감, 주관 for 주관사); since lexical-11 not a word put
            return True  # before the noun (인천항만공사 for 항만공사 names one of several)
        if _noun_in(word, nouns, ""):  # LP for 엘피 (letters said one by one), 할머님 for 할머니
            return True
        if not word.isascii() and any(spelled(n, word) for n in _names(exp, q)):
            return True  # 해썹 for the name HACCP (lexical-43)
        stem = word[: -len(form)] if len(form) == 1 and word.endswith(form) else ""
        if len(stem) >= 2 and stem in compact and form not in _NEW_SENSE:
            return True  # 앞다리살 for 앞다리, 세탁비 for 세탁: one syllable after it (lexical-43)
    if m.tag in ("VV", "VA", "NNG", "NNB", "XR", "MAG", "MM") and synonym_class(
        m.form, content, nouns
    ):
        return True
    if receives_given(m, content, nouns):
        return True
    return any(synonym_class(verb, content, nouns) for verb in joined_verbs(morphs, i))


def _said_words(exp: Analysis, cand: Analysis, q: Analysis | None) -> list[tuple[int, int]]:
    """Where the answer writes a noun of the expected answer or the question letter for letter
    (two characters or more): its morphemes are that word, however the analyser cut it in the
    answer's context ("그게 다온헬스케어" is read 다 + 온 + 헬스케어, "다온헬스케어는" one noun)."""
    nouns = {*exp.nouns, *(q.nouns if q is not None else ())}
    nouns |= {
        w.text.lower() for a in (exp, q) if a is not None for w in a.values if w.type == "name"
    }
    text = cand.text.lower()
    out = []
    for n in sorted(x for x in nouns if len(x) >= 2 and not x.isspace()):
        at = text.find(n)
        while at >= 0:
            out.append((at, at + len(n)))
            at = text.find(n, at + 1)
    return out


def _neutral(m: Morph, entries: Sequence[Entry]) -> bool:
    return any(len(e.forms) == 1 and e.forms[0] == m.form and e.tag_ok(0, m.tag) for e in entries)


NO_WORDS = frozenset({("아니요", "IC"), ("아뇨", "IC"), ("아니", "IC")})
"""An answer's no: accounted for when the question's premise is false (lexical/premise.py)."""
YES_WORDS = frozenset({("네", "IC"), ("예", "IC")})
"""An answer's yes: not accounted for when the question's premise is false."""


def _ends_range(cand: Analysis, m: Morph) -> bool:
    """``m`` (사이) closes a range of two values of one kind, the first before 에서 (120cm에서
    150cm 사이): the range the values state (since lexical-37)."""
    text = cand.text
    last = [w for w in cand.values if w.end <= m.start and not text[w.end : m.start].strip()]
    return any(
        kind(v) == kind(w) and text[v.end : w.start].strip().startswith("에서")
        for w in last
        for v in cand.values
        if v.end <= w.start
    )


def range_nouns(cand: Analysis) -> frozenset[str]:
    """The nouns of the answer that close a range (사이 of 120cm에서 150cm 사이): no word of a
    slot the sibling and substitution rules may read."""
    return frozenset(m.form for m in cand.morphs if m.form == "사이" and _ends_range(cand, m))


def _premise_words(morphs: Sequence[Morph], done: list[bool]) -> list[str]:
    """The question's premise is false: an opening 아니요 is accounted for (marked done), an opening
    네 is not (returned, with why)."""
    if not morphs:
        return []
    first = (morphs[0].form, morphs[0].tag)
    done[0] = done[0] or first in NO_WORDS or first in YES_WORDS
    return [f"{first[0]} (yes to a premise the expected statement denies)"] * (first in YES_WORDS)


def unaccounted(
    exp: Analysis,
    cand: Analysis,
    q: Analysis | None,
    extra: Sequence[Entry] = (),
    *,
    premise_false: bool = False,
) -> list[str]:
    """The answer's morphemes nothing accounts for (module docstring), each as ``form`` (verbs
    and adjectives as ``form-``), in order, without repeats. ``premise_false``: the question asks
    yes or no of something the expected statement denies (an opening 아니요 is accounted for, an
    opening 네 is not)."""
    entries = (*builtin_neutral(), *extra)
    morphs = cand.morphs
    covered = in_phrases(morphs, extra) | said_by_construction(exp, morphs)
    done = [i in covered for i in range(len(morphs))]
    spans = _value_spans(exp, cand, q) + list(courtesy_spans(exp, cand))  # 궁금하시면 물어보세요.
    forms, particles = _known_forms(exp, q)
    negated = denies(exp)  # 사용 금지 = 사용하지 마십시오 (lexical-52)
    limit = bool(forms & LIMIT_NOUNS)
    about = any(m.form in APPROXIMATION for m in exp.morphs)  # 약 4.5MB: 4,500KB 정도 says it too
    if any(w.former for w in cand.values):  # the value rules read the change
        forms = forms | FORMER_WORDS | CHANGE_WORDS
    if any(w.former for w in exp.values):  # E says a change: 이제 marks the value now held
        forms = forms | {"이제"}
    if cand.aside:  # the contrast rules read the replacement (A 대신 B로 바뀌다)
        forms = forms | CHANGE_WORDS
    content = forms - particles  # for the meaning classes
    words = _said_words(exp, cand, q)
    denied = denied_state_words(exp, cand)  # 안 열어요 for 휴관: the state said the other way
    done = [
        d or (m.form in denied and (m.tag[0] in "VMNX" or (m.form, m.tag) == ("지", "EC")))
        for d, m in zip(done, morphs, strict=True)
    ]
    out: list[str] = _premise_words(morphs, done) if premise_false else []
    for i, m in enumerate(morphs):
        if done[i] or (m.tag[0] == "S" and m.tag not in WORDS) or _in_spans(m, spans):
            continue
        if any(a <= m.start and m.end <= b for a, b in words):
            continue
        if negated and (m.form, m.tag) in _NEGATING:
            continue
        if limit and any(m.form in cls for cls in BOUNDS):
            continue  # E's value is a limit (목표 …): any bound may say it
        if about and m.form in APPROXIMATION:
            continue
        if m.form == "사이" and _ends_range(cand, m):
            continue
        if m.tag == "EC" and m.form in ("면", "으면") and _neutral_condition(morphs, i, forms):
            done[i - 1] = done[i - 1] or morphs[i - 1].form in PASSING_VERBS
            continue
        if m.form in PASSING_VERBS and i + 1 < len(morphs) and morphs[i + 1].form in ("면", "으면"):
            if _neutral_condition(morphs, i + 1, forms):
                continue
        if _neutral(m, entries) or _word_known(m, i, morphs, exp, q, forms, content):
            continue
        out.append(f"{m.form}-" if m.tag in ("VV", "VA", "VX") else m.form)
    return list(dict.fromkeys(out))
