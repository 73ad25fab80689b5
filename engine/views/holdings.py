"""The (claim, text) verdicts a view reads for one trajectory: those its latest scoring pass stored
(engine/scoring/holding.py), or — for a run scored before they were stored, or not scored — the
same function's verdicts computed on read, under the run's corpus glossary as a scoring pass would
read it, labelled (docs/metrics.md, "One verdict")."""

from __future__ import annotations

from sqlite_utils import Database

from seorap.engine.errors import UsageError
from seorap.engine.scoring import glossary
from seorap.engine.scoring.holding import BEFORE, RULE, STORED, UNSCORED, Held
from seorap.engine.store.queries.holdings import of_trajectory, pass_stored
from seorap.engine.store.queries.runs import corpus_of
from seorap.engine.views.common import latest_scoring


def _aliases(db: Database, run_id: str) -> glossary.Glossary | None:
    """The glossary beside the run's corpus, as a scoring pass reads it (none when the corpus is
    not where the run found it, or its glossary cannot be read: then no aliases)."""
    corpus = corpus_of(db, run_id)
    if not corpus:
        return None
    try:
        return glossary.for_corpus(corpus)
    except (UsageError, OSError):
        return None


def held_for(db: Database, run_id: str, trajectory_id: str) -> Held:
    """The stored verdicts of the run's latest scoring for one trajectory (one query), or an empty
    :class:`Held` that computes on read and says why."""
    scoring = latest_scoring(db, run_id)
    if scoring is None:
        return Held({}, UNSCORED, aliases=lambda: _aliases(db, run_id))
    rows = of_trajectory(db, run_id, trajectory_id, scoring)
    if not rows:
        source = STORED if pass_stored(db, run_id, scoring) else BEFORE
        return Held({}, source, aliases=lambda: _aliases(db, run_id))
    pairs = {(r["claim"], r["text"]): bool(r["holds"]) for r in rows}
    rules = sorted({r["rules"] or RULE for r in rows})
    return Held(pairs, STORED, "+".join(rules), aliases=lambda: _aliases(db, run_id))
