"""Read-time state: what a system *reads* as true after each state (docs/metrics.md#read-time-state).

The run stored, after each document, what each expected claim's lookup returned through the
system's read path (``read_lookups``, engine/run/readtime.py). Here, for the lookups taken after
the last document of each written state:

1. a reader decides what the retrieved facts say is currently true: the answerer of the scoring
   (the reference reader offline: it keeps, of two facts answering the same part, the more recent);
2. the judge compares that reading with the claim (``grade_answer``, the claim as the expected
   answer): YES 1, PARTIAL 0.5, NO 0;
3. the reading is *stale* when it states a value the corpus says is stale at that state.

Figures per trajectory: **read-time coverage** (mean claim score at the last written state),
**read-time accuracy** (mean over written states of their mean claim score) and **stale-at-read**
(share of reads, over every written state, whose reading states a stale value).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Unpack

from seorap.engine.corpus import Trajectory
from seorap.engine.memory.interface import NA_REASONS, Capabilities
from seorap.engine.run.readtime import hit_texts
from seorap.engine.scoring import lexical, metrics, stats
from seorap.engine.scoring.schema import Aggregate, ReadTimeFigures
from seorap.engine.scoring.schema_trajectory import Interval, TrajectoryReport
from seorap.engine.store.database import last_position_of_state
from seorap.engine.store.queries.writes import read_lookups_by_item
from sqlite_utils import Database

if TYPE_CHECKING:
    from seorap.engine.scoring.answerers import Answerer
    from seorap.engine.scoring.judges import Judge


def load_reads(db: Database, run_id: str, trajectory: Trajectory) -> dict[int, list[dict]]:
    """The lookups after the last document of each written state: {state index: rows}."""
    if "read_lookups" not in db.table_names():
        return {}
    out: dict[int, list[dict]] = {}
    for state in trajectory.states:
        last = last_position_of_state(db, run_id, trajectory.id, state.index)
        if last is None:
            continue
        rows = read_lookups_by_item(db, run_id, trajectory.id, last)
        if rows:
            texts = hit_texts(db, run_id, trajectory.id, last)
            for row in rows:
                hits = json.loads(row["hits"] or "[]")
                row["hits"] = [{**h, "text": h.get("text", texts.get(h["id"], ""))} for h in hits]
            out[state.index] = rows
    return out


def judge_reads(
    trajectory: Trajectory, reads: dict[int, list[dict]], reader: Answerer, judge: Judge
) -> list[dict]:
    """One row per (state, claim): the hits, the reader's reading, the verdict, stale or not."""
    claims = [s.claims for s in trajectory.states]
    stale_values = [s.stale_claims for s in trajectory.states]
    out = []
    for index, rows in sorted(reads.items()):
        stale = metrics.stale_claims_at(claims, stale_values, index)
        for row in rows:
            hits = row["hits"]
            reading = reader.answer(
                row["claim"],
                [h["text"] for h in hits],
                [h["score"] for h in hits],
                kind="facts",
                recency=[h.get("recency", 0) for h in hits],
            )
            verdict = judge.grade_answer("", row["claim"], reading)
            out.append(
                {
                    "state_index": index,
                    "item": row["item"],
                    "claim": row["claim"],
                    "source": row["source"],
                    "hits": [h["id"] for h in hits],
                    "reading": reading,
                    "label": verdict.label,
                    "score": verdict.score,
                    "stale": any(lexical.holds(v, reading) for v in stale) if hits else False,
                }
            )
    return out


def figures(rows: list[dict]) -> dict:
    """Read-time coverage, accuracy and stale-at-read of one trajectory (None without reads)."""
    if not rows:
        return {"coverage": None, "accuracy": None, "stale_at_read": None, "reads": 0, "rows": []}
    states = sorted({r["state_index"] for r in rows})
    per_state = {
        i: metrics.coverage([r["score"] for r in rows if r["state_index"] == i]) for i in states
    }
    return {
        "coverage": per_state[states[-1]],
        "accuracy": metrics.fact_accuracy(list(per_state.values())),
        "stale_at_read": sum(r["stale"] for r in rows) / len(rows),
        "per_state": {str(i): v for i, v in per_state.items()},
        "reads": len(rows),
        "rows": rows,
    }


def card(db: Database, run_id: str, trajectory: Trajectory, reader: Answerer, judge: Judge) -> dict:
    """The ``read_time`` block of a trajectory's score card."""
    return figures(judge_reads(trajectory, load_reads(db, run_id, trajectory), reader, judge))


def run_figures(
    cards: dict[str, dict], capabilities: dict | None, **boot: Unpack[stats.Boot]
) -> ReadTimeFigures:
    """The run's ``read_time`` block: each figure's mean over trajectories with its CI, and why
    write-time metrics are n/a for this system (from its declared capabilities)."""
    blocks = [c.get("read_time") or {} for c in cards.values()]

    def interval(key: str) -> Interval:
        ci = stats.group_mean([b.get(key) for b in blocks], **boot)
        return Interval(mean=ci.estimate, ci_low=ci.low, ci_high=ci.high, method=ci.method, n=ci.n)

    sources = sorted({r["source"] for b in blocks for r in b.get("rows", [])})
    return ReadTimeFigures(
        coverage=interval("coverage"),
        accuracy=interval("accuracy"),
        stale_at_read=interval("stale_at_read"),
        reads=sum(b.get("reads", 0) for b in blocks),
        read_path=", ".join(sources),
        not_applicable=not_applicable(capabilities),
    )


def not_applicable(capabilities: dict | None) -> dict[str, str]:
    """Write-time metrics this system cannot support, each with why (empty for runs written
    before systems declared capabilities)."""
    if not capabilities:
        return {}

    caps = Capabilities.from_dict(capabilities)
    out = {}
    if not caps.updates_at_write:
        out["udr"] = NA_REASONS["updates_at_write"]
    if not caps.reports_operations:
        out["op_accuracy"] = NA_REASONS["reports_operations"]
    if not caps.takes_dates:
        out["temporal"] = NA_REASONS["takes_dates"]
    if not caps.keeps_history:
        out["lineage"] = NA_REASONS["keeps_history"]
    if not capabilities.get("reports_confidence", True):  # older manifests: not declared yet
        out["confidence_mae"] = NA_REASONS["reports_confidence"]
    return out


def withhold(ts: list[TrajectoryReport], agg: Aggregate, na: dict[str, str]) -> None:
    """A metric the system cannot support (``na``, from :func:`not_applicable`) is n/a, never a
    number computed from stand-in values (a confidence seorap stored at 0.5, operations read from
    the store diff): its per-trajectory and run-level figures become null."""
    for t in ts:
        if "op_accuracy" in na:
            t.op_accuracy = None
        if "confidence_mae" in na:
            t.confidence_mae = None
    if "op_accuracy" in na:
        agg.op_accuracy, agg.op_accuracy_ci = None, Interval()
    if "confidence_mae" in na:
        agg.confidence_mae = Interval()
