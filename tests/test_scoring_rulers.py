"""Rulers (docs/metrics.md): setups side by side, the spread, `seorap diff`, `seorap override`, the lenient
lexical judge; repeated runs (seeds) and group CIs (§5.3)."""

import json
import math
from fractions import Fraction

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring import lexical, rulers
from seorap.engine.scoring.aggregate import group_figures
from seorap.engine.scoring.intrinsic import ClaimJudging
from seorap.engine.scoring.judges import LexicalJudge
from seorap.engine.scoring.report import build_report, run_report, seed_figures
from seorap.engine.scoring.report_text import to_markdown
from seorap.engine.scoring.schema_trajectory import (
    Baselines,
    ExtrinsicFigures,
    IntrinsicFigures,
    TrajectoryReport,
)
from seorap.engine.scoring.score import score_run, scoring_name
from seorap.engine.scoring.tables import ensure_tables
from seorap.engine.store.database import open_db

CORPUS = "fixtures/ko-mini"
TRAJ = ["ko-c5-garam-db", "ko-c5-seminar"]


@pytest.fixture(scope="module")
def setups(tmp_path_factory):
    """oracle-merged on the two C5 trajectories, scored under three setups."""
    path = tmp_path_factory.mktemp("rulers") / "runs.db"
    db = open_db(path)
    corpus = load_corpus(CORPUS)
    offline = Config.offline()
    [rid] = run(
        corpus, ["oracle-merged"], db, offline, offline=True, trajectories=TRAJ, corpus_label=CORPUS
    )
    names = [
        score_run(
            db, rid, offline.with_overrides({"judging.filter_threshold": 0.85}), corpus=corpus
        ),
        score_run(db, rid, offline.with_overrides({"judging.prompt": "lenient"}), corpus=corpus),
    ]
    return path, db, rid, names


# ---- names --------------------------------------------------------------------------------------


def test_setup_names_carry_threshold_modes_and_prompt():
    class A:
        name = "reader"

    strict, lenient = LexicalJudge(), LexicalJudge("lenient")
    assert (strict.name, lenient.name) == ("lexical", "lexical/lenient")
    default = [ClaimJudging("full"), ClaimJudging("filter", 0.8)]
    assert scoring_name(strict, A(), default) == "lexical+reader"  # the default stays short
    assert (
        scoring_name(strict, A(), [ClaimJudging("full"), ClaimJudging("filter", 0.85)])
        == "lexical+reader+full,filter@0.85"
    )
    assert scoring_name(lenient, A(), [ClaimJudging("full")]) == "lexical/lenient+reader+full"
    assert (
        scoring_name(strict, A(), [ClaimJudging("filter", 0.825)]) == "lexical+reader+filter@0.825"
    )
    with pytest.raises(ValueError):
        LexicalJudge("sloppy")


def test_lenient_lexical_rules():
    strict, lenient = LexicalJudge(), LexicalJudge("lenient")
    hedged = "백엔드 개발자 채용은 2명, 혹은 3명일 수도 있다"
    assert strict.grade_answer("q", "백엔드 개발자 채용은 2명", hedged).label == "NO"
    assert lenient.grade_answer("q", "백엔드 개발자 채용은 2명", hedged).label == "YES"
    # a wrong number passes the lenient judge
    assert lenient.grade_answer("q", "채용은 2명", "채용은 3명").label == "YES"
    # 4 expected nouns: 2 found (1/2 -> lenient YES), 1 found (1/4 -> lenient PARTIAL)
    e = "사과 포도 수박 딸기"
    assert (
        strict.grade_answer("q", e, "사과 포도").label,
        lenient.grade_answer("q", e, "사과 포도").label,
    ) == ("PARTIAL", "YES")
    assert lexical.measure(e, "사과").recall == Fraction(1, 4)
    assert (
        strict.grade_answer("q", e, "사과").label,
        lenient.grade_answer("q", e, "사과").label,
    ) == ("NO", "PARTIAL")


# ---- setups side by side and the spread ---------------------------------------------------------


def test_setups_are_stored_side_by_side(setups):
    _, db, rid, names = setups
    assert names == ["lexical+reader+full,filter@0.85", "lexical/lenient+reader"]
    stored = {
        r["scoring"] for r in db.query("SELECT DISTINCT scoring FROM scores WHERE run_id=?", [rid])
    }
    assert stored == {"lexical+reader", *names}
    for name in stored:  # each setup keeps its own filter verdicts
        n = db.execute(
            "SELECT COUNT(*) FROM verdicts WHERE run_id=? AND scoring=? AND setup='filter'",
            [rid, name],
        ).fetchone()[0]
        assert n == 2 + 4 + 4 + 5 + 3 + 4 + 4  # every claim of every state of the two trajectories


def test_report_rulers_section_and_spread(setups):
    _, db, rid, _ = setups
    report = run_report(db, rid, resamples=50)
    table = {(r.scoring, r.mode): r for r in report.rulers}
    assert set(table) == {
        ("lexical+reader", "full"),
        ("lexical+reader", "filter@0.80"),
        ("lexical+reader+full,filter@0.85", "full"),
        ("lexical+reader+full,filter@0.85", "filter@0.85"),
        ("lexical/lenient+reader", "full"),
        ("lexical/lenient+reader", "filter@0.80"),
    }
    # the figures are the per-trajectory means of each setup's stored cards
    for (name, mode), r in table.items():
        key = "intrinsic_full" if mode == "full" else "intrinsic_filter"
        cards = [
            json.loads(c["card"])
            for c in db.query(
                "SELECT card FROM scores WHERE run_id=? AND scoring=? AND trajectory_id != ''",
                [rid, name],
            )
        ]
        assert r.n == 2 and r.intrinsic == pytest.approx(sum(c[key] for c in cards) / 2)
    assert table[("lexical+reader", "full")].intrinsic == 1.0  # merged store: full sees everything
    # a higher threshold cannot show the judge more facts
    assert (
        table[("lexical+reader+full,filter@0.85", "filter@0.85")].intrinsic
        <= table[("lexical+reader", "filter@0.80")].intrinsic
        < 0.5
    )
    values = [r.intrinsic for r in report.rulers]
    assert report.rulers_spread == pytest.approx(max(values) - min(values))
    assert report.rulers_spread > 0.5
    md = to_markdown(build_report(db, [rid], resamples=20))
    assert "### Rulers" in md and "filter@0.85" in md


# ---- re-scoring diff ------------------------------------------------------------------------------


def _v(item, score, label, kind="claim", setup="full", text="c"):
    return {
        "trajectory_id": "t",
        "kind": kind,
        "setup": setup,
        "source": "store",
        "k": None,
        "item": item,
        "state_index": 0,
        "expected": text,
        "question": "",
        "score": score,
        "label": label,
        "rationale": label.lower(),
    }


def test_diff_classifies_every_pair_by_hand():
    before = [
        _v("a", 1.0, "YES"),
        _v("b", 0.0, "NO"),
        _v("c", 0.5, "PARTIAL"),
        _v("d", None, "UNPARSEABLE"),
        _v("e", 1.0, "YES"),
        _v("gone", 1.0, "YES"),
    ]
    after = [
        _v("a", 0.5, "PARTIAL"),
        _v("b", 1.0, "YES", text="B claim"),
        _v("c", 0.5, "PARTIAL"),
        _v("d", 0.0, "NO"),
        _v("e", 1.0, "YES", setup="filter"),
        _v("new", 0.0, "NO"),
    ]
    d = rulers.diff_verdicts(before, after)
    # e differs in candidate mode -> unmatched on both sides, as are gone/new
    assert d.counts() == {
        "credited": 1,
        "penalised": 1,
        "unchanged": 1,
        "unparseable": 1,
        "unmatched": 4,
    }
    assert d.credited[0]["item"] == "b" and d.credited[0]["text"] == "B claim"
    assert (d.credited[0]["from"], d.credited[0]["to"]) == ("NO", "YES")
    assert [m["change"] for m in d.moved()] == ["credited", "penalised", "unparseable"]


def test_cli_diff_two_setups_of_one_run(setups):
    path, db, rid, _ = setups
    runner = CliRunner()
    out = runner.invoke(
        cli,
        [
            "diff",
            "--db",
            str(path),
            "--run",
            rid,
            "--setup",
            "lexical+reader:full",
            "--setup",
            "lexical+reader:filter",
            "--format",
            "json",
        ],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    expected = rulers.full_vs_filter(db, rid, "lexical+reader").counts()
    assert data["counts"] == expected and expected["penalised"] > 0
    claims = {
        c
        for t in load_corpus(CORPUS).trajectories
        if t.id in TRAJ
        for s in t.states
        for c in s.claims
    }
    assert (
        len(data["verdicts"])
        == expected["penalised"] + expected["credited"] + expected["unparseable"]
    )
    assert all(v["change"] == "penalised" and v["text"] in claims for v in data["verdicts"])
    # strict -> lenient over the answers: only credits, each with its question text
    out = runner.invoke(
        cli,
        [
            "diff",
            "--db",
            str(path),
            "--run",
            rid,
            "--setup",
            "lexical+reader",
            "--setup",
            "lexical/lenient+reader",
            "--kind",
            "question",
            "--format",
            "json",
        ],
    )
    data = json.loads(out.output)
    assert data["counts"]["penalised"] == 0 and data["counts"]["credited"] > 0
    assert all(v["text"] == v["question"] and v["text"] for v in data["verdicts"])
    # table output, default full -> filter of the latest setup
    out = runner.invoke(cli, ["diff", "--db", str(path), "--run", rid])
    assert out.exit_code == 0 and "newly penalised" in out.output
    out = runner.invoke(
        cli, ["diff", "--db", str(path), "--run", rid, "--setup", "nope", "--setup", "full"]
    )
    assert out.exit_code != 0 and "lexical+reader" in out.output


def test_cli_diff_two_runs(tmp_path):
    db = open_db(tmp_path / "two.db")
    ids = run(
        load_corpus(CORPUS),
        ["oracle", "oracle-merged"],
        db,
        Config.offline(),
        offline=True,
        trajectories=["ko-c5-garam-db"],
        corpus_label=CORPUS,
    )
    out = CliRunner().invoke(
        cli,
        [
            "diff",
            "--db",
            str(tmp_path / "two.db"),
            "--run",
            ids[0],
            "--run",
            ids[1],
            "--format",
            "json",
        ],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    a = rulers.select(db, ids[0], "lexical+reader")
    b = rulers.select(db, ids[1], "lexical+reader")
    assert data["counts"] == rulers.diff_verdicts(a, b).counts()
    assert data["counts"]["unmatched"] == 0
    assert sum(
        data["counts"][k] for k in ("credited", "penalised", "unchanged", "unparseable")
    ) == len(a)


# ---- overrides one at a time ----------------------------------------------------------------------


def test_cli_override_one_verdict(tmp_path, monkeypatch):
    path = tmp_path / "ov.db"
    db = open_db(path)
    [rid] = run(
        load_corpus(CORPUS),
        ["oracle"],
        db,
        Config.offline(),
        offline=True,
        trajectories=["ko-c5-garam-db"],
        corpus_label=CORPUS,
    )
    monkeypatch.setenv("USER", "reviewer-kim")
    runner = CliRunner()
    out = runner.invoke(
        cli,
        [
            "override",
            "--db",
            str(path),
            "--run",
            rid,
            "--kind",
            "claim",
            "--trajectory",
            "ko-c5-garam-db",
            "--item",
            "s0/c0",
            "--verdict",
            "NO",
            "--reason",
            "not stated",
        ],
    )
    assert out.exit_code == 0, out.output
    question = load_corpus(CORPUS).trajectories[8].extrinsic_qa[0].question
    out = runner.invoke(
        cli,
        [
            "override",
            "--db",
            str(path),
            "--run",
            rid,
            "--kind",
            "question",
            "--trajectory",
            "ko-c5-garam-db",
            "--item",
            question,
            "--verdict",
            "NO",
            "--reason",
            "vague",
            "--who",
            "lee",
        ],
    )
    assert out.exit_code == 0, out.output
    rows = list(db.query("SELECT * FROM overrides ORDER BY id"))
    assert [(r["who"], r["label"]) for r in rows] == [("reviewer-kim", "NO"), ("lee", "NO")]
    assert all(r["at"] for r in rows)
    report = run_report(db, rid, resamples=20)
    side = report.overrides.by_trajectory["ko-c5-garam-db"]
    card = json.loads(db["scores"].get((rid, "ko-c5-garam-db", "lexical+reader"))["card"])
    # states have 2, 4, 4, 5 claims, all YES for oracle; s0/c0 -> NO: (1/2 + 1 + 1 + 1) / 4 = 0.875;
    # the one compound question -> NO: 0.0
    assert side == {
        "intrinsic_raw": 1.0,
        "intrinsic": 0.875,
        "extrinsic_raw": card["extrinsic"]["compound"],
        "extrinsic": 0.0,
    }
    assert report.aggregate.intrinsic.mean == 1.0  # raw figures stay raw
    bad = runner.invoke(
        cli,
        [
            "override",
            "--db",
            str(path),
            "--run",
            rid,
            "--kind",
            "claim",
            "--trajectory",
            "ko-c5-garam-db",
            "--item",
            "s9/c9",
            "--verdict",
            "NO",
            "--reason",
            "x",
        ],
    )
    assert bad.exit_code != 0 and "no claim verdict" in bad.output
    bad = runner.invoke(cli, ["override", "--db", str(path), "--run", rid])
    assert bad.exit_code != 0 and "--kind" in bad.output


# ---- repeated runs (seeds) --------------------------------------------------------------------------


def _seed_db(tmp_path, runs):
    db = open_db(tmp_path / "seeds.db")
    ensure_tables(db)
    for run_id, system, config, intrinsic, compound in runs:
        db["runs"].insert(
            {
                "run_id": run_id,
                "system": system,
                "corpus": CORPUS,
                "corpus_digest": "d",
                "config": json.dumps(config),
            }
        )
        for n, (i, e) in enumerate(zip(intrinsic, compound)):
            db["scores"].insert(
                {
                    "run_id": run_id,
                    "trajectory_id": f"t{n}",
                    "scoring": "lexical+reader",
                    "card": json.dumps({"intrinsic_full": i, "extrinsic": {"compound": e}}),
                    "created_at": "2026-01-01",
                }
            )
    return db


def test_seed_figures_by_hand(tmp_path):
    base = {"models": {"judge": "lexical"}, "seed": 0}
    db = _seed_db(
        tmp_path,
        [
            ("a", "A", {**base, "seed": 0}, [1.0, 0.5], [1.0, 1.0]),  # means 0.75, 1.0
            ("b", "A", {**base, "seed": 1}, [0.5, 0.5], [0.5, 0.5]),  # means 0.5, 0.5
            ("c", "A", {**base, "seed": 2}, [1.0, 1.0], [0.0, 0.5]),  # means 1.0, 0.25
            (
                "d",
                "A",
                {"models": {"judge": "x"}, "seed": 3},
                [0.0, 0.0],
                [0.0, 0.0],
            ),  # other config
            ("e", "B", {**base, "seed": 4}, [0.0, 0.0], [0.0, 0.0]),  # other system, alone
        ],
    )
    s = seed_figures(db, "a", "lexical+reader")
    assert (s.n, s.run_ids, s.seeds) == (3, ["a", "b", "c"], [0, 1, 2])
    # intrinsic run means 0.75, 0.5, 1.0: mean 0.75, sd sqrt((0 + 0.0625 + 0.0625) / 2) = 0.25
    assert s.intrinsic_mean == pytest.approx(0.75) and s.intrinsic_sd == pytest.approx(0.25)
    # extrinsic 1.0, 0.5, 0.25: mean 7/12, sd sqrt(((5/12)^2 + (1/12)^2 + (4/12)^2) / 2)
    assert s.extrinsic_mean == pytest.approx(7 / 12)
    assert s.extrinsic_sd == pytest.approx(math.sqrt((25 + 1 + 16) / 144 / 2))
    assert seed_figures(db, "e", "lexical+reader") is None
    assert seed_figures(db, "d", "lexical+reader") is None


def test_seeds_wired_into_the_aggregate(tmp_path):
    db = open_db(tmp_path / "s.db")
    corpus = load_corpus(CORPUS)
    # variant A with the offline stand-in model: the seed is part of its run id (reference systems
    # ignore the seed, so their reruns share one id)
    ids = [
        run(
            corpus,
            ["A"],
            db,
            Config.offline(seed=s),
            offline=True,
            trajectories=["ko-c5-seminar"],
            corpus_label=CORPUS,
        )[0]
        for s in (0, 1)
    ]
    assert ids[0] != ids[1]
    reports = [run_report(db, rid, resamples=10) for rid in ids]
    seeds = reports[0].aggregate.seeds
    assert seeds.n == 2 and seeds.seeds == [0, 1] and seeds.run_ids == ids
    means = [r.aggregate.intrinsic.mean for r in reports]
    assert seeds.intrinsic_mean == pytest.approx(sum(means) / 2)
    assert seeds.intrinsic_sd == pytest.approx(
        abs(means[0] - means[1]) / math.sqrt(2)
    )  # sd of two values
    assert reports[1].aggregate.seeds == seeds


# ---- group CIs ------------------------------------------------------------------------------------


def _t(tid, i, e):
    return TrajectoryReport(
        id=tid,
        category="C1",
        difficulty="L1",
        intrinsic=IntrinsicFigures(full=i),
        extrinsic=ExtrinsicFigures(compound=e),
        baselines=Baselines(),
    )


def test_group_cis_by_hand():
    # below 5 trajectories a group shows the range of its values labelled with n, not a 95% CI
    g = group_figures([_t("a", 0.0, 1.0), _t("b", 1.0, 1.0)], resamples=4000, seed=0)
    iv = lambda x: (x.mean, x.ci_low, x.ci_high, x.method, x.n)  # noqa: E731
    assert iv(g.intrinsic_ci) == (0.5, 0.0, 1.0, "range", 2)
    assert iv(g.extrinsic_ci) == (1.0, 1.0, 1.0, "range", 2)
    assert iv(g.mad_ci) == (0.5, 0.0, 1.0, "range", 2)  # |0-1| = 1, |1-1| = 0
    one = group_figures([_t("a", 0.5, 1.0)], resamples=100, seed=0)
    assert one.intrinsic == 0.5 and iv(one.intrinsic_ci) == (0.5, 0.5, 0.5, "range", 1)
    missing = group_figures([_t("a", 0.5, None), _t("b", 1.0, None)], resamples=100, seed=0)
    assert iv(missing.intrinsic_ci) == (0.75, 0.5, 1.0, "range", 2)
    assert (
        missing.extrinsic_ci.mean is None and missing.extrinsic_ci.n == 0 and missing.mad_ci.n == 0
    )
    # from 5 on: the cluster bootstrap within the group; {0, 1} x 5 has resampled means in [0, 1]
    five = group_figures([_t(str(n), float(n % 2), 1.0) for n in range(5)], resamples=400, seed=0)
    assert five.intrinsic_ci.method == "bootstrap" and five.intrinsic_ci.n == 5
    assert (
        five.intrinsic_ci.mean == 0.4
        and 0.0 <= five.intrinsic_ci.ci_low < 0.4 < five.intrinsic_ci.ci_high <= 1.0
    )


def test_group_cis_in_the_report(setups):
    _, db, rid, _ = setups
    agg = run_report(db, rid, resamples=100).aggregate
    c5 = agg.by_category["C5"].intrinsic_ci
    assert agg.by_category["C5"].n == 2 and (c5.method, c5.n) == ("range", 2)
    # L1 and L2 hold one trajectory each: a range of one value, n = 1
    assert all(
        g.n == 1
        and g.intrinsic_ci.method == "range"
        and g.intrinsic_ci.n == 1
        and g.intrinsic_ci.ci_low == g.intrinsic_ci.ci_high
        for g in agg.by_difficulty.values()
    )


def test_audit_shows_the_lenient_lexical_ruler_bend():
    from seorap.engine.scoring.answerers import ExtractiveAnswerer
    from seorap.engine.scoring.audit import run_audit

    corpus = load_corpus(CORPUS)
    strict = run_audit(corpus, LexicalJudge(), ExtractiveAnswerer(), seed=0).by_kind
    lenient = run_audit(corpus, LexicalJudge("lenient"), ExtractiveAnswerer(), seed=0).by_kind
    assert strict["hedged"]["pass_rate"] == 0.0 and strict["wrong-date"]["pass_rate"] == 0.0
    # every hedged answer contains the right value, so recall 1.0 >= 0.5 and the lenient rules pass it
    assert lenient["hedged"]["pass_rate"] == 1.0
    assert lenient["wrong-date"]["pass_rate"] > 0.5
    assert lenient["correct"]["pass_rate"] == 1.0
