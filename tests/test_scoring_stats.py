"""Hand-computed expected values for the agreement and uncertainty statistics."""

import math

import numpy as np
import pytest

from seorap.engine.scoring import stats

I = [1.0, 0.5, 0.25, 0.75]
E = [0.5, 0.5, 0.75, 0.0]


def test_mean_skips_none():
    assert stats.mean([1, None, 0]) == 0.5
    assert stats.mean([None]) is None


def test_mad_signed_divrate():
    # |diffs| = 0.5, 0, 0.5, 0.75 -> 1.75/4
    assert stats.mad(I, E) == pytest.approx(0.4375)
    # signed = 0.5 + 0 - 0.5 + 0.75 = 0.75 / 4
    assert stats.signed_mean(I, E) == pytest.approx(0.1875)
    # > 0.15: 3 of 4
    assert stats.div_rate(I, E) == pytest.approx(0.75)
    # exactly tau is not divergent
    assert stats.div_rate([0.5], [0.25], tau=0.25) == 0.0


def test_none_pairs_dropped():
    assert stats.mad([1.0, None], [0.0, 1.0]) == 1.0


def test_pearson_r_hand():
    # x = 1,2,3 ; y = 1,3,2 : mx=2,my=2 ; sxy = (-1)(-1)+0+ (1)(0) = 1 ; sxx=2, syy=2 -> 0.5
    assert stats.pearson_r([1, 2, 3], [1, 3, 2]) == pytest.approx(0.5)
    assert stats.pearson_r([1, 1], [0, 1]) is None


def test_pass_agreement_and_kappa_hand():
    # pass at 0.5: I -> T,T,F,T ; E -> T,T,T,F ; agree on 2 of 4
    assert stats.pass_agreement(I, E) == 0.5
    # po = .5 ; pa = .75, pb = .75 ; pe = .5625 + .0625 = .625 ; k = (.5-.625)/.375 = -1/3
    assert stats.cohen_kappa(I, E) == pytest.approx(-1 / 3)
    # perfect agreement, mixed classes -> 1
    assert stats.cohen_kappa([1, 0], [1, 0]) == pytest.approx(1.0)
    # both constant -> undefined
    assert stats.cohen_kappa([1, 1], [1, 1]) is None


def test_bootstrap_matches_independent_loop():
    values = [0.0, 0.5, 1.0, 1.0, 0.25]
    got = stats.cluster_mean_ci([[v] for v in values], resamples=500, seed=7)
    rng = np.random.default_rng(7)
    means = []
    for _ in range(500):
        idx = rng.integers(0, 5, 5)
        means.append(sum(values[i] for i in idx) / 5)
    means.sort()

    # numpy linear quantile, done by hand: position q*(n-1)
    def q(p):
        pos = p * (len(means) - 1)
        lo = math.floor(pos)
        return means[lo] + (means[min(lo + 1, len(means) - 1)] - means[lo]) * (pos - lo)

    assert got.estimate == pytest.approx(0.55)
    assert got.low == pytest.approx(q(0.025))
    assert got.high == pytest.approx(q(0.975))
    assert got.low <= 0.55 <= got.high


def test_cluster_bootstrap_resamples_whole_trajectories():
    # two trajectories, items pooled: t0=[0,0,0], t1=[1]; estimate 0.25
    got = stats.cluster_mean_ci([[0, 0, 0], [1]], resamples=200, seed=1)
    assert got.estimate == pytest.approx(0.25)
    rng = np.random.default_rng(1)
    draws = []
    for _ in range(200):
        idx = rng.integers(0, 2, 2)
        items = [v for i in idx for v in ([0, 0, 0], [1])[i]]
        draws.append(sum(items) / len(items))
    assert got.low == pytest.approx(float(np.quantile(draws, 0.025)))
    assert got.high == pytest.approx(float(np.quantile(draws, 0.975)))


def test_paired_ci_default_resamples_is_reproducible():
    a = stats.paired_ci(I, E, stats.mad)
    b = stats.paired_ci(I, E, stats.mad)
    assert a == b and a.estimate == pytest.approx(0.4375)


def test_min_detectable_difference_hand():
    # paired diffs 0.1, 0.3 -> sd = sqrt(((-.1)^2+(.1)^2)/1) = 0.141421 ; se = 0.1
    factor = 1.959964 + 0.841621
    assert stats.min_detectable_difference([0.5, 0.6], [0.4, 0.3]) == pytest.approx(
        factor * 0.1, rel=1e-5
    )
    # unpaired: var a = 0.005, var b = 0.005 -> se = sqrt(.0025+.0025) = .070711
    got = stats.min_detectable_difference([0.5, 0.6], [0.4, 0.3], paired=False)
    assert got == pytest.approx(factor * math.sqrt(0.005), rel=1e-5)
    assert stats.min_detectable_difference([0.5], [0.4]) is None


def test_mean_sd_over_seeds():
    m, sd = stats.mean_sd([0.5, 0.7, 0.9])
    assert m == pytest.approx(0.7) and sd == pytest.approx(0.2)
    assert stats.mean_sd([0.4]) == (0.4, None)


def test_threshold_comparisons_are_exact():
    # float artefacts that fooled the raw comparisons
    assert 0.65 - 0.5 > 0.15 and sum([0.1, 0.6, 0.6, 0.7]) / 4 < 0.5
    assert stats.div_rate([0.65], [0.5]) == 0.0  # |diff| is exactly tau: not divergent
    assert stats.div_rate([0.66], [0.5]) == 1.0
    assert stats.mean([0.1, 0.6, 0.6, 0.7]) == 0.5  # fsum: the exactly rounded sum
    x = sum([0.1, 0.6, 0.6, 0.7]) / 4  # 0.49999999999999994
    assert stats.at_least(x, 0.5) and not stats.above(0.15000000000000002, 0.15)
    assert stats.pass_agreement([x], [0.5]) == 1.0
    # kappa with both raters passing everything is undefined, not computed from 0.4999...
    assert stats.cohen_kappa([x, 1.0], [0.5, 1.0]) is None


def test_number_never_prints_negative_zero():
    assert stats.number(-0.004) == "0.00"
    assert stats.number(-0.0) == "0.00"
    assert stats.number(-0.006) == "-0.01"
    assert stats.number(0.125, 3) == "0.125"
    assert stats.number(None) == "—"


def test_small_groups_show_range_with_n():
    iv = stats.group_mean([0.25, None, 0.75])
    assert (iv.method, iv.n, iv.estimate, iv.low, iv.high) == ("range", 2, 0.5, 0.25, 0.75)
    assert stats.group_mean([]).n == 0 and stats.group_mean([]).estimate is None
    big = stats.group_mean([0.0, 0.5, 1.0, 1.0, 0.25], resamples=200)
    assert big.method == "bootstrap" and big.n == 5
    assert big.estimate == pytest.approx(0.55)
    # paired: below five pairs the range of |i - e| for MAD; kappa gets no interval at all
    mad = stats.group_paired([1.0, 0.5], [0.5, 0.5], stats.mad, lambda x, y: abs(x - y))
    assert (mad.method, mad.n, mad.estimate, mad.low, mad.high) == ("range", 2, 0.25, 0.0, 0.5)
    kappa = stats.group_paired([1.0, 0.0], [1.0, 0.0], stats.cohen_kappa)
    assert kappa.estimate == pytest.approx(1.0) and kappa.low is None and kappa.n == 2
    assert stats.group_paired(I + [1.0], E + [1.0], stats.mad, resamples=100).method == "bootstrap"


def test_ci_for_every_agreement_figure():
    # every figure of the agreement block gets an interval from the same trajectory bootstrap
    for fn in (
        stats.div_rate,
        stats.signed_mean,
        stats.pearson_r,
        stats.pass_agreement,
        stats.cohen_kappa,
    ):
        ci = stats.paired_ci(I, E, fn, resamples=300, seed=1)
        assert ci.estimate == fn(I, E) and ci.n == 4
        assert ci.low is not None and ci.low <= ci.high


def test_the_one_formatter_never_prints_negative_zero():
    from seorap.engine.fmt import figure

    assert figure(-0.001) == "0.00" and figure(-0.0) == "0.00" and figure(-0.2) == "-0.20"
    assert figure(-0.0004, digits=3) == "0.000" and figure(None, "n/a") == "n/a"
