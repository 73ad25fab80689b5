"""Slot questions: what read-time asks about a claim, without its answer (docs/metrics.md#read-time-state).

A read-time lookup asks the system about the matter a claim settles, not for the claim itself: the
claim "한빛물류 월 이용료는 120만 원" is looked up and read with "한빛물류 월 이용료는?". Asked with
the claim, the query carries the answer (its value) and retrieval and the reader are handed what
they should find.

- The **subject** is the claim up to its first topic or subject particle (은/는/이/가: "Lambda는 …"
  keeps Lambda); a claim with none ends its subject at its first adverbial particle (에/으로 …:
  "… 대상에"), or else at its first word.
- The claim's **values** are its typed values (lexical.values: dates, times, amounts, counters,
  names) outside the subject. The question is the claim with each of them removed, with the
  particles fastened to it ("Fargate로" goes whole), and a question mark.
- A claim with no typed value outside its subject keeps its subject (and, without a topic or subject
  particle, every word but the last): "이사 업체는 한마음익스프레스" -> "이사 업체는?".

A corpus may write the questions itself (``slotQuestions``: claim -> question, per trajectory);
``validate`` checks that none states a value of its claim (:func:`leaks`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
    """The claim's expected values the question states (empty when it asks about the slot only)."""
    asked = lexical.values(question)
    return [
        v.text
        for v in values(claim)
        if v.text in question or any(lexical.same(v, q) for q in asked)
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
