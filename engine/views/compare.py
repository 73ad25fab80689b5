"""Compare (view 8): what flipped between two runs."""

from __future__ import annotations

from dataclasses import dataclass

from seorap.engine.corpus import Corpus
from seorap.engine.store.database import facts_at
from seorap.engine.views.common import latest_scoring
from sqlite_utils import Database


@dataclass(frozen=True)
class Flip:
    trajectory_id: str
    kind: str
    """claim | question | fact."""
    item: str
    text: str
    a: str
    b: str
    """Labels (verdicts) or presence ('held' / '—') in run A and run B."""


def compare_runs(
    db: Database, corpus: Corpus, run_a: str, run_b: str, judge_mode: str = "full"
) -> list[Flip]:
    """Claims (final state, judge mode), questions (top-5) whose verdict moved, and final facts
    held by one run and not the other (exact text)."""
    flips: list[Flip] = []
    for t in corpus.trajectories:
        flips += _verdict_flips(db, t.id, run_a, run_b, judge_mode)
        flips += _fact_flips(db, t.id, run_a, run_b)
    return flips


def _final_verdicts(
    db: Database, run_id, trajectory_id, judge_mode
) -> dict[tuple[str, str], tuple[str, str]]:
    scoring = latest_scoring(db, run_id)
    if scoring is None:
        return {}
    out = {}
    for v in db.query(
        "SELECT * FROM verdicts WHERE run_id=? AND trajectory_id=? AND scoring=? AND "
        "((kind='claim' AND setup=?) OR (source='memory' AND k=5))",
        [run_id, trajectory_id, scoring, judge_mode],
    ):
        kind = "claim" if v["kind"] == "claim" else "question"
        out[(kind, v["item"])] = (v["expected"] if kind == "claim" else v["question"], v["label"])
    return out


def _verdict_flips(db: Database, trajectory_id, run_a, run_b, judge_mode) -> list[Flip]:
    a = _final_verdicts(db, run_a, trajectory_id, judge_mode)
    b = _final_verdicts(db, run_b, trajectory_id, judge_mode)
    return [
        Flip(trajectory_id, key[0], key[1], a[key][0], a[key][1], b[key][1])
        for key in sorted(a.keys() & b.keys())
        if a[key][1] != b[key][1]
    ]


def _fact_flips(db: Database, trajectory_id, run_a, run_b) -> list[Flip]:
    held_a = {f.text for f in facts_at(db, run_a, trajectory_id) if f.status == "active"}
    held_b = {f.text for f in facts_at(db, run_b, trajectory_id) if f.status == "active"}
    return [Flip(trajectory_id, "fact", "", t, "held", "—") for t in sorted(held_a - held_b)] + [
        Flip(trajectory_id, "fact", "", t, "—", "held") for t in sorted(held_b - held_a)
    ]
