"""A trajectory and its parts, as parsed from one JSON file (docs/corpus-format.md).

Field names on disk follow the FEB-30 paper (camelCase); in Python they are snake_case. Loading a
corpus of them is engine/corpus/__init__.py; checking one is engine/corpus/validate.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

Category = Literal["C1", "C2", "C3", "C4", "C5", "C6"]
Difficulty = Literal["L1", "L2", "L3"]
TrajectoryType = Literal[
    "linear-evolution", "contradiction", "scope-expansion", "retraction", "stable", "gradual-drift"
]
Action = Literal["create", "update", "reinforce", "conflict", "supersede"]
DocType = Literal["meeting", "slack", "email", "ticket", "wiki", "chat"]

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


class Turn(_Model):
    """One turn of a ``chat`` document (an imported session): who said it, what, and its own id."""

    speaker: str
    text: str
    id: str | None = None
    """The dataset's id of the turn (LoCoMo ``D1:3``), which questions cite as evidence."""
    has_answer: bool = False
    """The dataset marks this turn as holding a question's evidence (LongMemEval ``has_answer``)."""


def turns_text(turns: list[Turn]) -> str:
    """A chat document's text: one ``speaker: text`` line per turn."""
    return "\n".join(f"{turn.speaker}: {turn.text}" for turn in turns)


class Document(_Model):
    id: str
    """Unique across the corpus."""
    type: DocType
    """meeting | slack | email | ticket | wiki | chat."""
    author: Author
    title: str = ""
    text: str
    """The document body. Untrusted: never interpreted as markup or instructions. A ``chat``
    document may give ``turns`` instead; its text is then their ``speaker: text`` lines."""
    turns: list[Turn] = []
    source_id: str | None = None
    """The dataset's own id of an imported session (LongMemEval ``haystack_session_ids``)."""

    @model_validator(mode="before")
    @classmethod
    def _text_from_turns(cls, data: Any) -> Any:  # raw JSON, whatever it holds
        if isinstance(data, dict) and "text" not in data and isinstance(data.get("turns"), list):
            try:
                turns = [Turn.model_validate(turn) for turn in data["turns"]]
            except ValidationError:
                return data  # the turns' own problems are reported by the field's check
            return {**data, "text": turns_text(turns)}
        return data

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
    # Imported sets (docs/corpus-format.md#imported-sets): the dataset's own labels, kept as given.
    id: str | None = None
    """The dataset's id of the question (LongMemEval ``question_id``)."""
    kind: str | None = None
    """The dataset's own kind label: LoCoMo's category number ("1".."5"), LongMemEval's type."""
    kind_name: str | None = None
    """What that label means ("multi-hop" for LoCoMo's 1)."""
    evidence: list[str] = []
    """The dataset's evidence ids: LoCoMo turn ids (``D1:3``), LongMemEval session ids."""
    asked_at: str | None = None
    """ISO date-time the question is asked (LongMemEval ``question_date``)."""
    abstention: bool = False
    """The right answer is that the history does not say (LongMemEval ids ending ``_abs``)."""
    excluded: str | None = None
    """Why the item is not scored (LoCoMo adversarial items with no ``answer``)."""
    adversarial_answer: str | None = None
    """LoCoMo's ``adversarial_answer``: the tempting wrong answer, kept for reading."""


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
    action: Action | None = None
    """The expected memory operation for this document (absent in imported sets only)."""
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    """Expected confidence of the topic's fact after this state (absent in imported sets only)."""
    claims: list[str] = []
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


class Source(_Model):
    """Where an imported trajectory came from (``seorap import``)."""

    dataset: Literal["locomo", "longmemeval"]
    file: str
    """The source file's name (not its path: the corpus may move)."""
    sha256: str
    """The whole source file's SHA-256, so a score names the exact file it was made on."""
    dataset_version: Literal["original", "cleaned", "unknown"] = "unknown"
    """As the user declared it: LongMemEval's 2025 cleaned file cannot be told apart offline."""


class Trajectory(_Model):
    id: str
    title: str
    subject: str = ""
    language: str = Field(default="ko", pattern=r"^[a-z]{2,3}$")
    """The corpus's language as declared (ISO 639 code), never guessed from the text."""
    source: Source | None = None
    """Set on imported sets; they may leave category, difficulty, trajectoryType and claims out."""
    category: Category | None = None
    difficulty: Difficulty | None = None
    trajectory_type: TrajectoryType | None = None
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
