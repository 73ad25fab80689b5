"""Agreement and uncertainty statistics over per-trajectory scores (docs/metrics.md).

Pure functions over plain sequences of floats. Pairs where either side is ``None`` (a figure not
defined for that trajectory) are dropped before computing; a statistic that cannot be computed
(empty input, zero variance) returns ``None`` rather than an invented number. Formulas are in
docs/metrics.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import TypedDict, Unpack

import numpy as np

from seorap.engine.fmt import figure

PASS_THRESHOLD = 0.5
DIV_TAU = 0.15
DEFAULT_RESAMPLES = 4000
DEFAULT_SEED = 0
SMALL_GROUP = 5
"""Groups with fewer defined values than this show their range (labelled with n), not a 95% CI."""
DECIMALS = 9
"""Threshold tests compare after rounding the difference to this many decimals (docs/metrics.md)."""


def at_least(value: float, threshold: float) -> bool:
    """``value >= threshold``, exact for scores: the difference is rounded to ``DECIMALS`` first.

    Scores are means of verdicts in steps of 0.5, so two different true values differ by far more
    than 1e-9, while float sums leave errors near 1e-16 (a mean that is 0.5 computes as
    0.49999999999999994; 0.65 - 0.5 computes as 0.15000000000000002)."""
    return round(value - threshold, DECIMALS) >= 0


def above(value: float, threshold: float) -> bool:
    """``value > threshold`` with the same rounding as :func:`at_least`."""
    return round(value - threshold, DECIMALS) > 0


def mean(values: Sequence[float | None]) -> float | None:
    """Arithmetic mean of the defined values (``math.fsum``: an exactly rounded sum); None when
    there are none."""
    xs = [float(v) for v in values if v is not None]
    return math.fsum(xs) / len(xs) if xs else None


def number(value: float | None, digits: int = 2, none: str = "—") -> str:
    """``value`` to ``digits`` decimals, never "-0.00" (engine.fmt.figure, the one formatter)."""
    return figure(value, none, digits)


def pairs(a: Sequence[float | None], b: Sequence[float | None]) -> list[tuple[float, float]]:
    """Zip two equally long sequences, keeping positions where both sides are defined."""
    if len(a) != len(b):
        raise ValueError(f"paired sequences differ in length: {len(a)} != {len(b)}")
    return [(float(x), float(y)) for x, y in zip(a, b) if x is not None and y is not None]


def mad(intrinsic: Sequence[float | None], extrinsic: Sequence[float | None]) -> float | None:
    """Mean absolute difference |i - e| over trajectories (FEB-30's headline divergence)."""
    return mean([abs(x - y) for x, y in pairs(intrinsic, extrinsic)])


def signed_mean(
    intrinsic: Sequence[float | None], extrinsic: Sequence[float | None]
) -> float | None:
    """Mean of i - e: positive when the store looks better than the answers."""
    return mean([x - y for x, y in pairs(intrinsic, extrinsic)])


def div_rate(
    intrinsic: Sequence[float | None], extrinsic: Sequence[float | None], tau: float = DIV_TAU
) -> float | None:
    """Share of trajectories whose two scores differ by strictly more than ``tau``."""
    return mean([1.0 if above(abs(x - y), tau) else 0.0 for x, y in pairs(intrinsic, extrinsic)])


def pearson_r(a: Sequence[float | None], b: Sequence[float | None]) -> float | None:
    """Pearson correlation; None with fewer than two pairs or a constant side."""
    ps = pairs(a, b)
    if len(ps) < 2:
        return None
    if len({x for x, _ in ps}) == 1 or len({y for _, y in ps}) == 1:
        return None  # a constant side, decided on the values (a float sum of deviations is not 0)
    mx = sum(x for x, _ in ps) / len(ps)
    my = sum(y for _, y in ps) / len(ps)
    sxy = sum((x - mx) * (y - my) for x, y in ps)
    sxx = sum((x - mx) ** 2 for x, _ in ps)
    syy = sum((y - my) ** 2 for _, y in ps)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def pass_agreement(
    a: Sequence[float | None], b: Sequence[float | None], threshold: float = PASS_THRESHOLD
) -> float | None:
    """Share of trajectories where both scores pass (>= threshold) or both fail."""
    return mean(
        [1.0 if at_least(x, threshold) == at_least(y, threshold) else 0.0 for x, y in pairs(a, b)]
    )


def cohen_kappa(
    a: Sequence[float | None], b: Sequence[float | None], threshold: float = PASS_THRESHOLD
) -> float | None:
    """Cohen's kappa of the two pass/fail labellings: (p_o - p_e) / (1 - p_e).

    p_o is the observed agreement; p_e = p_a * p_b + (1 - p_a)(1 - p_b) with p_a, p_b the pass
    rates. None when p_e = 1 (both raters constant and equal: kappa is undefined).
    """
    ps = pairs(a, b)
    if not ps:
        return None
    n = len(ps)
    pass_a = [at_least(x, threshold) for x, _ in ps]
    pass_b = [at_least(y, threshold) for _, y in ps]
    agree = sum(1 for x, y in zip(pass_a, pass_b) if x == y)
    # Integer counts over n: p_e = 1 exactly when both raters are constant and equal.
    na, nb = sum(pass_a), sum(pass_b)
    pe_num = na * nb + (n - na) * (n - nb)
    if pe_num == n * n:
        return None
    return (agree * n - pe_num) / (n * n - pe_num)


@dataclass(frozen=True)
class Interval:
    estimate: float | None
    low: float | None
    high: float | None
    method: str = "bootstrap"
    """``bootstrap`` (95% percentile interval) or ``range`` (min and max of a small group)."""
    n: int | None = None
    """Clusters (trajectories) the figure is computed over."""


class Boot(TypedDict, total=False):
    """The options of :func:`bootstrap` as the figures pass them through (``**boot``)."""

    resamples: int
    seed: int
    level: float


def bootstrap(
    n_clusters: int,
    statistic: Callable[[np.ndarray], float | None],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    level: float = 0.95,
) -> Interval:
    """Cluster bootstrap percentile interval.

    ``statistic(idx)`` computes the figure from the clusters (trajectories) at the integer indices
    ``idx`` (with repetitions). Each resample draws ``n_clusters`` indices with replacement from a
    ``numpy.random.default_rng(seed)`` generator, one ``rng.integers(0, n, n)`` call per resample,
    so the interval is reproducible. Resamples where the statistic is undefined are skipped; the
    interval is the (1-level)/2 and (1+level)/2 quantiles (numpy 'linear' method).
    """
    if n_clusters == 0:
        return Interval(None, None, None, n=0)
    estimate = statistic(np.arange(n_clusters))
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(resamples):
        value = statistic(rng.integers(0, n_clusters, n_clusters))
        if value is not None:
            draws.append(value)
    if not draws:
        return Interval(estimate, None, None, n=n_clusters)
    tail = (1 - level) / 2
    low, high = np.quantile(np.asarray(draws), [tail, 1 - tail])
    return Interval(estimate, float(low), float(high), n=n_clusters)


def cluster_mean_ci(clusters: Sequence[Sequence[float | None]], **kwargs: Unpack[Boot]) -> Interval:
    """CI of the pooled mean of items grouped by trajectory (resampling whole trajectories).

    With one value per trajectory this is the ordinary bootstrap of the mean.
    """
    groups = [[float(v) for v in c if v is not None] for c in clusters]

    def stat(idx: np.ndarray) -> float | None:
        items = [v for i in idx for v in groups[i]]
        return sum(items) / len(items) if items else None

    return bootstrap(len(groups), stat, **kwargs)


def paired_ci(
    a: Sequence[float | None],
    b: Sequence[float | None],
    fn: Callable[[Sequence[float], Sequence[float]], float | None],
    **kwargs: Unpack[Boot],
) -> Interval:
    """CI of a paired statistic (MAD, kappa, r, ...) resampling trajectories."""
    ps = pairs(a, b)
    xs = [x for x, _ in ps]
    ys = [y for _, y in ps]

    def stat(idx: np.ndarray) -> float | None:
        return fn([xs[i] for i in idx], [ys[i] for i in idx])

    return bootstrap(len(ps), stat, **kwargs)


def value_range(estimate: float | None, values: Sequence[float | None]) -> Interval:
    """A small group's figure with the range (min, max) of its per-trajectory values, not a CI:
    below ``SMALL_GROUP`` trajectories a percentile bootstrap has too few distinct resamples to
    mean "95%"."""
    xs = [float(v) for v in values if v is not None]
    if not xs:
        return Interval(estimate, None, None, method="range", n=0)
    return Interval(estimate, min(xs), max(xs), method="range", n=len(xs))


def group_mean(values: Sequence[float | None], **kwargs: Unpack[Boot]) -> Interval:
    """Mean of one value per trajectory: bootstrap CI from ``SMALL_GROUP`` values on, below that
    the range of the values labelled with n."""
    xs = [float(v) for v in values if v is not None]
    if len(xs) < SMALL_GROUP:
        return value_range(mean(xs), xs)
    return cluster_mean_ci([[v] for v in xs], **kwargs)


def group_paired(
    a: Sequence[float | None],
    b: Sequence[float | None],
    fn: Callable[[Sequence[float], Sequence[float]], float | None],
    per_pair: Callable[[float, float], float] | None = None,
    **kwargs: Unpack[Boot],
) -> Interval:
    """A paired statistic over a group: bootstrap CI from ``SMALL_GROUP`` pairs on; below that the
    range of ``per_pair(x, y)`` over the pairs (e.g. |x - y| for MAD) when given, else no interval."""
    ps = pairs(a, b)
    if len(ps) >= SMALL_GROUP:
        return paired_ci(a, b, fn, **kwargs)
    estimate = fn([x for x, _ in ps], [y for _, y in ps]) if ps else None
    if per_pair is None:
        return Interval(estimate, None, None, method="range", n=len(ps))
    return value_range(estimate, [per_pair(x, y) for x, y in ps])


def _z(p: float) -> float:
    return NormalDist().inv_cdf(p)


def min_detectable_difference(
    a: Sequence[float | None],
    b: Sequence[float | None] | None = None,
    *,
    paired: bool = True,
    alpha: float = 0.05,
    power: float = 0.8,
) -> float | None:
    """Smallest true difference between two runs a two-sided test would detect.

    MDD = (z_{1-alpha/2} + z_{power}) * SE. Paired (same trajectories): SE = sd(a_i - b_i) / sqrt(n).
    Unpaired: SE = sqrt(var(a)/n_a + var(b)/n_b). With ``b`` None, ``a`` is taken as the per-
    trajectory differences already. Sample variances (n - 1). None with fewer than two values.
    """
    factor = _z(1 - alpha / 2) + _z(power)
    if b is None or paired:
        diffs = (
            [float(x) for x in a if x is not None] if b is None else [x - y for x, y in pairs(a, b)]
        )
        if len(diffs) < 2:
            return None
        return factor * _sd(diffs) / math.sqrt(len(diffs))
    xs = [float(x) for x in a if x is not None]
    ys = [float(y) for y in b if y is not None]
    if len(xs) < 2 or len(ys) < 2:
        return None
    return factor * math.sqrt(_sd(xs) ** 2 / len(xs) + _sd(ys) ** 2 / len(ys))


def _sd(xs: Sequence[float]) -> float:
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def mean_sd(values: Sequence[float | None]) -> tuple[float | None, float | None]:
    """Mean and sample standard deviation over repeated runs (seeds); sd None below two values."""
    xs = [float(v) for v in values if v is not None]
    if not xs:
        return None, None
    return sum(xs) / len(xs), (_sd(xs) if len(xs) > 1 else None)
