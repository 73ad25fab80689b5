"""The offline lexical judge: grades a statement on the values it carries (docs/metrics.md).

A Korean statement's meaning sits in its values — names, numbers, dates, amounts, nouns — and in a
few words that flip it (취소, 연기, 않다, 아니다); its particles and endings vary freely
(``Aurora로 이전한다`` = ``Aurora에 이전합니다``). So both texts are read into:

- **values** typed by unit (:func:`values`): dates (``2025-03-05`` = ``2025년 3월 5일``), months,
  years, clock times, weekdays, amounts with Korean multipliers (``3만 원`` = ``30,000원``), numbers
  with their counter (명, 회, 건, %, 년 ...), latin-letter names (Aurora, AES-256) and proper nouns;
  a value marked as former (``기존 …``, ``…에서 …로 변경``, ``예전엔 A였지만``) is kept apart;
- **nouns** (kiwipiepy morphemes: particles, endings and verbs dropped);
- **segments** (clauses split at ``, . ; /``) with their **polarity markers** (negation,
  cancellation/retraction, postponement) and **hedge markers** (또는, 아마, ``…일 수도``), all
  matched as morphemes, never as substrings (``운동 일수도`` is not a hedge).

:func:`grade` applies the rules in a fixed order and returns the label with a rationale that names
the rule that decided (``[wrong-value]``, ``[missing-value]`` ...), so it always agrees with the
label. Figures are compared as exact fractions. ``RULES_VERSION`` is stored with every verdict.

Character bigrams (:func:`recall`, :func:`bigram_set`) stay for ranking sentences by a question
(the extractive answerer); they no longer decide verdicts.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from seorap.engine.retrieval.tokenize import bigram_set as _memo_bigram_set

RULES_VERSION = "lexical-3"
"""Bumped whenever a rule changes: a re-score under new rules is visible as such."""

YES_RECALL = Fraction(4, 5)
"""theta_1: share of the expected statement's elements found in the candidate for YES."""
PARTIAL_RECALL = Fraction(1, 2)
"""theta_2: ... below which nothing substantive matches (NO)."""
LENIENT_YES_RECALL = PARTIAL_RECALL
"""The lenient lexical judge's YES bar (theta_2 = 1/2)."""
LENIENT_PARTIAL_RECALL = Fraction(1, 4)
"""... and its PARTIAL bar."""


# ---- character bigrams (ranking helpers, not verdicts) ---------------------------------------------


def bigram_set(text: str) -> frozenset[str]:
    """Distinct bigrams of ``text`` (memoised in engine.tokenize)."""
    return _memo_bigram_set(text)


def recall(expected: str, candidate: str) -> float:
    """Share of the expected text's distinct bigrams present in the candidate (1.0 when empty)."""
    want = bigram_set(expected)
    if not want:
        return 1.0
    return len(want & bigram_set(candidate)) / len(want)


def f1(expected: str, candidate: str) -> float:
    want, have = bigram_set(expected), bigram_set(candidate)
    common = len(want & have)
    if not common:
        return 0.0
    p, r = common / len(have), common / len(want)
    return 2 * p * r / (p + r)


# ---- kiwipiepy ------------------------------------------------------------------------------------

_KIWI = None
_WARM = False
"""kiwipiepy has tokenized once: its model is built and its first sentence (the slow one) done."""


def _kiwi():
    global _KIWI
    if _KIWI is None:
        from kiwipiepy import Kiwi

        _KIWI = Kiwi()
    return _KIWI


def warm() -> bool:
    """The morpheme analyser is loaded and has tokenized once: judging no longer waits for it."""
    return _WARM


@dataclass(frozen=True)
class Morph:
    form: str
    tag: str
    start: int
    end: int


_PIECE = re.compile(r"\s*(?:[;\n/]|\.(?!\d)|,(?!(?<=\d,)\d))\s*")


def morphemes(text: str) -> tuple[Morph, ...]:
    """kiwipiepy morphemes of ``text`` with their character spans. The text is analysed clause by
    clause (split at ``, . ; /``), each clause memoised: answers join the same facts again and again."""
    out: list[Morph] = []
    pos = 0
    for m in [*_PIECE.finditer(text), None]:
        end = len(text) if m is None else m.start()
        if end > pos:
            out += [Morph(t.form, t.tag, t.start + pos, t.end + pos) for t in _piece(text[pos:end])]
        if m is not None:
            pos = m.end()
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _piece(text: str) -> tuple[Morph, ...]:
    if not text.strip():
        return ()
    global _WARM
    morphs = tuple(Morph(t.form, t.tag, t.start, t.start + t.len) for t in _kiwi().tokenize(text))
    _WARM = True
    return morphs


# ---- values ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """One value of a text. ``type`` is ``date``, ``month``, ``year``, ``time``, ``weekday``,
    ``name``, a counter or currency (``원``, ``%``, ``명``, ``년`` ...) or ``수`` (a bare number)."""

    type: str
    key: tuple
    text: str
    start: int
    end: int
    ambiguous: bool = False
    """A clock time without 오전/오후 (``3시``): matches 3:00 and 15:00."""
    target: bool = False
    """The new value of a change (``3월 7일로 연기``, ``2명으로 변경``)."""
    former: bool = False
    """Marked as former (``기존 …``, ``…에서``, ``예전엔 …``, ``(참고, …)``)."""


def same(a: Value, b: Value) -> bool:
    if a.type != b.type:
        return False
    if a.type in ("date", "month"):
        (ya, *ra), (yb, *rb) = a.key, b.key
        return ra == rb and (ya is None or yb is None or ya == yb)
    if a.type == "time":
        if a.key == b.key:
            return True
        return (
            (a.ambiguous or b.ambiguous) and a.key[0] % 12 == b.key[0] % 12 and a.key[1] == b.key[1]
        )
    return a.key == b.key


_NUM = r"\d+(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?"
_MULT = r"천만|백만|십만|조|억|만|천"
_MULTIPLIERS = {
    "조": 10**12,
    "억": 10**8,
    "천만": 10**7,
    "백만": 10**6,
    "십만": 10**5,
    "만": 10**4,
    "천": 10**3,
}
_UNITS = (
    "원",
    "달러",
    "유로",
    "엔",
    "%p",
    "%",
    "퍼센트",
    "프로",
    "명",
    "회",
    "번",
    "개월",
    "개",
    "건",
    "대",
    "차",
    "층",
    "곳",
    "권",
    "주",
    "일",
    "시간",
    "분기",
    "분",
    "초",
    "년",
    "배",
    "점",
    "위",
    "등",
    "호",
    "석",
    "장",
    "박",
    "세",
    "살",
    "평",
    "인분",
    "ms",
    "tb",
    "gb",
    "mb",
    "kb",
    "km",
    "kg",
    "cm",
    "mm",
    "m",
    "g",
)
_UNIT_ALIASES = {"번": "회", "퍼센트": "%", "프로": "%"}
_LATIN_UNITS = {u for u in _UNITS if u.isascii() and u.isalpha()}
_UNIT_RE = "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True))

_ISO_DATE = re.compile(r"(?<!\d)(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?![\d.])\.?")
_KO_DATE = re.compile(r"(?:(\d{4})\s*년\s*)?(?<!\d)(\d{1,2})\s*월\s*(\d{1,2})\s*일")
_KO_MONTH = re.compile(r"(?:(\d{4})\s*년\s*)?(?<!\d)(\d{1,2})\s*월(?!\s*\d)")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})\s*년")
_TIME = re.compile(
    r"(?:(오전|오후|새벽|아침|저녁|밤|낮)\s*)?(?<![\d.])(\d{1,2})\s*시(?!간|즌|청|스템|작|점|리즈)"
    r"(?:\s*(\d{1,2})\s*분|\s*(반))?"
)
_CLOCK = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?![\d:])")
_WEEKDAY = re.compile(r"([월화수목금토일])요일")
_NAME = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*(?:[-_.+][A-Za-z0-9]+)*")
_NUMBER = re.compile(
    rf"(?<![\d.])(\$\s*)?((?:{_NUM})(?:\s*(?:{_MULT}))?(?:\s*(?:{_NUM})\s*(?:{_MULT}))*)"
    rf"(?:\s*({_UNIT_RE}))?",
    re.IGNORECASE,
)
_NUM_PART = re.compile(rf"({_NUM})\s*({_MULT})?")
_LIST_JOIN = re.compile(r"^\s*[,·~∼\-]\s*$")
_CHANGE_TARGET = re.compile(
    r"^\s*(?:으로|로)\s*(?:변경|연기|미뤄|미루|늦춰|늦추|밀려|밀리|앞당|조정|바뀌|바꿔|바꾸|바꿨|"
    r"옮|정정|수정|상향|하향|인상|인하|줄|늘|확대|축소|교체|전환|재조정)"
)
_FROM = re.compile(r"^\s*(?:에서|→|->|⇒)")
_ARROW = re.compile(r"^\s*(?:→|->|⇒)")
_FORMER_MARK = re.compile(
    r"(?<![가-힣])(기존|이전에는|이전엔|예전에는|예전엔|예전|원래는|원래|당초에는|당초|종전|"
    r"처음에는|처음엔|과거에는|전에는)(?![가-힣])"
)
_CLAUSE_BREAK = re.compile(r"지만|으나|였으나|는데|었다가|였다가|지금|현재|이제|이후|[,;./\n]")
_REFERENCE = re.compile(r"\(참고[^)]*\)")
_ENGLISH_STOP = frozenset(
    {
        "or",
        "and",
        "the",
        "a",
        "an",
        "of",
        "to",
        "in",
        "is",
        "are",
        "be",
        "maybe",
        "perhaps",
        "possibly",
        "probably",
        "not",
        "no",
        "yes",
        "it",
    }
)


def _decimal(text: str) -> Decimal:
    return Decimal(text.replace(",", ""))


def _canon(d: Decimal) -> str:
    return format(d.normalize(), "f")


def _korean_number(text: str) -> Decimal:
    total = Decimal(0)
    for digits, mult in _NUM_PART.findall(text):
        total += _decimal(digits) * (_MULTIPLIERS[mult] if mult else 1)
    return total


def _free(mask: list[bool], start: int, end: int) -> bool:
    return not any(mask[start:end])


def _take(mask: list[bool], start: int, end: int) -> None:
    for i in range(start, end):
        mask[i] = True


def _extract(text: str, morphs: tuple[Morph, ...] = ()) -> list[Value]:
    out: list[Value] = []
    longer = {m.start for m in morphs if len(m.form) > 1 and m.tag.startswith("NN")}
    mask = [False] * len(text)

    def add(value: Value) -> None:
        out.append(value)
        _take(mask, value.start, value.end)

    for m in _NAME.finditer(text):
        word = m[0].lower()
        if word in _ENGLISH_STOP:
            continue
        prev = text[: m.start()].rstrip()
        if word in _LATIN_UNITS and prev[-1:].isdigit():
            continue
        add(Value("name", (word,), m[0], m.start(), m.end()))
    for m in _ISO_DATE.finditer(text):
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
        if 1 <= mo <= 12 and 1 <= d <= 31 and _free(mask, m.start(), m.end()):
            add(Value("date", (y, mo, d), m[0], m.start(), m.end()))
    for m in _KO_DATE.finditer(text):
        mo, d = int(m[2]), int(m[3])
        if 1 <= mo <= 12 and 1 <= d <= 31 and _free(mask, m.start(), m.end()):
            add(Value("date", (int(m[1]) if m[1] else None, mo, d), m[0], m.start(), m.end()))
    for m in _KO_MONTH.finditer(text):
        mo = int(m[2])
        if 1 <= mo <= 12 and _free(mask, m.start(), m.end()):
            add(Value("month", (int(m[1]) if m[1] else None, mo), m[0], m.start(), m.end()))
    for m in _YEAR.finditer(text):
        if _free(mask, m.start(), m.end()):
            add(Value("year", (int(m[1]),), m[0], m.start(), m.end()))
    for m in _TIME.finditer(text):
        h, mi = int(m[2]), int(m[3]) if m[3] else (30 if m[4] else 0)
        if h > 24 or mi > 59 or not _free(mask, m.start(2), m.end()):
            continue
        period = m[1]
        if period in ("오후", "저녁", "밤") and h < 12:
            h += 12
        elif period == "낮" and h < 6:
            h += 12
        elif period in ("오전", "새벽", "아침") and h == 12:
            h = 0
        add(Value("time", (h, mi), m[0], m.start(), m.end(), ambiguous=period is None and h <= 12))
    for m in _CLOCK.finditer(text):
        h, mi = int(m[1]), int(m[2])
        if h <= 24 and mi <= 59 and _free(mask, m.start(), m.end()):
            add(Value("time", (h, mi), m[0], m.start(), m.end()))
    for m in _WEEKDAY.finditer(text):
        if _free(mask, m.start(), m.end()):
            add(Value("weekday", (m[1],), m[0], m.start(), m.end()))
    numbers: list[Value] = []
    for m in _NUMBER.finditer(text):
        start = m.start(2) if not m[1] else m.start()
        if not _free(mask, start, m.end(2)):
            continue
        unit = (m[3] or "").lower()
        if (
            unit in _LATIN_UNITS
            and text[m.end() : m.end() + 1].isalpha()
            and text[m.end()].isascii()
        ):
            unit = ""  # "3mo", "5gbps": not a unit we know
        elif unit and not unit.isascii() and len(unit) == 1 and m.start(3) in longer:
            unit = ""  # "118 건물": the 건 starts a longer noun, it is no counter
        end = m.end() if unit else m.end(2)
        if m[1]:
            unit = "달러"
        unit = _UNIT_ALIASES.get(unit, unit) or "수"
        try:
            number = _korean_number(m[2])
        except InvalidOperation:
            continue
        numbers.append(Value(unit, (_canon(number),), text[start:end], start, end))
    # lists share their counter: "1,2차" = 1차, 2차; "3~5명" = 3명, 5명
    for i in range(len(numbers) - 2, -1, -1):
        a, b = numbers[i], numbers[i + 1]
        if a.type == "수" and b.type != "수" and _LIST_JOIN.match(text[a.end : b.start]):
            numbers[i] = Value(b.type, a.key, a.text, a.start, a.end)
    for value in numbers:
        add(value)
    return sorted(out, key=lambda v: v.start)


def _mark_changes(text: str, found: list[Value], segments: list[tuple[int, int]]) -> list[Value]:
    """Mark change targets and former values (see the module docstring)."""
    out = list(found)
    for i, v in enumerate(out):
        if _CHANGE_TARGET.match(text[v.end :]):
            out[i] = _replace(v, target=True)
    candidate = [False] * len(out)
    for i, v in enumerate(out):
        later_same = any(
            w.type == v.type and w.start > v.end and _seg(segments, w) == _seg(segments, v)
            for w in out
        )
        if later_same and (_FROM.match(text[v.end :]) or _ARROW.match(text[v.end :])):
            candidate[i] = True
        if v.type != "name" and any(
            w.target
            and w.type == v.type
            and w.start > v.end
            and _seg(segments, w) == _seg(segments, v)
            for w in out
        ):
            candidate[i] = True
    for m in _FORMER_MARK.finditer(text):
        brk = _CLAUSE_BREAK.search(text, m.end())
        stop = brk.start() if brk else len(text)
        for i, v in enumerate(out):
            if m.end() <= v.start and v.end <= stop and not v.target:
                candidate[i] = True
    for m in _REFERENCE.finditer(text):
        for i, v in enumerate(out):
            if m.start() <= v.start and v.end <= m.end():
                candidate[i] = True
    for i, v in enumerate(out):
        # a value is former only next to a current value of the same type (a newer one)
        if candidate[i] and any(
            not candidate[j] and w.type == v.type and not same(w, v) for j, w in enumerate(out)
        ):
            out[i] = _replace(out[i], former=True)
    return out


def _replace(v: Value, **changes) -> Value:
    fields = {**v.__dict__, **changes}
    return Value(**fields)


def values(text: str) -> tuple[Value, ...]:
    """The typed values of ``text`` with their former/target marks."""
    return analyse(text).values


# ---- segments, nouns, markers -------------------------------------------------------------------

_SPLIT = re.compile(
    r"[;\n/]|\.(?!\d)|,(?!(?<=\d,)\d)|(?<![가-힣])(?:그러나|하지만|그런데)(?![가-힣])"
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
_RETRACT_NOUNS = {"철회", "번복", "백지", "백지화", "무효", "정정"}
_POSTPONE_NOUNS = {"연기", "보류", "순연"}
_POSTPONE_VERBS = {"미루", "늦추", "밀리"}
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

    def segment_of(self, v: Value) -> Segment | None:
        return next((s for s in self.segments if s.start <= v.start < s.end), None)


def _seg(segments: list[tuple[int, int]], v: Value) -> int:
    return next((i for i, (a, b) in enumerate(segments) if a <= v.start < b), -1)


def _raw_segments(text: str) -> list[tuple[int, int]]:
    cuts = [0]
    for m in _SPLIT.finditer(text):
        cuts += [m.start(), m.end()]
    cuts.append(len(text))
    return [
        (cuts[i], cuts[i + 1])
        for i in range(0, len(cuts), 2)
        if text[cuts[i] : cuts[i + 1]].strip()
    ]


def _nouns(text: str, morphs, spans: list[tuple[int, int]]) -> list[tuple[str, int]]:
    """(noun, start) with noun + suffix merged (요금+제 -> 요금제), value spans excluded, and a
    one-character noun glued to the word before it dropped (the 일 of 배포일)."""
    out: list[tuple[str, int]] = []
    for i, m in enumerate(morphs):
        if m.tag not in NOUN_TAGS or any(a <= m.start < b for a, b in spans):
            continue
        if len(m.form) == 1 and m.start > 0 and text[m.start - 1].isalnum():
            continue
        form = m.form.lower()
        if i + 1 < len(morphs) and morphs[i + 1].tag == "XSN" and morphs[i + 1].start == m.end:
            form += morphs[i + 1].form
        if form in _STOP_NOUNS:
            continue
        out.append((form, m.start))
    return out


def _markers(morphs) -> list[str]:
    found: list[str] = []
    for i, m in enumerate(morphs):
        nxt = morphs[i + 1] if i + 1 < len(morphs) else None
        if (m.form, m.tag) in _NEG_MORPHS:
            if m.form == "아니" and nxt is not None and nxt.form == "면":
                continue  # 아니면: an alternative (hedge), not a negation
            found.append(NEGATION)
        elif m.tag == "NNG" and m.form in _NEG_NOUNS:
            found.append(NEGATION)
        elif m.tag.startswith("NN") and m.form in _CANCEL_NOUNS:
            found.append(CANCEL)
        elif m.tag.startswith("NN") and m.form in _RETRACT_NOUNS:
            found.append(RETRACT)
        elif (m.tag.startswith("NN") and m.form in _POSTPONE_NOUNS) or (
            m.tag == "VV" and m.form in _POSTPONE_VERBS
        ):
            found.append(POSTPONE)
    return found


def _hedges(text: str, morphs) -> set[str]:
    found = {m[0].lower() for m in _HEDGE_EN.finditer(text)}
    for i, m in enumerate(morphs):
        if (m.form, m.tag) in _HEDGE_WORDS:
            found.add(m.form)
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
    return found


@lru_cache(maxsize=1 << 15)
def analyse(text: str) -> Analysis:
    morphs = morphemes(text)
    raw = _extract(text, morphs)
    spans = _raw_segments(text)
    vals = _mark_changes(text, raw, spans)
    value_spans = [(v.start, v.end) for v in vals]
    names_from_nnp = []
    nouns = _nouns(text, morphs, value_spans)
    for m in morphs:
        if (
            m.tag == "NNP"
            and len(m.form) >= 2
            and m.form not in _STOP_NOUNS
            and m.form not in _CANCEL_NOUNS
            and not any(a <= m.start < b for a, b in value_spans)
            and m.form != "미정"
        ):
            names_from_nnp.append(Value("name", (m.form.lower(),), m.form, m.start, m.end))
    if names_from_nnp:
        vals = sorted(_mark_changes(text, [*raw, *names_from_nnp], spans), key=lambda v: v.start)
        nouns = [(n, s) for n, s in nouns if not any(v.start <= s < v.end for v in names_from_nnp)]
    # segments: a segment with no noun and no value (a bare "취소되었다") belongs to the one before it
    merged: list[list[int]] = []
    for a, b in spans:
        has_content = any(
            a <= s < b and n not in _MARKER_NOUNS and n not in _ANAPHOR_NOUNS for n, s in nouns
        ) or any(a <= v.start < b for v in vals)
        if merged and not has_content:
            merged[-1][1] = b
        else:
            merged.append([a, b])
    segments = []
    for a, b in merged:
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
        segments.append(
            Segment(
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
        )
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
    )


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

    @property
    def recall(self) -> Fraction:
        return Fraction(self.found, self.total) if self.total else Fraction(1)

    @property
    def number_conflict(self) -> bool:
        """A wrong value (kept for callers that only ask whether a value clashes)."""
        return bool(self.wrong)


def _noun_in(noun: str, nouns, compact: str) -> bool:
    return noun in nouns or (len(noun) >= 2 and noun in compact)


def _value_in(v: Value, vals, compact: str, *, current: bool) -> bool:
    """Is ``v`` stated among ``vals`` (current ones only with ``current``)? A name also counts
    when it appears inside a word (``Aurora로``), unless it is stated there as former."""
    if any(same(v, w) and not (current and w.former) for w in vals):
        return True
    if v.type != "name" or v.key[0] not in compact:
        return False
    return not current or not any(
        w.former and w.type == "name" and v.key[0] in w.key[0] for w in vals
    )


def _slot_words(seg: Segment | None, question: Analysis | None) -> frozenset[str]:
    """Nouns naming the slot an expected value fills: its clause's nouns plus the question's."""
    words = set(seg.nouns) if seg is not None else set()
    if question is not None:
        words |= set(question.nouns)
    return frozenset(words)


def _variant(a: str, b: str) -> bool:
    """Two names that differ only in their digits (AES-256, AES-257): versions of one thing."""
    return (
        a != b and re.sub(r"\d", "", a) == re.sub(r"\d", "", b) and any(c.isdigit() for c in a + b)
    )


def _competitors(
    v: Value, exp: Analysis, cand: Analysis, q: Analysis | None, stated: bool
) -> list[Value]:
    """Candidate values that fill the slot of expected value ``v`` with something else.

    A candidate value competes when it has v's type, is not one of the expected values, is not
    marked former, and its clause is about the same slot: it holds every slot word (``K``) that the
    candidate clause stating ``v`` holds (when v is stated) or that the candidate holds anywhere
    (when it is not). A bare value (a clause without nouns: "3월 5일, 3월 7일") always competes.
    Names compete only as bare values or when ``v`` is not stated (a list of names is not a hedge
    by itself); names the question uses are its topic, never an answer."""
    slot = _slot_words(exp.segment_of(v), q)
    if stated:
        home = [c for c in cand.segments if _value_in(v, c.values, c.compact, current=True)]
        keys = {n for n in slot if any(_noun_in(n, c.nouns, c.compact) for c in home)}
    else:
        keys = {n for n in slot if _noun_in(n, cand.nouns, cand.compact)}
    out = []
    for w in cand.values:
        if w.type != v.type or w.former or _in_expected(w, exp):
            continue
        if w.type == "name" and q is not None and w.key[0] in q.compact:
            continue
        seg = cand.segment_of(w)
        if seg is None or not seg.nouns:
            out.append(w)  # a bare value
        elif w.type == "name" and stated and not _variant(w.key[0], v.key[0]):
            continue
        elif keys and all(_noun_in(n, seg.nouns, seg.compact) for n in keys):
            out.append(w)
        elif not keys and not slot:
            out.append(w)
    return out


def _compact(text: str) -> str:
    return _COMPACT_DROP.sub("", text.lower())


def _in_expected(w: Value, exp: Analysis) -> bool:
    if any(same(w, v) for v in exp.values):
        return True
    return w.type == "name" and w.key[0] in exp.compact


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


@lru_cache(maxsize=1 << 16)
def measure(expected: str, candidate: str, question: str | None = None) -> Match:
    exp, cand = analyse(expected), analyse(candidate)
    q = analyse(question) if question else None
    current = [v for v in exp.values if not v.former]
    if not any(_noun_in(n, cand.nouns, cand.compact) for n in exp.nouns) and not any(
        _value_in(v, cand.values, cand.compact, current=False) for v in exp.values
    ):
        # nothing in common: no rule below can credit it (the common case when a claim meets
        # every fact of a store)
        return Match(
            0,
            len(exp.nouns) + len(exp.values),
            values_expected=len(current),
            missing_nouns=exp.nouns,
        )
    # recall: each expected clause's nouns and values, found within a few adjacent candidate clauses
    found, complete = 0, False
    for seg in exp.segments:
        n, whole = _local(seg, cand)
        found += n
        complete = complete or whole
    elements = sum(len(seg.nouns) + len(seg.values) for seg in exp.segments)
    missing_nouns = tuple(n for n in exp.nouns if not _noun_in(n, cand.nouns, cand.compact))
    stated = [v for v in current if _value_in(v, cand.values, cand.compact, current=True)]
    missing, wrong, multi = [], [], []
    for v in current:
        others = _competitors(v, exp, cand, q, v in stated)
        if v in stated:
            if others:
                multi.append((v.text, others[0].text))
        elif others:
            wrong.append((v.text, others[0].text))
        else:
            missing.append(v.text)
    # a word value: the comment of "X는 Y" when the clause has no typed value
    for seg in exp.segments:
        if any(v.type != "name" for v in seg.values) or not seg.topic or not seg.comment:
            continue
        hit = [n for n in seg.comment if _noun_in(n, cand.nouns, cand.compact)]
        if Fraction(len(hit), len(seg.comment)) >= PARTIAL_RECALL:
            continue
        for cseg in cand.segments:
            if not (seg.topic & (cseg.nouns | cseg.topic)):
                continue
            new = sorted(
                n for n in (cseg.comment - seg.topic) if not _noun_in(n, exp.nouns, exp.compact)
            )
            if new:
                wrong.append((" ".join(sorted(seg.comment)), " ".join(new)))
                break
    # a word value stated next to another one for the same "X는 …" (answers; one-clause statements)
    if len(exp.segments) == 1 and not any(v.type != "name" for v in exp.values):
        seg = exp.segments[0]
        words = seg.comment if seg.topic else seg.nouns | {v.key[0] for v in seg.values}
        topic = set(seg.topic) | (set(q.nouns) if q is not None else set())
        if words and all(_noun_in(w, cand.nouns, cand.compact) for w in words) and topic:
            known = exp.compact + (q.compact if q is not None else "")
            # the first word of the statement (or question) names the subject, not the slot
            head = _compact(
                ((q.text if q is not None and not seg.topic else expected).split() or [""])[0]
            )
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
                    n
                    for n in cseg.comment
                    if n not in known and not _noun_in(n, exp.nouns, exp.compact)
                )
                if new:
                    multi.append((" ".join(sorted(words)), " ".join(new)))
                    break
    # polarity, clause by clause: the candidate clauses that state this expected clause
    polarity = []
    for seg in exp.segments:
        chosen = [c for c in _stating_segments(seg, cand) if _states_best(seg, c, exp)]
        if not chosen:
            continue
        theirs = Counter(m for c in chosen for m in c.markers)
        mine = Counter(seg.markers)
        # every marker of the expected clause must be somewhere in the clauses that touch it
        around = {m for c in cand.segments if _touches(seg, c) for m in c.markers}
        extra = {m for m in theirs if theirs[m] > mine[m]}
        lacking = {m for m in mine if m not in around}
        if POSTPONE in extra and any(v.target for c in chosen for v in c.values):
            extra -= {POSTPONE}  # "…로 연기": a change to a new value (the values rules judge it)
        if POSTPONE in lacking and any(v.target for v in seg.values):
            lacking -= {POSTPONE}
        if extra or lacking:
            polarity.append((seg.text.strip(), _count(mine), _count(theirs)))
    hedges = tuple(sorted(cand.hedges - exp.hedges))
    return Match(
        found,
        elements,
        tuple(missing),
        tuple(wrong),
        tuple(multi),
        tuple(polarity),
        hedges,
        len(current),
        len(stated),
        complete,
        missing_nouns,
        _missing_clauses(exp, cand, q),
        _anchored(stated, exp, cand, q),
    )


def _anchored(stated: list[Value], exp: Analysis, cand: Analysis, q: Analysis | None) -> bool:
    """Is one of the stated expected values said in a clause about the same thing? "채용은 2명" for
    "2명 (한 자리는 연기)" asked as "채용 인원은 몇 명?" is; "점심 약속은 3월 5일" for "회의는 3월
    5일" is not (the date is there, about something else)."""
    head = _compact((q.text.split() or [""])[0]) if q is not None else ""
    asked = {n for n in q.nouns if n not in head} if q is not None else set()
    for v in stated:
        seg = exp.segment_of(v)
        if v.type == "name" or seg is None:
            continue
        words = set(seg.nouns) | asked
        for c in cand.segments:
            # the value must be what the candidate clause says, not part of its subject:
            # "라온핏 앱 3.0 출시 목표일은 3월 16일" states 3월 16일, not 3.0
            if not any(
                same(v, w) and not w.former and (c.topic_end is None or w.start >= c.topic_end)
                for w in c.values
            ):
                continue
            if not c.nouns or any(_noun_in(w, c.nouns, c.compact) for w in words):
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


# ---- the rules --------------------------------------------------------------------------------------

RULES = (
    "polarity",
    "wrong-value",
    "hedge",
    "multi-value",
    "no-value",
    "low-recall",
    "missing-value",
    "missing-clause",
    "partial-recall",
    "all-found",
)
"""Rule names, in the order they are applied (docs/metrics.md lists each with its test)."""


def _frac(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


Graded = tuple[Literal["YES", "PARTIAL", "NO"], str]
"""(label, rationale) of one lexical verdict."""


def grade(match: Match, *, check_hedge: bool) -> Graded:
    """(label, rationale) by the rules in docs/metrics.md. ``check_hedge``: the answer rules
    (hedge words, two values for one slot) apply — stored facts are not answers."""
    elements = f"{match.found}/{match.total} expected elements found"
    ratio = f"{match.found}/{match.total}" if match.total else "1/1"
    if match.polarity:
        seg, mine, theirs = match.polarity[0]
        return "NO", (
            f"NO [polarity]: for «{seg}» the expected statement has {mine} while the "
            f"candidate has {theirs}"
        )
    if match.wrong:
        want, got = match.wrong[0]
        return (
            "NO",
            f"NO [wrong-value]: expected {want}, the candidate states {got} instead; {elements}",
        )
    if check_hedge and match.hedges:
        return "NO", f"NO [hedge]: the answer hedges ({', '.join(match.hedges)}); {elements}"
    if check_hedge and match.multi:
        want, other = match.multi[0]
        return "NO", (
            f"NO [multi-value]: the answer gives {want} and {other} for one slot, neither "
            f"marked as former; {elements}"
        )
    if match.values_expected and not match.values_stated:
        return (
            "NO",
            f"NO [no-value]: none of the {match.values_expected} expected value(s) is stated; {elements}",
        )
    if match.recall < PARTIAL_RECALL and not match.segment_complete and not match.anchored:
        return "NO", f"NO [low-recall]: {elements} ({ratio} < {_frac(PARTIAL_RECALL)})"
    if match.missing:
        return "PARTIAL", (
            f"PARTIAL [missing-value]: {', '.join(match.missing)} not stated (no other value "
            f"given for it); {elements}"
        )
    if match.missing_clauses:
        return "PARTIAL", (
            f"PARTIAL [missing-clause]: nothing of «{match.missing_clauses[0]}» is stated; "
            f"{elements}"
        )
    if match.recall < YES_RECALL:
        lacking = ", ".join(match.missing_nouns[:5])
        return "PARTIAL", (
            f"PARTIAL [partial-recall]: {elements} ({ratio} < {_frac(YES_RECALL)}); "
            f"missing: {lacking}"
        )
    return "YES", (
        f"YES [all-found]: every expected value stated; {elements} ({ratio} >= {_frac(YES_RECALL)})"
    )


def grade_lenient(match: Match) -> Graded:
    """The lenient rules (mirroring engine/prompts/judge_lenient.txt): element recall only — no
    value, polarity or hedge rule — YES at recall >= 1/2, PARTIAL at >= 1/4. It exists to show
    offline what a generous grader lets through."""
    elements = f"{match.found}/{match.total} expected elements found"
    ratio = f"{match.found}/{match.total}" if match.total else "1/1"
    if match.recall >= LENIENT_YES_RECALL:
        return "YES", f"YES [lenient]: {elements} ({ratio} >= {_frac(LENIENT_YES_RECALL)})"
    if match.recall >= LENIENT_PARTIAL_RECALL:
        return "PARTIAL", (
            f"PARTIAL [lenient]: {elements} ({ratio} < {_frac(LENIENT_YES_RECALL)}, "
            f">= {_frac(LENIENT_PARTIAL_RECALL)})"
        )
    return "NO", f"NO [lenient]: {elements} ({ratio} < {_frac(LENIENT_PARTIAL_RECALL)})"


def holds(claim: str, fact: str) -> bool:
    """True when the fact states the claim (the lexical judge, claim rules, would say YES)."""
    return grade(measure(claim, fact), check_hedge=False)[0] == "YES"


def related(claim: str, fact: str) -> bool:
    """True when the fact states at least part of the claim (element recall >= 1/2 with no wrong
    value), or is itself a fragment of the claim (the same, measured the other way)."""
    forward = measure(claim, fact)
    if forward.recall >= PARTIAL_RECALL and not forward.wrong:
        return True
    backward = measure(fact, claim)
    return backward.recall >= PARTIAL_RECALL and not backward.wrong
