"""Hand-computed expected values for every score-card metric."""

import pytest

from seorap.engine.memory.sentences import split_sentences
from seorap.engine.scoring import lexical
from seorap.engine.scoring import metrics as m
from seorap.engine.scoring.verdict import label_of, tally


def test_coverage_and_fact_accuracy_eq1_eq2():
    assert m.coverage([1.0, 0.5, 0.0, None]) == pytest.approx(0.5)  # (1+.5+0)/3
    assert m.fact_accuracy([1.0, 0.5, 0.75]) == pytest.approx(0.75)


def test_miss_rate_counts_partial_as_miss():
    assert m.miss_rate([1.0, 0.5, 0.0, 1.0, None]) == pytest.approx(0.5)


def test_store_delta_udr_fur():
    s0 = {"a": "x"}
    s1 = {"a": "x", "b": "y"}  # created
    s2 = {"a": "x2", "b": "y"}  # rewritten
    s3 = {"a": "x2", "b": "y"}  # nothing
    s4 = {"b": "y"}  # removed
    deltas = [
        m.store_delta(s0, s1),
        m.store_delta(s1, s2),
        m.store_delta(s2, s3),
        m.store_delta(s3, s4),
    ]
    assert [d.changed for d in deltas] == [True, True, False, True]
    assert [d.overwrote for d in deltas] == [False, True, False, True]
    actions = ["update", "supersede", "update", "reinforce"]
    # only rewriting or removing an existing fact counts: s0->s1 created "b" (the old value stays
    # beside it, as in an append-only store), s1->s2 rewrote "a", s2->s3 nothing -> 1 of 3
    assert m.udr(actions, deltas) == pytest.approx(1 / 3)
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
        "create": {"create": 1},
        "update": {"update": 1, "create": 1},
        "reinforce": {"update": 1},
        "conflict": {"supersede": 1},
    }


def test_confidence_mae():
    assert m.confidence_mae([0.9, 0.8, 0.7], [0.8, None, 1.0]) == pytest.approx(0.2)  # (.1+.3)/2


def test_stale_claims_accumulate_unless_reinstated():
    claims = [["a"], ["b"], ["a", "c"]]
    stale = [[], ["a"], ["b"]]
    assert m.stale_claims_at(claims, stale, 1) == ["a"]
    assert m.stale_claims_at(claims, stale, 2) == ["b"]  # a is current again


def test_stale_facts_and_claim_precision():
    facts = {
        "f1": "요금제는 스탠다드 월 120만 원",
        "f2": "요금제는 엔터프라이즈 월 310만 원",
        "f3": "점심 메뉴는 김치찌개",
    }
    claims = ["요금제는 엔터프라이즈 월 310만 원"]
    stale = ["요금제는 스탠다드 월 120만 원"]
    assert m.stale_facts(facts, stale, lexical.holds) == ["f1"]
    # f2 consistent; f1 stale; f3 unrelated -> 1/3
    assert m.claim_precision(facts, claims, stale, lexical.holds, lexical.related) == pytest.approx(
        1 / 3
    )
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
    assert t.mean == pytest.approx(0.5)  # (1+.5+.5+0)/4
    assert t.partial_share == pytest.approx(0.5)
    assert label_of(0.5) == "PARTIAL" and label_of(None) == "UNPARSEABLE"


def test_udr_creation_alone_is_not_an_update_and_append_only_is_na():
    # The case that fooled the old UDR: the store adds the new value next to the stale one.
    appended = m.store_delta(
        {"f1": "배포일은 3월 5일"}, {"f1": "배포일은 3월 5일", "f2": "배포일은 3월 7일"}
    )
    assert appended.changed and not appended.overwrote
    assert m.udr(["update"], [appended]) == 0.0
    rewritten = m.store_delta({"f1": "배포일은 3월 5일"}, {"f1": "배포일은 3월 7일"})
    assert m.udr(["update", "update"], [appended, rewritten]) == pytest.approx(0.5)
    # an append-only system: not defined (n/a), never 0 or 1
    assert m.udr(["update", "update"], [appended, rewritten], append_only=True) is None
    # an update state that only adds claims retires nothing: it is left out of the denominator
    assert m.retires(["a"], ["a", "b"]) is False and m.retires(["a", "b"], ["b", "c"]) is True
    assert m.udr(["update", "update"], [appended, rewritten], retiring=[False, True]) == 1.0
    assert m.udr(["update"], [appended], retiring=[False]) is None


def test_thresholds_are_exact():
    # A mean that is exactly 0.5 can compute as 0.49999999999999994 (float sum of 0.1, 0.6, 0.6, 0.7).
    assert sum([0.1, 0.6, 0.6, 0.7]) / 4 < 0.5  # what fooled the quadrant
    assert m.quadrant(sum([0.1, 0.6, 0.6, 0.7]) / 4, 0.5) == "healthy"
    assert m.quadrant(0.49999999, 0.5) == "compensation"  # a real shortfall still counts
    assert m.miss_rate([0.9999999999999999, 0.5]) == 0.5
    bt = m.benefit_tax([0.9999999999999999], [0.0])
    assert bt.benefit == 1


def test_fact_shape_counts_sentences_and_joined_claims():
    claims = ["채용은 2명", "마감일은 8월 28일", "면접은 9월"]
    facts = [
        "채용은 2명",  # 6 chars, one statement
        "채용은 2명, 마감일은 8월 28일, 면접은 9월.",  # one sentence, three claims (merged)
        "회의는 끝났다. 다음 회의는 금요일이다.",  # two sentences, no claim
        "마감일은 8월 28일이며 지원서는 온라인으로 받는다",  # one sentence, one claim
    ]
    shape = m.fact_shape(facts, claims, lexical.holds, split_sentences)
    assert shape.n == 4
    assert shape.mean_length == pytest.approx((6 + 28 + 22 + 28) / 4)
    assert shape.multi_share == pytest.approx(2 / 4)
    # the case that would fool a sentence count alone: the merged fact is one sentence
    assert len(split_sentences(facts[1])) == 1
    assert m.statement_count(facts[1], claims, lexical.holds, split_sentences) == 3
    # whitespace runs count once; an empty store has no shape
    assert m.fact_shape(["a  b"], [], lexical.holds, split_sentences).mean_length == 3.0
    assert m.fact_shape([], claims, lexical.holds, split_sentences) == m.FactShape(0, None, None)
