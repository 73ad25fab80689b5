"""Typed values of a text (dates, times, amounts, counters, names) with their former/target marks."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from seorap.engine import normalise
from seorap.engine.scoring.lexical import numerals
from seorap.engine.scoring.lexical.dayparts import dayparts
from seorap.engine.scoring.lexical.dims import dims
from seorap.engine.scoring.lexical.nth_weekdays import nth_weekdays
from seorap.engine.scoring.lexical.people import people_and_teams
from seorap.engine.scoring.lexical.ranges import bare_rates, breakdown_units, per_unit, range_units
from seorap.engine.scoring.lexical.speeds import speeds
from seorap.engine.scoring.lexical.spoken import _halves, _merge_durations
from seorap.engine.scoring.lexical.text import Morph
from seorap.engine.scoring.lexical.value import UNIT_ALIASES, Value, _canon, _free, kind, same
from seorap.engine.scoring.lexical.weekday_runs import WEEKDAY, weekday_runs

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
    "원", "달러", "유로", "엔", "%p", "%", "퍼센트", "프로", "명", "회", "번", "개월", "개", "건", "대", "차", "층",
    "곳", "권", "주", "일", "시간", "분기", "분", "초", "년", "배", "점", "위", "등", "호", "석", "장", "박", "세",
    "살", "평", "인분", "학년", "학기", "병동", "호실", "반", "ms", "tb", "gb", "mb", "kb", "km", "kg", "톤",
    "cm", "mm", "m", "g", "킬로미터", "킬로그램", "센티미터", "밀리미터", "미터", "그램", "센티", "할", "킬로", "℃", "°c",
    "도", "ml", "l", "cc", "리터", "밀리리터", "㎡", "m²", "제곱미터", "매", "세트", "칸", "상자", "박스", "켤레", "봉지",
    "포대", "타임", "통", "㎛", "μm", "kw", "w",
    *"ha 헥타르 되 자루 송이 포기 인치 피트 야드 마일 해리".split(),  # lexical-34
    *"kl 킬로리터 ㎥ m³ 세제곱미터 컷".split(),  # lexical-35
    "봉",  # lexical-39: 1봉 = 한 봉지
    "개입",  # lexical-41: 250개입 = 250개
    # lexical-43: 1키로 = 1킬로 (an alias no number was read with); 35주년 = 35년; 밀리/미리 alone
    # (read by the statement: lexical/kilo.py), and the units that begin with it (밀리초, 밀리그램)
    "키로", "주년", "밀리", "미리", "밀리초", "밀리그램", "mg",
    "와트", "킬로와트",  # lexical-44: 1,500와트 = 1.5kW
    # lexical-45: 4.8t = 4.8톤; a line's speed (1Gbps = 1,000Mbps), 메가 and 기가 said alone (read
    # by the statement: lexical/kilo.py)
    "t", "gbps", "mbps", "kbps", "메가", "기가",
    "돈",  # lexical-46: gold's weight, 5돈 = 18.75g
    "km/h", "㎞/h",  # lexical-47: 25km/h = 시속 25km
    "단", "파운드", "lbs", "lb", "시리즈", "발",  # lexical-49: 40단 = 마흔 단; lexical-50: 24lbs, 6시리즈
)  # fmt: skip
_LATIN_UNITS = {u for u in _UNITS if u.isascii() and u.isalpha()}
_UNIT_RE = "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True))

_ISO_DATE = re.compile(r"(?<!\d)(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?![\d.])\.?")
_KO_DATE = re.compile(r"(?:(\d{4})\s*년\s*)?(?<!\d)(\d{1,2})\s*월\s*(\d{1,2})\s*일")
_KO_MONTH = re.compile(r"(?:(\d{4})\s*년\s*)?(?<!\d)(\d{1,2})\s*월(?!\s*\d+\s*(?:일|[,~∼\-]))")
"""A month alone; not one a day follows (7월 15일, 3월 5, 6일), but one a count follows (7월 한 달간)."""
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})\s*년")
_TIME = re.compile(
    r"(?:(오전|오후|새벽|아침|저녁|밤|낮)\s*)?(?<![\d.])(\d{1,2})\s*시(?!간|즌|청|스템|작|점|리즈)"
    r"(?:\s*(\d{1,2})\s*분|\s*(반))?"
)
_NAMED_HOUR = re.compile(r"(?<![가-힣])(?:정오|자정)")
"""Noon (12:00) and midnight (0:00) said by name."""
_CLOCK = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])")
"""15:30, and 15:44:00 with its seconds (a time of that minute when they are 00; lexical-39)."""
_NAME = re.compile(
    r"(?<![A-Za-z0-9])[A-Za-z](?:(?<=[A-Z])/[A-Z](?![A-Za-z0-9])|[A-Za-z0-9]*(?:[-_.+][A-Za-z0-9]+)*)"
)  # A/S, Q/A: two capitals a slash joins are one name (lexical-52)
_NUMBER = re.compile(
    rf"(?<![\d.])(\$\s*)?((?:{_NUM})(?:\s*(?:{_MULT}))?(?:\s*(?:{_NUM})\s*(?:{_MULT}))*)"
    rf"(?:\s*({_UNIT_RE}))?",
    re.IGNORECASE,
)
_NUM_PART = re.compile(rf"({_NUM})\s*({_MULT})?")
_LIST_JOIN = re.compile(r"^\s*[,·~∼\-]\s*$")
_CHANGE_TARGET = re.compile(
    r"^(?:[가-힣](?=으로|로))?\s*(?:으로|로)\s*(?:변경|연기|미뤄|미루|늦춰|늦추|밀려|밀리|앞당|조정|바뀌|바꿔|바꾸|바꿨|"
    r"옮|정정|수정|상향|하향|인상|인하|줄|늘|확대|축소|교체|전환|재조정)"
)
_ANY_ARROW = re.compile(r"→|->|⇒")
_DEPARTS = re.compile(r"^\s*에서\s*(?:출발|떠나|떠난|출항|이륙)")
_ROUTE = re.compile(r"^[^→>⇒]*(?:→|->|⇒)\s*(?:최종\s*)?(?:목적지|도착지|도착|종점|행선지)")
_FROM = re.compile(r"^\s*(?:에서|→|->|⇒)")
_ARROW = re.compile(r"^(?:\s*[가-힣]{1,2})?\s*(?:→|->|⇒)")
"""An arrow after a value, or after the counter the value leaves out (8마리 → 6마리)."""
_RANGE_END = re.compile(r"^\s*(?:사이|까지)")
"""120cm에서 150cm 사이: the value after 에서 ends a range, no change (since lexical-37)."""
_TARGET_PHRASE = re.compile(r"^[\s가-힣A-Za-z0-9:]{0,16}?" + _CHANGE_TARGET.pattern[1:])
"""``서울 리전에서 도쿄 리전으로 옮겼다``, ``금요일 오후 6시에서 월요일 오전 9시로 미뤄졌다``: the
value starts the phrase that 에서 closes; it is former only when a later value of its kind starts
the phrase of a change target (…로 옮기다, 미루다, 바꾸다 …)."""
_FORMER_MARK = re.compile(
    r"(?<![가-힣])(기존|이전에는|이전엔|예전에는|예전엔|예전|원래는|원래|당초에는|당초|종전|"
    r"처음에는|처음엔|과거에는|전에는)(?![가-힣])"
)
_CONCEDED = re.compile(r"^[^.!?\n]*?(?:었으나|였으나|었지만|였지만|이었는데|였는데)[^.!?\n]*$")
"""A value said before a concession and a new value of its kind after it, in one sentence (3월
8일 예정이었으나, … 3월 15일로 연기): the first is the former one (since lexical-35)."""
_CLAUSE_BREAK = re.compile(
    r"지만|으나|였으나|는데|었다가|였다가|지금|현재|이제|이후|[,;\n]|(?<!\d)[./]|[./](?!\d)"
)
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


def _korean_number(text: str) -> Decimal:
    total = Decimal(0)
    for digits, mult in _NUM_PART.findall(text):
        total += _decimal(digits) * (_MULTIPLIERS[mult] if mult else 1)
    return total


def _take(mask: list[bool], start: int, end: int) -> None:
    for i in range(start, end):
        mask[i] = True


class _Taken:
    """The values found so far and the characters they cover: each pattern reads only what no
    earlier pattern took."""

    def __init__(self, text: str) -> None:
        self.values: list[Value] = []
        self.mask = [False] * len(text)

    def free(self, start: int, end: int) -> bool:
        return _free(self.mask, start, end)

    def add(self, value: Value) -> None:
        self.values.append(value)
        _take(self.mask, value.start, value.end)


def _extract(text: str, morphs: tuple[Morph, ...] = (), ref: dt.date | None = None) -> list[Value]:
    """The values of ``text``; a number said in words reads as its digits (lexical/numerals.py),
    each value placed on the words it was read from."""
    longer: dict[int, int] = {}
    for m in morphs:
        if len(m.form) > 1 and m.tag.startswith("NN"):
            longer[m.start] = max(longer.get(m.start, 0), m.end)
        elif m.tag.startswith("J"):
            longer[m.start] = -1  # a particle (1도 안 올라요: 도 = also), no counter
    digits = numerals.as_digits(text)
    if digits.text == text:
        return _extract_written(text, longer, ref)
    moved = {}
    for start, end in longer.items():
        at, last = digits.forward(start), digits.forward(end - 1)
        if at is not None:
            moved[at] = -1 if end < 0 else (last + 1 if last is not None else at + end - start)
    out = []
    for v in _extract_written(digits.text, moved, ref):
        start, end = digits.span(v.start, v.end)
        out.append(_replace(v, text=text[start:end], start=start, end=end))
    return out


def _extract_written(text: str, longer: dict[int, int], ref: dt.date | None) -> list[Value]:
    """The values of ``text`` as written; ``longer``: where a noun of more than one letter
    starts, and where the longest one starting there ends (-1: a particle starts there)."""
    taken = _Taken(text)
    for value in speeds(text) + bare_rates(text):  # 분당 105m: one speed (lexical-52)
        if taken.free(value.start, value.end):
            taken.add(value)
    for value in dims(text):  # 40×60cm: one value (lexical-46)
        if taken.free(value.start, value.end):
            taken.add(value)
    _names(text, taken)
    for value in people_and_teams(text):
        if taken.free(value.start, value.end):
            taken.add(value)
    _dates(text, ref, taken)
    _months_and_years(text, taken)
    _times(text, taken)
    for value in nth_weekdays(text):  # 첫째 월요일 (lexical-50)
        if taken.free(value.start, value.end):
            taken.add(value)
    for m in WEEKDAY.finditer(text):
        start = m.start(3) if m[3] else m.start() if m[1] else m.start(2) - 1  # (화): its bracket
        if taken.free(start, m.end()):
            day = m[1] or m[2] or m[3]
            taken.add(Value("weekday", (day,), text[start : m.end()], start, m.end()))
    for at, day in weekday_runs(text):
        if taken.free(at, at + 1):
            taken.add(Value("weekday", (day,), day, at, at + 1))
    numbers = _shared_counters(text, _numbers(text, longer, taken))
    for value in _merge_durations(text, numbers) + _halves(text, taken.mask):
        taken.add(value)
    found = _month_long(text, sorted(taken.values, key=lambda v: v.start))
    return per_unit(text, breakdown_units(text, range_units(text, found)))


def _month_long(text: str, found: list[Value]) -> list[Value]:
    """ "7월 한 달간": the month for the whole of it — 한 달 is the month's own length, no value of
    its own (since lexical-38)."""
    out: list[Value] = []
    for v in found:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.type == "month"
            and v.type == "개월"
            and v.key == ("1",)
            and not text[prev.end : v.start].strip()
        ):
            out[-1] = _replace(prev, text=text[prev.start : v.end], end=v.end)
            continue
        out.append(v)
    return out


_GRADE = re.compile(r"(?<![A-Za-z0-9+])(?:\d\+{1,2}|[A-F][+-]{1,2})(?![A-Za-z0-9+-])")
"""Grades written with plus or minus signs (1++, 1+, A+, B-): names, not the number 1 or the
letter A (since lexical-37: "1++ kg당 98,000원, 1+ kg당 82,000원")."""


def _names(text: str, taken: _Taken) -> None:
    """Latin-letter names (Aurora, AES-256) and grades (1++, A+), but not English stop words nor a
    unit after a number."""
    for m in _GRADE.finditer(text):
        taken.add(Value("name", (m[0].lower(),), m[0], m.start(), m.end()))
    for m in _NAME.finditer(text):
        if not taken.free(m.start(), m.end()):
            continue
        word = m[0].lower()
        if word in _ENGLISH_STOP:
            continue
        prev = text[: m.start()].rstrip()
        if word in _LATIN_UNITS and prev[-1:].isdigit():
            continue
        if prev[-1:] in ("°", "μ") and prev[-2:-1].isdigit():
            continue  # 3°C, 75μm: the unit's letter (lexical-43)
        if _PER_UNIT.search(prev):
            continue  # 25km/h: the rate's time (lexical-47)
        taken.add(Value("name", (word,), m[0], m.start(), m.end()))


def _dates(text: str, ref: dt.date | None, taken: _Taken) -> None:
    for f in normalise.dates(text, ref):
        if not taken.free(f.start, f.end):
            continue
        if f.key is None:  # vague or unresolved: fills the slot, equals no date
            said = text[f.start : f.end]
            period = normalise.vague_period(said, ref)
            # 4주 뒤 and 4주 후 without a day to count from: one offset (lexical-45)
            plain = re.sub(r"\s+", "", said).replace("뒤", "후")
            key = (plain,) if period is None else (said, period)
            taken.add(Value("vague-date", key, said, f.start, f.end))
        else:
            taken.add(Value("date", f.key, text[f.start : f.end], f.start, f.end))


def _months_and_years(text: str, taken: _Taken) -> None:
    for m in _KO_MONTH.finditer(text):
        mo = int(m[2])
        if 1 <= mo <= 12 and taken.free(m.start(), m.end()):
            taken.add(Value("month", (int(m[1]) if m[1] else None, mo), m[0], m.start(), m.end()))
    for m in _DECADE.finditer(text):  # 1980년대 = 80년대 (lexical-47)
        n = int(m[1])
        decade = n if n >= 100 else n + (1900 if n >= 30 else 2000)
        if n % 10 == 0 and taken.free(m.start(), m.end()):
            taken.add(Value("decade", (decade,), m[0], m.start(), m.end()))
    for m in _YEAR.finditer(text):
        if taken.free(m.start(), m.end()):
            taken.add(Value("year", (int(m[1]),), m[0], m.start(), m.end()))


_PER_UNIT = re.compile(r"\d\s*[A-Za-z㎞]{1,3}/$")
_DECADE = re.compile(r"(?<![\d.,'])'?(\d{4}|\d{2})\s*년대")
"""A decade, of four digits or two (80년대: the 1980s; 10년대: the 2010s)."""


def _hour(period: str | None, h: int) -> int:
    """The hour on a 24-hour clock of ``h`` said with a period of the day (오후 3시 = 15; 24시 = 0)."""
    if period in ("오후", "저녁", "밤") and h < 12:
        return h + 12
    if period == "낮" and h < 6:
        return h + 12
    if period in ("오전", "새벽", "아침", "밤") and h == 12:
        return 0  # 밤 12시 is midnight, 오후 12시 noon
    return 0 if h == 24 else h


def _times(text: str, taken: _Taken) -> None:
    """Clock times in Korean (오후 3시 반) and with a colon (15:30)."""
    for m in _TIME.finditer(text):
        h, mi = int(m[2]), int(m[3]) if m[3] else (30 if m[4] else 0)
        if h > 24 or mi > 59 or not taken.free(m.start(2), m.end()):
            continue
        period = m[1]
        h = _hour(period, h)
        ambiguous = period is None and h <= 12
        taken.add(Value("time", (h, mi), m[0], m.start(), m.end(), ambiguous=ambiguous))
    for m in _CLOCK.finditer(text):
        h, mi, sec = int(m[1]), int(m[2]), int(m[3] or 0)
        if h <= 24 and mi <= 59 and sec <= 59 and taken.free(m.start(), m.end()):
            key = (_hour(None, h), mi) + ((sec,) if sec else ())
            taken.add(Value("time", key, m[0], m.start(), m.end()))
    for m in _NAMED_HOUR.finditer(text):
        if taken.free(m.start(), m.end()):
            taken.add(Value("time", (12 if m[0] == "정오" else 0, 0), m[0], m.start(), m.end()))
    for v in dayparts(text):  # 오후 said alone (lexical-36)
        if taken.free(v.start, v.end):
            taken.add(v)


def _numbers(text: str, longer: dict[int, int], taken: _Taken) -> list[Value]:
    """Numbers with their counter (명, 회, %, 달러 ...; ``수`` without one) in the text no earlier
    pattern took; ``longer``: where a noun of more than one letter starts, and where the longest
    one starting there ends."""
    numbers: list[Value] = []
    for m in _NUMBER.finditer(text):
        start = m.start(2) if not m[1] else m.start()
        if not taken.free(start, m.end(2)):
            continue
        unit = (m[3] or "").lower()
        if (
            unit in _LATIN_UNITS
            and text[m.end() : m.end() + 1].isalpha()
            and text[m.end()].isascii()
        ):
            unit = ""  # "3mo", "5gbps": not a unit we know
        elif unit and not unit.isascii() and longer.get(m.start(3), 0) > m.end(3):
            unit = ""  # "118 건물", "3 프로그램": a longer noun starts with it, it is no counter
        elif unit and not unit.isascii() and longer.get(m.start(3)) == -1:
            unit = ""  # "1도 안 올라요": the analyser reads a particle there
        end = m.end() if unit else m.end(2)
        if m[1]:
            unit = "달러"
        unit = UNIT_ALIASES.get(unit, unit) or "수"
        try:
            number = _korean_number(m[2])
        except InvalidOperation:
            continue
        if unit == "할":  # 3할 = 30 %
            unit, number = "%", number * 10
        numbers.append(Value(unit, (_canon(number),), text[start:end], start, end))
    return numbers


def _shared_counters(text: str, numbers: list[Value]) -> list[Value]:
    """Lists share their counter: "1,2차" = 1차, 2차; "3~5명" = 3명, 5명."""
    for i in range(len(numbers) - 2, -1, -1):
        a, b = numbers[i], numbers[i + 1]
        if a.type == "수" and b.type != "수" and _LIST_JOIN.match(text[a.end : b.start]):
            numbers[i] = Value(b.type, a.key, a.text, a.start, a.end)
    return numbers


def _mark_changes(text: str, found: list[Value], segments: list[tuple[int, int]]) -> list[Value]:
    """Mark change targets and former values (see the module docstring)."""
    out = list(found)
    for i, v in enumerate(out):
        if _CHANGE_TARGET.match(_after(text, v)):
            out[i] = _replace(v, target=True)
    candidate = [_changed_from(v, out, text, segments) for v in out]
    for m in _FORMER_MARK.finditer(text):
        brk = _CLAUSE_BREAK.search(text, m.end())
        stop = brk.start() if brk else len(text)
        arrow = _ANY_ARROW.search(text, m.end(), stop)
        stop = arrow.start() if arrow else stop  # 기존 09:00 → 08:30: the new one (lexical-40)
        for i, v in enumerate(out):
            if m.end() <= v.start and v.end <= stop and not v.target:
                candidate[i] = True
    for m in _REFERENCE.finditer(text):
        for i, v in enumerate(out):
            if m.start() <= v.start and v.end <= m.end():
                candidate[i] = True
    _denominators_follow(text, out, candidate)
    for i, v in enumerate(out):
        # a value is former only next to a current value of the same type (a newer one)
        if candidate[i] and any(
            not candidate[j] and kind(w) == kind(v) and not same(w, v) for j, w in enumerate(out)
        ):
            out[i] = _replace(out[i], former=True)
    return out


def _changed_from(v: Value, out: list[Value], text: str, segments: list[tuple[int, int]]) -> bool:
    """``v`` is where a change starts (an arrow, 에서 or a plan it was before a later value of its
    kind): former when a current value of its kind stands beside it (``_mark_changes``)."""
    later_same = any(
        kind(w) == kind(v) and w.start > v.end and _seg(segments, w) == _seg(segments, v)
        for w in out
    )
    rest = _after(text, v)
    if (_ARROW.match(rest) and _ROUTE.match(rest)) or _DEPARTS.match(rest):
        return (
            False  # 출발지 강릉 → 목적지 부산, 강릉에서 출발해서: a route, no change (lexical-40)
        )
    if later_same and (_ARROW.match(rest) or (_FROM.match(rest) and not _ranged(v, out, text))):
        return True
    if (_PLANNED_BEFORE.match(rest) or _IN_ERROR.match(rest)) and any(
        kind(w) == kind(v) and w.start > v.end for w in out
    ):
        return True  # 7월 24일 예정이던 중계는 7월 31일로 연기 (lexical-39)
    if _from_phrase(text[v.end :]) and any(
        (w.target or _TARGET_PHRASE.match(text[w.end :]))
        and kind(w) == kind(v)
        and w.start > v.end
        and _seg(segments, w) == _seg(segments, v)
        for w in out
    ):
        return True
    return v.type != "name" and any(
        w.target
        and kind(w) == kind(v)
        and w.start > v.end
        and (_seg(segments, w) == _seg(segments, v) or _CONCEDED.search(text[v.end : w.start]))
        for w in out
    )


def _after(text: str, v: Value) -> str:
    """The text after value ``v``, past the weekday in brackets a date may carry (7월 31일(토)로:
    the date is the change's target; since lexical-39)."""
    rest = text[v.end :]
    if v.type == "date":
        m = _WEEKDAY_AFTER.match(rest)
        if m:
            return rest[m.end() :]
    return rest


_WEEKDAY_AFTER = re.compile(r"\s*\([월화수목금토일]\)")
_IN_ERROR = re.compile(r"^\s*(?:[가-힣]{1,3}\s*)?(?:→|->|⇒|:|,|-)?\s*(?:오기재|오기|오타)")
"""1,598원 게시 → 오기재, 1,589원으로 정정: a value written in error (since lexical-42)."""
_PLANNED_BEFORE = re.compile(
    r"^\s*(?:에|으로|로)?\s*(?:예정이던|예정이었던|예정됐던|예정되었던|잡혀 있던|잡혔던|하기로 했던)"
)
"""A value said as the plan it was (7월 24일 예정이던 …): former beside a later one of its kind."""


def _from_phrase(rest: str) -> bool:
    """Does the word after a value go on to a 에서 that closes its phrase (`` 리전에서``, `` 오후
    6시에서``)? The value must end its word (no particle glued to it) and no word between may end
    in a particle (``DB는 PostgreSQL 14에서``: DB is the subject, not the phrase)."""
    at = rest.find("에서")
    if not 0 < at <= 16 or not rest[0].isspace() or not rest[at + 2 : at + 3].isspace():
        return False
    words = rest[:at].split()
    return bool(words) and not any(w[-1] in "은는이가을를의에도" for w in words[:-1])


def _replace(v: Value, **changes: Any) -> Value:
    fields = {**v.__dict__, **changes}
    return Value(**fields)


def _ranged(v: Value, out: list[Value], text: str) -> bool:
    """The next value of ``v``'s kind ends a range (120cm에서 150cm 사이, 9시에서 11시까지)."""
    nxt = min((w for w in out if w.start > v.end and kind(w) == kind(v)), key=lambda w: w.start)
    return _RANGE_END.match(text[nxt.end :]) is not None


def _seg(segments: list[tuple[int, int]], v: Value) -> int:
    return next((i for i, (a, b) in enumerate(segments) if a <= v.start < b), -1)


def _denominators_follow(text: str, out: list[Value], candidate: list[bool]) -> None:
    """15명당 1명으로: a rate's denominator is former exactly when its count is (lexical-26)."""
    for i, v in enumerate(out[:-1]):
        if text.startswith("당", v.end):
            candidate[i] = candidate[i + 1]
