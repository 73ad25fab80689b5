"""Why a trajectory landed in its quadrant, in words built from the run's own data (docs/metrics.md).

- compensation (extrinsic >= 0.5 > intrinsic): which stale or unsupported facts the answerer saw in
  its top-5 and still answered right, and which expected claims the store missed;
- bottleneck (intrinsic >= 0.5 > extrinsic): per question not answered YES, where the facts that
  hold the answer ranked and what outranked them (with hybrid, BM25 and cosine figures).
"""

from __future__ import annotations

import json

from engine.fmt import figure
from engine.scoring import lexical
from engine.scoring.extrinsic import TOP_K

MAX_ITEMS = 3


def _short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def explain(quadrant: str | None, intrinsic: float | None, extrinsic: float | None, *,
            stale_ids: list[str], final_claims: list[str], final_missed: list[str],
            retrievals: list[dict], verdicts: list[dict]) -> str:
    head = (f"intrinsic {figure(intrinsic, 'n/a')}, extrinsic {figure(extrinsic, 'n/a')}")
    if quadrant == "compensation":
        return head + " — " + _compensation(stale_ids, final_claims, final_missed, retrievals, verdicts)
    if quadrant == "bottleneck":
        return head + " — " + _bottleneck(retrievals, verdicts)
    if quadrant == "healthy":
        return head + " — store and answers both pass."
    if quadrant == "both-low":
        return head + f" — both fail; the store misses {len(final_missed)} final claim(s)."
    return head + " — not enough data for a quadrant."


def _memory_verdicts(verdicts: list[dict]) -> dict[tuple[str, str], dict]:
    return {(v["kind"], v["item"]): v for v in verdicts if v["source"] == "memory" and v["k"] == TOP_K}


def _compensation(stale_ids, final_claims, final_missed, retrievals, verdicts) -> str:
    answered = _memory_verdicts(verdicts)
    seen = []
    for r in retrievals:
        if r["source"] != "memory":
            continue
        v = answered.get((r["kind"], r["item"]))
        if v is None or v["score"] is None or v["score"] < 0.5:
            continue
        for hit in json.loads(r["ranking"])[:TOP_K]:
            stale = hit["fact_id"] in stale_ids
            unsupported = not any(lexical.related(c, hit["text"]) for c in final_claims)
            if stale or unsupported:
                why = "stale" if stale else "not in the current claims"
                seen.append(f"rank {hit['rank']} {why} fact \"{_short(hit['text'])}\" ({r['item']})")
    parts = []
    if seen:
        parts.append(f"the answerer saw {len(seen)} stale/wrong fact(s) and still answered right: "
                     + "; ".join(seen[:MAX_ITEMS]))
    if final_missed:
        parts.append(f"the store misses {len(final_missed)} final claim(s), e.g. \"{_short(final_missed[0])}\"")
    return "; ".join(parts) or "answers passed although the store's coverage is below 0.5."


def _bottleneck(retrievals, verdicts) -> str:
    answered = _memory_verdicts(verdicts)
    notes = []
    for r in retrievals:
        if r["source"] != "memory":
            continue
        v = answered.get((r["kind"], r["item"]))
        if v is None or v["score"] == 1.0:
            continue
        ranking = json.loads(r["ranking"])
        holders = set(json.loads(r["answer_fact_ids"]))
        ranks = [h["rank"] for h in ranking if h["fact_id"] in holders]
        if not ranks:
            notes.append(f"{r['item']} ({v['label']}): no active fact holds the answer")
            continue
        above = [h for h in ranking if h["rank"] < ranks[0]][:MAX_ITEMS]
        outranked = ", ".join(f"#{h['rank']} \"{_short(h['text'], 40)}\" (hybrid {h['hybrid']:.2f}, "
                              f"bm25 {h['bm25_norm']:.2f}, cos {h['dense']:.2f})" for h in above)
        where = f"answer-holding fact(s) at rank {', '.join(map(str, ranks[:MAX_ITEMS]))}"
        notes.append(f"{r['item']} ({v['label']}): {where}" + (f"; outranked by {outranked}" if above else ""))
    return "; ".join(notes[:MAX_ITEMS + 1]) or "every question passed at top-5 yet the compound score is low."
