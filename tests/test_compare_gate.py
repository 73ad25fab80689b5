"""`seorap compare BASE CANDIDATE`: paired differences, the gate, and what it refuses
(engine/scoring/gate.py, cli/compare.py)."""

import json

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring.gate import (
    Condition,
    Difference,
    difference,
    gate,
    paired_difference,
)
from seorap.engine.scoring.schema import RunReport
from seorap.engine.store.database import open_db

CORPUS = "fixtures/ko-mini"


# ---- the paired bootstrap, by hand ------------------------------------------------------------------


def test_constant_differences_have_a_zero_width_interval_however_the_runs_vary():
    # The runs differ wildly across trajectories, the candidate is always exactly 0.1 better:
    # pairing cancels the spread (an unpaired bootstrap of the two means would be wide).
    base = [0.0, 0.9, 0.2, 0.7, 0.4, 0.5]
    cand = [b + 0.1 for b in base]
    est, low, high, n = paired_difference(base, cand, resamples=500)
    assert n == 6
    assert est == pytest.approx(0.1) and low == pytest.approx(0.1) and high == pytest.approx(0.1)


def test_interval_of_one_changed_trajectory_in_five():
    # Differences [0, 0, 0, 0, 1]: a resample's mean is (number of draws of the changed
    # trajectory) / 5, a count ~ Binomial(5, 0.2). P(count = 0) = 0.8^5 = 0.328 > 0.025, so the
    # 2.5 % quantile is 0. P(count <= 2) = 0.942 < 0.975 <= P(count <= 3) = 0.993, so the 97.5 %
    # quantile is 3/5 = 0.6. The estimate is 1/5.
    est, low, high, n = paired_difference([0.5] * 5, [0.5, 0.5, 0.5, 0.5, 1.5], resamples=4000)
    assert (est, low, high, n) == (pytest.approx(0.2), 0.0, pytest.approx(0.6), 5)


def test_pairs_missing_a_side_are_left_out():
    est, _, _, n = paired_difference([1.0, None, 0.5, 0.2], [0.5, 1.0, None, 0.4])
    assert n == 2 and est == pytest.approx(((0.5 - 1.0) + (0.4 - 0.2)) / 2)


def _report(run_id: str, values: dict[str, float]) -> RunReport:
    trajectories = [
        {
            "id": t,
            "category": "C1",
            "difficulty": "L1",
            "intrinsic": {"full": v},
            "extrinsic": {},
            "baselines": {},
        }
        for t, v in values.items()
    ]
    return RunReport.model_validate(
        {
            "run_id": run_id,
            "system": run_id,
            "scoring": "s",
            "trajectories": trajectories,
            "aggregate": {
                "intrinsic": {"mean": None},
                "extrinsic": {"mean": None},
            },
            "calls": {"total": 0},
        }
    )


def test_seeds_are_paired_as_well_as_trajectories():
    # Seed 1: candidate - base = +0.2 on t1, 0.0 on t2 (mean 0.1); seed 2: 0.0 and +0.2 (mean 0.1)
    # plus a trajectory only seed 2 has (t3: +0.4). Per trajectory, d = mean over the seeds that
    # have it: t1 0.1, t2 0.1, t3 0.4 -> estimate 0.2. Per seed: 0.1 and (0 + 0.2 + 0.4) / 3 = 0.2,
    # so the between-seed sd is sqrt(((0.1 - 0.15)^2 + (0.2 - 0.15)^2) / 1) = 0.0707.
    pairs = [
        (_report("a1", {"t1": 0.5, "t2": 0.5}), _report("b1", {"t1": 0.7, "t2": 0.5})),
        (
            _report("a2", {"t1": 0.6, "t2": 0.4, "t3": 0.1}),
            _report("b2", {"t1": 0.6, "t2": 0.6, "t3": 0.5}),
        ),
    ]
    d = difference("intrinsic", pairs, resamples=200)
    assert d.seeds == 2 and d.n == 3
    assert d.estimate == pytest.approx(0.2)
    assert d.seed_sd == pytest.approx(0.0707107, abs=1e-6)


# ---- the gate ---------------------------------------------------------------------------------------


def _diff(low, high, *, higher=True, n=12):
    return Difference("x", "x", higher, 0.5, 0.5, (low + high) / 2, low, high, n, 0.1)


@pytest.mark.parametrize(
    "low, high, margin, failed",
    [
        (-0.3, -0.1, 0.0, True),  # wholly below zero
        (-0.3, 0.05, 0.0, False),  # straddles zero
        (-0.3, -0.1, 0.1, False),  # the high end touches -margin: not wholly beyond it
        (-0.3, -0.11, 0.1, True),
        (0.1, 0.3, 0.0, False),  # better
    ],
)
def test_the_gate_fails_only_when_the_whole_interval_is_worse_than_the_margin(
    low, high, margin, failed
):
    result = gate(Condition("intrinsic", margin), _diff(low, high))
    assert result.failed is failed
    assert ("worse" in result.reason) and ("not worse" in result.reason) is (not failed)


def test_for_a_lower_is_better_figure_worse_means_up():
    assert gate(Condition("stale_facts"), _diff(0.5, 2.0, higher=False)).failed
    assert not gate(Condition("stale_facts", 0.5), _diff(0.5, 2.0, higher=False)).failed
    assert not gate(Condition("stale_facts"), _diff(-2.0, -0.5, higher=False)).failed


def test_too_few_trajectories_decide_nothing():
    result = gate(Condition("intrinsic"), _diff(-0.9, -0.8, n=3))
    assert not result.failed and "undecided" in result.reason and "3 paired" in result.reason


@pytest.mark.parametrize("text", ["nosuch", "intrinsic:abc", "intrinsic:-0.1", "intrinsic:inf"])
def test_bad_conditions_are_refused_in_one_sentence(text):
    from seorap.engine.errors import UsageError

    with pytest.raises(UsageError, match="--fail-if-worse"):
        Condition.parse(text)


# ---- the command, on real offline runs ----------------------------------------------------------------


@pytest.fixture(scope="module")
def runs_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("compare") / "runs.db"
    db = open_db(path)
    run(
        load_corpus(CORPUS),
        ["oracle", "oracle-stale", "oracle-merged"],
        db,
        Config.offline(),
        offline=True,
        corpus_label=CORPUS,
    )
    db.close()
    return path


def _compare(path, *args):
    return CliRunner().invoke(cli, ["compare", *args, "--db", str(path)])


def test_a_worse_candidate_fails_the_gate_and_the_margin_is_honoured(runs_db):
    out = _compare(runs_db, "oracle", "oracle-stale", "--fail-if-worse", "claim_precision")
    assert out.exit_code == 1, out.output
    assert "FAIL claim precision" in out.output
    assert "newly penalised" in out.output  # the moved verdicts are listed too
    # oracle-stale keeps stale values: precision drops by about 0.2, so a 0.5 margin passes
    out = _compare(runs_db, "oracle", "oracle-stale", "--fail-if-worse", "claim_precision:0.5")
    assert out.exit_code == 0, out.output
    assert "pass claim precision" in out.output


def test_an_interval_that_straddles_zero_passes(runs_db):
    # oracle-merged's single answers (the clauses of its one fact) are credited on other
    # trajectories than the oracle's: their difference goes both ways
    out = _compare(
        runs_db, "oracle", "oracle-merged", "--json", "--fail-if-worse", "extrinsic_single"
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    [extrinsic] = [f for f in data["figures"] if f["figure"] == "extrinsic_single"]
    assert extrinsic["ci_low"] < 0 < extrinsic["ci_high"]
    assert data["gates"][0]["failed"] is False
    assert data["moved"]["counts"]["unchanged"] > 0


@pytest.mark.parametrize(
    "args, words",
    [
        (["oracle", "nosuch"], "no run 'nosuch'"),
        (["oracle", "oracle"], "the same run"),
        (["oracle", "oracle-stale", "--fail-if-worse", "nosuch"], "unknown figure"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(runs_db, args, words):
    out = _compare(runs_db, *args)
    assert out.exit_code == 2, out.output
    assert words in out.output and "Traceback" not in out.output


def test_runs_judged_differently_are_refused_unless_allowed(runs_db, tmp_path):
    import shutil

    path = tmp_path / "two-judges.db"
    shutil.copy(runs_db, path)
    rescored = CliRunner().invoke(
        cli, ["score", "--db", str(path), "--run", "oracle-stale", "--judge-prompt", "lenient"]
    )
    assert rescored.exit_code == 0, rescored.output
    out = _compare(path, "oracle", "oracle-stale")
    assert out.exit_code == 2 and "judged differently" in out.output
    out = _compare(path, "oracle", "oracle-stale", "--allow-different-judges")
    assert out.exit_code == 0 and "different judges" in out.output


def test_runs_of_different_corpora_are_refused(runs_db, tmp_path):
    import shutil

    path = tmp_path / "two-corpora.db"
    shutil.copy(runs_db, path)
    db = open_db(path)
    db.execute("UPDATE runs SET corpus_digest = 'other' WHERE system = 'oracle-stale'")
    db.conn.commit()
    db.close()
    out = _compare(path, "oracle", "oracle-stale")
    assert out.exit_code == 2 and "different corpora" in out.output


def test_a_labelled_run_is_named_by_its_label():
    import click

    from seorap.cli.runref import resolve_run

    db = open_db(None)
    db["runs"].insert_all(
        [
            {"run_id": "mine-c5f8dcb9-aaaaaa~base", "system": "mine", "created_at": "1"},
            {"run_id": "mine-c5f8dcb9-bbbbbb~candidate", "system": "mine", "created_at": "2"},
        ]
    )
    assert resolve_run(db, "base") == "mine-c5f8dcb9-aaaaaa~base"
    assert resolve_run(db, "candidate") == "mine-c5f8dcb9-bbbbbb~candidate"
    with pytest.raises(click.BadParameter, match="matches 2 runs"):
        resolve_run(db, "mine")


@pytest.mark.slow
def test_runs_repeated_over_seeds_are_compared_seed_by_seed(tmp_path):
    path = tmp_path / "seeds.db"
    args = ["run", "--corpus", CORPUS, "--db", str(path), "--offline"]
    # the offline stand-in variants: a reference system's run does not depend on the seed
    args += ["--system", "A", "--system", "C", "--seed", "1", "--seed", "2"]
    made = CliRunner().invoke(cli, args)
    assert made.exit_code == 0, made.output
    db = open_db(path)
    ids = {
        (r["system"], json.loads(r["config"])["seed"]): r["run_id"]
        for r in db.query("SELECT run_id, system, config FROM runs")
    }
    db.close()
    assert len(ids) == 4
    out = _compare(path, ids["A", 1], ids["C", 1], "--json")
    assert out.exit_code == 0, out.output
    figures = {f["figure"]: f for f in json.loads(out.output)["figures"]}
    assert all(f["seeds"] == 2 for f in figures.values())
    assert figures["intrinsic"]["seed_sd"] is not None
    table = _compare(path, ids["A", 1], ids["C", 1])
    assert "2 seeds on both sides" in table.output and "seed sd" in table.output


# ---- a gate a CI log can read: the verdict last, undecided exits 3, every line fits -----------------


def _lines(out):
    return out.output.rstrip("\n").split("\n")


def test_the_verdict_is_the_last_line_and_every_line_fits_80_columns(runs_db):
    from rich.cells import cell_len

    args = ["oracle", "oracle-stale", "--fail-if-worse", "claim_precision"]
    out = CliRunner().invoke(
        cli,
        ["compare", *args, "--fail-if-worse", "intrinsic", "--db", str(runs_db)],
        env={"COLUMNS": "80"},
    )
    assert out.exit_code == 1, out.output
    lines = _lines(out)
    assert lines[-1].startswith("gate: FAIL (1 of 2 figures worse beyond the margin")
    assert lines[-1].endswith("exit 1)")
    assert max(cell_len(line) for line in lines) <= 80
    # a wrapped Korean question continues indented, never at column 0
    starts = ("base", "candidate", "differences", "figure", "verdicts", "claim funnel", "gate:")
    flush = [x for x in lines if x and not x.startswith(" ")]
    assert all(
        x.startswith(starts) or x.split()[0] in _FIGURE_ROWS or x[0] in "↓◀" or " loses what " in x
        for x in flush
    ), flush
    assert any(x.startswith("◀ ") for x in lines)  # the mark is explained


_FIGURE_ROWS = {
    "intrinsic",
    "intrinsic_filter",
    "extrinsic",
    "extrinsic_single",
    "claim_precision",
    "op_accuracy",
    "udr",
    "fur",
    "confidence_mae",
    "stale_facts",
    "miss_rate",
}


def test_quiet_prints_only_the_gate_lines(runs_db):
    out = _compare(
        runs_db, "oracle", "oracle-stale", "--quiet", "--fail-if-worse", "claim_precision:0.5"
    )
    assert out.exit_code == 0, out.output
    lines = _lines(out)
    assert lines[0].startswith("  pass claim precision") and lines[-1].startswith("gate: PASS")
    assert not any("penalised" in x or "funnel" in x for x in lines)
    out = _compare(runs_db, "oracle", "oracle-stale", "--quiet")
    assert out.exit_code == 2 and "--fail-if-worse" in out.output


def test_json_has_a_top_level_gate(runs_db):
    out = _compare(
        runs_db, "oracle", "oracle-stale", "--json", "--fail-if-worse", "claim_precision"
    )
    assert out.exit_code == 1
    data = json.loads(out.output)
    assert data["gate"]["verdict"] == "FAIL" and data["gate"]["exit_code"] == 1
    assert data["gate"]["conditions"] == [
        {"figure": "claim_precision", "margin": 0.0, "verdict": "FAIL"}
    ]
    assert "figures" in data and "gates" in data  # the rest unchanged
    quiet = _compare(runs_db, "oracle", "oracle-stale", "--json", "-q", "--fail-if-worse", "udr")
    assert list(json.loads(quiet.output)) == ["gate"]
    assert json.loads(_compare(runs_db, "oracle", "oracle-stale", "--json").output)["gate"] is None


@pytest.fixture(scope="module")
def one_trajectory_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("compare-one") / "runs.db"
    db = open_db(path)
    run(
        load_corpus(f"{CORPUS}/ko-c3-hiring-plan.json"),
        ["oracle", "oracle-stale"],
        db,
        Config.offline(),
        offline=True,
    )
    db.close()
    return path


def test_too_few_pairs_is_undecided_exit_3_unless_allowed(one_trajectory_db):
    args = ["oracle", "oracle-stale", "--fail-if-worse", "claim_precision"]
    out = _compare(one_trajectory_db, *args)
    assert out.exit_code == 3, out.output
    assert _lines(out)[-1] == (
        "gate: UNDECIDED (1 of 1 figure: under 5 paired trajectories; exit 3)"
    )
    out = _compare(one_trajectory_db, *args, "--allow-undecided")
    assert out.exit_code == 0, out.output
    assert _lines(out)[-1].endswith("trajectories; allowed; exit 0)")


def test_a_failing_figure_outranks_an_undecided_one():
    from seorap.engine.scoring.gate import decide

    fail = gate(Condition("intrinsic"), _diff(-0.3, -0.1))
    few = gate(Condition("udr"), _diff(-0.9, -0.8, n=3))
    ok = gate(Condition("extrinsic"), _diff(-0.1, 0.1))
    assert decide([few, fail]).verdict == "FAIL" and decide([few, fail]).exit_code == 1
    assert decide([few, ok]).exit_code == 3
    assert decide([few, ok], allow_undecided=True).exit_code == 0
    assert decide([ok]).verdict == "PASS" and decide([ok]).exit_code == 0


def test_hanging_indent_measures_korean_in_cells():
    from rich.cells import cell_len

    from seorap.cli.wrap import hang

    text = "  penalised   t1 single/0 memory@1: YES → NO  " + "한빛물류의 현재 요금제는 " * 8
    lines = hang(text, 40)
    assert all(cell_len(x) <= 40 for x in lines)
    assert lines[0].startswith("  penalised   t1")  # runs of spaces kept
    assert all(x.startswith("      ") for x in lines[1:])
    assert hang("가" * 50, 20)[1] == "    " + "가" * 8  # a word wider than the line is cut by cells


def test_a_bare_system_name_never_means_a_replay():
    import click

    from seorap.cli.runref import resolve_run

    db = open_db(None)
    db["runs"].insert_all(
        [
            {"run_id": "A-c5f8dcb9-aaaaaa", "system": "A", "created_at": "1"},
            {"run_id": "A-c5f8dcb9-aaaaaa~replay", "system": "A", "created_at": "2"},
            {"run_id": "A-c5f8dcb9-aaaaaa~replay-2", "system": "A", "created_at": "3"},
            {"run_id": "B-c5f8dcb9-bbbbbb~replay", "system": "B", "created_at": "4"},
        ]
    )
    assert resolve_run(db, "A") == "A-c5f8dcb9-aaaaaa"  # was: 'A' matches 3 runs
    assert resolve_run(db, "A-c5f8") == "A-c5f8dcb9-aaaaaa"
    assert resolve_run(db, "replay-2") == "A-c5f8dcb9-aaaaaa~replay-2"  # by its label
    assert resolve_run(db, "B") == "B-c5f8dcb9-bbbbbb~replay"  # only a replay: that one
    with pytest.raises(click.BadParameter, match="matches 2 runs"):
        resolve_run(db, "replay")
