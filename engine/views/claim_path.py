"""One claim's journey as the stepper shows it: a line of stage marks, the loss point told from its
evidence, and where each piece of evidence is, so that one key reaches it
(docs/metrics.md#claim-journey): the observation (a document's log), the fact version (a
document's store), the ranking and the answer (a question of the questions view).

Built from the journey the scoring pass stored in the trajectory's card (no model call, no query):
once per step view, with it.

Under a judge the scoring found unreliable (the card's ``judge_unreliable``: engine/scoring/
ruler_marks.py), the stages whose own check reads the judge's YES/PARTIAL/NO labels (``LABELLED``)
show ``?`` instead of ✓ / ✗, and no loss point is named unless it comes before every one of them
(*said*, *extracted*): a later loss point, and "not lost", rest on the labelled stages before it
having passed. Every view that shows a path (the stepper, the tour) takes it from
:func:`claim_paths` and words it with :meth:`ClaimPath.conclusion`."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from seorap.engine.corpus import Corpus, Trajectory
from seorap.engine.corpus.gold import default_ledger, read, standing
from seorap.engine.errors import InputProblems
from seorap.engine.scoring.extrinsic import DEPTHS, TOP_K
from seorap.engine.scoring.journey import FAIL, NA, PASS, STAGES
from seorap.engine.scoring.ruler_marks import UNRELIABLE_MARK
from seorap.engine.store.database import db_file
from seorap.engine.views.common import item_label, latest_card
from seorap.engine.views.operations import short_id
from seorap.engine.views.verdicts import claim_journeys

MARKS = {PASS: "✓", FAIL: "✗", NA: "n/a"}
WITHHELD_MARK = "?"
"""A labelled stage's mark under an unreliable judge (its ✓ or ✗ would be the judge's word)."""
LABELLED = ("stored", "kept", "credited")
"""Stages whose own check reads the judge's labels: *stored* and *kept* the claim verdicts,
*credited* the answer's. *retrieved* (a fact stating the claim in the ranking) and *used* (the
answer states its values) are lexical checks, *said* and *extracted* the corpus's and the system's
own; the funnel's survival counts, cumulative, rest on the labels from *stored* on
(engine/scoring/ruler_marks.py JOURNEY_STAGES)."""
WITHHELD = "loss point withheld"
RULER_NOTE = f"({WITHHELD_MARK} = {UNRELIABLE_MARK}: see the judge audit)"


@dataclass(frozen=True)
class ClaimPath:
    """A claim's journey, ready to show and to follow."""

    item: str
    """The claim's item (``s0/c2``: where it is first expected)."""
    marks: tuple[tuple[str, str], ...]
    """(stage, ✓ / ✗ / n/a) in stage order."""
    loss: str | None
    """The first stage that fails (None: never lost)."""
    why: str
    """The loss point's evidence in words ("" when not lost)."""
    document: int | None
    """Arrival position of the document that says the claim (or where it is first expected)."""
    observation: str | None
    """The observation of that document that states it (None: none found, or the system reports
    none)."""
    fact: tuple[int, str] | None
    """(arrival position, fact id): the fact version the journey names — the one still stating a
    stale claim when lost at kept, else the one that keeps it (or stores it)."""
    question: str | None
    """The question whose ranking tells *retrieved* (the first that fails, else the first)."""
    rank: int | None
    """The best rank of a fact stating the claim in that question's memory ranking."""
    ranked_fact: str | None
    answer: str | None
    """The question whose answer tells *used* / *credited* (the first that fails, else the first)."""
    unreliable: str | None = None
    """Why the scoring's judge is unreliable (the card's ``judge_unreliable``); None: reliable.
    When set, ``loss`` is only ever *said* or *extracted* (see the module docstring)."""

    @property
    def withheld(self) -> bool:
        """The path's conclusion rests on an unreliable judge's labels: not named."""
        return self.unreliable is not None and self.loss is None

    def conclusion(self, evidence: bool = True) -> str:
        """``lost at kept (the store lost or outdated it): <evidence>``, ``not lost``, or under an
        unreliable judge ``loss point withheld (? = unreliable ruler: see the judge audit)``;
        ``evidence=False``: ``lost at kept`` alone."""
        if self.loss:
            told = f"{lost_at(self.loss)}: {self.why}" if evidence else f"lost at {self.loss}"
        else:
            told = WITHHELD if self.withheld else "not lost"
        return f"{told} {RULER_NOTE}" if self.unreliable and evidence else told

    def line(self) -> str:
        """``said ✓ → extracted ✓ → stored ✓ → kept ✗ → retrieved n/a → … · lost at kept``."""
        marks = " → ".join(f"{s} {m}" for s, m in self.marks)
        told = lost_at(self.loss) if self.loss else WITHHELD if self.withheld else "not lost"
        return f"{marks} · {told}" + (f" {RULER_NOTE}" if self.unreliable else "")


LOST_WORDS = {
    "said": "no document states it",
    "extracted": "the system did not take it from the document",
    "stored": "it never reached the store",
    "kept": "the store lost or outdated it",
    "retrieved": "the question's search did not find it",
    "used": "the answer did not use it",
    "credited": "the answer was not judged correct",
}
"""Each stage's loss in a newcomer's words, shown after "lost at STAGE" (the stored key)."""


def lost_at(stage: str) -> str:
    """``lost at kept (the store lost or outdated it)``: the stage and what that means."""
    words = LOST_WORDS.get(stage)
    return f"lost at {stage} ({words})" if words else f"lost at {stage}"


def positions(trajectory: Trajectory) -> dict[int, int]:
    """State index -> arrival position of that state's own document."""
    return {a.state_index: a.position for a in trajectory.arrivals() if a.distractor is None}


def _first(per_question: list[dict], ok: str = "ok") -> dict | None:
    """The first question that fails, else the first."""
    return next(
        (q for q in per_question if not q.get(ok)), per_question[0] if per_question else None
    )


def claim_path(journey: dict, at: dict[int, int], unreliable: str | None = None) -> ClaimPath:
    """The path of one stored journey (engine/scoring/journey.py); ``at``: ``positions``;
    ``unreliable``: why the scoring's judge is unreliable (None: reliable)."""
    stages = journey["stages"]
    said, stored, kept = stages["said"], stages["stored"], stages["kept"]
    doc = stored.get("position")
    if doc is None and said.get("state") is not None:
        doc = at.get(said["state"])
    fact = None
    if kept.get("fact") and kept.get("state") is not None and kept["status"] != NA:
        if kept["status"] == PASS or kept.get("why") == "stale value still active":
            fact = (at.get(kept["state"], doc or 0), kept["fact"])
    if fact is None and stored.get("fact") and doc is not None:
        fact = (doc, stored["fact"])
    ranked = _first(stages["retrieved"].get("per_question") or [])
    used = stages["used"].get("per_question") or []
    credited = stages["credited"].get("per_question") or []
    bad_use = next((q for q in used if not q.get("ok")), None)
    if unreliable:  # which answer was judged wrong is the judge's word: the first question
        answered = bad_use or (credited[0] if credited else None)
    else:
        answered = (
            bad_use or next((q for q in credited if not q.get("ok")), None) or _first(credited)
        )
    loss = _named(journey.get("loss"), unreliable)
    return ClaimPath(
        item=journey["item"],
        marks=tuple((s, _mark(s, stages[s]["status"], unreliable)) for s in STAGES),
        loss=loss,
        why=_why(journey, at) if loss else "",
        document=doc,
        observation=stages["extracted"].get("observation"),
        fact=fact,
        question=ranked["question"] if ranked else None,
        rank=ranked.get("rank") if ranked else None,
        ranked_fact=ranked.get("fact") if ranked else None,
        answer=answered["question"] if answered else None,
        unreliable=unreliable or None,
    )


def _named(loss: str | None, unreliable: str | None) -> str | None:
    """The loss point as it may be named: under an unreliable judge only one before every labelled
    stage (None otherwise: a later one, or none, rests on the labelled stages having passed)."""
    if not unreliable:
        return loss
    if loss is not None and STAGES.index(loss) < min(STAGES.index(s) for s in LABELLED):
        return loss
    return None


def _mark(stage: str, status: str, unreliable: str | None) -> str:
    if unreliable and stage in LABELLED and status != NA:
        return WITHHELD_MARK
    return MARKS.get(status, "?")


def _doc(at: dict[int, int], state: int | None) -> str:
    return f"doc {at[state] + 1}" if state is not None and state in at else "its document"


def _why(journey: dict, at: dict[int, int]) -> str:
    """The loss point's evidence in one clause."""
    loss = journey.get("loss")
    if loss is None:
        return ""
    e = journey["stages"][loss]
    if loss == "said":
        return "no document of its states lists it"
    if loss == "extracted":
        return f"no observation of {_doc(at, e.get('state'))} states it"
    if loss == "stored":
        label = f" (judge: {e['label']})" if e.get("label") else ""
        return f"no fact covers it after {_doc(at, e.get('state'))}{label}"
    if loss == "kept":
        if e.get("why") == "stale value still active":
            fact = short_id(e["fact"]) if e.get("fact") else "a fact"
            return f"{fact} still states it at {_doc(at, e.get('state'))}, after it became stale"
        label = f" (judge: {e['label']})" if e.get("label") else ""
        return f"no longer held at {_doc(at, e.get('state'))}{label}"
    q = next((q for q in e.get("per_question") or [] if not q.get("ok")), None) or {}
    name = item_label(q.get("question", "?"))
    if loss == "retrieved":
        if q.get("rank") is None:
            return f"{name}: no fact stating it in the top {max(DEPTHS)}"
        fact = f" ({short_id(q['fact'])})" if q.get("fact") else ""
        return f"{name}: its best fact{fact} ranks {q['rank']}, outside the top {TOP_K}"
    if loss == "used":
        missing = f" {q['missing']}" if q.get("missing") else " the claim"
        return f"{name}: the answer leaves out{missing}"
    return f"{name}: the answer was judged {q.get('label') or 'nothing'}"


def claim_paths(
    journeys: dict[str, dict] | None, trajectory: Trajectory, *, unreliable: str | None
) -> dict[str, ClaimPath]:
    """claim -> its path, for every claim with a stored journey; ``unreliable``: the card's
    ``judge_unreliable`` (required: a caller cannot forget it)."""
    if not journeys:
        return {}
    at = positions(trajectory)
    return {claim: claim_path(j, at, unreliable) for claim, j in journeys.items()}


def card_journeys(card: dict) -> dict[str, dict]:
    """claim -> its stored journey, from one score card (empty when scored before the journey)."""
    return {c["claim"]: c for c in (card.get("journey") or {}).get("claims") or []}


def card_paths(
    card: dict, trajectory: Trajectory, journeys: dict[str, dict] | None = None
) -> dict[str, ClaimPath]:
    """claim -> its path, from one score card, under its judge's reliability; ``journeys``: some
    of the card's journeys (all of them when not given)."""
    chosen = card_journeys(card) if journeys is None else journeys
    return claim_paths(chosen, trajectory, unreliable=card.get("judge_unreliable"))


def stored_paths(db: Database, run_id: str, trajectory: Trajectory) -> dict[str, ClaimPath]:
    """:func:`card_paths` of the card the run's latest scoring stored for ``trajectory`` (empty
    when unscored or scored before the journey)."""
    return card_paths(latest_card(db, run_id, trajectory.id), trajectory)


def contested(db: Database, corpus: Corpus, trajectory_id: str) -> dict[str, str]:
    """The gold contests in force for one trajectory in the ledger beside ``db`` (engine/corpus/
    gold.py): claim text or question item -> "who: reason"; empty when there is no ledger, it cannot
    be read (the score cards say why), or the database is in memory."""

    path = db_file(db)
    if not path or not default_ledger(path).exists():
        return {}
    try:
        entries = standing(read(default_ledger(path)), corpus.digest)
    except InputProblems:
        return {}
    return {
        (c.text if c.kind == "claim" else c.item): f"{c.who}: {c.reason}"
        for c in entries
        if c.trajectory == trajectory_id
    }


QUESTION_STAGES = ("retrieved", "used", "credited")
"""The journey's stages told by a question (its ranking, its answer)."""


def question_claim(
    journeys: dict[str, dict] | None, trajectory: Trajectory, item: str
) -> tuple[int, str] | None:
    """(arrival position, claim) of the claim whose journey a question leads to: the first claim
    lost at a stage this question tells, else the first whose journey names it at all; the
    position is the document of the state the claim is first expected at (its item ``s2/c0``).
    None when no stored journey names the question."""
    at = positions(trajectory)
    named: list[tuple[bool, str, int]] = []
    for claim, journey in (journeys or {}).items():
        stages = journey.get("stages") or {}
        tells = [
            q
            for s in QUESTION_STAGES
            for q in (stages.get(s) or {}).get("per_question") or []
            if q.get("question") == item
        ]
        state = _state_of(journey.get("item", ""))
        if tells and state in at:
            lost_here = journey.get("loss") in QUESTION_STAGES and not all(
                q.get("ok") for q in tells
            )
            named.append((not lost_here, claim, at[state]))
    if not named:
        return None
    _, claim, position = min(named, key=lambda n: n[0])  # stable: the journeys' own order
    return position, claim


def _state_of(item: str) -> int | None:
    """The state of a claim's item ``s2/c0`` (None for anything else)."""
    head, _, _ = item.partition("/")
    return int(head[1:]) if head[:1] == "s" and head[1:].isdigit() else None


def question_journey(
    db: Database, trajectory: Trajectory, run_id: str, item: str
) -> tuple[int, str] | None:
    """:func:`question_claim` over the journeys the run's latest scoring stored."""
    return question_claim(claim_journeys(db, run_id, trajectory.id), trajectory, item)
