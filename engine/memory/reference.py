"""Reference systems: no LLM on the write path (docs/design.md#the-memory-system). They calibrate the rulers.

- ``oracle``: after each state the active facts are exactly that state's claims. A claim that
  disappears is superseded, a new claim is created, a kept claim the document restates is reinforced.
- ``oracle-stale``: claims are added and reinforced but never removed (stale values stay).
- ``oracle-merged``: one fact per trajectory whose text joins all current claims into one long
  sentence, rewritten (update) whenever the claims change, reinforced when they do not.
- ``raw``: every sentence of every document (distractors included) appended as its own fact.

Each claim becomes an observation of the document; each operation is a recorded decision, so the
stepper shows reference systems like any other. Confidence: the state's expected confidence
(``raw``: 0.5, it has no opinion). Distractors change nothing in the oracles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from seorap.engine.corpus import State, Trajectory
from seorap.engine.memory.facts import DocumentWrite, Fact, Observation
from seorap.engine.memory.interface import Capabilities
from seorap.engine.memory.names import ORACLES as ORACLES  # re-exported
from seorap.engine.memory.names import REFERENCE_DESCRIPTIONS
from seorap.engine.memory.sentences import split_sentences

RAW_CONFIDENCE = 0.5


@dataclass(frozen=True)
class ReferenceSystem:
    name: str
    description: str
    uses_llm: bool = False

    def spec(self) -> dict:
        return {"kind": "reference", "name": self.name, "version": 1}

    @property
    def capabilities(self) -> Capabilities:
        """Native: it writes into the store itself, so operations, history and dates are ours."""
        return Capabilities(
            True, True, True, False, updates_at_write=self.name != "raw", reports_confidence=True
        )

    def write(self, doc: DocumentWrite, trajectory: Trajectory, ctx: object = None) -> None:
        WRITERS[self.name](doc, trajectory)


def _state(doc: DocumentWrite, trajectory: Trajectory) -> State:
    return trajectory.states[doc.arrival.state_index]


def _by_text(doc: DocumentWrite) -> dict[str, Fact]:
    return {f.text: f for f in doc.memory.active()}


def _observe_claims(doc: DocumentWrite, claims: list[str]) -> dict[str, Observation]:
    return {c: doc.observe(c, category="claim", what=c) for c in claims}


def _create(
    doc: DocumentWrite, text: str, confidence: float, obs: Observation | None, reason: str = ""
) -> Fact:
    fact = doc.create(text, confidence, obs)
    doc.decide(
        obs,
        candidates=[],
        raw_operation="create",
        operation="create",
        fact_id=fact.id,
        after=[fact.snapshot()],
        reason=reason,
    )
    return fact


def _apply(
    doc: DocumentWrite,
    fact: Fact,
    operation: str,
    obs: Observation | None,
    reason: str = "",
    **change: Any,  # DocumentWrite.change's keywords
) -> None:
    before = fact.snapshot()
    doc.change(fact, operation, obs, **change)
    doc.decide(
        obs,
        candidates=[{"fact_id": fact.id, "text": before["text"], "similarity": None}],
        raw_operation=operation,
        operation=operation,
        fact_id=fact.id,
        before=[before],
        after=[fact.snapshot()],
        reason=reason,
    )


def _grams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1) if not text[i : i + 2].isspace()}


SUCCESSOR_SHARE = 0.3
"""The oracle pairs a superseded claim with the new claim sharing the largest share of its
character bigrams, when that share reaches this; below it nothing replaced the claim (retracted)."""


def successor_of(old: str, new_claims: list[str]) -> str | None:
    """The new claim that replaced ``old``: the one holding the largest share of ``old``'s character
    bigrams (ties: the first in claim order), None when none reaches SUCCESSOR_SHARE."""
    grams = _grams(old)
    if not grams:
        return None
    best, share = None, 0.0
    for claim in new_claims:
        s = len(grams & _grams(claim)) / len(grams)
        if s > share:
            best, share = claim, s
    return best if share >= SUCCESSOR_SHARE else None


def write_oracle(doc: DocumentWrite, trajectory: Trajectory, remove_stale: bool = True) -> None:
    if doc.arrival.is_distractor:
        return
    state = _state(doc, trajectory)
    held = _by_text(doc)
    mentioned = _observe_claims(
        doc, list(dict.fromkeys(state.doc_claims + [c for c in state.claims if c not in held]))
    )
    created: dict[str, Fact] = {}
    for claim in state.claims:
        obs = mentioned.get(claim)
        if claim not in held:
            created[claim] = _create(
                doc,
                claim,
                _confidence(state),
                obs,
                "oracle: a new expected claim of this state",
            )
        elif obs is not None:
            _apply(
                doc,
                held[claim],
                "reinforce",
                obs,
                confidence=state.confidence,
                reason="oracle: this document restates an expected claim",
            )
    if remove_stale:
        for text, fact in held.items():
            if text not in state.claims:
                _supersede(doc, fact, created)


def _supersede(doc: DocumentWrite, fact: Fact, created: dict[str, Fact]) -> None:
    """Supersede a claim that left the expected claims, linked to the new claim that replaced it
    (paired by rule: :func:`successor_of`; none when it was retracted)."""
    new = successor_of(fact.text, list(created))
    reason = "oracle: no longer among this state's expected claims"
    reason += (
        f"; replaced by {created[new].id.rsplit('/', 1)[-1]} (the new claim sharing most of "
        "its wording)"
        if new
        else "; no new claim replaces it"
    )
    _apply(doc, fact, "supersede", None, reason=reason, status="superseded")
    if new:
        doc.link(fact.id, created[new].id)


def write_oracle_stale(doc: DocumentWrite, trajectory: Trajectory) -> None:
    write_oracle(doc, trajectory, remove_stale=False)


def merged_text(claims: list[str]) -> str:
    return ", ".join(claims) + "." if claims else ""


def write_oracle_merged(doc: DocumentWrite, trajectory: Trajectory) -> None:
    if doc.arrival.is_distractor:
        return
    state = _state(doc, trajectory)
    text = merged_text(state.claims)
    obs = _observe_claims(doc, state.doc_claims or state.claims)
    first = next(iter(obs.values()), None)
    active = doc.memory.active()
    if not active:
        _create(doc, text, _confidence(state), first)
        for extra in list(obs.values())[1:]:
            doc._support(active_fact(doc), extra)
        return
    fact = active[0]
    operation = "reinforce" if fact.text == text else "update"
    _apply(doc, fact, operation, first, text=text, confidence=state.confidence)
    for extra in list(obs.values())[1:]:
        doc._support(fact, extra)


def active_fact(doc: DocumentWrite) -> Fact:
    return doc.memory.active()[0]


def write_raw(doc: DocumentWrite, trajectory: Trajectory) -> None:
    for sentence in split_sentences(doc.arrival.document.text):
        obs = doc.observe(sentence, category="sentence", what=sentence)
        _create(doc, sentence, RAW_CONFIDENCE, obs)


WRITERS = {
    "oracle": write_oracle,
    "oracle-stale": write_oracle_stale,
    "oracle-merged": write_oracle_merged,
    "raw": write_raw,
}

REFERENCE_SYSTEMS = {
    name: ReferenceSystem(name, description) for name, description in REFERENCE_DESCRIPTIONS.items()
}
"""Every reference system by name (names and descriptions: engine/memory/names.py)."""


def _confidence(state: State) -> float:
    """The state's expected confidence; an imported set states none (and no claims to hold), so
    the middle of the scale stands in for the facts it never creates."""
    return 0.5 if state.confidence is None else state.confidence
