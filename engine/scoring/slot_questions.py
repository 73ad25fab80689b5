"""Slot questions: what read-time asks about a claim, without its answer (docs/metrics.md#read-time-state).

A read-time lookup asks the system about the matter a claim settles, not for the claim itself: the
claim "한빛물류 월 이용료는 120만 원" is looked up and read with "한빛물류 월 이용료는?". Asked with
the claim, the query carries the answer (its value) and retrieval and the reader are handed what
they should find.

- The **subject** is the claim up to its first topic or subject particle (은/는/이/가: "Lambda는 …"
  keeps Lambda); a claim with none ends its subject at its first adverbial particle (에/으로 …:
  "… 대상에"), or else at its first word.
- The claim's **values** are its typed values (lexical.values: dates, times, amounts, counters,
  names) and its **frequencies** (:data:`FREQUENCY`: 분기마다, 매주, 격주, 주 2회, 하루 세 번 …,
  which the judge's value reader does not read as values) outside the subject. The question is the
  claim with each of them removed, with the particles fastened to it ("Fargate로", "격주로" go
  whole), and a question mark.
- A claim with no value outside its subject keeps its subject (and, without a topic or subject
  particle, every word but the last): "이사 업체는 한마음익스프레스" -> "이사 업체는?".

A corpus may write the questions itself (``slotQuestions``: claim -> question, per trajectory);
``validate`` checks that none states a value or a frequency of its claim (:func:`leaks`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from seorap.engine.normalise import NATIVE
from seorap.engine.scoring import lexical

if TYPE_CHECKING:
    from seorap.engine.corpus import Trajectory

CORPUS = "corpus"
GENERATED = "generated"

_TOPIC = frozenset({"은", "는", "이", "가"})
_ORPHAN = re.compile(r"(?:^|\s)[,·/&+]+(?=\s|$)")
_SPACES = re.compile(r"\s+")
_BOUND_AFTER = re.compile(
    r"\s*(?:말|초|중순|초순|하순|이하|이상|미만|초과|정도|가량|내외)(?![가-힣])"
)
_BOUND_BEFORE = re.compile(r"(?<![가-힣])(?:약|최대|최소|총)\s*$")
"""Words that belong to a value ("5월 말", "약 3TB", "0.1% 이하"): they go with it."""


_UNITS = {
    **dict.fromkeys(("하루", "일", "날", "아침", "저녁", "밤", "새벽", "평일"), (1, "day")),
    **dict.fromkeys(("주", "주일", "일주일", "주말"), (7, "day")),
    **dict.fromkeys(("달", "월", "개월"), (1, "month")),
    "분기": (3, "month"),
    "반기": (6, "month"),
    **dict.fromkeys(("년", "연", "해", "연도"), (12, "month")),
    "시간": (1, "hour"),
    "분": (1, "minute"),
}
"""A frequency's period word -> its length (a weekday's period is a week)."""
_N = r"\d+|" + "|".join(sorted(NATIVE, key=len, reverse=True))
_WEEKDAY = "[월화수목금토일]요일"
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))
_PERIOD = rf"(?:(?P<n>{_N})\s?)?(?P<unit>{_UNIT}|{_WEEKDAY})"
FREQUENCY = (
    rf"매\s?(?:(?P<n>{_N})\s?)?(?P<unit>분기|반기|시간|일|주|월|달|년|해|분|{_WEEKDAY})",
    rf"{_PERIOD}마다",
    r"격(?P<alternate>일|주|월|년)",
    rf"{_PERIOD}(?:에|당)?\s?(?P<times>{_N})\s?(?:회|번|차례)",
    r"(?P<by>일|주|월|분기|반기|연도|연|년)별",
)
"""How often, in the forms a claim states it: every period (매일, 매주, 매월, 매분기, 매 5분), each
period (분기마다, 3개월마다, 월요일마다), every other one (격주, 격월), times a period (주 2회, 월 1회,
연 2회, 하루 세 번, 한 달에 한 번) and by period (분기별). The judge's value reader
(lexical.values) reads none of them as a value: "분기마다 1회" gives it 1회 only. Each is a whole
word (nothing but a space or a mark before it) taken with 씩, the words that say when in that
period (:data:`WHEN`: "매일 새벽", "매주 월요일 아침") and a particle after it ("격주로",
"분기마다는"); a word that only begins like one is not one (매일유업, 매연, 10월 2회차), nor is a
monthly amount (월 49만 원: not how often) or a month (10월 2회: twice in October)."""
WHEN = f"새벽|아침|오전|오후|낮|점심|저녁|밤|{_WEEKDAY}"
"""Words after a frequency that say when in its period: part of the answer ("매일 새벽" left 새벽)."""
_FORMS = tuple(
    re.compile(
        rf"(?<![가-힣A-Za-z0-9])(?:{f})(?:씩)?(?:\s(?:{WHEN}))*"
        r"(?:에는|으로|에|로|은|는|도|의|마다)?(?![가-힣A-Za-z0-9])"
    )
    for f in FREQUENCY
)


@dataclass(frozen=True)
class Frequency:
    """One frequency of a text (:data:`FREQUENCY`)."""

    text: str
    """As the text writes it, with its 씩 and particle."""
    start: int
    end: int
    every: tuple[int, str]
    """Its period: (length, day | month | hour | minute); 격주 (14, "day"), 분기마다 (3, "month")."""
    times: int | None
    """How many times a period (주 2회: 2); None when it does not say."""


def frequencies(text: str) -> list[Frequency]:
    """The frequencies of ``text``, in order; of two that overlap, the longer."""
    found = [f for form in _FORMS for m in form.finditer(text) if (f := _frequency(m))]
    found.sort(key=lambda f: (f.start, f.start - f.end))
    out: list[Frequency] = []
    for f in found:
        if not out or f.start >= out[-1].end:
            out.append(f)
    return out


def _frequency(m: re.Match[str]) -> Frequency | None:
    got = m.groupdict()
    if got.get("alternate"):
        length, unit = _UNITS[got["alternate"]]
        every = (2 * length, unit)
    elif got.get("by"):
        every = _UNITS[got["by"]]
    elif got["n"] and got["unit"] == "월":  # 10월 is a month, not ten months (10개월)
        return None
    else:
        length, unit = (7, "day") if got["unit"].endswith("요일") else _UNITS[got["unit"]]
        every = ((_count(got["n"]) or 1) * length, unit)
    return Frequency(m.group(0), m.start(), m.end(), every, _count(got.get("times")))


def _count(word: str | None) -> int | None:
    if not word:
        return None
    return int(word) if word.isdigit() else NATIVE[word]


@dataclass(frozen=True)
class SlotQuestion:
    text: str
    kind: str
    """``corpus`` (the trajectory's ``slotQuestions``) or ``generated`` (:func:`generate`)."""


def subject_end(claim: str, morphs: tuple[lexical.Morph, ...] | None = None) -> tuple[int, bool]:
    """Where the claim's subject ends, and whether a topic or subject particle ends it."""
    found = lexical.morphemes(claim) if morphs is None else morphs
    for m in found:
        if m.tag in ("JX", "JKS") and m.form in _TOPIC:
            return m.end, True
    for m in found:
        if m.tag == "JKB":
            return m.end, False
    first = claim.strip().split(" ", 1)[0]
    return claim.find(first) + len(first), False


def values(claim: str) -> list[lexical.Value]:
    """The claim's expected values: its typed values outside its subject."""
    end, _ = subject_end(claim)
    return [v for v in lexical.values(claim) if v.start >= end]


@functools.lru_cache(maxsize=4096)
def generate(claim: str) -> str:
    """The claim's slot question (the rules in the module docstring); memoised: scoring asks for
    the same claims' questions again and again (the stale claims of every read)."""
    morphs = lexical.morphemes(claim)
    end, topic = subject_end(claim, morphs)
    spans = [(v.start, v.end) for v in lexical.values(claim) if v.start >= end]
    spans += [(f.start, f.end) for f in frequencies(claim) if f.start >= end]
    if not spans:
        kept = claim[:end] if topic else claim.rsplit(" ", 1)[0] if " " in claim[end:] else claim
        return _finish(kept)
    drop = [False] * len(claim)
    for start, stop in spans:
        stop = _particles_after(morphs, stop)
        if (after := _BOUND_AFTER.match(claim, stop)) is not None:
            stop = after.end()
        if (before := _BOUND_BEFORE.search(claim[:start])) is not None:
            start = before.start()
        for i in range(start, stop):
            drop[i] = True
    return _finish("".join(ch for ch, gone in zip(claim, drop) if not gone))


def _particles_after(morphs: tuple[lexical.Morph, ...], at: int) -> int:
    """``at`` moved past the particles fastened to the value ending there (no space between)."""
    for m in morphs:
        if m.start == at and (m.tag.startswith("J") or m.tag == "VCP"):
            at = m.end
    return at


def _finish(text: str) -> str:
    text = _SPACES.sub(" ", _ORPHAN.sub(" ", text)).strip(" ,.·/")
    return f"{text}?"


def leaks(claim: str, question: str) -> list[str]:
    """The claim's expected values and frequencies (outside its subject) the question states, in
    any notation (1,200,000원 for 120만 원; 매 분기 for 분기마다): empty when it asks about the slot
    only."""
    asked = lexical.values(question)
    said = [
        v.text
        for v in values(claim)
        if v.text in question or any(lexical.same(v, q) for q in asked)
    ]
    end, _ = subject_end(claim)
    often = {f.every for f in frequencies(question)}
    return said + [
        f.text
        for f in frequencies(claim)
        if f.start >= end and (f.text in question or f.every in often)
    ]


def warm(trajectories: list[Trajectory]) -> None:
    """Load the morpheme analyser now, in the calling thread, when any claim of ``trajectories``
    will have its slot question generated: its first use builds kiwipiepy's model while holding the
    interpreter for seconds, which inside a write worker held up Ctrl+C and the lease's release."""
    if lexical.warm():
        return
    if any(c not in t.slot_questions for t in trajectories for s in t.states for c in s.claims):
        lexical.morphemes("서랍을 열었다")


def question_for(trajectory: Trajectory, claim: str) -> SlotQuestion:
    """The corpus's question for the claim when it writes one, else the generated one."""
    written = trajectory.slot_questions.get(claim)
    if written:
        return SlotQuestion(written, CORPUS)
    return SlotQuestion(generate(claim), GENERATED)
