"""An always-PARTIAL judge (what a saturated 0.5B judge did to parseable answers) and a way to
score a stored run with it: the audit then finds the judge unreliable."""

import pytest

from seorap.engine.config import Config
from seorap.engine.scoring import score as score_mod
from seorap.engine.scoring.verdict import Verdict


class AlwaysPartial:
    """A saturated judge: PARTIAL for everything (what the 0.5B judge did to parseable answers)."""

    name = "always-partial"
    rules = "always-partial"

    def grade_claim(self, claim, facts, **dates):
        return Verdict("PARTIAL", "always PARTIAL")

    def grade_answer(self, question, expected, answer, **dates):
        return Verdict("PARTIAL", "always PARTIAL")


def score_always_partial(db, run_id, corpus) -> str:
    """Score ``run_id`` with AlwaysPartial as its judge; returns the scoring setup's name."""
    mp = pytest.MonkeyPatch()
    mp.setattr(score_mod, "make_judge", lambda *a, **k: AlwaysPartial())
    try:
        return score_mod.score_run(db, run_id, Config.offline(), corpus=corpus)
    finally:
        mp.undo()
