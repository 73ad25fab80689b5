"""Intrinsic score card of one trajectory: open the drawer at every state (docs/metrics.md).

Reads the store (fact_versions, decisions, documents, write_failures) and the trajectory's ground
truth; judges each expected claim in the ``full`` and ``filter@θ`` candidate modes; computes the
pure metrics of engine/scoring/metrics.py. Verdicts are returned as rows for the ``verdicts`` table.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from sqlite_utils import Database

from seorap.engine.corpus import Trajectory
from seorap.engine.corpus.trajectory import parse_timestamp
from seorap.engine.memory.sentences import split_sentences
from seorap.engine.scoring import holding, lexical, metrics, stats
from seorap.engine.scoring.judges import Judge
from seorap.engine.store.database import active_facts_at, facts_at, last_position_of_state
from seorap.engine.store.queries import writes


@dataclass
class StoreView:
    """The store of one trajectory as the scorer needs it."""

    after: list[dict[str, str] | None]
    """Active facts {id: text} after each state (None: state not written yet)."""
    positions: list[int | None]
    """Arrival position of each state's own document."""
    operations: list[list[str]]
    """Final operations decided on each state's own document."""
    confidences: list[float | None]
    """Mean confidence of the current facts written at each state's own document: the versions it
    wrote that leave a fact active (a version that retires a superseded fact is not a claim's
    current fact). None: no such write."""
    observations: list[list[str]]
    """Observation texts extracted from each state's own document."""
    write_failures: int
    partial_write_failures: int = 0
    final: dict[str, str] = field(default_factory=dict)
    final_position: int | None = None
    final_recency: dict[str, int] = field(default_factory=dict)
    """Arrival position of each final fact's current version (higher = more recent)."""
    sources: list[dict[str, int] | None] = field(default_factory=list)
    """Per state, like ``after``: the arrival position of each active fact's current version (its
    source document, whose date its relative dates are read against)."""

    def held(self, i: int) -> dict[str, str]:
        """Active facts {id: text} after state ``i``, which was written (the scorer asks only
        about written states)."""
        after = self.after[i]
        return after if after is not None else {}


def load_store(db: Database, run_id: str, trajectory: Trajectory) -> StoreView:
    after, positions, ops, confs, obs = [], [], [], [], []
    sources: list[dict[str, int] | None] = []
    for state in trajectory.states:
        last = last_position_of_state(db, run_id, trajectory.id, state.index)
        active = [] if last is None else active_facts_at(db, run_id, trajectory.id, last)
        after.append(None if last is None else {f.id: f.text for f in active})
        sources.append(None if last is None else {f.id: f.position for f in active})
        pos = writes.own_position(db, run_id, trajectory.id, state.index)
        positions.append(pos)
        ops.append(_column(db, "decisions", "operation", run_id, trajectory.id, pos))
        conf = _column(db, "fact_versions", "confidence", run_id, trajectory.id, pos, active=True)
        mean = stats.mean(conf)
        confs.append(round(mean, stats.DECIMALS) if mean is not None else None)  # no float residue
        obs.append(_column(db, "observations", "text", run_id, trajectory.id, pos))
    failures = writes.failure_count(db, run_id, trajectory.id)
    done = [
        p
        for p in (
            last_position_of_state(db, run_id, trajectory.id, s.index) for s in trajectory.states
        )
        if p is not None
    ]
    final_pos = max(done) if done else None
    current = (
        []
        if final_pos is None
        else [f for f in facts_at(db, run_id, trajectory.id, None) if f.status == "active"]
    )
    partial = writes.failure_count(db, run_id, trajectory.id, partial=True)
    return StoreView(
        after,
        positions,
        ops,
        confs,
        obs,
        failures,
        partial,
        {f.id: f.text for f in current},
        final_pos,
        {f.id: f.position for f in current},
        sources,
    )


def _column(
    db: Database,
    table: str,
    column: str,
    run_id: str,
    trajectory_id: str,
    position: int | None,
    *,
    active: bool = False,
) -> list:
    if position is None:
        return []
    return writes.values_at(db, table, column, run_id, trajectory_id, position, active=active)


@dataclass
class ClaimJudging:
    """One candidate mode: ``full`` or ``filter@θ``."""

    setup: str
    threshold: float | None = None
    auto: bool = False
    """The threshold was suggested from the run's own cosines (``--threshold auto``)."""


def judge_claims(
    trajectory: Trajectory,
    store: StoreView,
    judge: Judge,
    mode: ClaimJudging,
    embed: Callable[[Sequence[str]], np.ndarray] | None = None,
) -> list[dict]:
    """A verdict row per (state, expected claim); states not written yet are skipped."""
    rows = []
    dated = {a.position: parse_timestamp(a.timestamp).date() for a in trajectory.arrivals()}
    for i, (state, facts) in enumerate(zip(trajectory.states, store.after)):
        if facts is None:
            continue
        texts, ids = list(facts.values()), list(facts)
        source = store.sources[i] if i < len(store.sources) else None
        # relative dates in a claim are read against its state's document, in a fact against its
        # source document's (a fact whose source is not known keeps them unresolved: never YES)
        dates = [dated.get(source[f]) if source and f in source else None for f in ids]
        for n, claim in enumerate(state.claims):
            best: tuple[float | None, str | None] = (None, None)
            keep = list(range(len(texts)))
            if mode.threshold is not None:
                keep, best = _similar(claim, texts, ids, mode.threshold, embed)
            shown = [texts[k] for k in keep]
            verdict = judge.grade_claim(
                claim, shown, claim_date=state.when.date(), fact_dates=[dates[k] for k in keep]
            )
            rows.append(
                {
                    "kind": "claim",
                    "setup": mode.setup,
                    "source": "store",
                    "k": None,
                    "state_index": state.index,
                    "item": f"s{state.index}/c{n}",
                    "question": "",
                    "expected": claim,
                    "candidate": _dumps(shown),
                    "label": verdict.label,
                    "score": verdict.score,
                    "rationale": _filter_note(mode, shown, texts) + verdict.rationale,
                    "call_key": verdict.call_key,
                    "cached": int(verdict.cached),
                    "best_cosine": best[0],
                    "best_fact": best[1],
                }
            )
    return rows


def _similar(
    claim: str,
    texts: list[str],
    ids: list[str],
    threshold: float,
    embed: Callable[[Sequence[str]], np.ndarray] | None,
) -> tuple[list[int], tuple[float | None, str | None]]:
    """The indices of the fact texts above ``threshold``, and the evidence: (best cosine, its
    fact id)."""
    if not texts:
        return [], (None, None)
    if embed is None:  # what calling None raised here before it was typed
        raise TypeError("the filter mode needs an embed function")
    vectors = embed([claim] + texts)
    sims = np.asarray(vectors[1:] @ vectors[0]).tolist()
    top = max(range(len(sims)), key=lambda i: (sims[i], -i))
    return [i for i, s in enumerate(sims) if s > threshold], (round(float(sims[top]), 6), ids[top])


def _filter_note(mode: ClaimJudging, shown: list[str], texts: list[str]) -> str:
    if mode.threshold is None:
        return ""
    return f"[{len(shown)} of {len(texts)} facts above cosine {mode.threshold:.2f}] "


def _dumps(texts: list[str]) -> str:
    return json.dumps(texts, ensure_ascii=False)


def card(
    trajectory: Trajectory,
    store: StoreView,
    claim_rows: dict[str, list[dict]],
    *,
    append_only: bool = False,
    observed: bool = True,
) -> dict:
    """The intrinsic figures of one trajectory from its verdict rows (keyed by setup);
    ``append_only``: the system never changes a fact by design (UDR is n/a); ``observed``: False
    for a system that reports no extraction (localization's extraction count is n/a)."""
    states = trajectory.states
    written = [i for i, a in enumerate(store.after) if a is not None]
    out: dict = {"states_scored": len(written), "states_total": len(states)}
    for setup, rows in claim_rows.items():
        per_state = {
            i: metrics.coverage([r["score"] for r in rows if r["state_index"] == i])
            for i in written
        }
        out[setup] = {
            "fact_accuracy": metrics.fact_accuracy(list(per_state.values())),
            "coverage": per_state,
            "miss_rate": metrics.miss_rate(r["score"] for r in rows),
            "unparseable": sum(r["label"] == "UNPARSEABLE" for r in rows),
        }
    out.update(_operations(trajectory, store, written, append_only))
    out.update(_precision(trajectory, store, written))
    out["final_fact_count"] = len(store.final) if store.final_position is not None else None
    out["fact_shape"] = _shape(trajectory, store)
    out["write_failures"] = store.write_failures
    out["partial_write_failures"] = store.partial_write_failures
    full = claim_rows.get("full")
    out["failures"] = (
        localize(trajectory, store, full or [], written, observed=observed)
        if full is not None
        else None
    )
    return out


def _shape(trajectory: Trajectory, store: StoreView) -> dict | None:
    """Fact shape of the final store (metrics.fact_shape) against every claim and stale claim of
    the trajectory; None before the first write."""
    if store.final_position is None:
        return None
    claims = [c for s in trajectory.states for c in (*s.claims, *s.stale_claims)]
    shape = metrics.fact_shape(store.final.values(), claims, holding.verdict, split_sentences)
    return {"n": shape.n, "mean_length": shape.mean_length, "multi_share": shape.multi_share}


_OPERATION_KEYS = (
    "udr",
    "fur",
    "op_accuracy",
    "op_majority_class",
    "op_majority_baseline",
    "op_confusion",
    "effective_operations",
    "confidence_mae",
)


def _operations(
    trajectory: Trajectory, store: StoreView, written: list[int], append_only: bool
) -> dict:
    expected = [trajectory.states[i].action for i in written]
    actions = [a for a in expected if a is not None]
    if len(actions) < len(expected):  # an imported set: it states no expected operations
        return dict.fromkeys(_OPERATION_KEYS) | {
            "op_confusion": {},
            "effective_operations": [],
            "append_only": append_only,
            "operations_na": "the corpus states no expected operation (an imported set)",
        }
    deltas = [
        metrics.store_delta(store.held(i - 1) if i > 0 else {}, store.held(i)) for i in written
    ]
    effective = [metrics.effective_operation(store.operations[i]) for i in written]
    majority, baseline = metrics.majority_baseline(actions)
    return {
        "udr": metrics.udr(
            actions,
            deltas,
            retiring=[_retires(trajectory, i) for i in written],
            append_only=append_only,
        ),
        "append_only": append_only,
        "fur": metrics.fur(actions, deltas),
        "op_accuracy": metrics.op_accuracy(actions, effective),
        "op_majority_class": majority,
        "op_majority_baseline": baseline,
        "op_confusion": metrics.confusion(actions, effective),
        "effective_operations": effective,
        "confidence_mae": metrics.confidence_mae(
            [trajectory.states[i].confidence or 0.0 for i in written],  # all set, as actions are
            [store.confidences[i] for i in written],
        ),
    }


def _retires(trajectory: Trajectory, i: int) -> bool:
    return i > 0 and metrics.retires(trajectory.states[i - 1].claims, trajectory.states[i].claims)


def _precision(trajectory: Trajectory, store: StoreView, written: list[int]) -> dict:
    claims = [s.claims for s in trajectory.states]
    stale = [s.stale_claims for s in trajectory.states]
    per_state = {}
    for i in written:
        values = metrics.stale_claims_at(claims, stale, i)
        per_state[i] = metrics.stale_facts(store.held(i), values, holding.verdict)
    if not written:
        return {
            "stale_facts": None,
            "stale_fact_ids": [],
            "stale_per_state": {},
            "claim_precision": None,
        }
    last = written[-1]
    final_stale = metrics.stale_claims_at(claims, stale, last)
    return {
        "stale_facts": len(per_state[last]),
        "stale_fact_ids": per_state[last],
        "stale_per_state": {i: len(v) for i, v in per_state.items()},
        "claim_precision": metrics.claim_precision(
            store.held(last), claims[last], final_stale, holding.verdict, lexical.related
        ),
    }


def localize(
    trajectory: Trajectory,
    store: StoreView,
    full_rows: list[dict],
    written: list[int],
    *,
    observed: bool = True,
) -> dict:
    """Failure localization (docs/metrics.md), counted over the states written:

    - extraction: a docClaim of the state that no observation of its document relates to (None,
      n/a, for a system that reports no extraction: ``observed`` False; its docClaims not held
      then count as synthesis, the one stage it reports);
    - synthesis: a docClaim some observation relates to but the store does not hold (full verdict
      not YES) right after that state; lost_later: a claim held (YES) at one state and not at a later
      state whose claims still include it;
    - update: missed transitions (update/supersede states retiring a claim where no existing fact
      was rewritten or removed — the UDR reading) and false updates
      (reinforce states that rewrote or removed facts);
    - conflict: stale facts left after conflict/supersede states.
    """
    score = {(r["state_index"], r["expected"]): r["score"] for r in full_rows}
    counts = {
        "extraction": 0,
        "synthesis": 0,
        "lost_later": 0,
        "missed_update": 0,
        "false_update": 0,
        "conflict_kept": 0,
    }
    held_before: set[str] = set()
    for i in written:
        state = trajectory.states[i]
        for claim in state.doc_claims:
            seen = any(lexical.related(claim, o) for o in store.observations[i])
            if observed and not seen and store.observations[i] is not None:
                counts["extraction"] += 1
            elif score.get((i, claim)) != 1.0:
                counts["synthesis"] += 1
        now_held = {c for c in state.claims if score.get((i, c)) == 1.0}
        counts["lost_later"] += len({c for c in held_before if c in state.claims} - now_held)
        held_before = now_held | {c for c in held_before if c not in state.claims}
        delta = metrics.store_delta(store.held(i - 1) if i > 0 else {}, store.held(i))
        counts["missed_update"] += int(
            state.action in metrics.UPDATE_ACTIONS
            and _retires(trajectory, i)
            and not delta.overwrote
        )
        counts["false_update"] += int(state.action == "reinforce" and delta.overwrote)
        if state.action in ("conflict", "supersede"):
            stale = metrics.stale_claims_at(
                [s.claims for s in trajectory.states],
                [s.stale_claims for s in trajectory.states],
                i,
            )
            counts["conflict_kept"] += len(
                metrics.stale_facts(store.held(i), stale, holding.verdict)
            )
    return counts if observed else {**counts, "extraction": None}
