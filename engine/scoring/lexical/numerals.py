"""Numbers said in words, read as their digits.

People write a number in words as often as in digits: 스무 명, 세 군데, 석 달, 열두 시, 사흘 뒤,
삼월 사일, 오천 원. A value said so must read exactly as the same value in digits, or a right
answer is graded against a value it does not seem to hold. So the values of a text are found in a
copy of it where each such number is written in digits (``as_digits``), and each value's place is
mapped back to the words it came from.

What is read, and where (each needs the word after it; a bare 네, 세 or 이 is never a number):

- a native numeral of 1-99 before a counter (한 명, 스무 곳, 서른두 개, 열한 시), and 석 and 넉
  before 달; after a native numeral 분 counts people (네 분 = 4명: minutes are said in Sino-Korean,
  십 분);
- a native count of days (이틀, 사흘, 나흘, 닷새, 엿새, 이레, 여드레, 아흐레, 열흘, 보름; 하루
  only before 뒤/후/전/만에/동안, as 하루에 says "per day");
- a month named in Sino-Korean (삼월, 시월, 십이월), with its day (사일, 이십오일) if one follows;
  이월 alone is left as it is (it also means carried over);
- a Sino-Korean number with at least one of 십, 백, 천, 만, 억 before a counter (오십 명, 삼천만 원;
  one syllable alone, 오 or 사, is too often part of a word), or of three syllables or more before a
  space and any word (천오백 상자: the digits as a bare number, which is how 1,500상자 reads; two
  syllables are too often a name or a phrase: 이천 공장, 천만 다행).

A counter said another way is written as the counter of the same digits (사람 → 명, 군데 → 곳,
달 → 개월, 차례 → 회, 해 → 년).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

ONES = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9}
TENS = {
    "열": 10,
    "스물": 20,
    "서른": 30,
    "마흔": 40,
    "쉰": 50,
    "예순": 60,
    "일흔": 70,
    "여든": 80,
    "아흔": 90,
}
DAYS = {
    "이틀": 2,
    "사흘": 3,
    "나흘": 4,
    "닷새": 5,
    "엿새": 6,
    "이레": 7,
    "여드레": 8,
    "아흐레": 9,
    "열흘": 10,
    "보름": 15,
}
SINO = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
MONTHS = {**SINO, "유": 6, "시": 10, "십": 10, "십일": 11, "십이": 12}
"""Months named in Sino-Korean (유월, 시월: the spoken forms of 6 and 10)."""
SMALL = {"십": 10, "백": 100, "천": 1000}
LARGE = {"만": 10**4, "억": 10**8}

SAID_AS = {"사람": "명", "군데": "곳", "달": "개월", "차례": "회", "해": "년"}
"""Counters written another way with digits."""
NATIVE_SAID_AS = {**SAID_AS, "분": "명"}
"""After a native numeral, 분 is the honorific counter of people (세 분), never minutes."""

_NATIVE_COUNTERS = (
    "킬로그램|킬로미터|킬로리터|킬로|키로|리터|톤|"
    "명|사람|분|곳|군데|개월|개|달|건|대|번|권|장|차례|시간|시|주|살|가지|마리|척|채|잔|병|벌|그루|해|평|"
    "세트|칸|상자|박스|켤레|타임|바퀴|통|되|자루|송이|포기|컷|동|배|점|봉지|포대|봉|단|시리즈|발|"
    r"(?<=\s)돈"  # 한 돈 of gold, not 한돈 (a brand of pork): after a space only (lexical-46)
)
_SINO_COUNTERS = "명|원|분|초|층|번|회|건|개월|개|퍼센트|프로|년|일|주|킬로|미터|톤|평|호실|호|위|등|점|세|달러|밀리|미리"
_AFTER = (
    r"(?=$|[^가-힣]|(?:이|가|은|는|을|를|의|에|에서|으로|로|과|와|도|만|씩|까지|부터|이다|입니다|"
    r"이에요|예요|이고|이며|이나|인|일|이라|뿐|짜리|께|쯤|정도|간|동안|뒤|후|전|반|이상|이하|가량|남짓|"
    r"밖에|한테|에게|요|랑|이랑|하고|당|까진|부턴|엔|에는|에선|이면|면))"
)
"""What may follow a counter: the end of its word or a particle (네 명이, 두 곳에서, 세 시 반,
세 시요, 두 개랑);
세 대학 and 두 시즌 hold no number, and 두 번째 is an order, not a count."""

_ONES = "|".join(sorted(ONES, key=len, reverse=True))
_TENS = "|".join(sorted(TENS, key=len, reverse=True))
_NATIVE = re.compile(
    rf"(?<![가-힣0-9.,])(?:(?P<tens>{_TENS})(?P<ones>{_ONES})?|(?P<twenty>스무)|(?P<one>{_ONES})"
    rf"|(?P<three>석)(?=\s*달)|(?P<four>넉)(?=\s*달))\s*(?P<counter>{_NATIVE_COUNTERS}){_AFTER}"
)
_DAYS = re.compile(
    r"(?<![가-힣0-9.,])(?:(?P<days>"
    + "|".join(DAYS)
    + r")(?=$|[^가-힣]|[이가은는을를의에도만째간뒤후전치]"
    r"|동안|까지|부터|쯤)|(?P<one>하루)(?=\s*(?:뒤|후|전|만에|동안)))"
)
_SINO_DIGIT = "[일이삼사오육칠팔구]"
_GROUP = rf"(?:{_SINO_DIGIT}?천)?(?:{_SINO_DIGIT}?백)?(?:{_SINO_DIGIT}?십)?{_SINO_DIGIT}?"
_SINO = re.compile(
    rf"(?<![가-힣0-9.,])(?<![0-9] )(?P<number>(?:{_GROUP}억\s?)?(?:{_GROUP}만\s?)?{_GROUP})"
    rf"\s*(?P<counter>{_SINO_COUNTERS}){_AFTER}"
)
_SINO_BEFORE_WORD = re.compile(
    rf"(?<![가-힣0-9.,])(?<![0-9] )(?P<number>(?:{_GROUP}억\s?)?(?:{_GROUP}만\s?)?{_GROUP})(?=\s+[가-힣])"
)
_MONTH = "십일|십이|" + "|".join(k for k in MONTHS if len(k) == 1)
_DAY = rf"(?:[이삼]?십)?{_SINO_DIGIT}?"
_SINO_DATE = re.compile(
    rf"(?<![가-힣0-9.,])(?P<month>{_MONTH})월(?:\s*(?P<day>{_DAY})일)?"
    r"(?=$|[^가-힣]|에|의|은|는|이|입|예요|였|부터|까지|중|말|초|께|쯤|로|으로|과|와|도|만|경)"
)


def sino(words: str) -> int | None:
    """The value of a Sino-Korean number in words (삼천만 → 30000000, 이십오 → 25); None when
    it holds no digit or multiplier."""
    total, section, digit = 0, 0, None
    for ch in words.replace(" ", ""):
        if ch in SINO:
            digit = SINO[ch]
        elif ch in SMALL:
            section += (digit or 1) * SMALL[ch]
            digit = None
        elif ch in LARGE:
            total += (section + (digit or 0) or 1) * LARGE[ch]
            section, digit = 0, None
        else:
            return None
    value = total + section + (digit or 0)
    return value or None


@dataclass(frozen=True)
class Rewritten:
    """A text with its numbers in words written in digits. For each character of ``text``:
    ``starts[i]``, where the words it comes from start in the original, and ``ends[i]``, where
    they end (one past)."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original place of ``text[start:end]``."""
        if end <= start:
            return self.starts[start], self.starts[start]
        return self.starts[start], self.ends[end - 1]

    def forward(self, original: int) -> int | None:
        """Where the original character at ``original`` is in ``text`` (None inside words that
        were rewritten)."""
        at = bisect.bisect_left(self.starts, original)
        if at < len(self.ends) and self.starts[at] == original and self.ends[at] == original + 1:
            return at
        return None


def _replacements(text: str) -> list[tuple[int, int, str]]:
    """(start, end, digits) for each number said in words, the first reading of a place kept."""
    out: list[tuple[int, int, str]] = []
    for found in (_dates(text), _pairs(text), _natives(text), _days(text), _sinos(text)):
        for start, end, digits in found:
            if not any(a < end and start < b for a, b, _ in out):
                out.append((start, end, digits))
    return sorted(out)


def _dates(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _SINO_DATE.finditer(text):
        month = MONTHS[m["month"]]
        if m["day"] is not None:
            day = sino(m["day"])
            if day is not None and day <= 31:
                yield m.start(), m.end(), f"{month}월 {day}일"
        elif m["month"] != "이":  # 이월 alone: carried over as often as February
            yield m.start(), m.end(), f"{month}월"


_AMOUNT_NEXT = (
    r"(?:\d|[일이삼사오육칠팔구십백천만]+\s*[가-힣]"
    r"|(?:한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|스무|스물|서른|마흔|쉰)\s*[가-힣])"
)
_MULTIPLIER_WORDS = frozenset({"십", "백", "천", "만", "억", "조"})
_PLAIN_TENS = "|".join(
    k for k in sorted(TENS, key=len, reverse=True) if k not in ("열", "쉰", "스물")
)
_PLAIN_ONES = "|".join(k for k in ONES if len(k) > 1)
_ONES_SAID = "하나|둘|셋|넷|다섯|여섯|일곱|여덟|아홉"
"""The ones said alone (셋, not 세): no counter (서른 여섯 is 36, not 30 여섯; lexical-46)."""
_ONES_ALONE = {"하나": 1, "둘": 2, "셋": 3, "넷": 4}
"""The ones said alone whose form differs from the one before a counter (셋, not 세)."""
_NATIVE_BARE = re.compile(
    rf"(?<![가-힣0-9.,])(?P<tens>{_TENS})(?P<ones>{_ONES_SAID})"
    r"(?=\s*$|\s*[^\s가-힣]|이요|이에요|예요|요|으로|로|이|은|는|을|를|에|까지|부터|씩)"
)
"""A native number of two parts said alone (서른여섯, 스물셋으로; since lexical-46): a number with
no counter, as 36 written alone."""
_NATIVE_ANY = re.compile(
    rf"(?<![가-힣0-9.,])(?:(?P<tens>{_TENS})(?P<ones>{_ONES})|(?P<plain>{_PLAIN_TENS})"
    rf"|(?P<twenty>스무)|(?P<one>{_PLAIN_ONES}))\s*(?!{_ONES_SAID})(?P<counter>[가-힣]{{1,2}}?){_AFTER}"
    rf"|(?<![가-힣0-9.,])(?:(?P<each>{_ONES}|열))\s*(?P<each_counter>[가-힣])(?=씩)"
    rf"|(?<![가-힣0-9.,])(?P<per>한)\s*(?P<per_counter>[가-힣]{{1,3}}?)(?=(?:에|당)\s*{_AMOUNT_NEXT})"
)
"""A native numeral before a counter of one syllable the list above does not name (예순두 근,
여섯 발, 스무 팩; since lexical-43), or of two (서른일곱 가마; since lexical-45): a numeral that is no other word says a count before any such
word; 한, 두, 세, 네 and 열 (also "a", 두다, 세다, "your", 열다) only with 씩 after it (세 발씩),
and 한 before any counter of a rate, 에 or 당 and an amount after it (한 봉지에 250개, 한 팩에
0.5킬로)."""


def _natives(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _NATIVE_BARE.finditer(text):
        said = _ONES_ALONE.get(m["ones"]) or ONES[m["ones"]]
        yield m.start(), m.end(), str(TENS[m["tens"]] + said)
    for m in _NATIVE.finditer(text):
        counter = m["counter"]
        yield m.start(), m.end(), f"{_native_number(m)}{NATIVE_SAID_AS.get(counter, counter)}"
    for m in _NATIVE_ANY.finditer(text):
        if m["per"]:
            if m["per_counter"] not in _MULTIPLIER_WORDS:  # 한 조에 여섯 명: no 1조 (a trillion)
                yield m.start(), m.end(), f"1{m['per_counter']}"
        elif m["each"]:
            n = TENS.get(m["each"]) or ONES[m["each"]]
            yield m.start(), m.end(), f"{n}{m['each_counter']}"
        else:
            n = TENS[m["plain"]] if m["plain"] else _native_number(m)
            yield m.start(), m.end(), f"{n}{m['counter']}"


def _native_number(m: re.Match[str]) -> int:
    if m["tens"]:
        return TENS[m["tens"]] + (ONES[m["ones"]] if m["ones"] else 0)
    if m["twenty"]:
        return 20
    if m.re is _NATIVE and (m["three"] or m["four"]):
        return 3 if m["three"] else 4
    return ONES[m["one"]]


NATIVE_PAIRS = {
    "한두": (1, 2), "두세": (2, 3), "서너": (3, 4), "네다섯": (4, 5), "너댓": (4, 5),
    "네댓": (4, 5), "대여섯": (5, 6), "예닐곱": (6, 7), "일여덟": (7, 8),
}  # fmt: skip
SINO_PAIRS = {
    "일이": (1, 2), "이삼": (2, 3), "삼사": (3, 4), "사오": (4, 5), "오륙": (5, 6),
    "육칠": (6, 7), "칠팔": (7, 8), "팔구": (8, 9),
}  # fmt: skip
"""Two neighbouring numbers said as one word (두세 명, 이삼일): a span, read as 2~3명, 2~3일."""
_NATIVE_PAIR = re.compile(
    rf"(?<![가-힣0-9.,])(?P<pair>{'|'.join(sorted(NATIVE_PAIRS, key=len, reverse=True))})"
    rf"\s*(?P<counter>{_NATIVE_COUNTERS}){_AFTER}"
)
_SINO_PAIR = re.compile(
    rf"(?<![가-힣0-9.,])(?P<pair>{'|'.join(SINO_PAIRS)})\s*(?P<counter>{_SINO_COUNTERS}){_AFTER}"
)


def _pairs(text: str) -> Iterator[tuple[int, int, str]]:
    for pattern, table, said_as in (
        (_NATIVE_PAIR, NATIVE_PAIRS, NATIVE_SAID_AS),
        (_SINO_PAIR, SINO_PAIRS, SAID_AS),
    ):
        for m in pattern.finditer(text):
            a, b = table[m["pair"]]
            counter = said_as.get(m["counter"], m["counter"])
            yield m.start(), m.end(), f"{a}~{b}{counter}"


def _days(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _DAYS.finditer(text):
        yield m.start(), m.end(), f"{DAYS[m['days']] if m['days'] else 1}일"


_FRACTION_DIGITS = {"영": "0", "공": "0", **{k: str(v) for k, v in SINO.items()}}
_SINO_DECIMAL = re.compile(
    rf"(?<![가-힣0-9.,])(?P<number>{_GROUP})\s*점\s*(?P<fraction>[영공일이삼사오육칠팔구]{{1,3}})"
    rf"\s*(?P<counter>{_SINO_COUNTERS}|도|그램|센티|리터|킬로미터|킬로그램)(?:{_AFTER}|(?=고))"
)
"""삼십구 점 이 도, 삼 점 오 킬로: a decimal said in words before its unit (since lexical-47)."""


def _sinos(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _SINO_DECIMAL.finditer(text):
        whole = sino(m["number"]) if m["number"] else None
        if whole is not None:
            fraction = "".join(_FRACTION_DIGITS[ch] for ch in m["fraction"])
            yield m.start(), m.end(), f"{whole}.{fraction}{m['counter']}"
    for m in _SINO.finditer(text):
        words = m["number"]
        if not any(ch in words for ch in "십백천만억"):
            continue  # one syllable (오, 사) is too often part of a word
        value = sino(words)
        if value is not None:
            counter = m["counter"]
            yield m.start(), m.end(), f"{value}{SAID_AS.get(counter, counter)}"
    for m in _SINO_BEFORE_WORD.finditer(text):
        words = m["number"].replace(" ", "")
        if len(words) < 3 or not any(ch in words for ch in "십백천만억"):
            continue  # 이천, 사천: towns; 천만 다행: a phrase
        value = sino(words)
        if value is not None:
            yield m.start(), m.end(), str(value)


def as_digits(text: str) -> Rewritten:
    """``text`` with each number said in words written in digits (module docstring)."""
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    at = 0
    for start, end, digits in _replacements(text):
        parts.append(text[at:start])
        starts.extend(range(at, start))
        ends.extend(range(at + 1, start + 1))
        parts.append(digits)
        starts.extend([start] * len(digits))
        ends.extend([end] * len(digits))
        at = end
    parts.append(text[at:])
    starts.extend(range(at, len(text)))
    ends.extend(range(at + 1, len(text) + 1))
    starts.append(len(text))  # one past the end maps to the end
    ends.append(len(text))
    return Rewritten("".join(parts), tuple(starts), tuple(ends))
