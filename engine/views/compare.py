"""Compare (view 8): what flipped between two runs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlite_utils import Database

from seorap.engine.corpus import Corpus
from seorap.engine.store.damage import stored_json
from seorap.engine.store.database import facts_at
from seorap.engine.store.queries.scores import trajectory_cards
from seorap.engine.store.queries.verdicts import final_verdicts
from seorap.engine.views.common import latest_scoring


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
    db: Database, run_id: str, trajectory_id: str, judge_mode: str
) -> dict[tuple[str, str], tuple[str, str]]:
    scoring = latest_scoring(db, run_id)
    if scoring is None:
        return {}
    out = {}
    for v in final_verdicts(db, run_id, trajectory_id, scoring, judge_mode):
        kind = "claim" if v["kind"] == "claim" else "question"
        out[(kind, v["item"])] = (v["expected"] if kind == "claim" else v["question"], v["label"])
    return out


def _verdict_flips(
    db: Database, trajectory_id: str, run_a: str, run_b: str, judge_mode: str
) -> list[Flip]:
    a = _final_verdicts(db, run_a, trajectory_id, judge_mode)
    b = _final_verdicts(db, run_b, trajectory_id, judge_mode)
    return [
        Flip(trajectory_id, key[0], key[1], a[key][0], a[key][1], b[key][1])
        for key in sorted(a.keys() & b.keys())
        if a[key][1] != b[key][1]
    ]


def _fact_flips(db: Database, trajectory_id: str, run_a: str, run_b: str) -> list[Flip]:
    held_a = {f.text for f in facts_at(db, run_a, trajectory_id) if f.status == "active"}
    held_b = {f.text for f in facts_at(db, run_b, trajectory_id) if f.status == "active"}
    return [Flip(trajectory_id, "fact", "", t, "held", "—") for t in sorted(held_a - held_b)] + [
        Flip(trajectory_id, "fact", "", t, "—", "held") for t in sorted(held_b - held_a)
    ]


@dataclass(frozen=True)
class SideFigures:
    """One run's write-time and read-time figures side by side (means over its scored
    trajectories, latest scoring; None: not scored, or no read-time state stored)."""

    write_accuracy: float | None
    write_coverage: float | None
    stale_facts: float | None
    read_accuracy: float | None
    read_coverage: float | None
    stale_at_read: float | None


def side_figures(db: Database, run_id: str) -> SideFigures:
    """The figures the compare title shows for one run, from its stored score cards."""

    scoring = latest_scoring(db, run_id)
    cards = (
        [stored_json(c, "score card", run_id, {}) for c in trajectory_cards(db, run_id, scoring)]
        if scoring
        else []
    )
    reads = [c.get("read_time") or {} for c in cards]
    full = [(c.get("intrinsic") or {}).get("full") or {} for c in cards]
    return SideFigures(
        write_accuracy=_mean(c.get("intrinsic_full") for c in cards),
        write_coverage=_mean(_last(f.get("coverage")) for f in full),
        stale_facts=_mean((c.get("intrinsic") or {}).get("stale_facts") for c in cards),
        read_accuracy=_mean(r.get("accuracy") for r in reads),
        read_coverage=_mean(r.get("coverage") for r in reads),
        stale_at_read=_mean(r.get("stale_at_read") for r in reads),
    )


def _last(per_state: dict[str, float | None] | None) -> float | None:
    """The value at the last written state of a {state: value} map."""
    if not per_state:
        return None
    return per_state[max(per_state, key=int)]


def _mean(values: Iterable[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return sum(got) / len(got) if got else None
