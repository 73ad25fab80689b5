"""Read-time state: what a system *reads* as true after each state (docs/metrics.md#read-time-state).

The run stored, after each document, what each expected claim's lookup returned through the
system's read path (``read_lookups``, engine/run/readtime.py). Here, for the lookups taken after
the last document of each written state:

1. each lookup asked the claim's slot question (the claim with its values removed:
   engine/scoring/slot_questions.py), never the claim; a lookup stored before slot questions is
   asked again with it on seorap's own read path, and reads n/a through a system's own search;
2. a reader, given the same question, decides what the retrieved facts say is currently true: the
   answerer of the scoring (the reference reader offline: it keeps, of two facts answering the same
   part, the more recent);
3. the reading is judged hit by hit with the write-time function (engine/scoring/reading.py):
   YES 1, PARTIAL 0.5, NO 0; it is *stale* when one of its hits states a value the corpus says is
   stale at that state; a read below write time is put down to retrieval, to a stale or preferred
   hit outranking the fact, or to the ruler.

Figures per trajectory: **read-time coverage** (mean claim score at the last written state),
**read-time accuracy** (mean over written states of their mean claim score) and **stale-at-read**
(share of reads, over every written state, whose reading states a stale value).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING, Protocol, Unpack

import numpy as np
from sqlite_utils import Database

from seorap.engine.corpus import Trajectory
from seorap.engine.corpus.trajectory import parse_timestamp
from seorap.engine.memory.interface import NA_REASONS, Capabilities
from seorap.engine.retrieval.hybrid import HybridIndex
from seorap.engine.run.readtime import OURS, hit_texts
from seorap.engine.scoring import metrics, stats
from seorap.engine.scoring import reading as reading_mod
from seorap.engine.scoring.schema import Aggregate, ReadTimeFigures
from seorap.engine.scoring.schema_trajectory import Interval, TrajectoryReport
from seorap.engine.scoring.slot_questions import question_for
from seorap.engine.store.database import active_facts_at, last_position_of_state
from seorap.engine.store.queries.writes import read_lookups_by_item

if TYPE_CHECKING:
    from seorap.engine.scoring.answerers import Answerer
    from seorap.engine.scoring.intrinsic import StoreView
    from seorap.engine.scoring.judges import Judge


NOT_ASKED = "taken with the value in the query; re-run"
"""Why an older lookup through a system's own search reads n/a: it asked with the claim itself."""
OLDER_QUESTION = "taken with an older slot question; re-run"
"""Why a lookup through a system's own search reads n/a when the slot question it asked is not the
claim's question today (the question's rules or the corpus's ``slotQuestions`` changed since)."""


def load_reads(
    db: Database,
    run_id: str,
    trajectory: Trajectory,
    lookup: Relookup | None = None,
    store: StoreView | None = None,
) -> dict[int, list[dict]]:
    """The lookups after the last document of each written state: {state index: rows}, each hit
    with its text and its source document's date. A lookup stored without its slot question (an
    older database) is taken again with it on seorap's own read path (``lookup``), and is n/a
    (``row["na"]``) through a system's own search."""
    if "read_lookups" not in db.table_names():
        return {}
    dated = {a.position: parse_timestamp(a.timestamp).date() for a in trajectory.arrivals()}
    out: dict[int, list[dict]] = {}
    for state in trajectory.states:
        last = last_position_of_state(db, run_id, trajectory.id, state.index)
        if last is None:
            continue
        rows = read_lookups_by_item(db, run_id, trajectory.id, last)
        if not rows:
            continue
        texts = hit_texts(db, run_id, trajectory.id, last)
        sources = (
            store.sources[state.index] if store and state.index < len(store.sources) else None
        ) or {}
        for row in rows:
            hits = json.loads(row["hits"] or "[]")
            if row.get("query") != question_for(trajectory, row["claim"]).text:
                hits = _again(row, trajectory, lookup, db, run_id, last)
            row["hits"] = [
                {
                    **h,
                    "text": h.get("text", texts.get(h["id"], "")),
                    "date": dated.get(sources.get(h["id"], h.get("recency", -1))),
                }
                for h in hits
            ]
        out[state.index] = rows
    return out


def _again(
    row: dict, trajectory: Trajectory, lookup: Relookup | None, db: Database, run_id: str, at: int
) -> list[dict]:
    """A lookup that did not ask the claim's slot question of today (an older database asked with
    the claim; older rules or corpus asked another question) asked again with it on seorap's own
    read path; through a system's own search it is n/a (the system is gone at score time)."""
    asked = question_for(trajectory, row["claim"])
    why = OLDER_QUESTION if row.get("query") else NOT_ASKED
    row["query"], row["query_kind"] = asked.text, asked.kind
    if row["source"] != OURS or lookup is None:
        row["na"] = why
        return []
    row["recomputed"] = True
    return lookup(db, run_id, trajectory.id, at, asked.text, int(row["k"] or 5))


class Relookup(Protocol):
    def __call__(
        self, db: Database, run_id: str, trajectory_id: str, position: int, query: str, k: int
    ) -> list[dict]: ...


def relookup(embed: Callable[[Sequence[str]], np.ndarray], settings: object) -> Relookup:
    """seorap's read path again, over the active facts after ``position`` (older databases)."""

    def run(
        db: Database, run_id: str, trajectory_id: str, position: int, query: str, k: int
    ) -> list[dict]:
        active = active_facts_at(db, run_id, trajectory_id, position)
        if not active:
            return []
        ids, texts = [f.id for f in active], [f.text for f in active]
        index = HybridIndex.from_settings(ids, texts, embed(texts), settings)
        recency = {f.id: f.position for f in active}
        found = index.search(query, embed([query])[0], k)
        return [
            {"id": h.fact_id, "score": round(float(h.hybrid), 6), "recency": recency[h.fact_id]}
            for h in found
        ]

    return run


def judge_reads(
    trajectory: Trajectory,
    reads: dict[int, list[dict]],
    reader: Answerer,
    judge: Judge,
    written: dict[tuple[int, str], float] | None = None,
) -> list[dict]:
    """One row per (state, claim): the question, the hits, the reader's reading, the verdict
    (judged hit by hit, engine/scoring/reading.py), stale or not, and where a write-read gap lies
    (``written``: the write-time score of each (state, claim))."""
    claims = [s.claims for s in trajectory.states]
    stale_values = [s.stale_claims for s in trajectory.states]
    out = []
    for index, rows in sorted(reads.items()):
        stale = metrics.stale_claims_at(claims, stale_values, index)
        when = trajectory.states[index].when.date()
        for row in rows:
            slot = question_for(trajectory, row["claim"]).text
            same = [c for c in stale if question_for(trajectory, c).text == slot]
            out.append(_judge_one(row, index, (stale, same), when, reader, judge, written or {}))
    return out


def _judge_one(
    row: dict,
    index: int,
    stale: tuple[Sequence[str], Sequence[str]],
    when: date,
    reader: Answerer,
    judge: Judge,
    written: dict[tuple[int, str], float],
) -> dict:
    base = {
        "state_index": index,
        "item": row["item"],
        "claim": row["claim"],
        "query": row.get("query") or "",
        "query_kind": row.get("query_kind") or "",
        "source": row["source"],
    }
    if row.get("na"):
        return {
            **base,
            "hits": [],
            "reading": "",
            "label": None,
            "score": None,
            "stale": None,
            "na": row["na"],
        }
    hits = row["hits"]
    reading = reader.answer(
        base["query"],
        [h["text"] for h in hits],
        [h["score"] for h in hits],
        kind="facts",
        recency=[h.get("recency", 0) for h in hits],
    )
    parts = [
        reading_mod.Part(h["text"], int(h.get("recency", 0)), h.get("date"), h["id"]) for h in hits
    ]
    read = reading_mod.parts_of(reading, hits) if hits else []
    every, same = stale
    judged = reading_mod.judge_reading(
        judge, row["claim"], parts, read, every, when, slot_stale=same
    )
    write = written.get((index, row["claim"]))
    return {
        **base,
        "hits": [h["id"] for h in hits],
        "hit_verdicts": [
            {"id": r["id"], "label": r["label"], "superseded": r["superseded"]} for r in judged.hits
        ],
        "reading": reading,
        "label": judged.verdict.label,
        "rationale": judged.verdict.rationale,
        "score": judged.score,
        "stale": judged.stale,
        "write_score": write,
        "gap": reading_mod.gap_kind(judge, row["claim"], parts, judged, write, when),
        "recomputed": bool(row.get("recomputed")),
    }


def figures(rows: list[dict]) -> dict:
    """Read-time coverage, accuracy, stale-at-read and the write-read gap's parts of one trajectory
    (None without reads; lookups that read n/a are counted apart and left out of every figure)."""
    judged = [r for r in rows if not r.get("na")]
    na = len(rows) - len(judged)
    reason = next((r["na"] for r in rows if r.get("na")), None)
    if not judged:
        empty = {"coverage": None, "accuracy": None, "stale_at_read": None, "reads": 0}
        return {**empty, "na": na, "na_reason": reason, "gap": _gap([]), "rows": rows}
    states = sorted({r["state_index"] for r in judged})
    per_state = {
        i: metrics.coverage([r["score"] for r in judged if r["state_index"] == i]) for i in states
    }
    return {
        "coverage": per_state[states[-1]],
        "accuracy": metrics.fact_accuracy(list(per_state.values())),
        "stale_at_read": sum(bool(r["stale"]) for r in judged) / len(judged),
        "per_state": {str(i): v for i, v in per_state.items()},
        "reads": len(judged),
        "na": na,
        "na_reason": reason,
        "gap": _gap(judged),
        "rows": rows,
    }


def _gap(rows: list[dict]) -> dict[str, int]:
    """How many reads score below write time, by where the gap lies (engine/scoring/reading.py)."""
    return {kind: sum(r.get("gap") == kind for r in rows) for kind in reading_mod.GAP_KINDS}


def card(
    db: Database,
    run_id: str,
    trajectory: Trajectory,
    reader: Answerer,
    judge: Judge,
    *,
    lookup: Relookup | None = None,
    store: StoreView | None = None,
    claim_rows: list[dict] | None = None,
) -> dict:
    """The ``read_time`` block of a trajectory's score card (``claim_rows``: the write-time
    full-mode claim verdicts, for the write-read gap)."""
    written = {(r["state_index"], r["expected"]): r["score"] for r in claim_rows or []}
    reads = load_reads(db, run_id, trajectory, lookup, store)
    return figures(judge_reads(trajectory, reads, reader, judge, written))


def run_figures(
    cards: dict[str, dict], capabilities: dict | None, **boot: Unpack[stats.Boot]
) -> ReadTimeFigures:
    """The run's ``read_time`` block: each figure's mean over trajectories with its CI, and why
    write-time metrics are n/a for this system (from its declared capabilities)."""
    blocks = [c.get("read_time") or {} for c in cards.values()]

    def interval(key: str) -> Interval:
        ci = stats.group_mean([b.get(key) for b in blocks], **boot)
        return Interval(mean=ci.estimate, ci_low=ci.low, ci_high=ci.high, method=ci.method, n=ci.n)

    rows = [r for b in blocks for r in b.get("rows", [])]
    sources = sorted({r["source"] for r in rows})
    return ReadTimeFigures(
        coverage=interval("coverage"),
        accuracy=interval("accuracy"),
        stale_at_read=interval("stale_at_read"),
        reads=sum(b.get("reads", 0) for b in blocks),
        read_path=", ".join(sources),
        not_applicable=not_applicable(capabilities),
        query_kinds=sorted({r.get("query_kind") or "" for r in rows} - {""}),
        recomputed=sum(bool(r.get("recomputed")) for r in rows),
        na=sum(b.get("na", 0) for b in blocks),
        na_reason=next((b["na_reason"] for b in blocks if b.get("na_reason")), None),
        gap={k: sum((b.get("gap") or {}).get(k, 0) for b in blocks) for k in reading_mod.GAP_KINDS},
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
        agg.op_accuracy, agg.op_accuracy_ci = None, Interval(reason=na["op_accuracy"])
    if "confidence_mae" in na:
        agg.confidence_mae = Interval(reason=na["confidence_mae"])
