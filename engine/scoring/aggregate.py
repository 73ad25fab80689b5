"""A run's figures pooled over its trajectories, with their confidence intervals: one trajectory's
card read as a ``TrajectoryReport``, the run's ``Aggregate`` and a category's or difficulty's
``GroupFigures`` (engine/scoring/report.py puts them into the report)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Unpack

from seorap.engine.scoring import metrics, stats
from seorap.engine.scoring.extrinsic import TOP_K
from seorap.engine.scoring.schema import Aggregate, GroupFigures
from seorap.engine.scoring.schema_trajectory import (
    Baselines,
    BenefitTax,
    ExtrinsicFigures,
    FactShape,
    Interval,
    IntrinsicFigures,
    TrajectoryReport,
)
from seorap.engine.scoring.verdict import tally


def trajectory_report(trajectory_id: str, card: dict) -> TrajectoryReport:
    intr, extr = card["intrinsic"], card["extrinsic"]
    bt = extr["benefit_tax"]
    return TrajectoryReport(
        id=trajectory_id,
        category=card["category"],
        difficulty=card["difficulty"],
        intrinsic=IntrinsicFigures(full=card["intrinsic_full"], filter=card["intrinsic_filter"]),
        extrinsic=ExtrinsicFigures(compound=extr["compound"], single=extr["single"]),
        baselines=Baselines(
            **{k: extr["baselines"][k] for k in ("full_context", "naive_rag", "no_context")}
        ),
        udr=intr["udr"],
        fur=intr["fur"],
        op_accuracy=intr["op_accuracy"],
        op_majority_baseline=intr["op_majority_baseline"],
        op_confusion=intr["op_confusion"],
        confidence_mae=intr["confidence_mae"],
        final_fact_count=intr["final_fact_count"],
        append_only=bool(intr.get("append_only")),
        fact_shape=FactShape(**intr["fact_shape"]) if intr.get("fact_shape") else None,
        quadrant_raw=card.get("quadrant_raw"),
        miss_rate=(intr.get("full") or {}).get("miss_rate"),
        stale_facts=intr["stale_facts"],
        claim_precision=intr["claim_precision"],
        quadrant=card["quadrant"],
        diagnosis=card["diagnosis"],
        signed_diff=card["signed_diff"],
        depth_curve={str(k): v for k, v in extr["depth_curve"].items()},
        benefit_tax=BenefitTax(n=bt["n"], benefit=bt["benefit"], tax=bt["tax"], net=bt["net"]),
        failures=intr["failures"],
        write_failures=intr["write_failures"],
        partial_write_failures=intr.get("partial_write_failures", 0),
        token_f1=extr.get("token_f1"),
        **_read_fields(card),
    )


def _read_fields(card: dict) -> dict:
    r = card.get("read_time") or {}
    return {
        "read_coverage": r.get("coverage"),
        "read_accuracy": r.get("accuracy"),
        "stale_at_read": r.get("stale_at_read"),
    }


def _iv(ci: stats.Interval) -> Interval:
    return Interval(mean=ci.estimate, ci_low=ci.low, ci_high=ci.high, method=ci.method, n=ci.n)


def interval(values: list[float | None], **boot: Unpack[stats.Boot]) -> Interval:
    """Mean of one value per trajectory: bootstrap CI, or the range below 5 (stats.group_mean)."""
    return _iv(stats.group_mean(values, **boot))


PER_PAIR = {
    "mad": lambda x, y: abs(x - y),
    "signed_mean": lambda x, y: x - y,
    "div_rate": lambda x, y: 1.0 if stats.above(abs(x - y), stats.DIV_TAU) else 0.0,
    "pass_agreement": lambda x, y: (
        1.0
        if stats.at_least(x, stats.PASS_THRESHOLD) == stats.at_least(y, stats.PASS_THRESHOLD)
        else 0.0
    ),
}
"""Per-trajectory values whose range stands in for a CI below 5 pairs (r and kappa have none)."""


def _paired(
    i: list[float | None], e: list[float | None], name: str, **boot: Unpack[stats.Boot]
) -> Interval:
    return _iv(stats.group_paired(i, e, getattr(stats, name), PER_PAIR.get(name), **boot))


def group_figures(
    ts: list[TrajectoryReport], unreliable: bool = False, **boot: Unpack[stats.Boot]
) -> GroupFigures:
    """Agreement figures of a category or difficulty, with CIs from a cluster bootstrap over the
    group's own trajectories; below 5 trajectories the range of the values, labelled with n."""
    i = [t.intrinsic.full for t in ts]
    e = [t.extrinsic.compound for t in ts]
    return GroupFigures(
        n=len(ts),
        intrinsic=stats.mean(i),
        extrinsic=stats.mean(e),
        mad=None if unreliable else stats.mad(i, e),
        div_rate=None if unreliable else stats.div_rate(i, e),
        kappa=None if unreliable else stats.cohen_kappa(i, e),
        intrinsic_ci=interval(i, **boot),
        extrinsic_ci=interval(e, **boot),
        mad_ci=None if unreliable else _paired(i, e, "mad", **boot),
    )


def _op_hits(card: dict) -> list[float]:
    return [1.0 if metrics.op_correct(a, o) else 0.0 for a, o in _state_ops(card)]


def _op_accuracy_ci(cards: dict, **boot: Unpack[stats.Boot]) -> Interval:
    """Pooled operation accuracy, resampling trajectories with all their states; below 5
    trajectories the range of the per-trajectory accuracies."""
    hits = [h for h in (_op_hits(c) for c in cards.values()) if h]
    if len(hits) < stats.SMALL_GROUP:
        pooled = stats.mean([x for h in hits for x in h])
        return _iv(stats.value_range(pooled, [stats.mean(h) for h in hits]))
    return _iv(stats.cluster_mean_ci(hits, **boot))


def _fact_shape(ts: list[TrajectoryReport]) -> FactShape:
    """Fact shape pooled over the final facts of all trajectories (weighted by their fact counts)."""
    shapes = [
        (s.n, s.mean_length, s.multi_share)
        for t in ts
        if (s := t.fact_shape) is not None
        and s.n
        and s.mean_length is not None
        and s.multi_share is not None
    ]
    n = sum(k for k, _, _ in shapes)
    if not n:
        return FactShape()
    return FactShape(
        n=n,
        mean_length=sum(k * length for k, length, _ in shapes) / n,
        multi_share=sum(k * share for k, _, share in shapes) / n,
    )


def aggregate(
    ts: list[TrajectoryReport],
    cards: dict,
    verdicts: list[dict],
    *,
    unreliable: str | None = None,
    **boot: Unpack[stats.Boot],
) -> Aggregate:
    """Figures over the run; with ``unreliable`` (the judge cannot carry a diagnosis) quadrants,
    MAD, DivRate, Pearson r, Cohen's kappa and pass agreement are withheld (null) and the reason is
    kept."""
    i = [t.intrinsic.full for t in ts]
    e = [t.extrinsic.compound for t in ts]
    memory = tally(v["label"] for v in verdicts if v["source"] == "memory" and v["k"] == TOP_K)
    states = [(a, o) for c in cards.values() for a, o in _state_ops(c)]
    exp, eff = [a for a, _ in states], [o for _, o in states]
    withheld = unreliable is not None
    return Aggregate(
        intrinsic=interval(i, **boot),
        extrinsic=interval(e, **boot),
        intrinsic_filter=interval([t.intrinsic.filter for t in ts], **boot),
        extrinsic_single=interval([t.extrinsic.single for t in ts], **boot),
        udr=interval([None if t.append_only else t.udr for t in ts], **boot),
        fur=interval([t.fur for t in ts], **boot),
        confidence_mae=interval([t.confidence_mae for t in ts], **boot),
        **_agreement(i, e, withheld, **boot),
        partial_share=memory.partial_share,
        unparseable=sum(v["label"] == "UNPARSEABLE" for v in verdicts),
        op_accuracy=metrics.op_accuracy(exp, eff),
        op_accuracy_ci=_op_accuracy_ci(cards, **boot),
        op_majority_baseline=metrics.majority_baseline(exp)[1],
        fact_shape=_fact_shape(ts),
        judge_unreliable=unreliable,
        baselines=Baselines(
            **{
                k: stats.mean([getattr(t.baselines, k) for t in ts])
                for k in ("full_context", "naive_rag", "no_context")
            }
        ),
        benefit_tax=BenefitTax(
            **{
                k: sum(getattr(t.benefit_tax, k) for t in ts)
                for k in ("n", "benefit", "tax", "net")
            }
        ),
        depth_curve={
            k: stats.mean([t.depth_curve.get(k) for t in ts]) for k in ("1", "3", "5", "10")
        },
        stale_facts=sum(t.stale_facts for t in ts if t.stale_facts is not None) if ts else None,
        claim_precision=stats.mean([t.claim_precision for t in ts]),
        quadrants={} if withheld else _count(t.quadrant for t in ts),
        by_category={
            c: group_figures([t for t in ts if t.category == c], withheld, **boot)
            for c in sorted({t.category for t in ts} - {""})  # an imported set has none
        },
        by_difficulty={
            d: group_figures([t for t in ts if t.difficulty == d], withheld, **boot)
            for d in sorted({t.difficulty for t in ts} - {""})
        },
    )


_WITHHELD = Interval(
    reason="withheld: the judge is unreliable or unverified (see judge_unreliable, the judge audit)"
)
"""An agreement figure that an unreliable (or unverified) judge cannot carry (``n/a``, with why)."""


def _agreement(i: list, e: list, withheld: bool, **boot: Unpack[stats.Boot]) -> dict:
    """How intrinsic and extrinsic agree over the run: MAD, DivRate, signed mean, Pearson r, Cohen's
    kappa and pass agreement with their CIs; all but the signed mean withheld (null) when the
    judge is unreliable."""
    return dict(
        mad=None if withheld else stats.mad(i, e),
        mad_ci=_WITHHELD if withheld else _paired(i, e, "mad", **boot),
        div_rate=None if withheld else stats.div_rate(i, e),
        div_rate_ci=_WITHHELD if withheld else _paired(i, e, "div_rate", **boot),
        signed_mean=stats.signed_mean(i, e),
        signed_mean_ci=_paired(i, e, "signed_mean", **boot),
        # built on pass/fail at 0.5: withheld with the rest when the judge is unreliable
        pearson_r=None if withheld else stats.pearson_r(i, e),
        pearson_r_ci=_WITHHELD if withheld else _paired(i, e, "pearson_r", **boot),
        kappa=None if withheld else stats.cohen_kappa(i, e),
        kappa_ci=_WITHHELD if withheld else _paired(i, e, "cohen_kappa", **boot),
        pass_agreement=None if withheld else stats.pass_agreement(i, e),
        pass_agreement_ci=_WITHHELD if withheld else _paired(i, e, "pass_agreement", **boot),
    )


def _state_ops(card: dict) -> list[tuple[str, str]]:
    intr = card["intrinsic"]
    confusion = intr.get("op_confusion") or {}
    return [(a, o) for a, row in confusion.items() for o, n in row.items() for _ in range(n)]


def _count(values: Iterable[str | None]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        if v is not None:
            out[v] = out.get(v, 0) + 1
    return out
