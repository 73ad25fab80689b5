"""The JSON the extractor and synthesizer must return (sent as Ollama ``format``)."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, Field

Category = Literal[
    "decision", "commitment", "milestone", "status", "preference", "plan", "issue", "figure"
]
Operation = Literal["create", "update", "reinforce", "supersede"]
CATEGORIES = get_args(Category)
OPERATIONS = get_args(Operation)


class ExtractedObservation(BaseModel):
    text: str
    """The observation as one self-contained sentence."""
    category: Category = "status"
    who: str = ""
    what: str = ""
    when: str = ""
    where: str = ""
    why: str = ""
    confidence: float = Field(0.7, ge=0.0, le=1.0)


class Extraction(BaseModel):
    observations: list[ExtractedObservation]


class SynthesisChoice(BaseModel):
    operation: Operation
    target: str = ""
    """Candidate label (F1, F2, ...) or "" for create."""
    text: str = ""
    """The resulting fact text (create/update/supersede)."""
    confidence: float = Field(ge=0.0, le=1.0)
    reason: str = ""
