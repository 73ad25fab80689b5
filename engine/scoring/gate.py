"""Is the candidate worse than the base, beyond noise? Two scored runs of one corpus compared
figure by figure, paired by trajectory (``seorap compare``; docs/metrics.md#comparing-two-runs).

For each headline figure the per-trajectory values of both runs are paired on the trajectories
both have a value for; the difference is CANDIDATE - BASE, its estimate the mean of the per-
trajectory differences, and its 95% interval a *paired* cluster bootstrap: every resample draws
trajectories with replacement and takes the same trajectories from both runs, so what the two
runs share (an easy trajectory is easy for both) cancels out. Beside it, the minimum detectable
difference (alpha 0.05, power 0.8) says how large a true difference this corpus could see.

A gate (``--fail-if-worse FIGURE[:MARGIN]``) fails only when the *whole* interval lies on the
worse side of the margin: below -MARGIN for a figure where higher is better, above +MARGIN where
lower is better. Fewer than ``MIN_PAIRS`` paired trajectories decide nothing (a percentile
interval over so few resamples means little): the gate is *undecided*, and the command that runs
it says so last and exits 3 (a CI job must not pass without a decision; ``--allow-undecided`` lets
it). ``decide`` folds the conditions into that one verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from sqlite_utils import Database

from seorap.engine.errors import UsageError
from seorap.engine.scoring import ruler_marks, stats
from seorap.engine.scoring.diagnosis import is_unverified
from seorap.engine.scoring.schema import RunReport
from seorap.engine.scoring.schema_trajectory import TrajectoryReport
from seorap.engine.store.damage import stored_json
from seorap.engine.store.lease import run_statuses
from seorap.engine.store.queries.runs import all_runs
from seorap.engine.store.queries.scores import run_card

MIN_PAIRS = stats.SMALL_GROUP
"""Below this many paired trajectories a gate decides nothing."""


@dataclass(frozen=True)
class Figure:
    label: str
    value: Callable[[TrajectoryReport], float | None]
    higher_is_better: bool = True


def _count(value: int | None) -> float | None:
    return None if value is None else float(value)


FIGURES: dict[str, Figure] = {
    "intrinsic": Figure("intrinsic (full)", lambda t: t.intrinsic.full),
    "intrinsic_filter": Figure("intrinsic (filter)", lambda t: t.intrinsic.filter),
    "extrinsic": Figure("extrinsic (compound)", lambda t: t.extrinsic.compound),
    "extrinsic_single": Figure("extrinsic (single)", lambda t: t.extrinsic.single),
    "claim_precision": Figure("claim precision", lambda t: t.claim_precision),
    "op_accuracy": Figure("operation accuracy", lambda t: t.op_accuracy),
    "udr": Figure("update detection (UDR)", lambda t: t.udr),
    "fur": Figure("false updates (FUR)", lambda t: t.fur, higher_is_better=False),
    "confidence_mae": Figure("confidence MAE", lambda t: t.confidence_mae, higher_is_better=False),
    "stale_facts": Figure("stale facts", lambda t: _count(t.stale_facts), higher_is_better=False),
    "miss_rate": Figure("miss rate", lambda t: t.miss_rate, higher_is_better=False),
}
"""Every figure a comparison reports and a gate can name, in report order."""


@dataclass
class Difference:
    figure: str
    label: str
    higher_is_better: bool
    base: float | None
    """Mean of the base run over the paired trajectories."""
    candidate: float | None
    """Mean of the candidate run over the same trajectories."""
    estimate: float | None
    """Mean of candidate - base over the paired trajectories."""
    low: float | None
    high: float | None
    n: int
    """Paired trajectories (both runs have a value)."""
    mdd: float | None
    """Minimum detectable difference, paired (alpha 0.05, power 0.8)."""
    seeds: int = 1
    """Seed pairs behind the figure (runs repeated with --seed on both sides)."""
    seed_sd: float | None = None
    """Sample sd over seed pairs of each pair's mean difference; None with one seed."""
    ruler: str = ""
    """``unreliable`` when the figure is built on the judge's labels and either run's judge is
    unreliable (engine/scoring/ruler_marks.py), else ''."""

    @property
    def verdict(self) -> str:
        """``better`` / ``worse`` when the whole interval is on one side of zero, ``same`` when
        every resample gives zero, else ``unclear`` (``too few`` below MIN_PAIRS pairs)."""
        if self.n < MIN_PAIRS or self.low is None or self.high is None:
            return "too few"
        if self.low == self.high == 0:
            return "same"
        if self.low > 0:
            return "better" if self.higher_is_better else "worse"
        if self.high < 0:
            return "worse" if self.higher_is_better else "better"
        return "unclear"


def paired_difference(
    base: list[float | None],
    candidate: list[float | None],
    *,
    resamples: int = stats.DEFAULT_RESAMPLES,
    seed: int = stats.DEFAULT_SEED,
) -> tuple[float | None, float | None, float | None, int]:
    """(estimate, low, high, n) of mean(candidate - base) over the pairs with both values, by a
    paired cluster bootstrap (one draw of trajectory indices serves both runs)."""
    return _mean_ci([c - b for b, c in stats.pairs(base, candidate)], resamples, seed)


def _mean_ci(
    diffs: list[float], resamples: int, seed: int
) -> tuple[float | None, float | None, float | None, int]:
    values = np.asarray(diffs, dtype=float)
    if len(values) == 0:
        return None, None, None, 0

    def stat(idx: np.ndarray) -> float:
        return float(values[idx].mean())

    iv = stats.bootstrap(len(values), stat, resamples=resamples, seed=seed)
    return iv.estimate, iv.low, iv.high, len(values)


Pair = tuple[RunReport, RunReport]
"""(base, candidate) runs of one seed."""


def difference(
    name: str,
    pairs: list[Pair],
    *,
    resamples: int = stats.DEFAULT_RESAMPLES,
    seed: int = stats.DEFAULT_SEED,
) -> Difference:
    """One figure over one or more seed pairs: per trajectory, d_t is the mean over the seed
    pairs where both runs have a value of (candidate - base); the interval bootstraps the
    trajectories. With two or more seed pairs, ``seed_sd`` is the sample sd over seeds of each
    pair's mean difference."""
    fig = FIGURES[name]
    per_t: dict[str, list[tuple[float, float]]] = {}
    per_seed: list[float] = []
    for base, cand in pairs:
        a = {t.id: fig.value(t) for t in base.trajectories}
        b = {t.id: fig.value(t) for t in cand.trajectories}
        both = [(a[t], b[t], t) for t in sorted(a.keys() & b.keys())]
        seed_diffs = []
        for x, y, t in both:
            if x is not None and y is not None:
                per_t.setdefault(t, []).append((x, y))
                seed_diffs.append(y - x)
        if seed_diffs:
            per_seed.append(sum(seed_diffs) / len(seed_diffs))
    trajectories = sorted(per_t)
    xs = [stats.mean([x for x, _ in per_t[t]]) for t in trajectories]
    ys = [stats.mean([y for _, y in per_t[t]]) for t in trajectories]
    diffs = [stats.mean([y - x for x, y in per_t[t]]) or 0.0 for t in trajectories]
    estimate, low, high, n = _mean_ci(diffs, resamples, seed)
    return Difference(
        figure=name,
        label=fig.label,
        higher_is_better=fig.higher_is_better,
        base=stats.mean(xs),
        candidate=stats.mean(ys),
        estimate=estimate,
        low=low,
        high=high,
        n=n,
        mdd=stats.min_detectable_difference(diffs),
        seeds=len(pairs),
        seed_sd=stats.mean_sd(per_seed)[1] if len(per_seed) > 1 else None,
    )


# ---- the gate -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    figure: str
    margin: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Condition:
        """``FIGURE`` or ``FIGURE:MARGIN`` (MARGIN a number ≥ 0, in the figure's own units)."""
        name, _, margin = text.partition(":")
        name = name.strip()
        if name not in FIGURES:
            raise UsageError(
                f"--fail-if-worse: unknown figure {name!r}; one of: {', '.join(FIGURES)}"
            )
        if not margin:
            return cls(name)
        try:
            value = float(margin)
        except ValueError:
            raise UsageError(
                f"--fail-if-worse {text!r}: the margin {margin!r} is not a number"
            ) from None
        if not (value >= 0 and np.isfinite(value)):
            raise UsageError(f"--fail-if-worse {text!r}: the margin must be a finite number ≥ 0")
        return cls(name, value)


@dataclass
class GateResult:
    condition: Condition
    failed: bool
    reason: str
    undecided: bool = False
    """Too few paired trajectories to decide (never also ``failed``)."""

    @property
    def verdict(self) -> str:
        """``FAIL``, ``UNDECIDED`` or ``PASS``."""
        return "FAIL" if self.failed else "UNDECIDED" if self.undecided else "PASS"


@dataclass(frozen=True)
class GateVerdict:
    """Every condition folded into one verdict: FAIL when any figure is worse beyond its margin,
    else UNDECIDED when any could not be decided, else PASS."""

    verdict: str
    """``PASS``, ``FAIL`` or ``UNDECIDED``."""
    exit_code: int
    """0 PASS, 1 FAIL, 3 UNDECIDED (0 when undecided is allowed)."""
    summary: str
    """One sentence: which figures decided the verdict."""


def decide(results: list[GateResult], *, allow_undecided: bool = False) -> GateVerdict:
    """The one verdict of a gate over ``results`` (at least one condition)."""
    n = len(results)
    of = f"of {n} figure{'s' if n > 1 else ''}"
    failed = sum(r.failed for r in results)
    undecided = sum(r.undecided for r in results)
    if failed:
        return GateVerdict("FAIL", 1, f"{failed} {of} worse beyond the margin")
    if undecided:
        code = 0 if allow_undecided else 3
        why = f"{undecided} {of}: under {MIN_PAIRS} paired trajectories"
        return GateVerdict("UNDECIDED", code, why + ("; allowed" if allow_undecided else ""))
    return GateVerdict("PASS", 0, f"none {of} worse beyond the margin")


def gate(condition: Condition, diff: Difference) -> GateResult:
    """Fail when the whole interval of candidate - base lies beyond -margin on the worse side."""
    m = condition.margin
    where = f"{diff.label}: candidate - base"
    if diff.n < MIN_PAIRS or diff.low is None or diff.high is None:
        return GateResult(
            condition,
            False,
            f"{where} undecided: {diff.n} paired trajectories (a gate needs {MIN_PAIRS})",
            undecided=True,
        )
    ci = f"{stats.number(diff.estimate)} [{stats.number(diff.low)}, {stats.number(diff.high)}]"
    edge = f"-{stats.number(m)}" if m else "0"
    if not diff.higher_is_better:
        edge = f"+{stats.number(m)}" if m else "0"
    failed = diff.high < -m if diff.higher_is_better else diff.low > m
    side = "below" if diff.higher_is_better else "above"
    bound = f"wholly {side} {edge}" if failed else f"not wholly {side} {edge}"
    word = "worse" if failed else "not worse beyond the margin"
    return GateResult(condition, failed, f"{where} = {ci}, interval {bound}: {word}")


# ---- two runs -------------------------------------------------------------------------------------


@dataclass
class Comparison:
    base: RunReport
    candidate: RunReport
    differences: list[Difference]
    labels: list[str] = field(default_factory=list)
    """Warnings the user allowed (different judges), shown with the figures."""


def _setup(db: Database, run_id: str, scoring: str) -> dict:
    card = run_card(db, run_id, scoring)
    extras = stored_json(card, "score card", run_id, {})
    return {"scoring": scoring, "judge_rules": extras.get("judge_rules")}


def check_comparable(
    db: Database, base: RunReport, candidate: RunReport, *, allow_different_judges: bool
) -> list[str]:
    """Refuse what cannot be compared (another corpus, a run still being written); runs judged
    differently are refused too unless allowed, then labelled. Returns the labels."""

    runs = {r["run_id"]: r for r in all_runs(db)}
    if runs[base.run_id]["corpus_digest"] != runs[candidate.run_id]["corpus_digest"]:
        raise UsageError(
            f"runs {base.run_id} and {candidate.run_id} were written from different corpora "
            "(their corpus digests differ): a paired comparison needs the same trajectories"
        )
    status = run_statuses(db)
    for run in (base, candidate):
        if status.get(run.run_id) == "running":
            raise UsageError(f"run {run.run_id} is still being written: compare it when it is done")
    a, b = _setup(db, base.run_id, base.scoring), _setup(db, candidate.run_id, candidate.scoring)
    if a == b:
        return []
    what = (
        f"base judged by {a['scoring']} ({a['judge_rules'] or 'rules unknown'}), "
        f"candidate by {b['scoring']} ({b['judge_rules'] or 'rules unknown'})"
    )
    if not allow_different_judges:
        raise UsageError(
            f"the two runs were judged differently — {what}: score both with one setup "
            "(seorap score --scoring …), or pass --allow-different-judges to compare anyway"
        )
    return [f"different judges: {what}; a difference may be the judge's, not the system's"]


def seed_pairs(base: RunReport, candidate: RunReport) -> list[tuple[int, str, str]]:
    """(seed, base run, candidate run) for each seed both sides were run with, when both were
    repeated over seeds (``run --seed 1 --seed 2 …``); [] otherwise."""
    sa, sb = base.aggregate.seeds, candidate.aggregate.seeds
    if sa is None or sb is None:
        return []
    a = {s: r for s, r in zip(sa.seeds, sa.run_ids) if s is not None}
    b = {s: r for s, r in zip(sb.seeds, sb.run_ids) if s is not None}
    shared = sorted(a.keys() & b.keys())
    return [(s, a[s], b[s]) for s in shared] if len(shared) > 1 else []


def compare_runs(
    base: RunReport,
    candidate: RunReport,
    *,
    labels: list[str] | None = None,
    pairs: list[Pair] | None = None,
    **boot: int,
) -> Comparison:
    """Every figure of FIGURES, over ``pairs`` (seed pairs) when given, else the one pair; a
    figure built on the labels of an unreliable judge (either side, any pair) is flagged, and a
    label says whose judge and why."""
    over = pairs or [(base, candidate)]
    differences = [difference(name, over, **boot) for name in FIGURES]
    unreliable = {
        side: reason
        for pair in over
        for side, run in zip(("base", "candidate"), pair, strict=True)
        if (reason := run.aggregate.judge_unreliable)
    }
    for d in differences:
        if unreliable and d.figure in ruler_marks.COMPARE_FIGURES:
            d.ruler = ruler_marks.FLAG
    notes = [
        f"{side}'s judge is {'unverified' if is_unverified(reason) else 'unreliable'} ({reason}): "
        f"the figures built on its labels are marked "
        f"[{ruler_marks.UNRELIABLE_MARK}] and no loss point is named"
        for side, reason in unreliable.items()
    ]
    return Comparison(base, candidate, differences, [*(labels or []), *notes])
