"""seorap.engine.views pure helpers: quadrant, filters, sorting, docClaim highlighting."""

from seorap.engine import views
from seorap.engine.views import TrajectoryRow
from seorap.engine.views.operations import _as_text


def row(tid, cat="C1", diff="L1", intr=None, extr=None, system="oracle"):
    return TrajectoryRow("r", system, tid, "t", cat, diff, "stable", 1, 1, intr, extr)


def test_quadrants_follow_spec_cut_at_half():
    assert views.quadrant(0.5, 0.5) == "healthy"
    assert views.quadrant(0.2, 0.9) == "compensation"
    assert views.quadrant(0.9, 0.2) == "bottleneck"
    assert views.quadrant(0.1, 0.1) == "both-low"
    assert views.quadrant(None, 0.9) is None


def test_filter_and_sort_rows():
    rows = [row("a", "C1", "L1", 0.9, 0.1), row("b", "C2", "L2", 0.2, 0.8), row("c", "C2", "L1")]
    assert [r.trajectory_id for r in views.filter_rows(rows, category="C2")] == ["b", "c"]
    assert [r.trajectory_id for r in views.filter_rows(rows, quadrant_="bottleneck")] == ["a"]
    assert [r.trajectory_id for r in views.filter_rows(rows, text="retrieval")] == ["b", "c"]
    assert [r.trajectory_id for r in views.sort_rows(rows, "intrinsic", reverse=True)] == [
        "a",
        "b",
        "c",
    ]
    assert rows[1].delta == 0.2 - 0.8  # intrinsic − extrinsic, as engine.scoring.stats.signed_mean


def test_doc_lines_mark_lines_stating_a_doc_claim():
    lines = views.doc_lines(
        "회의 시작\n가람상사 운영 DB 용량은 약 3TB로 확인됨\n기타", ["가람상사 운영 DB 용량 약 3TB"]
    )
    assert [l.claim is not None for l in lines] == [False, True, False]


def test_short_id_and_snapshots():
    assert views.short_id("run/traj/f0005") == "f0005"
    assert (
        _as_text('[{"text": "x", "confidence": 0.5, "status": "superseded"}]')
        == "x (0.50) [superseded]"
    )


def test_delta_is_intrinsic_minus_extrinsic_like_the_report():
    from seorap.engine.scoring.stats import signed_mean

    r = row("a", intr=0.9, extr=0.3)
    assert r.delta == 0.9 - 0.3
    assert signed_mean([r.intrinsic], [r.extrinsic]) == r.delta
    assert views.DELTA_LABEL == "Δ (int−ext)"


def test_claim_spans_mark_shared_phrases_and_numbers_only():
    line = "가람상사 운영 DB 용량은 약 3TB로 확인됨, 이전은 2026-03-14 예정 [b]x[/b]"
    spans = views.claim_spans(line, ["가람상사 운영 DB 용량 약 3TB", "이전 일정 2026-03-14"])
    assert [line[a:b] for a, b in spans] == ["가람상사 운영 DB 용량", "3", "2026-03-14"]
    assert views.claim_spans("짧은 줄", ["전혀 다른 주장입니다"]) == ()
    assert views.claim_spans("12345", ["1234"]) == ()  # a number only as a whole number
    assert views.merge_spans([(5, 9), (0, 3), (2, 6)]) == ((0, 9),)


def test_quadrant_is_the_engines_exact_one():
    from seorap.engine.scoring import metrics

    assert views.quadrant is metrics.quadrant  # one place decides; the app has no copy
    # a float mean of 0.5 (0.49999999999999994) is 0.5: healthy, not "compensation"
    assert views.quadrant(sum([0.1, 0.6, 0.6, 0.7]) / 4, 0.5) == "healthy"
    assert row("x", intr=sum([0.1, 0.6, 0.6, 0.7]) / 4, extr=0.5).quadrant == "healthy"


def test_a_row_whose_judge_is_unreliable_shows_the_warning_not_a_quadrant():
    r = TrajectoryRow(
        "r", "A", "t", "t", "C1", "L1", "stable", 1, 1, 0.5, 0.5, "PARTIAL share 1.00 > 0.80"
    )
    assert r.quadrant == views.UNRELIABLE == "judge unreliable — see audit"
    assert views.filter_rows([r], quadrant_="healthy") == []
