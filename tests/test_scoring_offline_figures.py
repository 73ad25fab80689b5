"""Figures of the offline reference systems that pin the metric definitions (bundled corpus)."""

import json

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring.score import append_only, score_run
from seorap.engine.store.database import open_db

CORPUS = "fixtures/ko-mini"
# The heavy lane: seven systems written and scored, the suite's heaviest fixture (~2 min quiet).
pytestmark = pytest.mark.slow

SYSTEMS = ["oracle", "oracle-stale", "oracle-merged", "raw", "A", "B", "C"]


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    """Every system scored with the offline default (the reference reader); ``raw`` also with the
    extractive baseline (``out["raw/extractive"]``)."""
    db = open_db(tmp_path_factory.mktemp("figures") / "runs.db")
    config = Config.offline()
    ids = dict(
        zip(SYSTEMS, run(load_corpus(CORPUS), SYSTEMS, db, config, offline=True, score=False))
    )
    out = {}

    def load(rid, name):
        return {
            r["trajectory_id"]: json.loads(r["card"])
            for r in db.query(
                "SELECT trajectory_id, card FROM scores WHERE run_id=? AND scoring=? AND trajectory_id != ''",
                [rid, name],
            )
        }

    for system, rid in ids.items():
        out[system] = load(rid, score_run(db, rid, config))
    extractive = config.with_overrides({"models.answerer": "extractive"})
    out["raw/extractive"] = load(ids["raw"], score_run(db, ids["raw"], extractive))
    return db, ids, out


def test_offline_default_is_the_reader(cards):
    db, ids, _ = cards
    assert {
        r["answerer"]
        for r in db.query("SELECT DISTINCT answerer FROM answers WHERE run_id=?", [ids["oracle"]])
    } == {"reader"}


def test_oracle_scores_full_intrinsic_on_every_trajectory(cards):
    _, _, c = cards
    assert len(c["oracle"]) == 12 and all(
        card["intrinsic_full"] == 1.0 for card in c["oracle"].values()
    )


def test_compound_extrinsic_is_above_zero_somewhere_for_every_written_system(cards):
    # a compound answer missing one part is PARTIAL (0.5), not NO: stores that hold some of a
    # compound answer's facts score above 0 (it was 0.00 on every trajectory for A, B, C and raw)
    _, _, c = cards
    for system in ("A", "B", "C", "raw"):
        assert any(card["extrinsic"]["compound"] > 0 for card in c[system].values()), system


def test_oracle_confidence_mae_is_zero_on_every_trajectory(cards):
    # the oracle writes each state's expected confidence; the versions that retire superseded facts
    # (carrying the old confidence) used to be averaged in (MAE 0.058 on ko-c5)
    _, _, c = cards
    assert all(card["intrinsic"]["confidence_mae"] == 0.0 for card in c["oracle"].values())


def test_udr_is_na_for_append_only_and_exact_for_the_oracles(cards):
    db, ids, c = cards
    assert (
        append_only(db, ids["raw"])
        and append_only(db, ids["C"])
        and not append_only(db, ids["oracle"])
    )
    for system in ("raw", "C"):
        assert all(
            card["intrinsic"]["udr"] is None and card["intrinsic"]["append_only"]
            for card in c[system].values()
        )

    def udr(s: str) -> list[float]:
        return [
            card["intrinsic"]["udr"]
            for card in c[s].values()
            if card["intrinsic"]["udr"] is not None
        ]

    assert udr("oracle") and set(udr("oracle")) == {1.0}  # it retires every stale claim
    assert set(udr("oracle-stale")) == {0.0}  # it never does
    assert set(udr("oracle-merged")) == {1.0}


def test_depth_10_answers_with_more_than_depth_5(cards):
    db, ids, _ = cards
    rows = {
        (r["trajectory_id"], r["item"], r["k"]): r["answer"]
        for r in db.query(
            "SELECT trajectory_id, item, k, answer FROM answers WHERE run_id=? AND source='memory' "
            "AND answerer='extractive'",
            [ids["raw"]],
        )
    }
    differ = [key for key in rows if key[2] == 5 and rows[key] != rows[(key[0], key[1], 10)]]
    assert differ


def test_fact_shape_tells_merged_blobs_from_single_facts(cards):
    _, _, c = cards
    merged = [card["intrinsic"]["fact_shape"] for card in c["oracle-merged"].values()]
    single = [card["intrinsic"]["fact_shape"] for card in c["oracle"].values()]
    assert all(s["n"] == 1 and s["multi_share"] == 1.0 for s in merged)
    assert sum(s["mean_length"] for s in merged) > 3 * sum(s["mean_length"] for s in single)
    assert max(s["multi_share"] for s in single) < 0.5


def test_report_carries_cis_ranges_fact_shape_and_udr_na(cards):
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import summary_lines, to_csv, to_markdown

    db, ids, _ = cards
    report = build_report(db, [ids["oracle"], ids["raw"]], resamples=200)
    oracle, raw = report.runs
    a = oracle.aggregate
    for iv in (a.div_rate_ci, a.signed_mean_ci, a.pass_agreement_ci, a.op_accuracy_ci, a.mad_ci):
        assert iv.method == "bootstrap" and iv.n == 12 and iv.ci_low is not None
    # categories hold 2 trajectories each: a range labelled with n, never a "95% CI"
    group = next(iter(a.by_category.values()))
    assert group.n == 2 and group.intrinsic_ci.method == "range" and group.intrinsic_ci.n == 2
    assert a.fact_shape.n == sum(t.fact_shape.n for t in oracle.trajectories)
    assert 0 < a.fact_shape.multi_share < 0.5
    assert any("multi-statement" in line for line in summary_lines(oracle))
    assert all(t.append_only and t.udr is None for t in raw.trajectories)
    csv_rows = to_csv(report).splitlines()
    header = csv_rows[0].split(",")
    udr = header.index("udr")
    assert {r.split(",")[udr] for r in csv_rows[1:] if ",raw," in r} == {"n/a"}
    assert "-0.00" not in to_markdown(report) and "-0.00" not in "\n".join(summary_lines(raw))


def test_every_format_carries_the_audit_and_a_ci_on_every_agreement_figure(cards):
    import io
    import re

    from rich.console import Console

    from seorap.cli.report_table import render_table
    from seorap.engine.scoring.audit import KINDS
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import to_json, to_markdown

    db, ids, _ = cards
    report = build_report(db, [ids["raw"]], resamples=200)
    [run_report] = report.runs
    a = run_report.aggregate
    # raw's intrinsic and extrinsic both vary over trajectories: every agreement figure is defined
    cis = {
        "κ": a.kappa_ci,
        "r": a.pearson_r_ci,
        "DivRate": a.div_rate_ci,
        "signed": a.signed_mean_ci,
        "pass agreement": a.pass_agreement_ci,
        "op accuracy": a.op_accuracy_ci,
    }
    for name, iv in cis.items():
        assert iv.method == "bootstrap" and iv.ci_low is not None and iv.ci_high is not None, name
    data = json.loads(to_json(report))["runs"][0]
    for key in (
        "kappa_ci",
        "pearson_r_ci",
        "div_rate_ci",
        "signed_mean_ci",
        "pass_agreement_ci",
        "op_accuracy_ci",
    ):
        assert (
            data["aggregate"][key]["ci_low"] is not None
            and data["aggregate"][key]["ci_high"] is not None
        ), key
    assert set(data["audit"]["kinds"]) == set(KINDS)
    assert all(k["pass_rate"] is not None for k in data["audit"]["kinds"].values())
    assert data["audit"]["partial_saturation"] is not None
    buf = io.StringIO()
    render_table(report, Console(file=buf, width=240, color_system=None))
    for text in (to_markdown(report), buf.getvalue()):
        flat = " ".join(text.split())
        for name in cis:
            # "κ 0.17 [-0.20, 0.50]": the figure and its 95% interval
            assert re.search(rf"{re.escape(name)} -?\d\.\d\d \[-?\d\.\d\d, -?\d\.\d\d\]", flat), (
                name
            )
        audit = run_report.audit
        for kind in (
            "hedged",
            "multi-value",
            "stale-firm",
            "retracted",
            "wrong-date",
            "vague",
            "context-free",
            "correct",
            "paraphrase",
        ):
            assert f"{kind} {audit.kinds[kind].pass_rate:.0%}" in flat, kind
        assert f"missing-one PARTIAL {audit.kinds['missing-one'].ideal_rate:.0%}" in flat
        assert f"PARTIAL saturation {audit.partial_saturation:.0%}" in flat


def test_the_oracles_read_every_claim_at_read_time(cards):
    """Issue 35, done when: on the bundled corpus the oracle's and oracle-stale's read-time
    coverage stay 1.0 with the slot question (their stores hold every current claim)."""
    _, _, c = cards
    for system in ("oracle", "oracle-stale"):
        coverage = {tid: card["read_time"]["coverage"] for tid, card in c[system].items()}
        assert len(coverage) == 12 and set(coverage.values()) == {1.0}, (system, coverage)


def test_no_bundled_system_reads_lower_for_a_ruler_disagreement(cards):
    """Issue 35, done when: the 'ruler disagreement' part of the write-read gap is 0 for every
    bundled system (a reading is judged hit by hit with the write-time function)."""
    _, _, c = cards
    for system in SYSTEMS:
        gaps = [card["read_time"]["gap"] for card in c[system].values()]
        assert len(gaps) == 12 and all(g["ruler"] == 0 for g in gaps), system


def test_the_masked_figures_are_the_headline_in_every_format(cards):
    """Issue 35, done when: the read-time figures every format heads with are the ones read with
    the slot question: each judged read of A was asked with its stored slot question (never the
    claim, no expected value in it), and JSON, CSV, text, Markdown, the terminal table and the
    app's score card give that run's figures and say they come from slot questions."""
    import csv
    import io

    from rich.console import Console

    from seorap.cli.report_table import render_table
    from seorap.engine.fmt import interval
    from seorap.engine.scoring import slot_questions as sq
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import summary_lines, to_csv, to_json, to_markdown
    from seorap.tui.screens.scores_text import read_time_text

    db, ids, c = cards
    stored = {
        (r["trajectory_id"], r["claim"], r["query"])
        for r in db.query(
            "SELECT trajectory_id, claim, query FROM read_lookups WHERE run_id=?", [ids["A"]]
        )
    }
    for tid, card in c["A"].items():
        rows = card["read_time"]["rows"]
        assert rows
        for row in rows:
            assert row["query_kind"] in (sq.CORPUS, sq.GENERATED)
            assert (tid, row["claim"], row["query"]) in stored and row["query"] != row["claim"]
            assert sq.leaks(row["claim"], row["query"]) == [], row
    report = build_report(db, [ids["A"]], resamples=200)
    [r] = report.runs
    rt = r.read_time
    assert rt is not None and rt.query_kinds and set(rt.query_kinds) <= {sq.CORPUS, sq.GENERATED}
    data = json.loads(to_json(report))["runs"][0]
    assert data["read_time"]["coverage"]["mean"] == rt.coverage.mean
    assert data["read_time"]["query_kinds"] == rt.query_kinds
    for row in csv.DictReader(io.StringIO(to_csv(report))):
        card = c["A"][row["trajectory"]]["read_time"]
        assert float(row["read_coverage"]) == pytest.approx(card["coverage"])
    headline = f"coverage {interval(rt.coverage)}"
    asked = " + ".join(f"{k} slot questions" for k in rt.query_kinds)
    buf = io.StringIO()
    render_table(report, Console(file=buf, width=400, color_system=None))
    texts = {
        "text": "\n".join(summary_lines(r)),
        "md": to_markdown(report),
        "table": buf.getvalue(),
        "app": read_time_text(r).plain,
    }
    for name, text in texts.items():
        line = next(x for x in text.splitlines() if "read-time (" in x or "read time (" in x)
        assert headline in line and asked in line, (name, line)
