"""Demo tour (view 7): the run's own compensation and bottleneck cases, and the fallback
"store wrong, answer right" case caught by the stale-fact count. Each case is picked and told from
its claims' journeys (docs/metrics.md#claim-journey): a compensation case whose claims were lost in
the store (extracted, stored, kept) yet answered right, a bottleneck case whose claims were lost at
*retrieved*, each lost claim with its loss point and evidence."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from seorap.engine.corpus import Corpus, Trajectory
from seorap.engine.fmt import figure
from seorap.engine.scoring import diagnosis, journey, journey_story, metrics
from seorap.engine.scoring.answerers import OFFLINE as OFFLINE_ANSWERERS
from seorap.engine.scoring.holding import Held
from seorap.engine.scoring.stats import at_least
from seorap.engine.store.database import facts_at
from seorap.engine.store.queries import scores
from seorap.engine.views.claim_path import ClaimPath, card_paths
from seorap.engine.views.common import items_in_words, score_cards
from seorap.engine.views.holdings import held_for
from seorap.engine.views.questions import questions_view
from seorap.engine.views.runs import run_labels


@dataclass(frozen=True)
class TourStop:
    quadrant: str
    run_id: str
    system: str
    trajectory_id: str
    title: str
    intrinsic: float | None
    extrinsic: float | None
    diagnosis: str
    """The diagnosis sentence (engine/scoring/diagnosis.py) for this trajectory, built from this run's data."""
    story: str = ""
    """The case told from its claims' journeys (``3 claims lost at kept — the stale value stayed
    active``); "" when no claim was lost."""
    lost: tuple[tuple[str, ClaimPath], ...] = ()
    """(claim, path) of each claim lost, the quadrant's own losses first."""


TELLING = {"compensation": ("extracted", "stored", "kept"), "bottleneck": ("retrieved",)}
"""The loss points that tell a quadrant's story: claims lost in the store while the answers came
out right (compensation), claims stored but not reached (bottleneck)."""


def journey_told(
    card: dict, trajectory: Trajectory | None, quadrant: str | None
) -> tuple[str, tuple[tuple[str, ClaimPath], ...]]:
    """(story, lost claims with their paths) of a trajectory's card: the story without the
    quadrant's name (the caller says it), the quadrant's telling losses first."""
    claims = (card.get("journey") or {}).get("claims") or []
    lost = [c for c in claims if c.get("loss")]
    if not lost or trajectory is None or card.get("judge_unreliable"):
        return "", ()  # under an unreliable judge no loss point is told (claim_path.py)
    told = journey_story.story(quadrant, lost) or ""
    paths = card_paths(card, trajectory, {c["claim"]: c for c in lost})
    telling = TELLING.get(quadrant or "", ())
    order = sorted(
        paths.items(),
        key=lambda cp: (cp[1].loss not in telling, journey.STAGES.index(cp[1].loss or "said")),
    )
    return told.partition(": ")[2], tuple(order)


def _telling(card: dict, quadrant: str) -> int:
    """Claims of the card lost at a stage that tells the quadrant's story."""
    claims = (card.get("journey") or {}).get("claims") or []
    return sum(1 for c in claims if c.get("loss") in TELLING[quadrant])


TOUR_MARGIN = 0.25
"""A tour case needs |intrinsic - extrinsic| of at least this: a trajectory just across the 0.5
line on both sides (0.48 against 0.50) shows a quadrant, not a story worth presenting."""


def _gap(card: dict[str, Any]) -> float:
    gap: float = abs(card.get("signed_diff") or 0)
    return gap


def model_answerers(db: Database) -> dict[str, str]:
    """run id -> the model that answered its questions (the answerer of its latest scoring), for
    the runs whose answers a model wrote, not an offline reader: a compensation case is an
    answerer papering over a wrong store, which only a model's answers can show. Reads the run
    cards only (one per run), not the trajectories' cards."""
    out: dict[str, str] = {}
    for run_id in scores.scored_run_ids(db):
        latest = scores.latest_scoring(db, run_id)
        own = scores.run_card(db, run_id, latest) if latest else None
        try:
            answerer = str(json.loads(own or "{}").get("answerer") or "")
        except ValueError:  # a damaged run card: not known to be a model's answers
            answerer = ""
        if answerer and answerer not in OFFLINE_ANSWERERS:
            out[run_id] = answerer
    return out


def demo_tour(db: Database, corpus: Corpus) -> dict[str, TourStop | None]:
    """For 'compensation' and 'bottleneck': the scored trajectory with the widest gap, any run,
    when that gap is at least TOUR_MARGIN (else None: :func:`tour_gaps` says why); a compensation
    case from a model's answers before one from an offline reader's."""
    cards = score_cards(db)
    systems = run_labels(db)
    real = model_answerers(db)
    out: dict[str, TourStop | None] = {}
    for q in ("compensation", "bottleneck"):
        hits = [(k, c) for k, c in cards.items() if c.get("quadrant") == q]
        # real answers first (compensation), then a case whose journeys tell the quadrant's
        # story, then the widest gap
        hits.sort(
            key=lambda kc: (
                not at_least(_gap(kc[1]), TOUR_MARGIN),
                q == "compensation" and kc[0][0] not in real,
                -min(_telling(kc[1], q), 1),
                -_gap(kc[1]),
                kc[0],
            )
        )
        clear = hits and at_least(_gap(hits[0][1]), TOUR_MARGIN)
        out[q] = _tour_stop(q, hits[0], systems, corpus) if clear else None
    return out


def tour_gaps(db: Database) -> dict[str, str]:
    """Why the tour has no case for a quadrant, per quadrant it has none for: the judge is
    unreliable (quadrants withheld), no trajectory is in the quadrant, or none by a clear margin."""
    cards = score_cards(db)
    out: dict[str, str] = {}
    for q in ("compensation", "bottleneck"):
        hits = sorted((c for c in cards.values() if c.get("quadrant") == q), key=_gap)
        withheld = [
            c for c in cards.values() if c.get("quadrant") is None and c.get("quadrant_raw") == q
        ]
        if hits and at_least(_gap(hits[-1]), TOUR_MARGIN):
            continue
        if withheld:
            state = "unverified" if all(_unverified(c) for c in withheld) else "unreliable"
            out[q] = (
                f"the judge is {state} for {len(withheld)} trajectory(ies) whose figures fall "
                f"in the {q} quadrant, so their quadrants are withheld (see the judge audit)"
            )
        elif hits:
            out[q] = (
                f"{len(hits)} trajectory(ies) fall in the {q} quadrant, none by a clear margin "
                f"(the widest gap is {_gap(hits[-1]):.2f}; a tour case needs {TOUR_MARGIN:.2f})"
            )
        else:
            out[q] = f"no trajectory of the scored runs falls in the {q} quadrant"
    return out


def _unverified(card: dict) -> bool:
    return diagnosis.is_unverified(card.get("judge_unreliable"))


def real_answers_note(db: Database, candidate_run: str | None) -> str:
    """Whose answers the tour's compensation candidate (``candidate_run``: the run of its case or
    stale-fact case, None when it has none) are, in one or more sentences: a model's, or why each
    run a model answered offers no case (its figures, its stale-fact count, its judge), or that no
    run of the database was answered by a model."""
    real = model_answerers(db)
    if candidate_run in real:
        return f"Its answers are a real model's ({real[candidate_run]})."
    if not real:
        return (
            "No run in this database was answered by a model: every answer here is an offline "
            "reader's, so no case shows an answerer papering over the store."
        )
    systems = run_labels(db)
    out = []
    for (run_id, trajectory_id), card in sorted(score_cards(db).items()):
        if run_id in real:
            out.append(
                f"{systems.get(run_id, run_id)}, answered by {real[run_id]}, offers no "
                f"compensation case on {trajectory_id}: {_why_not(card)}."
            )
    return " ".join(out)


def _why_not(card: dict[str, Any]) -> str:
    """Why a trajectory's card is neither a compensation case nor a stale-fact case."""
    intrinsic, extrinsic = card.get("intrinsic_full"), (card.get("extrinsic") or {}).get("compound")
    quadrant = card.get("quadrant") or card.get("quadrant_raw")
    parts = [f"intrinsic {figure(intrinsic)}, extrinsic {figure(extrinsic)}"]
    if quadrant != "compensation":
        parts.append(f"the {quadrant or 'n/a'} quadrant by its figures")
    elif not at_least(_gap(card), TOUR_MARGIN):
        parts.append(f"a gap of {_gap(card):.2f} (a case needs {TOUR_MARGIN:.2f})")
    stale = _stale_count(card)
    parts.append(f"{stale} stale fact{'s' if stale != 1 else ''} in its final store")
    if card.get("judge_unreliable"):
        parts.append(f"its judge cannot carry a diagnosis ({card['judge_unreliable']})")
    return "; ".join(parts)


def _tour_stop(
    q: str,
    hit: tuple[tuple[str, str], dict[str, Any]],
    systems: dict[str, str],
    corpus: Corpus,
) -> TourStop:
    (run_id, trajectory_id), card = hit
    try:
        trajectory: Trajectory | None = corpus.get(trajectory_id)
    except KeyError:
        trajectory = None
    title = trajectory.title if trajectory is not None else trajectory_id
    story, lost = journey_told(card, trajectory, q)
    return TourStop(
        q,
        run_id,
        systems.get(run_id, "?"),
        trajectory_id,
        title,
        card.get("intrinsic_full"),
        (card.get("extrinsic") or {}).get("compound"),
        items_in_words(card.get("diagnosis") or ""),
        story,
        lost,
    )


# ---------------------------------------------------------------------------------------------
# demo tour fallback: "store wrong, answer right" caught by the stale-fact count


@dataclass(frozen=True)
class StaleFactRow:
    fact_id: str
    text: str
    stale_claims: list[str]
    """The trajectory's stale claims this fact still states (the (claim, text) verdicts stored at
    score time: engine/views/holdings.py)."""


@dataclass(frozen=True)
class AnsweredQuestion:
    kind: str
    item: str
    question: str
    answer: str
    verdict: str | None


@dataclass(frozen=True)
class StaleCase:
    """A trajectory whose final store holds stale facts (the scored count > 0) while its answers
    scored extrinsic ≥ 0.5: the store is wrong, the answer right, yet it is not in the compensation
    quadrant because intrinsic coverage is recall-only. Every figure and text is the run's own."""

    run_id: str
    system: str
    trajectory_id: str
    title: str
    quadrant: str | None
    intrinsic: float | None
    extrinsic: float | None
    stale_count: int
    """The stored stale-fact count of the trajectory's score card (final state)."""
    stale_facts: list[StaleFactRow]
    questions: list[AnsweredQuestion]
    current_run: bool
    """True when the case comes from the run the app has selected."""
    position: int = 0
    """Arrival position of the first document after which the store holds a stale fact (the
    stored per-state count): where the stepper shows the case."""
    story: str = ""
    """The case told from its claims' journeys (see TourStop.story)."""
    lost: tuple[tuple[str, ClaimPath], ...] = ()
    verdicts_note: str = ""
    """How the stale facts' verdicts were had ("" when stored at score time; see StepView)."""


def _stale_count(card: dict) -> int:
    return int((card.get("intrinsic") or {}).get("stale_facts") or 0)


def stale_case(
    db: Database, corpus: Corpus, current_run: str | None = None, cut: float = 0.5
) -> StaleCase | None:
    """The trajectory with stale facts > 0 and extrinsic ≥ ``cut`` (exact, stats.at_least): from
    ``current_run`` when it has one, else from any scored run; one a model answered first (see
    :func:`model_answerers`), then one whose journeys tell the story (claims lost in the store),
    then highest extrinsic, then most stale facts, then ids. The
    tour and side by side ask with no ``current_run``: one database, one story, whatever run is
    selected. A card whose judge cannot carry a diagnosis (``judge_unreliable``) is never
    offered: its "answer right" may be the judge's saturation, not the answerer's skill."""
    systems = run_labels(db)
    hits = [
        (k, c)
        for k, c in score_cards(db).items()
        if _stale_count(c) > 0
        and at_least((c.get("extrinsic") or {}).get("compound") or 0, cut)
        and not c.get("judge_unreliable")
        and k[1] in {t.id for t in corpus.trajectories}
    ]
    if not hits:
        return None
    real = model_answerers(db)
    hits.sort(
        key=lambda kc: (
            kc[0][0] != current_run,
            kc[0][0] not in real,
            -min(_telling(kc[1], "compensation"), 1),  # its journeys tell the story, as the tour's
            -(kc[1]["extrinsic"]["compound"]),
            -_stale_count(kc[1]),
            kc[0],
        )
    )
    (run_id, trajectory_id), card = hits[0]
    t = corpus.get(trajectory_id)
    questions = [
        AnsweredQuestion(q.kind, q.item, q.question, q.answer, q.verdict)
        for q in questions_view(db, run_id, trajectory_id).questions
    ]
    held = held_for(db, run_id, trajectory_id)
    return StaleCase(
        run_id,
        systems.get(run_id, "?"),
        trajectory_id,
        t.title,
        card.get("quadrant"),
        card.get("intrinsic_full"),
        card["extrinsic"]["compound"],
        _stale_count(card),
        _stale_rows(db, t, run_id, (card.get("intrinsic") or {}).get("stale_fact_ids") or [], held),
        questions,
        run_id == current_run,
        _first_stale_position(t, card),
        *journey_told(card, t, "compensation"),
        held.note,
    )


def _first_stale_position(t: Trajectory, card: dict) -> int:
    """The own document of the first state whose stored stale-fact count is > 0 (last otherwise)."""
    per_state = (card.get("intrinsic") or {}).get("stale_per_state") or {}
    stale = sorted(int(i) for i, n in per_state.items() if n)
    arrivals = [a for a in t.arrivals() if not a.is_distractor]
    if not stale:
        return arrivals[-1].position if arrivals else 0
    return next((a.position for a in arrivals if a.state_index == stale[0]), 0)


def _stale_rows(
    db: Database, t: Trajectory, run_id: str, fact_ids: list[str], held: Held
) -> list[StaleFactRow]:
    """The stored stale facts (ids from the score card) with the stale claims each still states
    (``held``: the stored verdicts)."""

    last = len(t.states) - 1
    stale = metrics.stale_claims_at(
        [s.claims for s in t.states], [s.stale_claims for s in t.states], last
    )
    facts = {f.id: f.text for f in facts_at(db, run_id, t.id)}
    return [
        StaleFactRow(fid, facts.get(fid, ""), [c for c in stale if held(c, facts.get(fid, ""))])
        for fid in fact_ids
    ]
