"""`seorap synth`: deterministic, valid, the bundled corpus's shape (engine/corpus/synth.py)."""

from collections import Counter

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.corpus import load_corpus
from seorap.engine.corpus.synth import SLOTS, generate, topic_marker, trajectory, write_corpus
from seorap.engine.corpus.validate import check_trajectory, summary, validate_path


def test_same_seed_gives_identical_files(tmp_path):
    a = write_corpus(tmp_path / "a", 2, seed=7)
    b = write_corpus(tmp_path / "b", 2, seed=7)
    assert [p.name for p in a] == [p.name for p in b]
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b))


def test_different_seed_gives_different_text():
    assert trajectory(0, seed=1) != trajectory(0, seed=2)


def test_small_scale_is_a_prefix_of_large_scale():
    small = generate(1, seed=3, short=True)
    large = generate(2, seed=3, short=True)
    assert large[: len(small)] == small


def test_valid_and_counts_per_block(tmp_path):
    write_corpus(tmp_path, 2, seed=0)
    report = validate_path(tmp_path)
    assert report.problems == []
    counts = summary(report.trajectories)
    assert counts["trajectories"] == 24
    assert counts["documents"] == 2 * 37
    assert counts["distractors"] == 2 * 4
    assert counts["by_category"] == {c: 4 for c in ("C1", "C2", "C3", "C4", "C5", "C6")}
    assert set(counts["by_type"]) == {
        "linear-evolution",
        "contradiction",
        "scope-expansion",
        "retraction",
        "stable",
        "gradual-drift",
    }
    assert len(counts["by_doc_type"]) == 5
    assert counts["single_questions"] >= 24 and counts["compound_questions"] == 24
    assert load_corpus(tmp_path).digest  # loads through the engine's loader


def test_documents_are_within_word_ranges():
    ranges = {"L1": (200, 400), "L2": (400, 800), "L3": (600, 1000)}
    for t in generate(1, seed=5):
        lo, hi = ranges[t.difficulty]
        for arrival in t.arrivals():
            assert lo <= arrival.document.word_count <= hi + 30, (t.id, arrival.document.id)


@pytest.mark.parametrize("i", range(len(SLOTS) * 3))
def test_each_trajectory_is_consistent(i):
    t = trajectory(i, seed=11, short=True)
    assert check_trajectory(t) == []
    final = set(t.final.claims)
    for state in t.states:
        assert set(state.doc_claims) <= set(state.claims)
        assert not set(state.stale_claims) & set(state.claims)
        for claim in state.doc_claims:
            assert claim in state.document.text
    for qa in t.single_qa:
        assert any(qa.answer in claim for claim in final)


def test_c4_has_a_late_arriving_older_document():
    t = trajectory(6, seed=0)
    assert t.category == "C4"
    assert t.states[-1].when < t.states[-2].when


def test_c2_has_distractors_and_paraphrases():
    t = trajectory(2, seed=0)
    assert t.category == "C2" and len(t.distractors) == 2
    assert all(q.paraphrase for q in t.single_qa)
    assert Counter(a.is_distractor for a in t.arrivals())[True] == 2


def test_changes_produce_stale_claims():
    stale = sum(len(s.stale_claims) for t in generate(1, seed=0) for s in t.states)
    assert stale >= 6


def test_topic_marker():
    assert topic_marker("장소") == "는"
    assert topic_marker("인원") == "은"
    assert topic_marker("DB") == "는"


def test_cli_synth(tmp_path):
    out = tmp_path / "syn"
    result = CliRunner().invoke(
        cli, ["synth", "--scale", "1", "--out", str(out), "--seed", "4", "--short"]
    )
    assert result.exit_code == 0, result.output
    assert "41 documents" in result.output
    assert len(list(out.glob("*.json"))) == 12
    assert validate_path(out).ok
