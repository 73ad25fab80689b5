"""Reading one text: its values, content nouns, clauses (segments) with their polarity markers,
and hedge markers."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from seorap.engine import normalise
from seorap.engine.scoring.lexical import look_alikes
from seorap.engine.scoring.lexical.lexicon import predicate_classes
from seorap.engine.scoring.lexical.polarity import (
    NEGATING_ADVERBS,
    RETRACT_NOUNS,
    RETRACT_VERBS,
    aside_spans,
)
from seorap.engine.scoring.lexical.text import Morph, morphemes, not_yet
from seorap.engine.scoring.lexical.value import SURNAMES, Value
from seorap.engine.scoring.lexical.values import _extract, _mark_changes


def values(text: str, ref: dt.date | None = None) -> tuple[Value, ...]:
    """The typed values of ``text`` with their former/target marks; relative dates are resolved
    against ``ref`` (the date of the document the text comes from)."""
    return analyse(text, ref).values


# ---- segments, nouns, markers -------------------------------------------------------------------

_SPLIT = re.compile(
    r"[;\n!?]|(?<=[가-힣])~+(?=\s)|/(?!(?<=\d/)\d)(?!(?<=(?<![A-Za-z])[A-Z]/)[A-Z](?![A-Za-z]))|\.(?!\d|(?<=\d{4}\.)\s\d|(?<=\d{4}\.\s\d\.)\s\d|(?<=\d{4}\.\s\d\d\.)\s\d)"
    r"|,(?!(?<=\d,)\d)"
    r"|(?<![가-힣])(?:그러나|하지만|그런데)(?![가-힣])"
)
_COMPACT_DROP = re.compile(r"[\W_]+")
NOUN_TAGS = frozenset({"NNG", "NNP", "SH", "XR", "SL"})
_STOP_NOUNS = frozenset(
    {
        "현재",
        "지금",
        "기존",
        "예전",
        "원래",
        "당초",
        "종전",
        "이전에",
        "경우",
        "정도",
        "관련",
        "이후",
        "이제",
        "최종",
        "참고",
        "기록",
        "사항",
        "내용",
        # nouns naming the kind of a value, not a value: 시간 in "점검 시간은 2시부터"
        "시간",
        "일자",
        "날짜",
        "시각",
        "시점",
        "일시",
        "기간",
        # ... and of a place or a person's role: 장소 in "송년회 장소는 호텔 연회장"
        "장소",
        # a company's legal form is no part of its name (주식회사 누리 = ㈜누리 = 누리)
        "주식회사",
        "株",
        "㈜",
    }
)
NEGATION = "negation"
CANCEL = "cancellation"
RETRACT = "retraction"
POSTPONE = "postponement"
_NEG_MORPHS = {
    ("않", "VX"),
    ("안", "MAG"),
    ("못", "MAG"),
    ("아니", "VCN"),
    ("없", "VA"),
    ("말", "VX"),
    ("못하", "VX"),
}
_NEG_NOUNS = {"불가", "불가능"}
_CANCEL_NOUNS = {"취소", "중단", "중지", "폐지", "무산", "불발", "폐기"}
_RETRACT_NOUNS = {"철회", "번복", "백지", "백지화", "무효", "정정", "오기재", "오기", "오타"}
_POSTPONE_NOUNS = {"연기", "보류", "순연"}
_POSTPONE_VERBS = {"미루", "늦추", "밀리"}
_HALT_VERBS = {"멈추", "멈춰지", "멎"}
"""Verbs that say what 중단 says (a halt): the same marker, cancellation."""


def _class_words(*names: str) -> frozenset[str]:
    return frozenset(w for n, words in predicate_classes() if n in names for w in words)


_HALT_NOUNS = frozenset(_CANCEL_NOUNS) | (_class_words("halt") - {"끊기"} - _HALT_VERBS)
"""Since lexical-30 the nouns of the predicate table's class of a halt (정지 with 중단, 중지) carry
the marker 중단 carries: one meaning, one marker."""
_POSTPONE_STEMS = frozenset(_POSTPONE_VERBS) | {"미뤄지", "늦춰지"}
_POSTPONE_WORDS = frozenset(_POSTPONE_NOUNS) | {"홀딩"}
"""… and so do 미뤄지다, 늦춰지다 and 홀딩 (the classes postpone and hold-off) a postponement's."""
_MARKER_NOUNS = _NEG_NOUNS | _CANCEL_NOUNS | _RETRACT_NOUNS | _POSTPONE_NOUNS
_ANAPHOR_NOUNS = {
    "계획",
    "일정",
    "결정",
    "건",
    "방침",
    "방안",
    "예정",
    "얘기",
    "소식",
    "발표",
    "공지",
}
"""Nouns that only point back ("그러나 이 계획은 취소됐다"): a clause with no other content belongs
to the clause before it, so its markers count for that clause."""
_HEDGE_WORDS = {
    ("또는", "MAJ"),
    ("또는", "MAG"),
    ("혹은", "MAJ"),
    ("혹은", "MAG"),
    ("아마", "MAG"),
    ("아마도", "MAG"),
    ("거나", "EC"),
    ("추정", "NNG"),
    ("모르", "VV"),
    ("듯", "NNB"),
    ("듯이", "NNB"),
}
_HEDGE_EN = re.compile(
    r"(?<![A-Za-z])(or|maybe|perhaps|possibly|probably)(?![A-Za-z])", re.IGNORECASE
)


@dataclass(frozen=True)
class Segment:
    start: int
    end: int
    text: str
    nouns: frozenset[str]
    markers: tuple[str, ...]
    """Polarity markers present, one entry per occurrence (negation, cancellation, retraction,
    postponement): "취소. 그러나 이 계획은 취소됐다" has cancellation twice."""
    topic: frozenset[str]
    """Nouns and names before the segment's last 은/는 topic particle (empty without one)."""
    comment: frozenset[str]
    """Nouns and names after it (all of them without a topic particle)."""
    compact: str = ""
    """The text lower-cased without spaces and punctuation (substring matches)."""
    values: tuple = ()
    """The analysis's values inside the segment."""
    topic_end: int | None = None
    """Where its last 은/는 topic particle ends (None without one): values before it name the subject."""


@dataclass(frozen=True)
class Analysis:
    text: str
    compact: str
    values: tuple[Value, ...]
    nouns: tuple[str, ...]
    """Content nouns in order of appearance, deduplicated, values excluded."""
    segments: tuple[Segment, ...]
    hedges: frozenset[str]
    morphs: tuple[Morph, ...] = ()
    aside: tuple[tuple[int, int, str], ...] = ()
    """(start, end, word): phrases a contrast or replacement word sets aside (A 대신 B: A)."""

    def segment_of(self, v: Value) -> Segment | None:
        return next((s for s in self.segments if s.start <= v.start < s.end), None)


_JOINING = frozenset({"고", "며", "으며", "면서", "으면서"})
"""Connective endings that join two clauses (…이전하고, …올리며): a cut after them."""


def _raw_segments(text: str, morphs: Sequence[Morph] = ()) -> list[tuple[int, int]]:
    cuts = [0]
    for cut in _SPLIT.finditer(text):
        cuts += [cut.start(), cut.end()]
    for m in morphs:
        if m.tag == "EC" and m.form in _JOINING and text[m.end : m.end + 1].isspace():
            cuts += [m.end, m.end]
    cuts.append(len(text))
    inner = sorted(cuts[1:-1])
    cuts = [0, *inner, len(text)]
    spans = [
        (cuts[i], cuts[i + 1])
        for i in range(0, len(cuts), 2)
        if text[cuts[i] : cuts[i + 1]].strip()
    ]
    out: list[tuple[int, int]] = []
    for a, b in spans:  # 2027. 9. 10.(금): the weekday in brackets is the date's (lexical-38)
        if out and _WEEKDAY_ALONE.match(text[a:b]):
            out[-1] = (out[-1][0], b)
        elif out and _ADDRESS.match(text[slice(*out[-1])]):
            out[-1] = (out[-1][0], b)  # [공지] 단원 여러분, …: an address is the next clause's
        else:
            out.append((a, b))
    return out


def _labels(text: str) -> list[tuple[int, int]]:
    """A leading tag in brackets ([공지], [단톡방]) and an address to the readers (단원 여러분):
    they say where the text comes from and to whom, no noun of its content (since lexical-38)."""
    out = [(m.start(), m.end()) for m in _LABEL.finditer(text)]
    out += [(m.start(), m.end()) for m in _SOURCE_HEAD.finditer(text)]
    return out + [(m.start(), m.end()) for m in _ADDRESSED.finditer(text)]


_LABEL = re.compile(r"^\s*\[[^\]]{1,12}\]")
_SOURCE_HEAD = re.compile(
    r"^[^:：\d\n]{0,16}?(?:메모|공지|공지사항|단톡|단톡방|단체방|메신저|일지|업무일지|회의록|안내|안내문"
    r"|알림|문자|메일|게시판|게시글|카톡|채팅|쪽지|기록|로그)\s*[:：]"
)
"""A head before the colon naming where the text was written (추진위 단톡:, 관리소 일지:)."""
_ADDRESSED = re.compile(r"[가-힣]{1,6}\s*여러분")
_WEEKDAY_ALONE = re.compile(r"^\s*\([월화수목금토일]\)\s*$")
_ADDRESS = re.compile(r"^\s*(?:\[[^\]]{1,12}\]\s*)?[가-힣 ]{0,12}여러분\s*$")
"""A clause that only addresses its readers (단원 여러분, [공지] 회원 여러분): no content."""


def _nouns(
    text: str, morphs: Sequence[Morph], spans: list[tuple[int, int]]
) -> list[tuple[str, int]]:
    """(noun, start) with noun + suffix merged (요금+제 -> 요금제) and a glued prefix or determiner
    kept (대+강당 -> 대강당, not 소강당's 강당), value spans excluded, and a one-character noun
    glued to the word before it dropped (the 일 of 배포일)."""
    out: list[tuple[str, int]] = []
    for i, m in enumerate(morphs):
        if m.tag not in NOUN_TAGS or any(a <= m.start < b for a, b in spans):
            continue
        if len(m.form) == 1 and m.start > 0 and text[m.start - 1].isalnum():
            continue
        form, start = m.form.lower(), m.start
        prev = morphs[i - 1] if i else None
        if prev is not None and prev.tag in ("XPN", "MM") and prev.end == m.start:
            form, start = prev.form + form, prev.start  # 대+강당, 한+식당: one word
        nxt = morphs[i + 1] if i + 1 < len(morphs) else None
        if nxt is not None and nxt.tag == "XSN" and nxt.start == m.end and nxt.form != "님":
            form += nxt.form
        if form in _STOP_NOUNS:
            continue
        out.append((form, start))
    return out


def _markers(morphs: Sequence[Morph]) -> list[str]:
    found: list[str] = []
    for i, m in enumerate(morphs):
        nxt = morphs[i + 1] if i + 1 < len(morphs) else None
        if (m.form, m.tag) in _NEG_MORPHS:
            if m.form == "아니" and nxt is not None and nxt.form == "면":
                continue  # 아니면: an alternative (hedge), not a negation
            if m.form in ("않", "말") and look_alikes.bids(morphs, i):
                continue  # 늦지 않게 오세요, 잊지 마세요: a bidding, no fact denied
            if m.form == "않" and look_alikes.unsure(morphs, i):
                continue  # 확실하진 않아요: a hedge (read by the hedge rule), no fact denied
            found.append(NEGATION)
        elif m.tag in ("NNG", "NNP") and m.form in _NEG_NOUNS:  # 미정 read as NNP too
            found.append(NEGATION)
        elif (m.tag.startswith("NN") and m.form in _HALT_NOUNS) or (
            m.tag == "VV" and m.form in _HALT_VERBS
        ):
            if not look_alikes.asked_then_done(morphs, i):
                found.append(CANCEL)
        elif m.tag.startswith("NN") and m.form in _RETRACT_NOUNS:
            found.append(RETRACT)
        elif (m.form, m.tag) in NEGATING_ADVERBS or not_yet(morphs, i):
            found.append(NEGATION)
        elif (
            m.tag == "VV"
            and m.form in RETRACT_VERBS
            and not look_alikes.retracts_nothing(morphs, i)
        ) or (m.tag.startswith("NN") and m.form in RETRACT_NOUNS):
            found.append(RETRACT)
        elif (m.tag.startswith("NN") and m.form in _POSTPONE_WORDS) or (
            m.tag == "VV" and m.form in _POSTPONE_STEMS
        ):
            found.append(POSTPONE)
    return found


_VALUE_NEXT = re.compile(r"\s*[0-9A-Za-z]")
"""What follows (이)나 when it offers another value: a number or a latin name."""


def _in_condition(morphs: Sequence[Morph], i: int) -> bool:
    """Morpheme ``i`` is in the condition of a -면 that follows in its sentence."""
    for m in morphs[i + 1 :]:
        if m.tag in ("EF", "SF"):
            return False
        if m.tag == "EC" and m.form in ("면", "으면"):
            return True
    return False


def _hedges(text: str, morphs: Sequence[Morph]) -> set[str]:
    found = {m[0].lower() for m in _HEDGE_EN.finditer(text)}
    asks = [
        i
        for i, m in enumerate(morphs[1:], 1)
        if m.form in ("ᆫ가", "ᆫ지") and morphs[i - 1].tag == "VCP"
    ]
    if len(asks) >= 2:
        found.add("인가")  # 6만 5천 원인가 6만 8천 원인가: two values offered (lexical-35)
    for i, m in enumerate(morphs):
        if (m.form, m.tag) == ("거나", "EC") and _in_condition(morphs, i):
            continue  # 쌓이거나 얼면 나가요: "if A or B", a condition, no hedge (lexical-44)
        if (m.form, m.tag) in _HEDGE_WORDS:
            found.add(m.form)
        elif m.tag == "JC" and m.form in ("나", "이나") and _VALUE_NEXT.match(text, m.end):
            found.add(m.form)  # 2번 도크나 4번 도크: another value offered for the slot
        elif (
            m.form == "아니"
            and m.tag == "VCN"
            and i + 1 < len(morphs)
            and morphs[i + 1].form == "면"
        ):
            found.add("아니면")
        elif (
            m.tag == "ETM"
            and m.form in ("ᆯ", "을", "를")
            and i + 3 < len(morphs)
            and morphs[i + 1].form == "수"
            and morphs[i + 2].form == "도"
            and morphs[i + 3].form in ("있", "없")
        ):
            found.add("…ㄹ 수도 있다")
        elif (
            m.form == "것" and m.tag == "NNB" and i + 1 < len(morphs) and morphs[i + 1].form == "같"
        ):
            found.add("것 같다")
        elif m.form == "않" and look_alikes.unsure(morphs, i):
            found.add("확실하지 않다")
    return found


@lru_cache(maxsize=1 << 15)
def analyse(text: str, ref: dt.date | None = None) -> Analysis:
    morphs = morphemes(text)
    raw = _extract(text, morphs, ref)
    head = _SOURCE_HEAD.match(text)
    if head:  # 중계팀 공지: the team that wrote it, no value of the content (lexical-41)
        raw = [v for v in raw if not (v.type == "team" and v.end <= head.end())]
    spans = _raw_segments(text, morphs)
    vals = _mark_changes(text, raw, spans)
    labels = _labels(text)
    nouns = _nouns(text, morphs, [(v.start, v.end) for v in vals] + labels)
    names_from_nnp = _proper_nouns(morphs, vals, labels)
    if names_from_nnp:
        vals = sorted(_mark_changes(text, [*raw, *names_from_nnp], spans), key=lambda v: v.start)
        nouns = [(n, s) for n, s in nouns if not any(v.start <= s < v.end for v in names_from_nnp)]
    segments = [
        _segment(text, a, b, morphs, nouns, vals) for a, b in _merge_bare(spans, nouns, vals)
    ]
    seen: dict[str, None] = {}
    for n, _ in nouns:
        seen.setdefault(n, None)
    return Analysis(
        text,
        _COMPACT_DROP.sub("", text.lower()),
        tuple(vals),
        tuple(seen),
        tuple(segments),
        frozenset(_hedges(text, morphs)),
        morphs,
        tuple(aside_spans(text, morphs, [(s.start, s.end) for s in segments])),
    )


def _proper_nouns(
    morphs: Sequence[Morph], vals: list[Value], labels: Sequence[tuple[int, int]] = ()
) -> list[Value]:
    """Names from the proper nouns (NNP) outside the values already found; a family name the
    analyser cut from its given name (박 + 지훈) is read with it (since lexical-24)."""
    value_spans = [*((v.start, v.end) for v in vals), *labels]
    return [
        Value("name", (normalise.name_key(m.form),), m.form, m.start, m.end)
        for m in map(_bound_for, _full_names(morphs))
        if m.tag == "NNP"
        and len(m.form) >= 2
        and m.form not in _STOP_NOUNS
        and m.form not in _CANCEL_NOUNS
        and m.form not in _RETRACT_NOUNS  # 오기재: a value written in error, no name (lexical-42)
        and not any(a <= m.start < b for a, b in value_spans)
        and m.form != "미정"
    ]


def _bound_for(m: Morph) -> Morph:
    """A place read with the 행 of a destination (자월도행 = bound for 자월도) is the place: the
    analyser cuts 덕적도 + 행 in one clause and not 자월도행 in the next (since lexical-39)."""
    if m.tag == "NNP" and len(m.form) >= 3 and m.form.endswith("행") and m.form[-2] in _PLACE_END:
        return Morph(m.form[:-1], m.tag, m.start, m.end - 1)
    return m


_PLACE_END = frozenset("도시역항섬리동읍면군구산")


def _full_names(morphs: Sequence[Morph]) -> list[Morph]:
    """``morphs`` with a one-syllable family name joined to the given name right after it."""
    out: list[Morph] = []
    for m in morphs:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.tag == m.tag == "NNP"
            and prev.form in SURNAMES
            and prev.end == m.start
            and len(m.form) <= 2
        ):
            out[-1] = Morph(prev.form + m.form, "NNP", prev.start, m.end)
        else:
            out.append(m)
    return out


def _merge_bare(
    spans: list[tuple[int, int]], nouns: list[tuple[str, int]], vals: list[Value]
) -> list[list[int]]:
    """The segments, a segment with no noun and no value (a bare "취소되었다") joined to the one
    before it."""
    merged: list[list[int]] = []
    for a, b in spans:
        has_content = any(
            a <= s < b and n not in _MARKER_NOUNS and n not in _ANAPHOR_NOUNS for n, s in nouns
        ) or any(a <= v.start < b for v in vals)
        if merged and not has_content:
            merged[-1][1] = b
        else:
            merged.append([a, b])
    return merged


def _segment(
    text: str,
    a: int,
    b: int,
    morphs: Sequence[Morph],
    nouns: list[tuple[str, int]],
    vals: list[Value],
) -> Segment:
    """The clause ``text[a:b]``: its nouns, markers, topic (the words before 은/는) and comment."""
    seg_morphs = [m for m in morphs if a <= m.start < b]
    seg_nouns = [(n, s) for n, s in nouns if a <= s < b]
    seg_words = seg_nouns + [
        (v.key[0], v.start) for v in vals if v.type == "name" and a <= v.start < b
    ]
    topic_at = max(
        (m.end for m in seg_morphs if m.tag == "JX" and m.form in ("은", "는", "ᆫ")),
        default=None,
    )
    topic = {n for n, s in seg_words if topic_at is not None and s < topic_at}
    comment = {n for n, s in seg_words if topic_at is None or s >= topic_at}
    return Segment(
        a,
        b,
        text[a:b],
        frozenset(n for n, _ in seg_nouns),
        tuple(sorted(_markers(seg_morphs))),
        frozenset(topic),
        frozenset(comment),
        _compact(text[a:b]),
        tuple(v for v in vals if a <= v.start < b),
        topic_at,
    )


def _compact(text: str) -> str:
    return _COMPACT_DROP.sub("", text.lower())
