"""A judge that cannot tell answers apart gets no diagnosis: hand cases and a saturated run."""

import json

import pytest
from unreliable_support import score_always_partial

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring import audit
from seorap.engine.scoring import diagnosis as d
from seorap.engine.store.database import open_db


def test_limits_are_strict_and_exact():
    # the label limits apply from MIN_LABELS (10) verdicts of a kind on (tests/test_diagnosis_few_labels.py)
    assert d.judge_unreliable(["YES", "NO", "PARTIAL"] * 4) is None
    assert d.judge_unreliable([]) is None  # nothing judged: nothing to say
    # 8 of 10 PARTIAL = 0.80 is at the limit, not above it; 9 of 10 is saturated
    assert d.judge_unreliable(["PARTIAL"] * 8 + ["YES"] * 2) is None
    assert d.judge_unreliable(["PARTIAL"] * 9 + ["YES"]) == "PARTIAL share 0.90 > 0.80"
    # the measured 0.5B case: every parseable answer PARTIAL, 11 of 35 replies unparseable
    reason = d.judge_unreliable(["PARTIAL"] * 24 + ["UNPARSEABLE"] * 11)
    assert "PARTIAL share 1.00" in reason and "unparseable share 0.31 > 0.20" in reason
    assert d.judge_unreliable(["UNPARSEABLE"] * 10) == "all 10 answer verdicts unparseable"
    # 2 of 10 unparseable = 0.20: at the limit
    assert d.judge_unreliable(["YES", "NO"] * 4 + ["UNPARSEABLE"] * 2) is None


def test_saturation_is_per_question_kind():
    # pooled, 10 PARTIAL among 40 answers is 0.25; the compound side alone is saturated
    by_kind = {"compound": ["PARTIAL"] * 10, "single": ["YES"] * 30}
    assert d.judge_unreliable(by_kind) == "compound PARTIAL share 1.00 > 0.80"
    assert d.judge_unreliable(by_kind["compound"] + by_kind["single"]) is None
    at_limit = {"compound": ["PARTIAL"] * 8 + ["YES"] * 2, "single": ["NO"] * 10}
    assert d.judge_unreliable(at_limit) is None


def test_pearson_r_of_a_constant_side_is_exactly_none():
    from seorap.engine.scoring import stats

    # 0.1 three times: the float mean is 0.10000000000000002, so a sum of squared deviations
    # is not 0 and a float test would return a number
    assert stats.pearson_r([0.1, 0.1, 0.1], [0.2, 0.5, 0.9]) is None
    assert stats.pearson_r([0.2, 0.5, 0.9], [0.7, 0.7, 0.7]) is None
    assert stats.pearson_r([0.0, 0.5, 1.0], [0.0, 0.5, 1.0]) == pytest.approx(1.0)


def test_audit_pass_rates_can_make_a_judge_unreliable():
    ok = ["YES", "NO"] * 5
    assert d.judge_unreliable(ok, {"hedged": 0.0, "paraphrase": 1.0}) is None
    assert "wrong 'hedged' answers pass 0.60 > 0.50" in d.judge_unreliable(ok, {"hedged": 0.6})
    assert "'paraphrase' answers (a control) pass 0.40 < 0.50" in d.judge_unreliable(
        ok, {"paraphrase": 0.4}
    )
    assert d.judge_unreliable(ok, {"hedged": 0.5, "correct": 0.5, "vague": None}) is None


def test_one_name_per_audit_kind_in_the_reason():
    """The reason names a kind as the audit and the report do: `correct`, never `control`."""
    ok = ["YES", "NO"] * 5
    reason = d.judge_unreliable(ok, {"correct": 0.2}, audit.CONTROL_KINDS)
    assert "'correct' answers (a control) pass 0.20" in reason and "control " not in reason


def test_missing_one_is_judged_against_its_ideal_partial():
    """A missing-one answer given YES is not a wrong answer passing: its PARTIAL share is what
    counts (the kind was counted against the "wrong answers pass > 0.50" limit)."""
    ok = ["YES", "NO"] * 5
    kinds = audit.CONTROL_KINDS
    assert d.judge_unreliable(ok, {}, kinds, audit_ideal_rates={"missing-one": 0.5}) is None
    reason = d.judge_unreliable(ok, {}, kinds, audit_ideal_rates={"missing-one": 0.4})
    assert reason == "audit: 'missing-one' answers get their ideal PARTIAL 0.40 < 0.50"


AUDIT_FLAG = "audit: 'correct' answers (a control) pass 0.00 < 0.50"
"""The first reason under an always-PARTIAL judge: its audit's controls never pass (YES 0 of n)."""
SATURATED = "audit: PARTIAL share of the wrong answers 1.00 > 0.80"


@pytest.fixture(scope="module")
def saturated(tmp_path_factory):
    db = open_db(tmp_path_factory.mktemp("sat") / "runs.db")
    corpus = load_corpus("fixtures/ko-mini")
    [rid] = run(
        corpus,
        ["oracle"],
        db,
        Config.offline(),
        offline=True,
        score=False,
        trajectories=["ko-c5-garam-db", "ko-c4-late-memo"],
    )
    return db, rid, score_always_partial(db, rid, corpus)


def test_a_saturated_run_gets_no_quadrant_only_the_warning(saturated):
    db, rid, name = saturated
    cards = [
        json.loads(r["card"])
        for r in db.query(
            "SELECT card FROM scores WHERE run_id=? AND scoring=? AND trajectory_id != ''",
            [rid, name],
        )
    ]
    assert len(cards) == 2
    for card in cards:
        # intrinsic 0.5 and extrinsic 0.5 would have read "healthy"
        assert card["quadrant"] is None and card["quadrant_raw"] == "healthy"
        assert d.UNRELIABLE in card["diagnosis"] and SATURATED in card["diagnosis"]
    extras = json.loads(
        next(
            db.query(
                "SELECT card FROM scores WHERE run_id=? AND scoring=? AND trajectory_id = ''",
                [rid, name],
            )
        )["card"]
    )
    # two trajectories give fewer than MIN_LABELS answer verdicts of each kind (2 compound, 6
    # single): the label limits do not apply, the audit decides, and its reasons say so
    assert extras["judge_unreliable"].startswith(AUDIT_FLAG)
    assert (
        SATURATED in extras["judge_unreliable"]
        and "compound PARTIAL" not in extras["judge_unreliable"]
    )


def test_the_report_withholds_quadrants_mad_and_divrate(saturated):
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import summary_lines, to_markdown

    db, rid, _ = saturated
    [run_report] = build_report(db, [rid], resamples=50).runs
    a = run_report.aggregate
    assert a.judge_unreliable.startswith(AUDIT_FLAG)
    assert a.quadrants == {} and a.mad is None and a.div_rate is None and a.mad_ci.mean is None
    # every figure built on pass/fail is withheld too, not only some
    assert a.pearson_r is None and a.kappa is None and a.pass_agreement is None
    assert a.pearson_r_ci.mean is None and a.kappa_ci.mean is None
    assert a.pass_agreement_ci.mean is None
    assert all(g.kappa is None for g in a.by_category.values())
    assert all(t.quadrant is None and t.quadrant_raw == "healthy" for t in run_report.trajectories)
    assert any(d.UNRELIABLE in line for line in summary_lines(run_report))
    md = to_markdown(build_report(db, [rid], resamples=50))
    assert "(no quadrant)" in md and d.UNRELIABLE in md


def test_the_warning_is_printed_once_per_run_in_md_and_table(saturated):
    import io

    from rich.console import Console

    from seorap.cli.report_table import render_table
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import to_markdown

    db, rid, _ = saturated
    report = build_report(db, [rid], resamples=50)
    md = to_markdown(report)
    # one run section: the summary says it once, with the reasons; the diagnosis list does not repeat it
    assert md.count("judge unreliable") == 1 and SATURATED in md
    assert md.count("(no quadrant)") == 2
    buf = io.StringIO()
    render_table(report, Console(file=buf, width=200, color_system=None))
    assert buf.getvalue().count("judge unreliable") == 1
    # the JSON carries the decision once per run (and the card diagnoses as data)
    data = json.loads(report.model_dump_json())
    [run_json] = data["runs"]
    assert run_json["aggregate"]["judge_unreliable"].startswith(AUDIT_FLAG)
    assert run_json["judge_reliability"]["reliable"] is False


def test_label_built_figures_carry_the_rulers_reliability_and_name_no_loss_point(saturated):
    """Under an always-PARTIAL judge the oracle's report said "lost at: stored 86": every figure
    built on the labels (the journey, benefit/tax, read-time) now carries the mark, and the
    journey names no loss point."""
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import UNRELIABLE_MARK, summary_lines

    db, rid, _ = saturated
    [r] = build_report(db, [rid], resamples=50).runs
    lines = summary_lines(r)
    for start in ("journey:", "journey survival:", "baselines:", "read-time ("):
        line = next(x for x in lines if x.startswith(start))
        assert line.endswith(f"[{UNRELIABLE_MARK}]"), line
    journey = next(x for x in lines if x.startswith("journey:"))
    assert "lost at: withheld" in journey and "stored 2" not in journey.split("lost at:")[1]


def test_the_app_rows_show_the_warning_instead_of_a_quadrant(saturated):
    from seorap.engine import views

    db, rid, _ = saturated
    rows = [
        r
        for r in views.trajectory_rows(db, load_corpus("fixtures/ko-mini"), [rid])
        if r.intrinsic is not None
    ]
    assert len(rows) == 2
    # intrinsic 0.5 and extrinsic 0.5 would read "healthy"
    assert all(
        r.quadrant == views.UNRELIABLE and r.judge_unreliable.startswith(AUDIT_FLAG) for r in rows
    )


def test_the_tour_never_offers_a_stale_case_from_an_unreliable_judge(saturated):
    from seorap.engine import views

    db, rid, name = saturated
    corpus = load_corpus("fixtures/ko-mini")
    row = next(
        db.query(
            "SELECT card FROM scores WHERE run_id=? AND scoring=? AND trajectory_id=?",
            [rid, name, "ko-c5-garam-db"],
        )
    )
    card = json.loads(row["card"])
    card["intrinsic"]["stale_facts"] = 1  # a stale fact, and extrinsic 0.5 from PARTIAL only
    assert card["extrinsic"]["compound"] == 0.5 and card["judge_unreliable"]

    def store(c):
        db.execute(
            "UPDATE scores SET card=? WHERE run_id=? AND scoring=? AND trajectory_id=?",
            [json.dumps(c, ensure_ascii=False), rid, name, "ko-c5-garam-db"],
        )

    store(card)
    assert (
        views.stale_case(db, corpus, current_run=rid) is None
    )  # "answer right" is the judge's saturation
    store({**card, "judge_unreliable": None})
    case = views.stale_case(db, corpus, current_run=rid)  # the same figures from a reliable judge
    assert case is not None and case.trajectory_id == "ko-c5-garam-db"
    store(json.loads(row["card"]))  # leave the module's run as it was


def test_an_na_interval_is_serialised_as_na_with_its_reason(saturated):
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.schema_trajectory import Interval

    assert json.loads(Interval().model_dump_json()) == {
        "mean": None,
        "ci_low": None,
        "ci_high": None,
        "method": "n/a",
        "n": None,
        "reason": "no trajectory has this figure",
    }
    figure = json.loads(Interval(mean=0.5, ci_low=0.4, ci_high=0.6, n=3).model_dump_json())
    assert figure["method"] == "bootstrap" and figure["reason"] is None
    db, rid, _ = saturated
    data = json.loads(build_report(db, [rid], resamples=50).model_dump_json())
    mad = data["runs"][0]["aggregate"]["mad_ci"]
    assert mad["mean"] is None and mad["method"] == "n/a" and "judge is unreliable" in mad["reason"]
