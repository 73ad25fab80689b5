"""Token F1 as LoCoMo's evaluation computes it, against values worked out by hand
(docs/metrics.md#token-f1)."""

import pytest

from seorap.engine.scoring.token_f1 import (
    f1_score,
    locomo_score,
    multi_f1,
    normalize_answer,
    stems,
)


def test_normalisation_order_commas_punctuation_articles():
    # commas go first (1,000 -> 1000), then case, punctuation, then a/an/the/and as whole words
    assert normalize_answer("The Cat, and a DOG!") == "cat dog"
    assert normalize_answer("1,000 dollars") == "1000 dollars"
    assert normalize_answer("Andrew and Thea") == "andrew thea"  # whole words only
    assert normalize_answer("the, end") == "end"  # punctuation removed before articles


def test_porter_stems():
    assert stems("The pottery classes") == ["potteri", "class"]
    assert stems("running runs") == ["run", "run"]


@pytest.mark.parametrize(
    ("prediction", "expected", "score"),
    [
        ("The pottery classes", "pottery class", 1.0),
        # 'blue bowl mug' vs 'blue mug': shared 2, P 2/3, R 1 -> 2*(2/3)/(5/3) = 0.8
        ("a blue bowl and a mug", "blue mug", 0.8),
        # multiplicity: 'run run run' vs 'run': shared 1, P 1/3, R 1 -> 0.5
        ("run run run", "run", 0.5),
        ("1,000 dollars", "1000 dollar", 1.0),
        ("Lyon!", "lyon", 1.0),
        ("Porto", "Lyon", 0.0),
        ("", "Lyon", 0.0),
        # 'move to lyon' vs 'did not move to lyon': shared 3, P 1, R 3/5 -> 1.2/1.6 = 0.75
        ("moved to Lyon", "did not move to Lyon", 0.75),
    ],
)
def test_f1_score_by_hand(prediction, expected, score):
    assert f1_score(prediction, expected) == pytest.approx(score)


def test_multi_hop_splits_on_commas_before_normalising():
    # expected parts 'pottery class' (best: 'pottery', P 1 R 1/2 -> 2/3) and 'Vera' (1.0)
    assert multi_f1("Vera, pottery", "pottery class, Vera") == pytest.approx(5 / 6)
    assert locomo_score("Vera, pottery", "pottery class, Vera", "1") == pytest.approx(5 / 6)
    # kind 4 on the same pair: commas removed, 'vera potteri' vs 'potteri class vera' -> 0.8
    assert locomo_score("Vera, pottery", "pottery class, Vera", "4") == pytest.approx(0.8)


def test_open_domain_scores_the_part_before_the_semicolon():
    assert locomo_score("likely yes", "Likely yes; she rows", "3") == 1.0
    assert locomo_score("she rows", "Likely yes; she rows", "3") == 0.0


def test_adversarial_counts_declining_only():
    assert locomo_score("That is Not Mentioned in the chat.", "", "5") == 1.0
    assert locomo_score("No information available", "", "5") == 1.0
    assert locomo_score("a blue bowl", "", "5") == 0.0


def test_other_kinds_are_plain_f1():
    assert locomo_score("oolong tea", "oolong", "single-session-user") == pytest.approx(2 / 3)
    assert locomo_score("oolong tea", "oolong", None) == pytest.approx(2 / 3)
