"""Hand-computed expected values for every score-card metric."""

import pytest

from engine.scoring import lexical, metrics as m
from engine.scoring.verdict import label_of, tally


def test_coverage_and_fact_accuracy_eq1_eq2():
    assert m.coverage([1.0, 0.5, 0.0, None]) == pytest.approx(0.5)  # (1+.5+0)/3
    assert m.fact_accuracy([1.0, 0.5, 0.75]) == pytest.approx(0.75)


def test_miss_rate_counts_partial_as_miss():
    assert m.miss_rate([1.0, 0.5, 0.0, 1.0, None]) == pytest.approx(0.5)


def test_store_delta_udr_fur():
    s0 = {"a": "x"}
    s1 = {"a": "x", "b": "y"}          # created
    s2 = {"a": "x2", "b": "y"}         # rewritten
    s3 = {"a": "x2", "b": "y"}         # nothing
    s4 = {"b": "y"}                    # removed
    deltas = [m.store_delta(s0, s1), m.store_delta(s1, s2), m.store_delta(s2, s3), m.store_delta(s3, s4)]
    assert [d.changed for d in deltas] == [True, True, False, True]
    assert [d.overwrote for d in deltas] == [False, True, False, True]
    actions = ["update", "supersede", "update", "reinforce"]
    assert m.udr(actions, deltas) == pytest.approx(2 / 3)
    assert m.fur(actions, deltas) == 1.0
    assert m.fur(["update"], deltas[:1]) is None


def test_effective_operation_precedence():
    assert m.effective_operation(["reinforce", "update", "create"]) == "update"
    assert m.effective_operation(["reinforce", "supersede"]) == "supersede"
    assert m.effective_operation([]) == "none"


def test_op_accuracy_majority_confusion():
    expected = ["create", "update", "update", "reinforce", "conflict"]
    effective = ["create", "update", "create", "update", "supersede"]
    assert m.op_accuracy(expected, effective) == pytest.approx(3 / 5)  # conflict accepts supersede
    assert m.majority_baseline(expected) == ("update", pytest.approx(2 / 5))
    assert m.confusion(expected, effective) == {
        "create": {"create": 1}, "update": {"update": 1, "create": 1},
        "reinforce": {"update": 1}, "conflict": {"supersede": 1}}


def test_confidence_mae():
    assert m.confidence_mae([0.9, 0.8, 0.7], [0.8, None, 1.0]) == pytest.approx(0.2)  # (.1+.3)/2


def test_stale_claims_accumulate_unless_reinstated():
    claims = [["a"], ["b"], ["a", "c"]]
    stale = [[], ["a"], ["b"]]
    assert m.stale_claims_at(claims, stale, 1) == ["a"]
    assert m.stale_claims_at(claims, stale, 2) == ["b"]  # a is current again


def test_stale_facts_and_claim_precision():
    facts = {"f1": "요금제는 스탠다드 월 120만 원", "f2": "요금제는 엔터프라이즈 월 310만 원",
             "f3": "점심 메뉴는 김치찌개"}
    claims = ["요금제는 엔터프라이즈 월 310만 원"]
    stale = ["요금제는 스탠다드 월 120만 원"]
    assert m.stale_facts(facts, stale, lexical.holds) == ["f1"]
    # f2 consistent; f1 stale; f3 unrelated -> 1/3
    assert m.claim_precision(facts, claims, stale, lexical.holds, lexical.related) == pytest.approx(1 / 3)
    assert m.claim_precision({}, claims, stale, lexical.holds, lexical.related) is None


def test_quadrants():
    assert m.quadrant(0.8, 0.6) == "healthy"
    assert m.quadrant(0.4, 0.5) == "compensation"
    assert m.quadrant(0.5, 0.0) == "bottleneck"
    assert m.quadrant(0.1, 0.2) == "both-low"
    assert m.quadrant(None, 0.2) is None


def test_benefit_tax_counts():
    memory = [1.0, 1.0, 0.5, 0.0, 1.0, None]
    rag = [0.0, 1.0, 1.0, 1.0, 0.5, 1.0]
    bt = m.benefit_tax(memory, rag)
    # q0 benefit, q1 both right, q2 tax, q3 tax, q4 benefit, q5 dropped
    assert (bt.n, bt.benefit, bt.tax, bt.both_right, bt.both_wrong) == (5, 2, 2, 1, 0)
    assert bt.net == 0 and bt.net_rate == 0.0
    lenient = m.benefit_tax(memory, rag, right=0.5)
    # q0 benefit, q1 q2 q4 both right, q3 tax
    assert (lenient.benefit, lenient.tax, lenient.both_right) == (1, 1, 3)


def test_depth_curve():
    assert m.depth_curve({5: [1, 0], 1: [0, 0, None]}) == {1: 0.0, 5: 0.5}


def test_tally_and_labels():
    t = tally(["YES", "PARTIAL", "PARTIAL", "NO", "UNPARSEABLE"])
    assert (t.n, t.unparseable) == (5, 1)
    assert t.mean == pytest.approx(0.5)   # (1+.5+.5+0)/4
    assert t.partial_share == pytest.approx(0.5)
    assert label_of(0.5) == "PARTIAL" and label_of(None) == "UNPARSEABLE"
