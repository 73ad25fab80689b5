"""The bundled Korean corpus meets every count issue 2 asks for (docs/design.md#trajectories)."""

import json
from pathlib import Path

from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.corpus import load_corpus

KO_MINI = Path(__file__).resolve().parents[1] / "fixtures" / "ko-mini"
RANGES = {"L1": (200, 400), "L2": (400, 800), "L3": (600, 1000)}


def summary() -> dict:
    result = CliRunner().invoke(cli, ["validate", str(KO_MINI), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_bundled_corpus_counts():
    s = summary()
    assert s["trajectories"] == 12
    assert s["by_category"] == {f"C{i}": 2 for i in range(1, 7)}
    assert all(s["by_difficulty"][level] >= 3 for level in ("L1", "L2", "L3"))
    assert set(s["by_type"]) == {
        "linear-evolution",
        "contradiction",
        "scope-expansion",
        "retraction",
        "stable",
        "gradual-drift",
    }
    assert set(s["by_doc_type"]) == {"meeting", "slack", "email", "ticket", "wiki"}
    assert s["documents"] >= 37
    assert s["distractors"] >= 4
    assert s["claims"] >= 70
    assert s["single_questions"] >= 30
    assert s["paraphrase_questions"] >= 6
    assert s["compound_questions"] >= 12


def test_every_trajectory_has_a_compound_question_and_c2_has_distractors():
    corpus = load_corpus(KO_MINI)
    for t in corpus.trajectories:
        assert t.extrinsic_qa, t.id
        if t.category == "C2":
            assert t.distractors, t.id


def test_word_counts_within_difficulty_ranges():
    corpus = load_corpus(KO_MINI)
    outside = []
    for t in corpus.trajectories:
        low, high = RANGES[t.difficulty]
        for doc in [s.document for s in t.states] + list(t.distractors):
            if not low <= doc.word_count <= high:
                outside.append(f"{doc.id} ({t.difficulty}): {doc.word_count} words")
    assert outside == []


def test_superseded_values_are_listed_as_stale():
    """Whenever a claim disappears from one state to the next, it is named in staleClaims."""
    corpus = load_corpus(KO_MINI)
    missing = []
    for t in corpus.trajectories:
        for before, after in zip(t.states, t.states[1:]):
            dropped = set(before.claims) - set(after.claims)
            if dropped - set(after.stale_claims):
                missing.append(
                    f"{t.id} state {after.index}: {sorted(dropped - set(after.stale_claims))}"
                )
    assert missing == []


def test_reference_cases_are_in_the_corpus():
    text = "\n".join(
        " ".join(s.claims) + " " + s.document.text
        for t in load_corpus(KO_MINI).trajectories
        for s in t.states
    ).replace(" ", "")
    for needle in [
        "PostgreSQL14",
        "Aurora",
        "AlloyDB",
        "3TB",
        "120만",
        "310만",
        "엔터프라이즈",
        "백엔드",
        "웨비나",
        "인증서",
        "Fargate",
        "EKS",
        "콜드스타트",
    ]:
        assert needle in text, needle
