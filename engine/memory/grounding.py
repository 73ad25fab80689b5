"""Is an extracted observation grounded in its document? (docs/models.md, "Grounding")

A small model writes observations that use only the document's words and still carry no fact of
it: the real 0.5B model turned the document's "09:31 차은호 (플랫폼팀장)" into observations like
"19:31 차은호 (플랫폼팀장)" — every word in the document, the time not. So an observation is
*ungrounded* when

- a **time** it states (``19:31``, ``9시 31분``: read through engine/normalise.py) is not one of the
  document's times (a whole hour may also be an hour the document implies: 2시 + 네 시간 = 6시);
- a **date** it states (``3월 6일``, ``2026-03-06``, a relative date read against the document's
  date) is not one of the document's dates nor the document's own date;
- a **number** it states (digits with 천/만/억, a native numeral before a counter, an amount in any
  unit normalise reads) is neither a number of the document nor one step of arithmetic on two of
  them (a sum, a difference, a product; the minutes between two of its times): the corpus's own
  claims derive values that way ("4명" from "다섯 명에서 한 명 빠진", "320만 원" from 8원 × 40만 건);
- a **name** it states (a capitalised Latin word, or what looks like a Korean person's name: three
  syllables once a particle is dropped, a common surname first, no verb ending last) is neither in
  the document nor, through the corpus glossary, another name of one in it; or
- none of its **content words** is a document word or shares its stem with one.

:func:`ungrounded` says why, in a few words, or returns None. It is a cheap, conservative lexical
check that never calls a model: a paraphrase with new words but the same values passes, and a
small count the document implies passes too (it catches a changed digit in a copied time, date or
amount, not every invented small number).
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from seorap.engine import normalise

if TYPE_CHECKING:
    from seorap.engine.scoring.glossary import Glossary

_WORD = re.compile(r"\w+")
_LATIN_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*\b")
_TIME = re.compile(r"(?:(오전|오후)\s*)?(?<![\d:.])(\d{1,2}):(\d{2})(?![\d:])")
_CLOCK_KO = re.compile(
    r"(?:(오전|오후|새벽|저녁|밤)\s*)?(?<!\d)(\d{1,2})\s*시(?!간)(?:\s*(\d{1,2})\s*분|\s*(반))?"
)
"""A Korean clock time, read as engine/normalise.py reads it (9시 31분 = 09:31, 오후 3시 = 15:00)."""
_NUMBER = re.compile(
    r"(?<![\d.,])(?:\d+(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?)(?:\s*(?:천만|백만|십만|조|억|만|천))?"
)
_NATIVE = re.compile(
    r"(?<![가-힣])("
    + "|".join(sorted(normalise.NATIVE, key=len, reverse=True))
    + r")\s*(명|분|개|건|곳|시간|번|배|주|달|차|가지|팀|대|살|시)"
)
_PARTICLES = tuple(
    sorted(
        "에게서 께서 에게 한테 님이 님은 님의 님 씨 이 가 은 는 을 를 의 와 과 도 만 로 으로 에 에서 "
        "까지 부터 보다 처럼 에는 에도 로는 으로는 과의 와의 이라고 라고 이다 이며 이고".split(),
        key=len,
        reverse=True,
    )
)
_VERB_ENDINGS = frozenset("다요고며서게지면니까음함됨")
SURNAMES = frozenset(
    "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진나지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉사부"
)
DateKey = tuple[int | None, int, int]


def values(text: str) -> list[str]:
    """Times, dates and numbers stated in ``text`` (as written)."""
    times, dates, rest = _spans(text, None)
    return [t for t, _ in times] + [d for d, _ in dates] + [n for n, _ in _numbers(rest)]


def names(text: str) -> list[str]:
    """Words that look like names: capitalised Latin words, Hangul surname + 2 syllables (after
    a particle is dropped: "문제로" is 문제 + 로, not a name)."""
    out = _LATIN_NAME.findall(text)
    for word in _WORD.findall(text):
        stem = _strip_particle(word)
        if (
            len(stem) == 3
            and _hangul(stem)
            and stem[0] in SURNAMES
            and stem[-1] not in _VERB_ENDINGS
        ):
            out.append(stem)
    return out


def _strip_particle(word: str) -> str:
    for p in _PARTICLES:
        if word.endswith(p) and len(word) - len(p) >= 2:
            return word[: -len(p)]
    return word


def _hangul(word: str) -> bool:
    return all("\uac00" <= ch <= "\ud7a3" for ch in word)


def _stem(word: str) -> str:
    """The part two words must share to count as one: two Hangul syllables (a Korean word's stem
    before its particle or ending), else four letters."""
    return word[:2] if _hangul(word[:2]) else word[:4]


def _in_words(word: str, known: frozenset[str]) -> bool:
    if word in known:
        return True
    stem = _stem(word)
    return len(stem) >= 2 and any(k.startswith(stem) for k in known)


# ---- reading values -------------------------------------------------------------------------------
def _clock(h: int, m: int, half: str | None) -> str:
    return f"{h + (12 if half in ('오후', '저녁', '밤') and h < 12 else 0):02d}:{m:02d}"


def _spans(text: str, ref: dt.date | None) -> tuple[list[tuple[str, str]], list, str]:
    """(times as (written, HH:MM), dates as (written, key or None), the text without them)."""
    times: list[tuple[str, str]] = []
    rest = text
    for m in _TIME.finditer(text):
        times.append((m[0].strip(), _clock(int(m[2]), int(m[3]), m[1])))
    rest = _TIME.sub(" ", rest)
    for m in _CLOCK_KO.finditer(rest):
        times.append((m[0].strip(), _clock(int(m[2]), int(m[3] or (30 if m[4] else 0)), m[1])))
    rest = _CLOCK_KO.sub(" ", rest)
    dates = []
    pieces, pos = [], 0
    for f in normalise.dates(rest, ref):
        dates.append((rest[f.start : f.end].strip(), f.key))
        pieces.append(rest[pos : f.start])
        pos = f.end
    pieces.append(rest[pos:])
    return times, dates, " ".join(pieces)


def _numbers(text: str) -> list[tuple[str, Decimal]]:
    out = []
    for m in _NUMBER.finditer(text):
        try:
            out.append((m[0].strip(), normalise.number(m[0])))
        except (ValueError, ArithmeticError):
            continue
    out += [(m[0], Decimal(normalise.NATIVE[m[1]])) for m in _NATIVE.finditer(text)]
    return out


def _date(text: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat((text or "")[:10])
    except ValueError:
        return None


class _Document:
    """What an observation is checked against: the document's times, dates, numbers (and what one
    step of arithmetic makes of them), words and text with glossary names made canonical."""

    def __init__(self, text: str, date: str | None, glossary: Glossary | None) -> None:
        self.text = text
        self.ref = _date(date)
        times, dates, rest = _spans(text, self.ref)
        self.times = {t for _, t in times}
        self.dates: set[DateKey] = {k for _, k in dates if k is not None}
        if self.ref is not None:
            self.dates.add((self.ref.year, self.ref.month, self.ref.day))
        base = {n for _, n in _numbers(rest)} | {
            Decimal(x) for t in self.times for x in t.split(":")
        }
        base |= {Decimal(x) for k in self.dates for x in k if x is not None}
        base |= _gaps(self.times)
        self.numbers = frozenset(_plain(x) for x in base)
        self.words = frozenset(w for w in _WORD.findall(text) if not w.isdigit())
        self.glossary = glossary
        self.canonical = glossary.apply(text)[0] if glossary else text

    def has_time(self, hhmm: str) -> bool:
        if hhmm in self.times:
            return True
        h, m = hhmm.split(":")
        return m == "00" and _derivable(Decimal(int(h)), self.numbers)

    def has_date(self, key: DateKey | None) -> bool:
        if key is None:  # vague ("다음 달 초"): not a value to check
            return True
        y, m, d = key
        return any((m, d) == (k[1], k[2]) and None in (y, k[0]) or key == k for k in self.dates)

    def has_name(self, name: str) -> bool:
        if name in self.text or name.lower() in self.text.lower():
            return True
        if self.glossary:
            own = self.glossary.apply(name)[0]
            return own != name and own.lower() in self.canonical.lower()
        return False


def _gaps(times: set[str]) -> set[Decimal]:
    """Minutes (and seconds) between two of the document's times: "02:10부터 03:05까지" is 55분."""
    minutes = sorted({int(t[:2]) * 60 + int(t[3:]) for t in times})
    out: set[Decimal] = set()
    for i, a in enumerate(minutes):
        for b in minutes[i + 1 :]:
            out |= {Decimal(b - a), Decimal((b - a) * 60), Decimal(b - a) / 60}
    return out


def _derivable(v: Decimal, base: frozenset[Decimal]) -> bool:
    """``v`` is one of ``base`` or one step of arithmetic on two of them (a + b, |a - b|, a × b):
    looked up per value, O(len(base)), instead of building every pair's results."""
    if v in base:
        return True
    for a in base:
        if _plain(v - a) in base or _plain(a + v) in base:
            return True
        if a != 0 and _plain(v / a) in base:
            return True
    return False


def _plain(x: Decimal) -> Decimal:
    try:
        return x.normalize()
    except InvalidOperation:
        return x


_READ: dict[tuple[str, str | None, int], _Document] = {}
_READ_MAX = 8
_READ_LOCK = threading.Lock()


def _document(text: str, date: str | None, glossary: Glossary | None) -> _Document:
    """A document read once for all its observations (the stepper checks ~60 per step); the
    glossary is told apart by identity (the read document keeps it alive while cached)."""
    key = (text, date, id(glossary))
    with _READ_LOCK:
        doc = _READ.get(key)
    if doc is None:
        doc = _Document(text, date, glossary)
        with _READ_LOCK:
            if len(_READ) >= _READ_MAX:
                _READ.pop(next(iter(_READ)))
            _READ[key] = doc
    return doc


def ungrounded(
    text: str, document: str, date: str | None = None, glossary: Glossary | None = None
) -> str | None:
    """Why ``text`` is not grounded in ``document`` (a few words), or None when it is.
    ``date``: the document's date (ISO; it grounds that day and reads relative dates);
    ``glossary``: the corpus's aliases (engine/scoring/glossary.py)."""
    doc = _document(document, date, glossary)
    times, dates, rest = _spans(text, doc.ref)
    for written, hhmm in times:
        if not doc.has_time(hhmm):
            return f"the value {written!r} is not in the document"
    for written, key in dates:
        if not doc.has_date(key):
            return f"the value {written!r} is not in the document"
    for written, n in _numbers(rest):
        if not _derivable(_plain(n), doc.numbers):
            return f"the value {written!r} is not in the document"
    for name in names(text):
        if not doc.has_name(name):
            return f"the name {name!r} is not in the document"
    content = [w for w in _WORD.findall(text) if len(w) >= 2 and not w.isdigit()]
    if content and not any(_in_words(w, doc.words) for w in content):
        return "none of its words is in the document"
    return None
