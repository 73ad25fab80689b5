"""Character-bigram overlap for Korean text: the offline judge's measuring stick (docs/metrics.md).

Korean attaches particles and endings to words (``Aurora로``, ``데이터베이스를``), so whole-word
tokens rarely match across sentences; character bigrams inside each word do (the same tokenizer as
BM25, engine.tokenize). Numbers are compared separately, because a bigram set cannot tell
``3명`` from ``2명`` once the rest of the sentence matches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.tokenize import bigram_set as _memo_bigram_set

YES_RECALL = 0.8
"""theta_1: share of the expected text's bigrams found in the candidate for YES."""
PARTIAL_RECALL = 0.5
"""theta_2: ... for PARTIAL."""

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
HEDGES = ("또는", "혹은", "아니면", "이거나", "일 수도", "일수도", "수도 있", "아마", " or ", "maybe")
"""Markers of an answer that offers alternatives instead of committing to one value."""


def bigram_set(text: str) -> frozenset[str]:
    """Distinct bigrams of ``text`` (memoised in engine.tokenize: the judge re-reads the same claims)."""
    return _memo_bigram_set(text)


def numbers(text: str) -> set[str]:
    """Numbers in the text, thousands separators removed (``3,100`` -> ``3100``)."""
    out = set()
    for match in _NUMBER.findall(text):
        value = match.replace(",", "")
        if "." in value:
            value = value.rstrip("0").rstrip(".") or "0"
        out.add(value)
    return out


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


def hedged(text: str) -> bool:
    lowered = f" {text.lower()} "
    return any(marker in lowered for marker in HEDGES)


@dataclass(frozen=True)
class Match:
    """How one candidate text measures against one expected text."""

    recall: float
    f1: float
    missing_numbers: frozenset[str]
    """Numbers of the expected text absent from the candidate."""
    candidate_numbers: frozenset[str]
    hedge: bool

    @property
    def number_conflict(self) -> bool:
        """An expected number is missing while the candidate states other numbers (a wrong value)."""
        return bool(self.missing_numbers) and bool(self.candidate_numbers)


def measure(expected: str, candidate: str) -> Match:
    want = numbers(expected)
    have = numbers(candidate)
    return Match(recall(expected, candidate), f1(expected, candidate), frozenset(want - have),
                 frozenset(have), hedged(candidate))


def grade(match: Match, *, check_hedge: bool) -> tuple[str, str]:
    """(label, rationale) from a measurement, by the rules in docs/metrics.md."""
    figures = f"bigram recall {match.recall:.2f}, F1 {match.f1:.2f}"
    if match.number_conflict:
        missing = ", ".join(sorted(match.missing_numbers))
        return "NO", f"{figures}; expected number(s) {missing} absent while other numbers are stated"
    if check_hedge and match.hedge:
        return "NO", f"{figures}; the answer hedges between alternatives"
    if match.recall >= YES_RECALL and not match.missing_numbers:
        return "YES", f"{figures} >= {YES_RECALL}"
    if match.recall >= PARTIAL_RECALL:
        why = "expected numbers missing" if match.missing_numbers else f"recall < {YES_RECALL}"
        return "PARTIAL", f"{figures} >= {PARTIAL_RECALL} ({why})"
    return "NO", f"{figures} < {PARTIAL_RECALL}"


LENIENT_YES_RECALL = PARTIAL_RECALL
"""The lenient lexical judge's YES bar (theta_2 = 0.5)."""
LENIENT_PARTIAL_RECALL = 0.25
"""... and its PARTIAL bar."""


def grade_lenient(match: Match) -> tuple[str, str]:
    """The lenient rules (mirroring engine/prompts/judge_lenient.txt): no hedge rule, no number rule
    (the right value next to a wrong one passes, a wrong number passes), YES at recall >= 0.5,
    PARTIAL at recall >= 0.25. It exists to show offline what a generous grader lets through."""
    figures = f"bigram recall {match.recall:.2f}, F1 {match.f1:.2f} (lenient)"
    if match.recall >= LENIENT_YES_RECALL:
        return "YES", f"{figures} >= {LENIENT_YES_RECALL}"
    if match.recall >= LENIENT_PARTIAL_RECALL:
        return "PARTIAL", f"{figures} >= {LENIENT_PARTIAL_RECALL}"
    return "NO", f"{figures} < {LENIENT_PARTIAL_RECALL}"


def holds(claim: str, fact: str) -> bool:
    """True when the fact states the claim (the lexical judge would say YES)."""
    return grade(measure(claim, fact), check_hedge=False)[0] == "YES"


def related(claim: str, fact: str) -> bool:
    """True when the fact states at least part of the claim (claim bigram recall >= theta_2 with no
    number conflict), or is itself a fragment of the claim (the same, measured the other way)."""
    forward = measure(claim, fact)
    if forward.recall >= PARTIAL_RECALL and not forward.number_conflict:
        return True
    backward = measure(fact, claim)
    return backward.recall >= PARTIAL_RECALL and not backward.number_conflict
