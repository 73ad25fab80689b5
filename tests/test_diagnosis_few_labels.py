"""A share over a handful of answer verdicts says nothing about a judge: below MIN_LABELS verdicts of a
question kind its audit decides, and with no audit the judge is unverified (withheld like an
unreliable one, and said to be unverified). Expectations computed by hand in each comment."""

import json

import pytest
from unreliable_support import AlwaysPartial

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring import audit as audit_mod
from seorap.engine.scoring import diagnosis as d
from seorap.engine.scoring import score as score_mod
from seorap.engine.scoring.verdict import Verdict
from seorap.engine.store.database import open_db

CONTROLS = audit_mod.CONTROL_KINDS
GOOD = {"correct": 1.0, "paraphrase": 0.95, "hedged": 0.0, "negated": 0.1}
"""A judge that tells right from wrong: controls pass, wrong kinds do not (separation 0.85)."""


def test_the_minimum_is_ten_labels():
    assert d.MIN_LABELS == 10


def test_a_handful_all_partial_is_left_to_a_good_audit():
    # 9 PARTIAL of 9 is a share of 1.00, but 9 < 10 labels: the share limit does not apply; the
    # audit passes every limit (controls 1.00 and 0.95 >= 0.50, wrong kinds 0.00 and 0.10 <= 0.50,
    # saturation 0.20 <= 0.80, separation 0.85 >= 0.50), so it speaks for the judge
    nine = {"compound": ["PARTIAL"] * 9}
    assert d.judge_unreliable(nine, GOOD, CONTROLS, audit_separation=0.85) is None
    assert d.judge_unreliable(nine, GOOD, CONTROLS, audit_partial_saturation=0.2) is None


def test_ten_all_partial_are_saturated_whatever_the_audit_says():
    # 10 PARTIAL of 10: share 1.00 > 0.80 with enough labels; a good audit does not outvote it
    ten = {"compound": ["PARTIAL"] * 10}
    reason = d.judge_unreliable(ten, GOOD, CONTROLS, audit_separation=0.85)
    assert reason == "compound PARTIAL share 1.00 > 0.80"
    assert not d.is_unverified(reason) and d.judge_headline(reason) == d.UNRELIABLE


def test_few_labels_and_no_audit_leave_the_judge_unverified():
    # the shipped recording's shape: 1 compound verdict (PARTIAL) and 3 single (YES, NO, PARTIAL)
    labels = {"compound": ["PARTIAL"], "single": ["YES", "NO", "PARTIAL"]}
    reason = d.judge_unreliable(labels)
    assert reason == (
        "unverified: only 1 answer verdict of kind compound and no audit (the label limits need "
        "10); unverified: only 3 answer verdicts of kind single and no audit (the label limits "
        "need 10)"
    )
    assert d.is_unverified(reason) and d.judge_headline(reason) == d.UNVERIFIED
    assert "unreliable" not in reason
    # an audit with every figure None (it produced nothing) is no audit
    empty = {k: None for k in GOOD}
    assert d.is_unverified(d.judge_unreliable(labels, empty, CONTROLS))
    # with the audit, the same labels are the audit's to judge: reliable
    assert d.judge_unreliable(labels, GOOD, CONTROLS) is None


def test_an_audit_of_one_side_only_cannot_verify():
    # controls alone (every right answer YES) cannot tell a judge that says YES to everything from
    # a good one; wrong kinds alone cannot tell one that says NO to everything
    labels = ["YES", "NO"]
    assert d.is_unverified(d.judge_unreliable(labels, {"correct": 1.0}, CONTROLS))
    assert d.is_unverified(d.judge_unreliable(labels, {"hedged": 0.0}, CONTROLS))
    assert d.judge_unreliable(labels, {"correct": 1.0, "hedged": 0.0}, CONTROLS) is None
    assert d.judge_unreliable(labels, audit_separation=0.9) is None  # separation: both sides


def test_a_few_unparseable_verdicts_are_no_evidence_the_judge_reads_the_answers():
    # 1 of 1 unparseable: no verdict of this kind was read, audit or not (the audit reads its own
    # planted answers, not these); with 10 it is the unreliable "all 10 ... unparseable"
    assert (
        d.judge_unreliable({"single": ["UNPARSEABLE"]}, GOOD, CONTROLS)
        == "unverified: 1 answer verdict of kind single, none parseable"
    )
    assert (
        d.judge_unreliable({"single": ["UNPARSEABLE"] * 10}, GOOD, CONTROLS)
        == "all 10 single answer verdicts unparseable"
    )


def test_unreliable_outranks_unverified():
    # the compound side is saturated (10 of 10 PARTIAL); the single side (1 label, no audit) would
    # be unverified, but an unreliable judge needs no more evidence: one reason, the crossed limit
    labels = {"compound": ["PARTIAL"] * 10, "single": ["YES"]}
    assert d.judge_unreliable(labels) == "compound PARTIAL share 1.00 > 0.80"


def test_an_always_partial_judge_on_a_one_question_run_is_flagged_by_its_audit():
    # the audit of an always-PARTIAL judge, by hand: YES 0 of n everywhere, so every control passes
    # 0.00 < 0.50, PARTIAL covers 1.00 > 0.80 of the wrong answers, separation 0.00 - 0.00 < 0.50
    rates = {k: 0.0 for k in ("correct", "paraphrase", "hedged", "negated")}
    reason = d.judge_unreliable(
        {"compound": ["PARTIAL"]},
        rates,
        CONTROLS,
        audit_partial_saturation=1.0,
        audit_separation=0.0,
    )
    assert reason.split("; ") == [
        "audit: 'correct' answers (a control) pass 0.00 < 0.50",
        "audit: 'paraphrase' answers (a control) pass 0.00 < 0.50",
        "audit: PARTIAL share of the wrong answers 1.00 > 0.80",
        "audit: separation 0.00 < 0.50 (correct answers pass barely more often than the worst "
        "kind of wrong answer)",
    ]


def test_an_always_yes_judge_on_a_small_run_is_flagged_by_its_audit():
    # YES to everything: its 4 answers all YES (no label limit crossed, 4 < 10 anyway), but every
    # wrong audit kind passes 1.00 > 0.50, and separation is 1.00 - 1.00 = 0.00 < 0.50
    rates = {"correct": 1.0, "paraphrase": 1.0, "hedged": 1.0, "negated": 1.0}
    reason = d.judge_unreliable(
        {"compound": ["YES"], "single": ["YES"] * 3},
        rates,
        CONTROLS,
        audit_partial_saturation=0.0,
        audit_separation=0.0,
    )
    assert reason.split("; ") == [
        "audit: wrong 'hedged' answers pass 1.00 > 0.50",
        "audit: wrong 'negated' answers pass 1.00 > 0.50",
        "audit: separation 0.00 < 0.50 (correct answers pass barely more often than the worst "
        "kind of wrong answer)",
    ]


# ---- through a real scoring pass: one trajectory (1 compound, 3 single questions) ---------------


class AlwaysYes:
    """A judge that credits everything."""

    name = "always-yes"
    rules = "always-yes"

    def grade_claim(self, claim, facts, **dates):
        return Verdict("YES", "always YES")

    def grade_answer(self, question, expected, answer, **dates):
        return Verdict("YES", "always YES")


@pytest.fixture(scope="module")
def one_trajectory(tmp_path_factory):
    db = open_db(tmp_path_factory.mktemp("few") / "runs.db")
    corpus = load_corpus("fixtures/ko-mini")
    [rid] = run(
        corpus,
        ["oracle"],
        db,
        Config.offline(),
        offline=True,
        score=False,
        trajectories=["ko-c1-daon-backup"],
    )
    return db, rid, corpus


def _score_with(db, rid, corpus, judge=None, empty_audit=False):
    mp = pytest.MonkeyPatch()
    if judge is not None:
        mp.setattr(score_mod, "make_judge", lambda *a, **k: judge)
    if empty_audit:  # an audit that produced nothing (no item it could judge)
        mp.setattr(
            audit_mod,
            "run_audit",
            lambda corpus, judge, *a, **k: audit_mod.AuditResult(judge=judge.name),
        )
    try:
        return score_mod.score_run(db, rid, Config.offline(), corpus=corpus)
    finally:
        mp.undo()


def _extras(db, rid, name):
    row = next(
        db.query(
            "SELECT card FROM scores WHERE run_id=? AND scoring=? AND trajectory_id = ''",
            [rid, name],
        )
    )
    return json.loads(row["card"])


def test_a_scored_one_trajectory_run_is_judged_by_its_audit(one_trajectory):
    db, rid, corpus = one_trajectory
    # the lexical judge: 1 compound + 3 single verdicts, its audit passes: reliable
    assert _extras(db, rid, _score_with(db, rid, corpus))["judge_unreliable"] is None
    partial = _extras(db, rid, _score_with(db, rid, corpus, AlwaysPartial()))["judge_unreliable"]
    assert partial.startswith("audit: ") and "PARTIAL share of the wrong answers 1.00" in partial
    assert "compound PARTIAL share" not in partial  # 1 label: no share is read from it
    yes = _extras(db, rid, _score_with(db, rid, corpus, AlwaysYes()))["judge_unreliable"]
    assert yes.startswith("audit: wrong ") and "separation 0.00 < 0.50" in yes


def test_no_audit_withholds_the_figures_and_says_unverified_everywhere(one_trajectory):
    from seorap.engine import views
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import summary_lines

    db, rid, corpus = one_trajectory
    name = _score_with(db, rid, corpus, empty_audit=True)
    reason = _extras(db, rid, name)["judge_unreliable"]
    assert reason.startswith("unverified: only 1 answer verdict of kind compound and no audit")
    [card] = [
        json.loads(r["card"])
        for r in db.query(
            "SELECT card FROM scores WHERE run_id=? AND scoring=? AND trajectory_id != ''",
            [rid, name],
        )
    ]
    assert card["quadrant"] is None and card["judge_unreliable"] == reason
    assert card["diagnosis"].endswith(f"{d.UNVERIFIED}: {reason}.")
    [r] = build_report(db, [rid], scoring=name, resamples=50).runs
    assert r.aggregate.mad is None and r.aggregate.quadrants == {}
    assert r.judge_reliability is not None and not r.judge_reliability.reliable
    assert r.judge_reliability.reasons[0].startswith("unverified: ")
    line = next(x for x in summary_lines(r) if x.startswith("MAD, DivRate"))
    assert d.UNVERIFIED in line and reason in line and d.UNRELIABLE not in line
    audit = views.judge_audit(r)
    assert audit is not None and not audit.reliable and audit.headline == views.UNVERIFIED
    [row] = [x for x in views.trajectory_rows(db, corpus, [rid]) if x.intrinsic is not None]
    assert row.quadrant == views.UNVERIFIED
    # the app's audit panel and scatter say it in the same words (rich only, no app started)
    from seorap.tui.screens import scores_list, scores_text  # the app's pure renderers, here only

    panel = scores_text.audit_text(audit).plain
    assert f"· {views.UNVERIFIED}" in panel and reason.split("; ")[0] in panel
    assert "unreliable" not in panel
    listed = scores_list.scatter_list(r, False, 80, {}).plain
    assert f"{views.UNVERIFIED}: no quadrants" in listed


def test_compare_says_whose_judge_is_unverified(one_trajectory, tmp_path):
    from click.testing import CliRunner

    from seorap.cli.main import cli

    db, _, corpus = one_trajectory
    only = dict(offline=True, trajectories=["ko-c1-daon-backup"])
    # a base of its own: the module's run carries the other tests' scorings (an always-PARTIAL
    # judge's among them), and compare takes a run's latest
    [rid] = run(corpus, ["oracle"], db, Config.offline(), score=False, label="base", **only)
    _score_with(db, rid, corpus, empty_audit=True)  # the base: no audit, 1 + 3 verdicts
    [other] = run(corpus, ["oracle"], db, Config.offline(), label="other", **only)
    path = str(db.execute("PRAGMA database_list").fetchall()[0][2])
    out = CliRunner().invoke(cli, ["compare", rid, other, "--db", path])
    assert out.exit_code == 0, out.output
    assert "base's judge is unverified (unverified: only 1 answer verdict" in out.output
    assert "candidate's judge" not in out.output  # scored with its audit: reliable
    assert "loss points withheld" in out.output
