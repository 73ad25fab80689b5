"""Judge verdicts: YES = 1, PARTIAL = 0.5, NO = 0, UNPARSEABLE = no score (docs/metrics.md).

An unparseable verdict is kept and counted on its own; it never silently becomes NO.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

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


_LABEL_WORDS: dict[str, Label] = {
    "YES": "YES",
    "PARTIAL": "PARTIAL",
    "NO": "NO",
    # Korean replies from small models: exact words only
    "예": "YES",
    "네": "YES",
    "부분": "PARTIAL",
    "부분적": "PARTIAL",
    "아니오": "NO",
    "아니요": "NO",
}
_TRIM = " \t\r\n\"'`*_.,!:;()[]{}<>「」『』"


def parse_label(text: str | None) -> Label | None:
    """The verdict word a judge returned, or None when it is not exactly one of them.

    Case, surrounding quotes, markup and punctuation are ignored (``" Partial. "`` -> PARTIAL);
    nothing else is interpreted: ``INCORRECT``, ``NOT YES``, ``YES/NO``, ``CORRECT``, ``YES, BUT
    NO`` and the empty string are None (unparseable), never a pass. A word is never searched for
    inside a longer text."""
    if not isinstance(text, str):
        return None
    word = text.strip(_TRIM).upper()
    return _LABEL_WORDS.get(word)


_VERDICT_LINE = re.compile(
    r"^[\s*#>\-]*[\"']?(?:verdict|판정|평가)[\"']?\s*[:：=]\s*(.+?)\s*$",
    re.IGNORECASE | re.MULTILINE,
)


def parse_free_text(raw: str) -> tuple[Label, str] | None:
    """(label, rationale) from a reply that is not the JSON asked for: either the whole reply is one
    verdict word, or exactly one ``verdict: X`` / ``판정: X`` line whose value is exactly a verdict
    word. Anything else is None. The rationale is the rest of the reply."""
    if not raw or not raw.strip():
        return None
    whole = parse_label(raw)
    if whole is not None:
        return whole, ""
    lines = _VERDICT_LINE.findall(raw)
    if len(lines) != 1:
        return None
    label = parse_label(lines[0])
    if label is None:
        return None
    rest = _VERDICT_LINE.sub("", raw).strip()
    return label, rest


class JudgeReply(BaseModel):
    """What an LLM judge must return (structured output)."""

    rationale: str = Field(
        description="One or two sentences: what matches, what is missing or wrong."
    )
    verdict: Literal["YES", "PARTIAL", "NO"] = Field(description="YES, PARTIAL or NO.")

    @field_validator("verdict", mode="before")
    @classmethod
    def _one_word(cls, value: Any) -> Label:
        label = parse_label(value)
        if label is None:
            raise ValueError(f"verdict must be exactly YES, PARTIAL or NO, got {str(value)[:40]!r}")
        return label


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
    return Tally(
        sum(counts.values()),
        counts["YES"],
        counts["PARTIAL"],
        counts["NO"],
        counts["UNPARSEABLE"],
        total / parsed if parsed else None,
    )
