"""Korean dates, numbers and units read one way (the lexical judge, the reader and the validator).

- **Dates**: ``2026-03-05``, ``2026.03.05``, ``2026. 3. 5.`` (the standard dotted form), ``26.03.05``,
  ``26/03/05``, ``3/5`` (month/day), ``2026년 3월 5일`` → ``(year or None, month, day)``.
- **Relative dates** against a reference date (the date of the document the text comes from):
  오늘, 어제, 내일, 모레 (내일모레), 글피, 그저께/그제, 이번·다음·지난 주 + 요일, 이번·다음·지난 달 N일 / 말일
  (다다음·지지난: two weeks or months on or back),
  N일 (or 주) 후/뒤/전, M월 말일 (engine/date_offsets.py), 올해·내년·작년 … M월 N일 (without a reference its year is unknown, as in M월 N일). A relative date without a reference, or a period rather than a day (이번 달 말, 다음 달
  초, 다음 분기), is *vague*: it never equals an absolute date.
- **Numbers**: digits, grouped digits (``1,200``), decimals, the multipliers 천/만/억/조 in any mix
  (``1억 2천만`` = ``1.2억`` = ``120,000,000``) and native numerals before a counter (두 명 = 2명;
  the lexical judge reads more numbers said in words, scoring/lexical/numerals.py).
- **Quantities**: durations (ms, 초, 분, 시간, 일, 주 in seconds; 개월, 년 in months), sizes (KB … TB,
  decimal or binary multiples of bytes) and money (원, 달러, 유로, 엔 — currencies are never converted into
  each other). :func:`quantity` gives the dimension and the amount in its base unit.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from decimal import Decimal
from typing import NamedTuple

from seorap.engine import date_offsets

MULTIPLIERS = {
    "조": 10**12,
    "억": 10**8,
    "천만": 10**7,
    "백만": 10**6,
    "십만": 10**5,
    "만": 10**4,
    "천": 10**3,
    "백": 10**2,
}
_NUM = r"\d+(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?"
_NUM_PART = re.compile(rf"({_NUM})?\s*(천만|백만|십만|조|억|만|천|백)?")
NATIVE = {
    "한": 1,
    "하나": 1,
    "두": 2,
    "둘": 2,
    "세": 3,
    "셋": 3,
    "석": 3,
    "네": 4,
    "넷": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    "열": 10,
}
"""Native Korean numerals, read as numbers only directly before a counter (두 명, 세 곳)."""


def number(text: str) -> Decimal:
    """``1억 2천만`` → 120000000, ``1.2억`` → 120000000, ``3,100,000`` → 3100000, ``천`` → 1000."""
    total, seen = Decimal(0), False
    for digits, mult in _NUM_PART.findall(text):
        if not digits and not mult:
            continue
        seen = True
        base = Decimal(digits.replace(",", "")) if digits else Decimal(1)
        total += base * (MULTIPLIERS[mult] if mult else 1)
    if not seen:
        raise ValueError(f"no number in {text!r}")
    return total


# ---- quantities ------------------------------------------------------------------------------

SECONDS = {
    "ms": Decimal("0.001"),
    "초": Decimal(1),
    "분": Decimal(60),
    "시간": Decimal(3600),
    "일": Decimal(86400),
    "주": Decimal(604800),
}
MONTHS = {"개월": Decimal(1), "년": Decimal(12)}
BYTES = {"kb": Decimal(10**3), "mb": Decimal(10**6), "gb": Decimal(10**9), "tb": Decimal(10**12)}
BINARY = {"kb": Decimal(2**10), "mb": Decimal(2**20), "gb": Decimal(2**30), "tb": Decimal(2**40)}
"""The same units in binary multiples: a size is written either way (2TB = 2,000GB = 2,048GB)."""
MONEY = frozenset({"원", "달러", "유로", "엔"})
MASS = {
    "mg": Decimal("0.001"),
    "g": Decimal(1),
    "kg": Decimal(1000),
    "톤": Decimal(10**6),
    "돈": Decimal("3.75"),
}
"""Grams per unit; 돈 weighs gold (3.75 g; since lexical-46); mg since lexical-47 (1g → 500mg
is a change of one measure)."""
RATE = {"kbps": Decimal(10**3), "mbps": Decimal(10**6), "gbps": Decimal(10**9)}
"""Bits per second per unit of a line's speed (1Gbps = 1,000Mbps)."""
LENGTH = {
    "mm": Decimal("0.001"),
    "cm": Decimal("0.01"),
    "m": Decimal(1),
    "km": Decimal(1000),
    "인치": Decimal("0.0254"),
    "피트": Decimal("0.3048"),
    "야드": Decimal("0.9144"),
    "마일": Decimal("1609.344"),
    "해리": Decimal(1852),
}
"""Metres per unit; the imperial and nautical ones are read so that 19.5해리 is no 19.5km."""


class Quantity(NamedTuple):
    dimension: str
    """``duration`` (seconds), ``duration-months``, ``size`` (bytes), ``mass`` (grams),
    ``length`` (metres), ``rate`` (bits per second), ``money:<currency>``."""
    amount: Decimal


def dimension(unit: str) -> str | None:
    """The kind of quantity a unit measures (durations of any length are one kind, money of any
    currency another): two values of one kind fill the same slot."""
    if unit in SECONDS or unit in MONTHS:
        return "duration"
    if unit in BYTES:
        return "size"
    if unit in MASS:
        return "mass"
    if unit in RATE:
        return "rate"
    if unit in LENGTH:
        return "length"
    if unit in MONEY:
        return "money"
    return None


def quantity(unit: str, amount: Decimal) -> Quantity | None:
    """The amount in its base unit, or None for a unit that is no quantity (명, 회, %)."""
    if unit in SECONDS:
        return Quantity("duration", amount * SECONDS[unit])
    if unit in MONTHS:
        return Quantity("duration-months", amount * MONTHS[unit])
    if unit in BYTES:
        return Quantity("size", amount * BYTES[unit])
    if unit in MASS:
        return Quantity("mass", amount * MASS[unit])
    if unit in RATE:
        return Quantity("rate", amount * RATE[unit])
    if unit in LENGTH:
        return Quantity("length", amount * LENGTH[unit])
    if unit in MONEY:
        return Quantity(f"money:{unit}", amount)
    return None


def same_quantity(unit_a: str, a: Decimal, unit_b: str, b: Decimal) -> bool:
    """``200ms`` = ``0.2초``, ``1.5TB`` = ``1,500GB`` = ``1,536GB`` (decimal or binary multiples),
    ``24개월`` = ``2년``, ``2톤`` = ``2,000kg``, ``1.2km`` = ``1,200m``; ``3,100달러`` ≠
    ``310만 원``; ``1개월`` ≠ ``30일`` (a month has no fixed length)."""
    qa, qb = quantity(unit_a, a), quantity(unit_b, b)
    if qa is None or qb is None:
        return unit_a == unit_b and a == b
    if qa.dimension == "size" and qa != qb:
        return a * BINARY[unit_a] == b * BINARY[unit_b]
    return qa == qb


# ---- dates ---------------------------------------------------------------------------------------

DateKey = tuple[int | None, int, int]


class Found(NamedTuple):
    start: int
    end: int
    key: DateKey | None
    """(year or None, month, day); None for a vague or unresolved relative date."""
    relative: bool


_DOTTED = re.compile(
    r"(?<![\d.])(\d{4})\s*([-./])\s*(\d{1,2})\s*\2\s*(\d{1,2})(?![\d])(?:\s*\.(?!\d))?"
)
_DOTTED_END = re.compile(r"\s*[~∼\-]\s*(\d{1,2})\.\s?(\d{1,2})(?![\d])(?:\.(?!\d))?")
"""The end of a dotted range written without its year (2027. 6. 1. ~ 6. 30.; since lexical-51)."""
_DOTTED_SHORT = re.compile(r"(?<![\d.])(\d{2})\.\s?(\d{1,2})\.\s?(\d{1,2})(?![\d])(?:\.(?!\d))?")
"""26.12.18 (a two-digit year: 2026-12-18)."""
_DOTTED_DAY = re.compile(
    r"(?<![\d.])(\d{1,2})\.\s?(\d{1,2})\.?(?=\s*\(\s*[월화수목금토일](?:요일)?\s*\))"
)
"""12.08.(화), 10.2(목): a month and day with dots, told from a decimal by the weekday after it."""
_SLASHED = re.compile(r"(?<![\d/.,])(?:(\d{2}|\d{4})/)?(\d{1,2})/(\d{1,2})(?![\d/])")
_KO = re.compile(
    r"(?:(?:(?<![\d.,])(\d{4})|(?<![\d.,])'?(\d{2}))\s*년\s*)?(?<!\d)(\d{1,2})\s*월\s*(\d{1,2})\s*일"
)
"""2027년 3월 5일; a year of two digits (27년, '27년) is this century's (since lexical-46)."""
_WEEKDAYS = "월화수목금토일"
_DAY_WORDS = {
    "그저께": -2,
    "그제": -2,
    "어제": -1,
    "오늘": 0,
    "금일": 0,
    "내일": 1,
    "내일모레": 2,
    "낼모레": 2,
    "모레": 2,
    "글피": 3,
}
_SHIFT = {
    "이번": 0,
    "금": 0,
    "이": 0,
    "다음": 1,
    "다다음": 2,
    "담": 1,
    "차": 1,
    "지난": -1,
    "지지난": -2,
    "저번": -1,
    "전": -1,
}
_WEEK = re.compile(r"(이번|다다음|다음|지지난|지난|저번|금|차|담)\s*주\s*([월화수목금토일])요일")
_THIS_MONTH = r"|(?<![가-힣])(?:이|담)(?=달)"
"""이달, 담달: this month and next said short (since lexical-34)."""
_MONTH_DAY = re.compile(
    r"(이번|다다음|다음|지지난|지난|저번"
    + _THIS_MONTH
    + r")\s*달\s*(?:(\d{1,2})\s*일|(말일|마지막\s*날))"
)
_MONTH_VAGUE = re.compile(
    r"(이번|다다음|다음|지지난|지난|저번"
    + _THIS_MONTH
    + r")\s*(?:달|월|주)\s*(초|말|중순|초순|하순|중)(?![가-힣]*요일)"
)
_QUARTER = re.compile(r"(이번|다음|지난)\s*분기")
_YEARS = {
    "재작년": -2,
    "작년": -1,
    "지난해": -1,
    "올해": 0,
    "금년": 0,
    "내년": 1,
    "명년": 1,
    "내후년": 2,
}
_YEAR_DAY = re.compile(
    r"(?<![가-힣])(재작년|작년|지난해|올해|금년|내년|명년|내후년)\s*(\d{1,2})\s*월\s*(\d{1,2})\s*일"
)
"""내년 4월 24일: the year said relative to the document's (its year unknown without one)."""
_DAY_WORD = re.compile(
    r"(?<![가-힣])(그저께|그제|어제|오늘|금일|내일모레|낼모레|내일|모레|글피)(?!\s*[가-힣]*요일)"
)
"""내일모레 (and 낼모레) is 모레 said fully: the day after tomorrow, not 내일 (since lexical-32)."""


def _valid(y: int | None, m: int, d: int) -> bool:
    if not (1 <= m <= 12 and 1 <= d <= 31):
        return False
    return y is None or d <= calendar.monthrange(y, m)[1]


def _key(day: dt.date) -> DateKey:
    return (day.year, day.month, day.day)


def _month_shift(ref: dt.date, months: int) -> tuple[int, int]:
    total = ref.year * 12 + ref.month - 1 + months
    return total // 12, total % 12 + 1


def absolute_dates(text: str) -> list[Found]:
    """Absolute dates in ``text`` (dotted, slashed, ISO, Korean), earliest form first."""
    out: list[Found] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, key: DateKey) -> None:
        if _valid(*key) and not any(a < end and start < b for a, b in taken):
            out.append(Found(start, end, key, False))
            taken.append((start, end))

    for m in _DOTTED.finditer(text):
        add(m.start(), m.end(), (int(m[1]), int(m[3]), int(m[4])))
        end = _DOTTED_END.match(text, m.end())  # 2027. 6. 1. ~ 6. 30.: the end in its year
        if end is not None:
            add(end.start(1), end.end(), (int(m[1]), int(end[1]), int(end[2])))
    for m in _DOTTED_SHORT.finditer(text):
        add(m.start(), m.end(), (2000 + int(m[1]), int(m[2]), int(m[3])))
    for m in _KO.finditer(text):
        year = int(m[1]) if m[1] else (2000 + int(m[2]) if m[2] else None)
        add(m.start(), m.end(), (year, int(m[3]), int(m[4])))
    for m in _DOTTED_DAY.finditer(text):
        add(m.start(), m.end(), (None, int(m[1]), int(m[2])))
    for m in _SLASHED.finditer(text):
        year = None if m[1] is None else int(m[1]) + (2000 if len(m[1]) == 2 else 0)
        add(m.start(), m.end(), (year, int(m[2]), int(m[3])))
    return sorted(out)


_PARTS = {"초": "초", "초순": "초", "중순": "중", "중": "중", "말": "말", "하순": "말"}


def vague_period(said: str, ref: dt.date | None) -> tuple | None:
    """The period a vague relative date names, against ``ref``: ``("month", 2027, 3, "말")`` for
    이번 달 말 written in March 2027, ``("week", "2027-03-29", "초")`` for 다음 주 초,
    ``("quarter", 2027, 2)`` for 이번 분기; None without a reference date or for other words. The
    same words written in another month name another period."""
    if ref is None:
        return None
    m = _MONTH_VAGUE.fullmatch(said.strip())
    if m is not None:
        part = _PARTS[m[2]]
        if re.search(r"주", said):
            monday = ref - dt.timedelta(days=ref.weekday()) + dt.timedelta(weeks=_SHIFT[m[1]])
            return ("week", monday.isoformat(), part)
        y, mo = _month_shift(ref, _SHIFT[m[1]])
        return ("month", y, mo, part)
    m = _QUARTER.fullmatch(said.strip())
    if m is not None:
        y, mo = _month_shift(ref, 3 * _SHIFT[m[1]])
        return ("quarter", y, (mo - 1) // 3 + 1)
    return None


def relative_dates(text: str, ref: dt.date | None) -> list[Found]:
    """Relative dates in ``text`` resolved against ``ref`` (key None when vague or unresolved)."""
    out: list[Found] = []

    def add(m: re.Match, day: dt.date | None) -> None:
        out.append(Found(m.start(), m.end(), None if day is None else _key(day), True))

    for m in _WEEK.finditer(text):
        if ref is None:
            add(m, None)
            continue
        monday = ref - dt.timedelta(days=ref.weekday()) + dt.timedelta(weeks=_SHIFT[m[1]])
        add(m, monday + dt.timedelta(days=_WEEKDAYS.index(m[2])))
    for m in _MONTH_DAY.finditer(text):
        if ref is None:
            add(m, None)
            continue
        y, mo = _month_shift(ref, _SHIFT[m[1]])
        d = int(m[2]) if m[2] else calendar.monthrange(y, mo)[1]
        add(m, dt.date(y, mo, d) if _valid(y, mo, d) else None)
    out += [Found(*found, True) for found in date_offsets.month_ends(text, ref)]
    for pattern in (_MONTH_VAGUE, _QUARTER):
        for m in pattern.finditer(text):
            add(m, None)
    out += [Found(*found, True) for found in date_offsets.offsets(text, ref)]
    for m in _DAY_WORD.finditer(text):
        add(m, None if ref is None else ref + dt.timedelta(days=_DAY_WORDS[m[1]]))
    for m in _YEAR_DAY.finditer(text):
        year = None if ref is None else ref.year + _YEARS[m[1]]
        if _valid(year, int(m[2]), int(m[3])):
            out.append(Found(m.start(), m.end(), (year, int(m[2]), int(m[3])), True))
    kept: list[Found] = []
    for f in sorted(out, key=lambda f: (f.start, -f.end)):
        if not any(k.start < f.end and f.start < k.end for k in kept):
            kept.append(f)
    return kept


def dates(text: str, ref: dt.date | None = None) -> list[Found]:
    """Every date of ``text``: absolute ones, then relative ones that do not overlap them (one
    that holds an absolute one, 내년 4월 24일, takes its place)."""
    found = absolute_dates(text)
    for f in relative_dates(text, ref):
        found = [a for a in found if not (f.start <= a.start and a.end <= f.end and a != f)]
        if not any(a.start < f.end and f.start < a.end for a in found):
            found.append(f)
    return sorted(found)


def same_date(a: DateKey | None, b: DateKey | None) -> bool:
    """Equal days; a missing year matches any year; a vague date equals nothing."""
    if a is None or b is None:
        return False
    (ya, *ra), (yb, *rb) = a, b
    return ra == rb and (ya is None or yb is None or ya == yb)


# ---- one notation ---------------------------------------------------------------------------------

_COUNTERS = "|".join(
    sorted(
        # 일 and 주 stay as written: 5일 is a day of the month as often as a duration
        [*(u for u in SECONDS if u not in ("일", "주")), *MONTHS, *BYTES, *MONEY, "명", "개", "건"]
        + ["회", "번", "%", "퍼센트"],
        key=len,
        reverse=True,
    )
)
_QUANTITY = re.compile(
    rf"(?<![\d.,:A-Za-z])((?:{_NUM})(?:\s*(?:천만|백만|십만|조|억|만|천))?"
    rf"(?:\s*(?:{_NUM})\s*(?:천만|백만|십만|조|억|만|천))*)(?:\s*({_COUNTERS}))?(?![A-Za-z:\d])",
    re.IGNORECASE,
)
_BASE = {"duration": "s", "duration-months": "mo", "size": "B"}
_UNIT_NAMES = {"번": "회", "퍼센트": "%", "달": "개월"}


def _amount(d: Decimal) -> str:
    return format(d.normalize(), "f")


def canonical(text: str) -> str:
    """``text`` in one notation, for comparing two statements that may differ only in how they write
    a date, a number or a quantity: absolute dates as ``YYYY-MM-DD`` (``MM-DD`` without a year),
    numbers with 천/만/억 and grouped digits as plain digits, durations in seconds (or months),
    sizes in bytes, money per currency; spaces collapsed, latin letters lower-cased.
    ``마감 2026. 3. 5.`` and ``마감 2026년 3월 5일`` are one text; ``1.5TB`` and ``1,500GB`` too;
    ``310만 원`` and ``3,100달러`` are not."""
    parts: list[str] = []
    pos = 0
    for f in absolute_dates(text):
        y, m, d = f.key or (None, 0, 0)
        parts += [
            _quantities(text[pos : f.start]),
            f"{y:04d}-{m:02d}-{d:02d}" if y else f"{m:02d}-{d:02d}",
        ]
        pos = f.end
    parts.append(_quantities(text[pos:]))
    return re.sub(r"\s+", " ", "".join(parts)).strip().lower()


_CLOCK_KO = re.compile(
    r"(?:(오전|오후)\s*)?(?<!\d)(\d{1,2})\s*시(?!간)(?:\s*(\d{1,2})\s*분|\s*(반))?"
)


def _clock(m: re.Match[str]) -> str:
    h = int(m[2]) + (12 if m[1] == "오후" and int(m[2]) < 12 else 0)
    minutes = int(m[3]) if m[3] else (30 if m[4] else 0)
    return f"{h:02d}:{minutes:02d}"


def _quantities(text: str) -> str:
    text = _CLOCK_KO.sub(_clock, text)

    def one(m: re.Match[str]) -> str:
        try:
            amount = number(m[1])
        except (ValueError, ArithmeticError):
            return m[0]
        unit = (m[2] or "").lower()
        unit = _UNIT_NAMES.get(unit, unit)
        if unit == "년" and amount == amount.to_integral_value() and 1900 <= amount <= 2200:
            return f"{_amount(amount)}년"  # a year, not 2,026 years
        q = quantity(unit, amount) if unit else None
        if q is None:
            return f"{_amount(amount)}{unit}"
        base = _BASE.get(q.dimension, q.dimension.removeprefix("money:"))
        return f"{_amount(q.amount)}{base}"

    return _QUANTITY.sub(one, text)


# ---- names ----------------------------------------------------------------------------------------

_INSTITUTION = (
    ("초등학교", "초"),
    ("중학교", "중"),
    ("고등학교", "고"),
    ("대학교", "대"),
    ("대학", "대"),
)
"""The regular short forms of a school's name: 서울대학교 = 서울대, 한빛고등학교 = 한빛고."""
_COMPANY_FORM = re.compile(r"^(?:주식회사|\(주\)|\(株\)|㈜)\s*|\s*(?:주식회사|\(주\)|\(株\)|㈜)$")
"""A company's legal form before or after its name (주식회사 누리, 누리(주), ㈜누리) is not part of it."""


def name_key(name: str) -> str:
    """A name as compared: lower-cased, its company form dropped and a school's name shortened
    the regular way (서울대학교 and 서울대 are one key; 서울시립대 stays another)."""
    key = _COMPANY_FORM.sub("", name.strip()).lower()
    for long, short in _INSTITUTION:
        if len(key) > len(long) and key.endswith(long):
            return key[: -len(long)] + short
    return key
