"""Aliases as data (engine/scoring/glossary.py): the corpus's glossary.tsv, read by the lexical judge
and the reference reader; the verdict names the alias it used."""

from __future__ import annotations

import pytest

pytest.importorskip("kiwipiepy")

from seorap.engine.errors import UsageError  # noqa: E402
from seorap.engine.scoring import glossary  # noqa: E402
from seorap.engine.scoring.answerers import ReaderAnswerer  # noqa: E402
from seorap.engine.scoring.judges import LexicalJudge  # noqa: E402

G = glossary.parse("Kubernetes\tK8s\t쿠버네티스\n# comment\n\n영업본부\tSales HQ\n", "g.tsv")


def test_aliases_read_as_the_first_name_with_boundaries():
    text, used = G.apply("배포는 쿠버네티스로, k8s 클러스터 2개 · K8sx 아님")
    assert text == "배포는 Kubernetes로, Kubernetes 클러스터 2개 · K8sx 아님"
    assert used == [("쿠버네티스", "Kubernetes"), ("k8s", "Kubernetes")]
    assert G.apply("영업본부장") == ("영업본부장", [])  # the first name itself: nothing to say
    assert G.apply("신영업본부")[1] == []  # a Korean name must start a word


def test_the_judge_credits_an_alias_only_with_the_glossary_and_names_it():
    e, a = (
        "서비스 오케스트레이션은 Kubernetes로 한다.",
        "서비스 오케스트레이션은 쿠버네티스로 합니다.",
    )
    assert LexicalJudge().grade_answer("", e, a).label != "YES"
    v = LexicalJudge(glossary=G).grade_answer("", e, a)
    assert v.label == "YES" and "alias: 쿠버네티스 = Kubernetes" in v.rationale
    # an alias is not a licence: another name is still a wrong value
    v = LexicalJudge(glossary=G).grade_answer("", e, "서비스 오케스트레이션은 Nomad로 합니다.")
    assert v.label == "NO"
    c = LexicalJudge(glossary=G).grade_claim("담당은 Sales HQ", ["담당은 영업본부"])
    assert c.label == "YES" and "alias: Sales HQ = 영업본부" in c.rationale


def test_the_reader_matches_through_the_glossary():
    facts = ["오케스트레이션 도구는 쿠버네티스", "점심 메뉴는 김밥"]
    q = "Kubernetes 도입 여부는?"
    assert ReaderAnswerer(G).answer(q, facts, kind="documents") == facts[0]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("혼자\n", "g.tsv:1: a glossary line needs at least two names"),
        ("A\tB\nC\tB\n", "g.tsv:2: 'B' is already an alias of 'A'"),
    ],
)
def test_a_bad_glossary_is_one_located_sentence(text, where):
    with pytest.raises(UsageError, match=where):
        glossary.parse(text, "g.tsv")


def test_the_bundled_corpus_carries_one(tmp_path):
    g = glossary.load("fixtures/ko-mini")
    assert g and g.apply("오로라")[0] == "Aurora"
    assert not glossary.load(tmp_path)  # no glossary.tsv: no aliases
    # a corpus given as one trajectory file has no glossary (the file is no glossary)
    assert not glossary.for_corpus("fixtures/ko-mini/ko-c5-seminar.json")
    assert glossary.for_corpus("fixtures/ko-mini")
