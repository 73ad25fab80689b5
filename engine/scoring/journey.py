"""The claim journey: where each expected claim of a trajectory is kept or lost (docs/metrics.md).

Every distinct expected claim of a trajectory is followed through seven stages, each from what the
scored run already holds (no model call):

- **said**: a document of the claim's states lists it among its docClaims;
- **extracted**: an observation of that document is lexically related to it (n/a for a system that
  reports no observations);
- **stored**: the full-mode claim verdict right after that document is YES;
- **kept**: the full-mode verdict is YES at every later state that still expects it, and at every
  written state where the corpus lists it as stale (a gap before it is current again included) no
  active fact states it;
- **retrieved**: for every question that needs it, a fact stating it ranks within the headline top-k
  of the memory ranking (its rank and membership at each k of the depth curve are kept): the
  system's own search for a system that declares one, else seorap's hybrid retrieval
  (engine/scoring/answer_path.py);
- **used**: the top-k answer states the claim's values that the expected answer carries;
- **credited**: the top-k answer's verdict is YES.

A question needs a claim when the lexical judge reads the claim as stated by the question's expected
answer, alone or after the question (which supplies the subject of a short answer), and the claim is
expected at the question's state. Claims no question needs end at *kept* (later stages n/a). The
loss point is the first stage that fails. The quadrant told from the loss points is
engine/scoring/journey_story.py.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Unpack

import numpy as np
from sqlite_utils import Database

from seorap.engine.corpus import Trajectory
from seorap.engine.scoring import extrinsic, holding, lexical, metrics, stats
from seorap.engine.scoring.intrinsic import StoreView
from seorap.engine.scoring.schema import JourneyFigures, JourneyStage
from seorap.engine.scoring.schema_trajectory import Interval
from seorap.engine.scoring.similarity import credited as credited_facts
from seorap.engine.store.damage import stored_json
from seorap.engine.store.queries import writes

STAGES = ("said", "extracted", "stored", "kept", "retrieved", "used", "credited")
PASS, FAIL, NA = "pass", "fail", "n/a"


def needs(claim: str, question: str, answer: str) -> bool:
    """The expected answer (alone, or read after its question) states the claim."""
    return holding.verdict(claim, answer) or holding.verdict(claim, f"{question} {answer}")


def _stage(status: str, **evidence: object) -> dict:
    return {"status": status, **{k: v for k, v in evidence.items() if v is not None}}


def journeys(
    trajectory: Trajectory,
    store: StoreView,
    full_rows: Sequence[dict],
    asker: extrinsic.Asker,
    observations: dict[int, list[tuple[str, str]]] | None,
    quarantined: dict[str, str] | None = None,
) -> list[dict]:
    """One journey per distinct expected claim, in order of first appearance. ``observations``:
    {state index: [(observation id, text)]} of each state's own document, None when the system
    reports no observations (extracted is n/a); ``quarantined``: {observation id: why} of those
    the run kept out of the store."""
    rows = {(r["state_index"], r["expected"]): r for r in full_rows}
    written = [i for i, a in enumerate(store.after) if a is not None]
    questions = extrinsic.questions(trajectory)
    out = []
    for claim in dict.fromkeys(c for s in trajectory.states for c in s.claims):
        life = [s.index for s in trajectory.states if claim in s.claims and s.index in written]
        if not life:
            continue
        origin = next((i for i in life if claim in trajectory.states[i].doc_claims), None)
        at = life[0] if origin is None else origin
        stages = {
            "said": _stage(PASS if origin is not None else FAIL, state=origin),
            "extracted": _extracted(claim, at, observations),
            "stored": _stored(claim, at, rows, store),
            "kept": _kept(claim, at, life, written, rows, trajectory, store),
        }
        needed = [
            q
            for q in questions
            if _target(trajectory, q) in life and needs(claim, q.question, q.answer)
        ]
        _quarantined(stages, claim, observations, at, quarantined or {})
        stages.update(_reading(claim, needed, asker))
        loss = next((s for s in STAGES if stages[s]["status"] == FAIL), None)
        item = f"s{life[0]}/c{trajectory.states[life[0]].claims.index(claim)}"
        out.append(
            {
                "item": item,
                "claim": claim,
                "questions": [q.item for q in needed],
                "stages": stages,
                "loss": loss,
            }
        )
    return out


def _target(trajectory: Trajectory, q: extrinsic.Question) -> int:
    last = len(trajectory.states) - 1
    if q.kind == "single":
        n = int(q.item.split("/")[1])
        state = trajectory.single_qa[n].state
        return last if state is None or not 0 <= state <= last else state
    return last


def _extracted(claim: str, at: int, observations: dict[int, list[tuple[str, str]]] | None) -> dict:
    if observations is None:
        return _stage(NA, why="the system reports no observations")
    for oid, text in observations.get(at, []):
        if lexical.related(claim, text):
            return _stage(PASS, observation=oid)
    return _stage(FAIL, state=at)


def _quarantined(
    stages: dict,
    claim: str,
    observations: dict[int, list[tuple[str, str]]] | None,
    at: int,
    quarantined: dict[str, str],
) -> None:
    """A claim not stored whose every related observation was quarantined is lost for that:
    ``stored`` says why ("quarantined") and names the observation and its reason."""
    if stages["stored"]["status"] != FAIL or not observations or not quarantined:
        return
    related = [oid for oid, text in observations.get(at, []) if lexical.related(claim, text)]
    if related and all(oid in quarantined for oid in related):
        stages["stored"].update(
            why="quarantined", observation=related[0], quarantine=quarantined[related[0]]
        )


def _fact_of(row: dict | None, store: StoreView, i: int) -> str | None:
    if row is None:
        return None
    index, _ = credited_facts(row)
    ids = list(store.held(i))
    return ids[index[0]] if index and index[0] < len(ids) else None


def _stored(claim: str, at: int, rows: dict[tuple[int, str], dict], store: StoreView) -> dict:
    row = rows.get((at, claim))
    ok = row is not None and row["score"] == 1.0
    return _stage(
        PASS if ok else FAIL,
        state=at,
        fact=_fact_of(row, store, at),
        position=store.positions[at],
        label=None if row is None else row["label"],
    )


def _kept(
    claim: str,
    at: int,
    life: list[int],
    written: list[int],
    rows: dict[tuple[int, str], dict],
    trajectory: Trajectory,
    store: StoreView,
) -> dict:
    for i in life:
        if i <= at:
            continue
        row = rows.get((i, claim))
        if row is None or row["score"] != 1.0:
            return _stage(FAIL, state=i, why="not held", label=row and row["label"])
    claims = [s.claims for s in trajectory.states]
    stale = [s.stale_claims for s in trajectory.states]
    for i in written:  # every written state where the claim is stale, gaps between its states too
        if i > at and claim in metrics.stale_claims_at(claims, stale, i):
            held = metrics.stale_facts(store.held(i), [claim], holding.verdict)
            if held:
                return _stage(FAIL, state=i, fact=held[0], why="stale value still active")
    last = life[-1]
    return _stage(PASS, state=last, fact=_fact_of(rows.get((last, claim)), store, last))


def _reading(claim: str, needed: list, asker: extrinsic.Asker) -> dict:
    """retrieved, used and credited over the questions that need the claim (each must pass)."""
    na = getattr(asker, "memory_na", None)  # an own-search run that stored no hits: n/a, why
    if not needed or na:
        why = na if needed else "no question needs this claim"
        return {s: _stage(NA, why=why) for s in ("retrieved", "used", "credited")}
    rankings = {
        (r["kind"], r["item"]): json.loads(r["ranking"])
        for r in asker.retrievals
        if r["source"] == "memory"
    }
    answers = {
        (a["kind"], a["item"]): a["answer"]
        for a in asker.answers
        if a["source"] == "memory" and a["k"] == extrinsic.TOP_K
    }
    labels = {
        (v["kind"], v["item"]): v["label"]
        for v in asker.verdicts
        if v["source"] == "memory" and v["k"] == extrinsic.TOP_K
    }
    ret, use, cred = [], [], []
    for q in needed:
        key = (q.kind, q.item)
        ret.append({"question": q.item, **rank_of(claim, rankings.get(key, []))})
        use.append({"question": q.item, **used(claim, q.answer, answers.get(key, ""))})
        cred.append({"question": q.item, "label": labels.get(key), "ok": labels.get(key) == "YES"})
    return {
        "retrieved": _stage(_all(ret), per_question=ret),
        "used": _stage(_all(use), per_question=use),
        "credited": _stage(_all(cred), per_question=cred),
    }


def _all(items: list[dict]) -> str:
    return PASS if all(i["ok"] for i in items) else FAIL


def rank_of(claim: str, ranking: list[dict], k: int = extrinsic.TOP_K) -> dict:
    """The best rank (1-based) of a fact stating the claim among the top max(DEPTHS) hits, whether
    it is within each k of the depth curve, and ok = within ``k``."""
    deepest = max(extrinsic.DEPTHS)
    hit = next((h for h in ranking[:deepest] if holding.verdict(claim, h["text"])), None)
    rank = None if hit is None else ranking.index(hit) + 1
    return {
        "ok": rank is not None and rank <= k,
        "rank": rank,
        "fact": None if hit is None else hit["fact_id"],
        "in_top": {str(d): rank is not None and rank <= d for d in extrinsic.DEPTHS},
    }


def used(claim: str, expected: str, answer: str) -> dict:
    """The answer states every value of the claim that the expected answer carries (a claim whose
    values the expected answer does not carry: the answer must state the claim)."""
    wanted = [
        v
        for v in lexical.values(claim)
        if not v.former and any(lexical.same(v, e) for e in lexical.values(expected))
    ]
    if not wanted:
        return {"ok": holding.verdict(claim, answer), "span": None}
    got = lexical.values(answer)
    spans = []
    for v in wanted:
        match = next((g for g in got if not g.former and lexical.same(v, g)), None)
        if match is None:
            return {"ok": False, "span": None, "missing": v.text}
        spans.append([match.start, match.end])
    return {"ok": True, "span": spans}


# ---- the funnel ---------------------------------------------------------------------------------


def counts(claims: Sequence[dict]) -> dict[str, dict[str, int]]:
    """Per stage: ``n`` claims the stage applies to, ``survived`` of those that pass it and every
    applicable stage before it."""
    return {s: {"n": len(v), "survived": int(sum(v))} for s, v in survival(claims).items()}


def survival(claims: Sequence[dict]) -> dict[str, list[float]]:
    """Per stage, one 0/1 per claim it applies to (survived up to and including it)."""
    out: dict[str, list[float]] = {s: [] for s in STAGES}
    for c in claims:
        alive = True
        for s in STAGES:
            status = c["stages"][s]["status"]
            if status == NA:
                continue
            alive = alive and status == PASS
            out[s].append(1.0 if alive else 0.0)
    return out


def share_ci(
    survived: Sequence[float],
    n: Sequence[float],
    *,
    resamples: int = stats.DEFAULT_RESAMPLES,
    seed: int = stats.DEFAULT_SEED,
    level: float = 0.95,
) -> stats.Interval:
    """The pooled share sum(survived) / sum(n) over clusters (trajectories) with its cluster-
    bootstrap percentile CI, vectorised: the same draws (one ``rng.integers(0, k, k)`` row per
    resample from ``default_rng(seed)``), the same skipped resamples (no claim drawn) and so the
    same interval as ``stats.cluster_mean_ci`` over each cluster's 0/1 survival list."""
    k = len(n)
    if k == 0:
        return stats.Interval(None, None, None, n=0)
    hits, totals = np.asarray(survived, dtype=float), np.asarray(n, dtype=float)
    estimate = float(hits.sum() / totals.sum()) if totals.sum() else None
    idx = np.random.default_rng(seed).integers(0, k, (resamples, k))
    drawn = totals[idx].sum(axis=1)
    ok = drawn > 0
    if not ok.any():
        return stats.Interval(estimate, None, None, n=k)
    tail = (1 - level) / 2
    low, high = np.quantile(hits[idx].sum(axis=1)[ok] / drawn[ok], [tail, 1 - tail])
    return stats.Interval(estimate, float(low), float(high), n=k)


def _stage_figures(
    per: Sequence[dict[str, dict[str, int]]], small: bool = False, **boot: Unpack[stats.Boot]
) -> dict:
    """Per stage: n, survived, the pooled share with its CI over the trajectories' counts ``per``.
    ``small``: below SMALL_GROUP trajectories the stage applies to, the range of their shares
    (a category or difficulty, like the group figures of docs/metrics.md)."""
    out = {}
    for s in STAGES:
        hits = [c[s]["survived"] for c in per]
        totals = [c[s]["n"] for c in per]
        ci = share_ci(hits, totals, **boot)
        shares = [h / t for h, t in zip(hits, totals) if t]
        if small and len(shares) < stats.SMALL_GROUP:
            ci = stats.value_range(ci.estimate, shares)
        out[s] = {
            "n": int(sum(totals)),
            "survived": int(sum(hits)),
            "share": ci.estimate,
            "low": ci.low,
            "high": ci.high,
            "trajectories": ci.n,
            "method": ci.method,
        }
    return out


def funnel(per_trajectory: Sequence[Sequence[dict]], **boot: Unpack[stats.Boot]) -> dict[str, dict]:
    """The funnel of a run: per stage the counts and the survival share with its cluster-bootstrap
    CI (trajectories resampled whole)."""
    return _stage_figures([counts(claims) for claims in per_trajectory], **boot)


def losses(claims: Sequence[dict]) -> dict[str, int]:
    """Claims per loss point."""
    out: dict[str, int] = {}
    for c in claims:
        if c["loss"]:
            out[c["loss"]] = out.get(c["loss"], 0) + 1
    return {s: out[s] for s in STAGES if s in out}


# ---- reading the store --------------------------------------------------------------------------


def reports_observations(db: Database, run_id: str) -> bool:
    """False for a system mapped from outside (``foreign``): it hands over facts, never the
    observations it extracted."""
    row = db.table("runs").get(run_id)
    manifest = stored_json(row.get("manifest"), "manifest", run_id, {})
    return (manifest.get("system_spec") or {}).get("kind") != "foreign"


def load_observations(
    db: Database, run_id: str, trajectory: Trajectory, store: StoreView
) -> dict[int, list[tuple[str, str]]] | None:
    """{state index: [(observation id, text)]} of each state's own document; None when the system
    reports no observations."""
    if not reports_observations(db, run_id):
        return None
    out: dict[int, list[tuple[str, str]]] = {}
    for state in trajectory.states:
        pos = store.positions[state.index]
        if pos is None:
            continue
        out[state.index] = [
            (oid, text)
            for oid, text in writes.observation_texts(db, run_id, trajectory.id, pos)
            if text is not None
        ]
    return out


def card(
    db: Database,
    run_id: str,
    trajectory: Trajectory,
    store: StoreView,
    full_rows: Sequence[dict],
    asker: extrinsic.Asker,
) -> dict:
    """The journey block of a trajectory's score card: every claim's journey, the counts per stage
    and the claims per loss point."""
    claims = journeys(
        trajectory,
        store,
        full_rows,
        asker,
        load_observations(db, run_id, trajectory, store),
        writes.quarantined_observations(db, run_id, trajectory.id),
    )
    return {"claims": claims, "counts": counts(claims), "losses": losses(claims)}


# ---- the run's funnel (computed once, at score time) --------------------------------------------


def _add(total: dict, part: dict) -> None:
    for s, c in part.items():
        into = total.setdefault(s, {"n": 0, "survived": 0})
        into["n"] += c["n"]
        into["survived"] += c["survived"]


def run_funnel(cards: dict[str, dict], **boot: Unpack[stats.Boot]) -> dict | None:
    """The funnel of a scored run from its trajectory cards: per stage the counts and the survival
    share with its cluster-bootstrap CI; claims per loss point; counts by category and difficulty,
    and the same with the share's CI within each group (its own trajectories resampled; below 5,
    the range of their shares). None when no card has a journey."""
    cards = {t: c for t, c in sorted(cards.items()) if c.get("journey")}
    if not cards:
        return None
    per = [c["journey"]["claims"] for c in cards.values()]
    lost: dict[str, int] = {}
    groups: dict[str, dict[str, dict]] = {"by_category": {}, "by_difficulty": {}}
    members: dict[str, dict[str, list[dict]]] = {"by_category": {}, "by_difficulty": {}}
    for card in cards.values():
        for s, n in card["journey"]["losses"].items():
            lost[s] = lost.get(s, 0) + n
        for field, key in (("by_category", "category"), ("by_difficulty", "difficulty")):
            _add(groups[field].setdefault(str(card.get(key)), {}), card["journey"]["counts"])
            members[field].setdefault(str(card.get(key)), []).append(card["journey"]["counts"])
    ordered = {s: lost[s] for s in STAGES if s in lost}
    shares = {
        name: {g: _stage_figures(m, small=True, **boot) for g, m in sorted(members[field].items())}
        for name, field in (
            ("category_shares", "by_category"),
            ("difficulty_shares", "by_difficulty"),
        )
    }
    return {"stages": funnel(per, **boot), "losses": ordered, **groups, **shares}


def funnel_line(stages: dict[str, dict]) -> str:
    """``said 6/6 → extracted 6/6 → … → credited 3/4`` (survived / claims the stage applies to)."""
    parts = [f"{s} {stages[s]['survived']}/{stages[s]['n']}" for s in STAGES if s in stages]
    return " → ".join(parts)


def _stage_model(f: dict) -> JourneyStage:
    return JourneyStage(
        n=f["n"],
        survived=f["survived"],
        share=Interval(
            mean=f["share"],
            ci_low=f["low"],
            ci_high=f["high"],
            n=f.get("trajectories"),
            method=f.get("method") or "bootstrap",
        ),
    )


def figures(stored: dict | None) -> JourneyFigures | None:
    """The report's journey block from the funnel the scoring pass stored (never recomputed by the
    report); None for a pass made before the journey."""
    if not stored:
        return None
    stages = {s: _stage_model(f) for s, f in stored["stages"].items()}
    rest = {k: stored.get(k) or {} for k in ("losses", "by_category", "by_difficulty")}
    shares = {
        k: {
            g: {s: _stage_model(f) for s, f in per.items()}
            for g, per in (stored.get(k) or {}).items()
        }
        for k in ("category_shares", "difficulty_shares")
    }
    return JourneyFigures(stages=stages, **rest, **shares)


MARK = {PASS: "✓", FAIL: "✗", NA: "–"}


def marks(claim: dict) -> str:
    """One line of stage marks for a claim's journey: ``said ✓ extracted ✓ … · lost at kept``."""
    line = " ".join(f"{s} {MARK.get(claim['stages'][s]['status'], '?')}" for s in STAGES)
    return f"{line} · lost at {claim['loss']}" if claim.get("loss") else f"{line} · not lost"
