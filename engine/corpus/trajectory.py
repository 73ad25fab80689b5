"""A trajectory and its parts, as parsed from one JSON file (docs/corpus-format.md).

Field names on disk follow the FEB-30 paper (camelCase); in Python they are snake_case. Loading a
corpus of them is engine/corpus/__init__.py; checking one is engine/corpus/validate.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

Category = Literal["C1", "C2", "C3", "C4", "C5", "C6"]
Difficulty = Literal["L1", "L2", "L3"]
TrajectoryType = Literal[
    "linear-evolution", "contradiction", "scope-expansion", "retraction", "stable", "gradual-drift"
]
Action = Literal["create", "update", "reinforce", "conflict", "supersede"]
DocType = Literal["meeting", "slack", "email", "ticket", "wiki"]

CATEGORY_NAMES: dict[str, str] = {
    "C1": "LLM compensation",
    "C2": "retrieval bottleneck",
    "C3": "update vs reinforce",
    "C4": "integration and ordering",
    "C5": "temporal evolution",
    "C6": "multiple authors",
}


class _Model(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="ignore", frozen=True
    )


class Author(_Model):
    name: str
    """Who wrote the document."""
    role: str = ""
    """Their role at the company (team lead, SRE, finance...)."""


class Document(_Model):
    id: str
    """Unique across the corpus."""
    type: DocType
    """meeting | slack | email | ticket | wiki."""
    author: Author
    title: str = ""
    text: str
    """The document body. Untrusted: never interpreted as markup or instructions."""

    @property
    def word_count(self) -> int:
        return len(self.text.split())


class Distractor(Document):
    after_state: int
    """The distractor arrives right after the document of this state index."""


class QA(_Model):
    question: str
    answer: str


class SingleQA(QA):
    state: int | None = None
    """Index of the state whose claims hold the answer; the final state when absent."""
    paraphrase: bool = False
    """True when the wording deliberately differs from the documents (a retrieval test)."""


def parse_timestamp(value: str) -> datetime:
    """ISO date or date-time; a bare date means midnight."""
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return datetime.combine(date.fromisoformat(value), datetime.min.time())


class State(_Model):
    index: int
    """Position in arrival order, 0..n-1."""
    timestamp: str
    """ISO date of the document; may go backwards (a late-arriving older document)."""
    action: Action
    """The expected memory operation for this document."""
    confidence: float = Field(ge=0.0, le=1.0)
    """Expected confidence of the topic's fact after this state."""
    claims: list[str]
    """Full expected store content after this state (the scorer's view)."""
    doc_claims: list[str] = []
    """What this document newly says (the writer's view)."""
    stale_claims: list[str] = []
    """Values that must no longer be held after this state."""
    change_reason: str | None = None
    document: Document

    @field_validator("timestamp")
    @classmethod
    def _iso(cls, value: str) -> str:
        try:
            parse_timestamp(value)
        except ValueError as exc:
            raise ValueError(f"not an ISO date: {value!r}") from exc
        return value

    @property
    def when(self) -> datetime:
        return parse_timestamp(self.timestamp)


class Trajectory(_Model):
    id: str
    title: str
    subject: str = ""
    category: Category
    difficulty: Difficulty
    trajectory_type: TrajectoryType
    extrinsic_qa: list[QA] = Field(default=[], alias="extrinsicQA")
    single_qa: list[SingleQA] = Field(default=[], alias="singleQA")
    states: list[State]
    distractors: list[Distractor] = []
    slot_questions: dict[str, str] = Field(default={}, alias="slotQuestions")
    """Claim -> the question read-time asks about it, without its values
    (engine/scoring/slot_questions.py generates one for a claim missing here)."""

    @property
    def final(self) -> State:
        return self.states[-1]

    def arrivals(self) -> Iterator[Arrival]:
        """Documents in arrival order: each state's document, then distractors placed after it."""
        position = 0
        for state in self.states:
            yield Arrival(position, state.index, state.document, state.timestamp, None)
            position += 1
            for distractor in self.distractors:
                if distractor.after_state == state.index:
                    yield Arrival(position, state.index, distractor, state.timestamp, distractor)
                    position += 1

    def all_claims(self) -> list[str]:
        """Distinct claim strings over all states, in first-seen order."""
        seen: dict[str, None] = {}
        for state in self.states:
            for claim in state.claims:
                seen.setdefault(claim, None)
        return list(seen)


@dataclass(frozen=True)
class Arrival:
    """One document arriving at the memory system."""

    position: int
    """Arrival order within the trajectory, counting distractors."""
    state_index: int
    """The state this document belongs to (for a distractor: the state it follows)."""
    document: Document
    timestamp: str
    """Document date: the state's date (distractors share the date of the state they follow)."""
    distractor: Distractor | None

    @property
    def is_distractor(self) -> bool:
        return self.distractor is not None
