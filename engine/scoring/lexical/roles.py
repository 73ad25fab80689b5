"""Who does what to whom, whose a value is, and what a list leaves out (since lexical-19;
docs/metrics.md).

Three ways an answer keeps every word of the expected statement and still says otherwise:

- **roles swapped**: E's doer is the answer's object or owner, and a person E names in another
  role does it (원장님께서 수강생들이 만든 요리를 평가하셨다 / 수강생들이 원장님 요리를 평가했어요);
- **one owner's value said of another** (lexical-22): E's clauses are about two owners (their
  topics) and the answer's clause about one states a value only the other's holds;
- **set apart, listed in**: E sets an item apart from a list (기본 제공: 액자, 향 (화환은 별도))
  and the answer joins it to the list's members with no word setting anything apart."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from seorap.engine.scoring.lexical.analysis import Analysis, Segment
from seorap.engine.scoring.lexical.apart import apart_listed
from seorap.engine.scoring.lexical.lexicon import CONVERSE, GIVING, synonym_class
from seorap.engine.scoring.lexical.text import JOINING, Morph
from seorap.engine.scoring.lexical.value import kind, same

_DOER = frozenset({("이", "JKS"), ("가", "JKS"), ("께서", "JKS")})
_PERSON_SUFFIX = frozenset({"님", "생", "들", "원", "자", "사", "장", "팀", "분"})
"""Suffixes (kiwipiepy XSN, or the noun's last syllable) of a word naming people: 원장님,
수강생들, 회원, 참가자, 강사, 팀장, 운영팀."""
_PREDICATE = frozenset({"VV", "VA", "XSV", "XSA", "VCP", "VX"})
_NOUNS = frozenset({"NNG", "NNP", "XSN", "SL", "SH"})
_HONOURED = ("분", "NNB")
"""The honorific 분 written onto a people word (연사분께서): part of the word (since lexical-33)."""
_TO = frozenset({"께", "에게", "한테", "더러"})
"""Particles of who an act is done to (이 대리에게 넘겼다): with no converse verb, a recipient."""
_PEOPLE = frozenset(
    {"대리", "주임", "매니저", "코치", "기사", "작가", "선수", "셰프", "인턴", "멘토", "고객", "손님"}
)  # fmt: skip
"""Words naming people that no suffix of _PERSON_SUFFIX marks."""


def _word(morphs: Sequence[Morph], i: int) -> tuple[str, int]:
    """The noun word ending at morpheme ``i`` (adjacent noun pieces, no space) and where it starts."""
    j = i
    while j > 0 and morphs[j - 1].end == morphs[j].start and _noun_piece(morphs[j - 1]):
        j -= 1
    word = "".join(m.form for m in morphs[j : i + 1])
    if word in ("선생님", "선생") and j > 0 and morphs[j - 1].tag == "NNG":
        return morphs[j - 1].form + word, j - 1  # 원장 선생님: the title is the person's name
    return word, j


def _noun_piece(m: Morph) -> bool:
    return m.tag in _NOUNS or (m.form, m.tag) == _HONOURED


def _person(word: str, pieces: Sequence[Morph]) -> bool:
    return any(m.tag == "NNP" for m in pieces) or word[-1:] in _PERSON_SUFFIX or word in _PEOPLE


def doers(morphs: Sequence[Morph]) -> list[str]:
    """Person words before 이/가/께서 that do a main act, not a relative clause's (수강생들이 만든
    요리: the predicate they precede ends in a noun-modifying ending — unless a recipient was said
    between them, since lexical-33: 할머님께서 체험객들에게 귤청 만드는 법을 가르쳐 주십니다)."""
    out: list[str] = []
    waiting: list[str] = []
    told = False  # a recipient said since the last doer (할머님께서 체험객들에게 …)
    for i, m in enumerate(morphs):
        if (m.form, m.tag) in _DOER and i > 0 and _noun_piece(morphs[i - 1]):
            word, j = _word(morphs, i - 1)
            if _person(word, morphs[j:i]):
                waiting.append(word)
                told = False
        elif m.form in _TO and m.tag == "JKB":
            told = True
        elif m.tag in _PREDICATE and waiting:
            ending = next((x for x in morphs[i + 1 :] if x.tag not in ("EP", *_PREDICATE)), None)
            if ending is not None and ending.tag == "ETM" and not told:
                waiting.pop()  # the doer of a clause that modifies a noun
            elif ending is not None and ending.tag in ("EC", "EF"):
                out += waiting
                waiting = []
    return out + waiting


_HONORIFIC = re.compile(r"(?:(?<=..)선생)?(?:님|분)?(?:들)?$")
"""A people word's honorific and plural endings, and 선생 after a title (원장 선생님 is 원장님)."""


def _bare(word: str) -> str:
    """A people word without its honorific or plural ending: 보호자님 and 보호자분 are one (since
    lexical-25), and so are 수강생분들 and 수강생들 (since lexical-33)."""
    return _HONORIFIC.sub("", word) or word


def _roles(morphs: Sequence[Morph], word: str) -> set[str]:
    """How ``word`` is used in ``morphs``: "doer" (before 이/가/께서), "unsure" (before 은/는 or
    an adverbial particle), "other" (an object, an owner, a recipient: 를, a noun, 에게)."""
    out = set()
    for i in range(len(morphs)):
        w, j = _word(morphs, i)
        if _bare(w) != _bare(word) or (
            i + 1 < len(morphs)
            and morphs[i + 1].tag in _NOUNS
            and morphs[i + 1].start == morphs[i].end
        ):
            continue
        nxt = morphs[i + 1] if i + 1 < len(morphs) else None
        if nxt is not None and (nxt.form, nxt.tag) in _DOER:
            out.add("doer")
        elif nxt is not None and nxt.form in _TO:
            out.add("other")
        elif nxt is not None and nxt.tag in ("JX", "JKB"):
            out.add("unsure")  # a topic or an adverbial: who acts cannot be told
        else:
            out.add("other")
    return out


def swapped_roles(exp: Analysis, cand: Analysis) -> tuple[str, str] | None:
    """(E's doer, the answer's): E's doer is in the answer only as an object or an owner, and the
    answer's doer is a person E names in another role."""
    if any(
        (m.tag in _PREDICATE and m.form.endswith(CONVERSE)) or (m.form, m.tag) == ("되", "XSV")
        for m in cand.morphs
    ):
        return None  # 넘겨받았다, 배웠다, 승인됐다: who acts may be said the other way round
    mine = doers(exp.morphs)
    theirs = doers(cand.morphs)
    for x in mine:
        kin, roles = _kin_word(cand, x)  # 강사님 said 선생님 (lexical-51)
        if roles != {"other"}:
            continue
        for y in theirs:
            if _bare(y) not in {_bare(x) for x in mine} and _roles(exp.morphs, y):
                return f"{x} (who does it)", y
        if not theirs and _recipient(cand.morphs, kin):
            return f"{x} (who does it)", f"{x}께/에게 (the one it is done to)"
    return None


def _actors(morphs: Sequence[Morph], act: Callable[[Sequence[Morph], int], bool]) -> list[str]:
    """Person words before 이/가/께서/은/는 in a clause whose main predicate (not one modifying a
    noun: 출연료 받을 계좌) is an ``act`` (계장님이 안건을 받으셨대요)."""
    out: list[str] = []
    waiting: list[str] = []
    for i, m in enumerate(morphs):
        if (m.form, m.tag) in _DOER or (m.tag == "JX" and m.form in ("은", "는")):
            if i > 0 and morphs[i - 1].tag in _NOUNS:
                word, j = _word(morphs, i - 1)
                if _person(word, morphs[j:i]):
                    waiting.append(word)
        elif m.tag in _PREDICATE and m.tag != "VCP":
            ending = next((x for x in morphs[i + 1 :] if x.tag not in ("EP", *_PREDICATE)), None)
            if ending is None or ending.tag == "ETM" or _chained(morphs, i):
                continue  # a clause modifying a noun; 나눠 (드렸다): the auxiliary decides
            if act(morphs, i):
                out += waiting
            if ending.tag == "EF":
                waiting = []  # a sentence's doers are its every clause's (…하고 …했다)
    return out


def _chained(morphs: Sequence[Morph], i: int) -> bool:
    """Morpheme ``i`` is a verb joined by 어/아/여 to an auxiliary after it (나누 + 어 + 드리)."""
    return (
        i + 2 < len(morphs)
        and morphs[i + 1].tag == "EC"
        and morphs[i + 1].form in JOINING
        and morphs[i + 2].tag == "VX"
    )


def _receives(morphs: Sequence[Morph], i: int) -> bool:
    return (morphs[i].form, morphs[i].tag) == ("받", "VV")


def _gives(morphs: Sequence[Morph], i: int) -> bool:
    """A verb of giving (보내 드렸다), or 하다/드리다 after a noun of one (보고했다, 전달드렸다)."""
    m = morphs[i]
    before = morphs[i - 1] if i else None
    return (m.tag in ("VV", "VX") and m.form in GIVING) or (
        m.form in ("하", "드리") and before is not None and before.form in GIVING
    )


def _kin_word(cand: Analysis, x: str) -> tuple[str, set[str]]:
    """(``x``, or the answer's word for the same person when it names x by another word of x's
    meaning class and not by x (강사님 said 선생님; since lexical-51); that word's roles there)."""
    roles = _roles(cand.morphs, x)
    if roles:
        return x, roles
    kin = next(
        (n for n in cand.nouns if synonym_class(_bare(n), frozenset({_bare(x)})) is not None), x
    )
    return kin, _roles(cand.morphs, kin) if kin != x else roles


def _one_person(a: str, b: str) -> bool:
    """One person word the same or shortened by its front (계장님 for 어촌계장님)."""
    a, b = _bare(a), _bare(b)
    return a == b or (len(b) >= 2 and a.endswith(b)) or (len(a) >= 2 and b.endswith(a))


def giver_receives(exp: Analysis, cand: Analysis) -> tuple[str, str] | None:
    """(E's doer, the answer's receiver): E's doer of an act of giving (보내 드렸다, 전달했다) is
    said in the answer to receive it (받으셨대요) — the act told the other way round (since
    lexical-29); or (since lexical-33) the one E gives to is the one the answer receives from
    (통역팀에 제출 / 통역팀에서 받아 가시면); or (since lexical-37) E names no giver and gives to
    someone the answer says gives (대표님께 보내 드림 / 대표님이 보내 주셨어요)."""
    if not any(m.form in GIVING and m.tag in ("VV", "VX", "NNG") for m in exp.morphs) or any(
        m.tag in _PREDICATE and m.form.endswith(CONVERSE) for m in exp.morphs
    ):
        return None
    for x in _actors(exp.morphs, _gives):
        for y in _actors(cand.morphs, _receives):
            if _one_person(x, y):
                return f"{x} (who gives)", f"{y} (said to receive)"
    if not _actors(exp.morphs, _gives):  # 대표님께 견적서 보내 드림 / 대표님이 보내 주셨어요
        for x in _marked(exp.morphs, _TO):
            for y in _actors(cand.morphs, _gives):
                if _one_person(x, y):
                    return f"{x} (given to)", f"{y} (said to give)"
    if any(_receives(cand.morphs, i) for i in range(len(cand.morphs))):
        for x in _marked(exp.morphs, _GIVEN_TO):
            for y in _marked(cand.morphs, _GIVEN_FROM):
                if _one_person(x, y):  # 통역팀에 제출 / 통역팀에서 받아 가시면 (lexical-33)
                    return f"{x} (given to)", f"{y} (said to give)"
    return None


_GIVEN_TO = frozenset({"에게", "께", "한테", "에"})
_GIVEN_FROM = frozenset({"에서", "에게서", "한테서", "로부터", "으로부터"})


def _marked(morphs: Sequence[Morph], particles: frozenset[str]) -> list[str]:
    """The noun words right before one of ``particles`` (JKB)."""
    return [
        _word(morphs, i - 1)[0]
        for i, m in enumerate(morphs)
        if m.tag == "JKB" and m.form in particles and i and _noun_piece(morphs[i - 1])
    ]


def _recipient(morphs: Sequence[Morph], word: str) -> bool:
    """``word`` is said before a particle of who an act is done to (고객님께, 이 대리에게): with no
    doer named, the answer's act is someone else's, done to it (since lexical-24: "고객님께서
    입금하셨습니다" answered "고객님께 입금해 드렸습니다")."""
    for i in range(len(morphs) - 1):
        w, _ = _word(morphs, i)
        if (
            _bare(w) == _bare(word)
            and morphs[i + 1].form in _TO
            and morphs[i + 1].start == morphs[i].end
        ):
            return True
    return False


def other_topics_values(exp: Analysis, cand: Analysis) -> tuple[str, str] | None:
    """(value, the answer's topic): an answer clause about one owner of the statement (its topic
    before 은/는 is an expected clause's topic) states a value only another expected clause holds,
    about another owner the answer's clause never names (since lexical-22: "장조림은 화요일과
    금요일에만, 멸치볶음은 매일" answered "멸치볶음은 화요일이랑 금요일에만 만들어요")."""
    topical = [s for s in exp.segments if s.topic]
    if len(topical) < 2:
        return None
    for c in cand.segments:
        if not c.topic:
            continue
        said = _topic_text(cand, c)
        mine = [
            s
            for s in topical
            if s.topic <= c.topic or c.topic <= s.topic or _topic_text(exp, s) == said
        ]
        if not mine:
            continue
        for w in c.values:
            if w.former or any(same(w, v) for s in mine for v in s.values):
                continue
            owners = [s for s in topical if s not in mine and any(same(w, v) for v in s.values)]
            if owners and not any(
                n in c.compact for s in owners for n in (*s.topic, _topic_text(exp, s))
            ):
                return w.text, " ".join(sorted(c.topic))
    return None


def asked_of_another(exp: Analysis, cand: Analysis, q: Analysis | None) -> tuple[str, str] | None:
    """(the asked owner's value, the answer's): the question names one owner of the statement
    (the topic of one of its clauses) and the answer gives, for it, the value of another owner's
    clause of that kind and none of the asked one's (since lexical-24: "'달의 뒤편' 러닝타임
    얼마예요?" of "'달의 뒤편'은 100분, '달빛 우체국'은 80분" answered "80분이에요")."""
    topical = [s for s in exp.segments if s.topic]
    if q is None or len(topical) < 2:
        return None
    asked = [s for s in topical if _topic_text(exp, s) and _topic_text(exp, s) in q.compact]
    if len(asked) != 1 or len(_named_apart(exp, topical, q)) > 1:
        return None  # 1번이랑 2번 수조 소독: the question names both owners (lexical-30)
    own = asked[0]
    said = {id(s): [v for v in s.values if v.start >= (s.topic_end or 0)] for s in topical}
    for w in cand.values:
        if w.former or any(same(w, v) for v in own.values):
            continue
        theirs = [s for s in topical if s is not own and any(same(w, v) for v in said[id(s)])]
        mine = [v for v in said[id(own)] if kind(v) == kind(w)]
        if theirs and mine and not any(same(v, x) for v in mine for x in cand.values):
            return mine[0].text, w.text
    return None


def swapped_owners(exp: Analysis, cand: Analysis) -> tuple[str, str] | None:
    """(value, the answer's owner): the statement's clauses are about owners told apart by what
    their topics do not share (쪽 / 감물 of "쪽 염색 체험비는 …, 감물 염색 체험비는 …"), and an
    answer clause about one of them — its topic, or its subject before 이/가 — states a value only
    another's clause holds, of a kind its own clause has (since lexical-37: "감물 염색이 3만 5천
    원이고 쪽 염색은 2만 8천 원이에요": the two fees swapped)."""
    topical = [s for s in exp.segments if s.topic]
    if len(topical) < 2:
        return None
    apart = dict(zip(map(id, topical), _apart_texts(exp, topical), strict=True))
    for c in cand.segments:
        said = _said_of(cand, c)
        mine = [s for s in topical if apart[id(s)] and apart[id(s)] in said]
        if len(mine) != 1:
            continue
        own = mine[0]
        for w in c.values:
            if w.former or any(same(w, v) for v in own.values):
                continue
            theirs = [s for s in topical if s is not own and any(same(w, v) for v in s.values)]
            if theirs and any(kind(v) == kind(w) for v in own.values):
                return w.text, said
    return None


def _said_of(a: Analysis, c: Segment) -> str:
    """The words clause ``c`` is about: before its topic particle, or before a subject particle
    with a value after it (감물 염색이 3만 5천 원이고), without spaces; empty without either."""
    end = c.topic_end
    if end is None:
        subject = next(
            (m for m in a.morphs if c.start <= m.start < c.end and (m.form, m.tag) in _DOER), None
        )
        if subject is None or not any(v.start >= subject.end for v in c.values):
            return ""
        end = subject.end
    return re.sub(r"[\W_]+", "", a.text[c.start : end]).lower()[:-1]


def _apart_texts(exp: Analysis, topical: Sequence[Segment]) -> list[str]:
    """Each clause's topic words less the ending all of them share (쪽염색체험비, 감물염색체험비:
    쪽, 감물); empty when two are left alike."""
    apart = _less_shared_ending(exp, topical)
    return apart if len(set(apart)) == len(apart) else [""] * len(apart)


def _less_shared_ending(exp: Analysis, topical: Sequence[Segment]) -> list[str]:
    """The clauses' topic texts, each less the ending all of them share."""
    texts = [_topic_text(exp, s) for s in topical]
    shared = 0
    while shared < min(map(len, texts)) and len({x[len(x) - shared - 1] for x in texts}) == 1:
        shared += 1
    return [x[: len(x) - shared] for x in texts]


def _named_apart(exp: Analysis, topical: Sequence[Segment], q: Analysis) -> list[Segment]:
    """The clauses whose topic the question names by what sets it apart from the others' (1번 of
    "1번 수조 소독" beside "2번 수조 소독": their words less the ending they share)."""
    apart = _less_shared_ending(exp, topical)
    return [
        s
        for s, x in zip(topical, apart, strict=True)
        if x and (len(x) >= 2 or x.isascii()) and x in q.compact  # 1 of 1번, B of B동
    ]


def _topic_text(a: Analysis, seg: Segment) -> str:
    """The words of a clause before its 은/는, without spaces and the particle: the analyser may
    read one name as a noun here and as two there (창의미술반, 창 + 미술), its letters are the same."""
    if seg.topic_end is None:
        return ""
    return re.sub(r"[\W_]+", "", a.text[seg.start : seg.topic_end]).lower()[:-1]


def wrongs(exp: Analysis, cand: Analysis, q: Analysis | None = None) -> list[tuple[str, str]]:
    """(expected, the answer's) for each rule of this module that finds the answer says otherwise:
    roles swapped, one owner's value said of another, an item set apart listed in."""
    out = []
    swap = swapped_roles(exp, cand)
    if swap is not None:
        out.append(swap)
    given = giver_receives(exp, cand)
    if given is not None:
        out.append(given)
    owned = other_topics_values(exp, cand) or swapped_owners(exp, cand)
    if owned is not None:
        out.append((f"{owned[0]} (another owner's)", f"{owned[0]} said of {owned[1]}"))
    other = asked_of_another(exp, cand, q)
    if other is not None:
        out.append((f"{other[0]} (the asked owner's)", f"{other[1]} (another owner's)"))
    apart = apart_listed(exp, cand)
    if apart is not None:
        out.append((f"{apart[0]} set apart", f"{apart[0]} listed beside {apart[1]}"))
    return out
