"""One typed value of a text, and when two values are the same (the normaliser's units)."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from seorap.engine import normalise

UNIT_ALIASES = {
    "번": "회",
    "퍼센트": "%",
    "프로": "%",
    "킬로미터": "km",
    "미터": "m",
    "센티미터": "cm",
    "센티": "cm",
    "밀리미터": "mm",
    "킬로그램": "kg",
    "그램": "g",
    "°c": "℃",
    "도": "℃",
    "리터": "l",
    "밀리리터": "ml",
    "cc": "ml",
    "m²": "㎡",
    "μm": "㎛",
    "제곱미터": "㎡",
    "헥타르": "ha",
    "킬로리터": "kl",
    "m³": "㎥",
    "세제곱미터": "㎥",
    "매": "장",
    "박스": "상자",
    "키로": "킬로",
    "t": "톤",
    "km/h": "km",
    "㎞/h": "km",
    "봉지": "봉",
    "개입": "개",
    "주년": "년",
    "미리": "밀리",
    "밀리초": "ms",
    "밀리그램": "mg",
    "와트": "w",
    "킬로와트": "kw",
    "lbs": "파운드",  # lexical-50: 24lbs = 24파운드
    "lb": "파운드",
}
"""Counters and units written two ways (in Latin letters or spelt out in Hangul): one name each.
킬로 (or 키로, as it is often said) alone is read as a unit of its own, ``킬로``: it is said for kilograms and kilometres alike,
and only the expected statement tells which (lexical/kilo.py). N도 is degrees (℃: 섭씨 4도). 봉지 is
the 봉 of a bag said in full (since lexical-39)."""

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


VOLUME = {"ml": Decimal(1), "l": Decimal(1000), "kl": Decimal(10**6), "㎥": Decimal(10**6)}
POWER = {"w": Decimal(1), "kw": Decimal(1000)}
AREA = {"㎡": Decimal(1), "평": Decimal(400) / Decimal(121), "ha": Decimal(10000)}
MICRONS = {"㎛": Decimal(1), "mm": Decimal(1000), "cm": Decimal(10**4), "m": Decimal(10**6)}
"""Measures the judge compares itself (since lexical-24; the engine's normaliser knows the
rest): 4.5L = 4,500ml, 600W = 0.6kW, 75㎛ = 0.075mm; 1평 is 400/121 ㎡ and said rounded (20평 =
66㎡), so an area in 평 equals one in ㎡ within 1 %."""
_MEASURES = ((VOLUME, "volume"), (POWER, "power"), (AREA, "area"))


def kind(v: Value) -> str:
    """The slot kind of a value: durations in any unit are one kind, sizes another, money (any
    currency) a third, volumes, powers and areas one each; every other type is its own kind."""
    for table, name in _MEASURES:
        if v.type in table:
            return name
    if v.type == "㎛":
        return "length"
    if v.type == "daypart":
        return "time"
    if v.type == "per" and v.key:
        # per person and per month fill two slots (lexical-35); per gram and per kilogram one
        # (a price per g where the statement has one per kg is another price; lexical-43)
        return f"per:{normalise.dimension(str(v.key[0])) or v.key[0]}"
    return normalise.dimension(v.type) or v.type


def _measured(a: Value, b: Value) -> bool | None:
    """``a`` = ``b`` for two values of one of the judge's own measures in different units (None:
    not such a pair)."""
    table = next((t for t, _ in _MEASURES if a.type in t and b.type in t), None)
    if table is None and "㎛" in (a.type, b.type):
        table = MICRONS if a.type in MICRONS and b.type in MICRONS else None
    if table is None or not a.key or not b.key:
        return None
    x, y = Decimal(a.key[0]) * table[a.type], Decimal(b.key[0]) * table[b.type]
    if table is AREA:
        return abs(x - y) <= max(x, y) / 100
    return x == y


def unit_of(v: Value) -> str:
    """A value's unit; of a rate's denominator (키로에, kg당, 한 포대에), the unit it counts."""
    return str(v.key[0]) if v.type == "per" and v.key else v.type


PER_COUNTERS = {"번": "회", "인": "명"}
"""Counters that name one denominator: 한 번에 = 회당, 1인당 = 한 명에 (lexical/ranges.py)."""


def same(a: Value, b: Value) -> bool:
    paired = _paired(a, b)
    if paired is not None:
        return paired
    if a.type != b.type:
        measured = _measured(a, b)
        if measured is not None:
            return measured
        if kind(a) == kind(b) != a.type and a.key and b.key:
            return normalise.same_quantity(a.type, Decimal(a.key[0]), b.type, Decimal(b.key[0]))
        return False
    if a.type in ("date", "month"):
        (ya, *ra), (yb, *rb) = a.key, b.key
        return ra == rb and (ya is None or yb is None or ya == yb)
    if a.type == "vague-date" and len(a.key) == len(b.key) == 2:
        return bool(a.key[1] == b.key[1])  # 이번 달 말 read against each text's own date
    if a.type == "name" and _given_name(a.key[0], b.key[0]):
        return True
    if a.type == "team":  # 결제팀 = 결제플랫폼팀 (the short name starts the full one)
        shared: bool = a.key[0].startswith(b.key[0]) or b.key[0].startswith(a.key[0])
        return shared
    if a.type == "time":
        if a.key == b.key:
            return True
        return (
            (a.ambiguous or b.ambiguous) and a.key[0] % 12 == b.key[0] % 12 and a.key[1] == b.key[1]
        )
    return a.key == b.key


_PERIODS = frozenset({"vague-date", "month"})


METRES = {
    said: normalise.LENGTH[unit]
    for said, unit in {
        "mm": "mm", "밀리미터": "mm", "밀리": "mm", "미리": "mm",
        "cm": "cm", "센티미터": "cm", "센티": "cm",
        "m": "m", "미터": "m",
    }.items()
}  # fmt: skip
"""Metres per unit a size in dimensions is written in (lexical/dims.py), the lengths' own table."""


def _paired(a: Value, b: Value) -> bool | None:
    """``same`` for the pairs of types read together (None: not such a pair)."""
    types = {a.type, b.type}
    if "per" in types and a.type != b.type:  # 한 개에 (a rate's denominator) = 1개
        rate, count = (a, b) if a.type == "per" else (b, a)
        return count.key == ("1",) and PER_COUNTERS.get(count.type, count.type) == rate.key[0]
    if types == {"person", "name"}:  # 박지훈 선생님 (a person) = 지훈 (lexical-31)
        return a.key[0] == b.key[0] or _given_name(a.key[0], b.key[0])
    if types <= {"name", "team"} and spelled(a.key[0], b.key[0]):
        return True  # KTX = 케이티엑스, QA팀 = 큐에이팀 (lexical-35)
    if types == {"daypart", "time"}:  # 오후 = 오후 3시 (lexical-36)
        part, time = (a, b) if a.type == "daypart" else (b, a)
        return part.key[0] == ("pm" if time.key[0] >= 12 else "am") or time.ambiguous
    if "dims" in types:  # 40×60cm (lexical-46)
        return _same_dims(a, b)
    if a.type != b.type and "date" in types and types & _PERIODS:
        return _day_in_period(a, b)
    return None


def _same_dims(a: Value, b: Value) -> bool:
    """Sizes written as dimensions (lexical/dims.py): the same numbers in the same length, or the
    numbers alone when one carries no unit."""
    if a.type != b.type:
        return False
    (ua, *na), (ub, *nb) = a.key, b.key
    if len(na) != len(nb):
        return False
    fa, fb = (METRES[ua], METRES[ub]) if ua and ub else (Decimal(1), Decimal(1))
    return all(Decimal(x) * fa == Decimal(y) * fb for x, y in zip(na, nb, strict=True))


def _day_in_period(a: Value, b: Value) -> bool:
    """A date against a period: 이번 달 말 is that month's last day (lexical-44); a month (6월, and
    6월 말, read as the month) is its last day said 말일 (6월 말일: lexical-45)."""
    period, day = (a, b) if a.type != "date" else (b, a)
    if period.type == "vague-date":
        return _month_end(period, day)
    month = period.key
    return "말일" in day.text and bool(
        month[1] == day.key[1]
        and (month[0] is None or day.key[0] is None or month[0] == day.key[0])
    )


def _month_end(vague: Value, day: Value) -> bool:
    """Is ``day`` the last day of the month whose end (말) ``vague`` names?"""
    period = vague.key[1] if len(vague.key) == 2 else None
    if not period or period[0] != "month" or period[-1] != "말" or not day.key[1] or not day.key[2]:
        return False
    year, month = period[1], period[2]
    if day.key[0] not in (None, year) or day.key[1] != month:
        return False
    return bool(day.key[2] == calendar.monthrange(year, month)[1])


LETTERS = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyz",
        "에이 비 씨|시 디 이 에프 지 에이치|에치 아이 제이 케이 엘 엠 엔 오 피 큐 알 에스 티 유 브이 "
        "더블유|더블류 엑스 와이 제트|지".split(),
        strict=True,
    )
)
"""The names of the Latin letters as Korean says them, "|" between spellings in use: KTX is
케이티엑스 (since lexical-35), CD is 씨디 or 시디 (since lexical-37)."""


READ_AS_WORDS = {
    "haccp": "해썹|해섭", "nasa": "나사", "unesco": "유네스코", "unicef": "유니세프", "fifa": "피파",
    "wifi": "와이파이", "nato": "나토", "opec": "오펙", "asean": "아세안", "ufc": "유에프씨",
    "wod": "와드",  # lexical-45
}  # fmt: skip
"""Initialisms Korean says as a word, not letter by letter (HACCP is 해썹; since lexical-43)."""


def spelled(a: str, b: str) -> bool:
    """One of two names is Latin letters and the other says them letter by letter in Hangul (or
    as the word Korean makes of them: ``READ_AS_WORDS``)."""
    latin, hangul = (a, b) if a.isascii() else (b, a)
    letters = latin.replace("-", "").replace(" ", "").lower()
    if len(letters) < 2 or not letters.isalpha() or not letters.isascii() or hangul.isascii():
        return False
    return _spelling(letters).fullmatch("".join(hangul.split())) is not None


def spelled_in(latin: str, compact: str) -> bool:
    """Is a Latin name said letter by letter in Hangul somewhere in a text (compact: no spaces)?
    "에이디는 안 들어가도 돼요" says AD (since lexical-43: the Hangul spelling was read only where
    the analyser took it for a name)."""
    letters = latin.replace("-", "").replace(" ", "").lower()
    if len(letters) < 2 or not letters.isalpha() or not letters.isascii():
        return False
    return _spelling(letters).search(compact) is not None


@lru_cache(maxsize=1 << 10)
def _spelling(letters: str) -> re.Pattern[str]:
    by_letter = "".join(f"(?:{LETTERS[c]})" for c in letters)
    word = READ_AS_WORDS.get(letters)
    return re.compile(f"(?:{by_letter}|{word})" if word else by_letter)


SURNAMES = frozenset(
    "김이박최정강조윤장임한오서신권황안송류유전홍고문양손배백허남심노하곽성차주우구민진나지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예봉경사부가복태목형피두감호제"
)
"""One-syllable Korean surnames (the common ones): 박지훈 is 박 + 지훈."""


def _given_name(a: str, b: str) -> bool:
    """One name is the other's given name (since lexical-24): colleagues say 지훈 for 박지훈, and
    지훈이 among friends (이 after a given name that ends in a consonant; since lexical-47)."""
    full, given = (a, b) if len(a) > len(b) else (b, a)
    if not all("가" <= c <= "힣" for c in full):
        return False
    if len(given) == 2 and full == given + "이" and (ord(given[-1]) - 0xAC00) % 28:
        return True
    return len(full) == 3 and len(given) == 2 and full[0] in SURNAMES and full[1:] == given


def shown(v: Value) -> str:
    """``v`` as a rationale names it: a vague date with the period it was read as (이번 달 말
    (2027-03 말)), since the same words name another period in another text."""
    if v.type == "vague-date" and len(v.key) == 2:
        period = v.key[1]
        where = f"{period[1]}-{period[2]:02d}" if period[0] == "month" else str(period[1])
        if period[0] == "quarter":
            where = f"{period[1]} Q{period[2]}"
        part = f" {period[-1]}" if period[0] != "quarter" else ""
        return f"{v.text} ({where}{part})"
    return v.text


def _canon(d: Decimal) -> str:
    return format(d.normalize(), "f")


def _free(mask: list[bool], start: int, end: int) -> bool:
    return not any(mask[start:end])
