"""Judge verdicts: YES = 1, PARTIAL = 0.5, NO = 0, UNPARSEABLE = no score (docs/metrics.md).

An unparseable verdict is kept and counted on its own; it never silently becomes NO.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal

from pydantic import BaseModel, Field

Label = Literal["YES", "PARTIAL", "NO", "UNPARSEABLE"]
SCORES: dict[str, float | None] = {"YES": 1.0, "PARTIAL": 0.5, "NO": 0.0, "UNPARSEABLE": None}


@dataclass(frozen=True)
class Verdict:
    label: Label
    rationale: str = ""
    call_key: str | None = None
    """The model call that produced it (None for the lexical judge)."""
    cached: bool = False

    @property
    def score(self) -> float | None:
        return SCORES[self.label]


class JudgeReply(BaseModel):
    """What an LLM judge must return (structured output)."""

    rationale: str = Field(description="One or two sentences: what matches, what is missing or wrong.")
    verdict: Literal["YES", "PARTIAL", "NO"] = Field(description="YES, PARTIAL or NO.")


def label_of(score: float | None) -> Label:
    if score is None:
        return "UNPARSEABLE"
    return "YES" if score >= 1.0 else "PARTIAL" if score >= 0.5 else "NO"


@dataclass(frozen=True)
class Tally:
    n: int
    yes: int
    partial: int
    no: int
    unparseable: int
    mean: float | None
    """Mean score over parseable verdicts."""

    @property
    def partial_share(self) -> float | None:
        """Share of PARTIAL among parseable verdicts (saturation check)."""
        parsed = self.yes + self.partial + self.no
        return self.partial / parsed if parsed else None


def tally(labels: Iterable[str]) -> Tally:
    counts = {"YES": 0, "PARTIAL": 0, "NO": 0, "UNPARSEABLE": 0}
    for label in labels:
        counts[label] += 1
    parsed = counts["YES"] + counts["PARTIAL"] + counts["NO"]
    total = counts["YES"] + 0.5 * counts["PARTIAL"]
    return Tally(sum(counts.values()), counts["YES"], counts["PARTIAL"], counts["NO"],
                 counts["UNPARSEABLE"], total / parsed if parsed else None)
