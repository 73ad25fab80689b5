"""The (claim, text) verdicts a view reads for one trajectory: those its latest scoring pass stored
(engine/scoring/holding.py), or — for a run scored before they were stored, or not scored — the
same function's verdicts computed on read, labelled (docs/metrics.md, "One verdict")."""

from __future__ import annotations

from sqlite_utils import Database

from seorap.engine.scoring.holding import BEFORE, RULE, STORED, UNSCORED, Held
from seorap.engine.store.queries.holdings import of_trajectory, pass_stored
from seorap.engine.views.common import latest_scoring


def held_for(db: Database, run_id: str, trajectory_id: str) -> Held:
    """The stored verdicts of the run's latest scoring for one trajectory (one query), or an empty
    :class:`Held` that computes on read and says why."""
    scoring = latest_scoring(db, run_id)
    if scoring is None:
        return Held({}, UNSCORED)
    rows = of_trajectory(db, run_id, trajectory_id, scoring)
    if not rows:
        return Held({}, STORED if pass_stored(db, run_id, scoring) else BEFORE)
    pairs = {(r["claim"], r["text"]): bool(r["holds"]) for r in rows}
    rules = sorted({r["rules"] or RULE for r in rows})
    return Held(pairs, STORED, "+".join(rules))
