"""The JSON the extractor and synthesizer must return (sent as Ollama ``format``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

CATEGORIES = ("decision", "commitment", "milestone", "status", "preference", "plan", "issue", "figure")
OPERATIONS = ("create", "update", "reinforce", "supersede")


class ExtractedObservation(BaseModel):
    text: str
    """The observation as one self-contained sentence."""
    category: Literal[CATEGORIES] = "status"
    who: str = ""
    what: str = ""
    when: str = ""
    where: str = ""
    why: str = ""
    confidence: float = Field(0.7, ge=0.0, le=1.0)


class Extraction(BaseModel):
    observations: list[ExtractedObservation]


class SynthesisChoice(BaseModel):
    operation: Literal[OPERATIONS]
    target: str = ""
    """Candidate label (F1, F2, ...) or "" for create."""
    text: str = ""
    """The resulting fact text (create/update/supersede)."""
    confidence: float = Field(ge=0.0, le=1.0)
    reason: str = ""
