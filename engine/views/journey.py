"""Two runs' claim journeys side by side (compare): the funnels stage by stage, and the claims one
run loses at a stage while the other keeps them past it (docs/metrics.md#claim-journey)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlite_utils import Database

from seorap.engine.scoring.journey import STAGES
from seorap.engine.scoring.ruler_marks import UNRELIABLE_MARK
from seorap.engine.store import gold as store
from seorap.engine.views.claim_path import lost_at
from seorap.engine.views.common import latest_scoring


@dataclass(frozen=True)
class Lost:
    trajectory: str
    item: str
    claim: str
    stage: str
    """Where the losing run lost it."""
    other: str | None
    """Where the other run lost it (a later stage), None when it never did."""


@dataclass(frozen=True)
class FunnelPair:
    stages: dict[str, tuple[dict[str, int], dict[str, int]]]
    """stage -> (base counts, candidate counts): n and survived."""
    base_loses: list[Lost] = field(default_factory=list)
    """Claims the base loses at a stage the candidate gets past."""
    candidate_loses: list[Lost] = field(default_factory=list)
    """Claims the candidate loses at a stage the base gets past."""

    def as_dict(self) -> dict:
        return {
            "stages": {s: {"base": a, "candidate": b} for s, (a, b) in self.stages.items()},
            "base_loses": [vars(x) for x in self.base_loses],
            "candidate_loses": [vars(x) for x in self.candidate_loses],
        }


def _later(a: str | None, b: str | None) -> bool:
    """Loss point ``b`` comes after ``a`` (None: never lost, after everything)."""
    return a is not None and (b is None or STAGES.index(b) > STAGES.index(a))


def side_by_side(
    db: Database, base: tuple[str, str | None], candidate: tuple[str, str | None]
) -> FunnelPair | None:
    """The funnels of two runs, each (run id, scoring; None: its latest), over the trajectories
    both have a journey for; None when either run was scored before the journey."""
    cards = [
        store.trajectory_cards(db, rid, scoring or latest_scoring(db, rid) or "")
        for rid, scoring in (base, candidate)
    ]
    shared = sorted(
        t
        for t in cards[0].keys() & cards[1].keys()
        if cards[0][t].get("journey") and cards[1][t].get("journey")
    )
    if not shared:
        return None
    totals = [{s: {"n": 0, "survived": 0} for s in STAGES} for _ in range(2)]
    lost: list[list[Lost]] = [[], []]
    for t in shared:
        journeys = [cards[i][t]["journey"] for i in range(2)]
        for i in range(2):
            for s, c in journeys[i]["counts"].items():
                totals[i][s]["n"] += c["n"]
                totals[i][s]["survived"] += c["survived"]
        claims = [{c["item"]: c for c in j["claims"]} for j in journeys]
        for item in claims[0].keys() & claims[1].keys():
            a, b = claims[0][item], claims[1][item]
            if _later(a["loss"], b["loss"]):
                lost[0].append(Lost(t, item, a["claim"], a["loss"], b["loss"]))
            elif _later(b["loss"], a["loss"]):
                lost[1].append(Lost(t, item, b["claim"], b["loss"], a["loss"]))
    order = {s: n for n, s in enumerate(STAGES)}
    for group in lost:
        group.sort(key=lambda x: (order[x.stage], x.trajectory, x.item))
    stages = {s: (totals[0][s], totals[1][s]) for s in STAGES}
    return FunnelPair(stages, lost[0], lost[1])


def lines(
    pair: FunnelPair | None,
    base: str = "base",
    candidate: str = "candidate",
    limit: int = 10,
    *,
    withheld: bool = False,
) -> list[str]:
    """The pair as text: one line per stage (survived/n on each side), then the claims each side
    loses that the other keeps past that stage. ``withheld``: a side's judge is unreliable — the
    counts carry the mark and no loss point is named."""
    if pair is None:
        return []
    width = max(len(s) for s in STAGES)
    mark = f" [{UNRELIABLE_MARK}]" if withheld else ""
    out = [f"claim funnel: {base} | {candidate} (survived/claims){mark}"]
    for s, (a, b) in pair.stages.items():
        flag = (
            "  ◀" if a["n"] and b["n"] and a["survived"] * b["n"] != b["survived"] * a["n"] else ""
        )
        out.append(
            f"  {s:<{width}}  {a['survived']:>4}/{a['n']:<4} | {b['survived']:>4}/{b['n']:<4}{flag}"
        )
    if withheld:  # a loss point read from an unreliable ruler is not named
        return [*out, "loss points withheld (unreliable ruler: see the judge audit)"]
    for who, other, group in (
        (base, candidate, pair.base_loses),
        (candidate, base, pair.candidate_loses),
    ):
        if not group:
            continue
        out.append(f"{who} loses what {other} keeps ({len(group)}):")
        for x in group[:limit]:
            kept = f"lost at {x.other}" if x.other else "not lost"
            out.append(f"  {x.trajectory} {x.item} {lost_at(x.stage)}; {other}: {kept}: {x.claim}")
        if len(group) > limit:
            out.append(f"  … {len(group) - limit} more")
    return out
