"""score_run / report / CLI over real offline runs of the reference systems on fixtures/ko-mini."""

import json

import pytest
from click.testing import CliRunner

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring import overrides
from seorap.engine.scoring.report import build_report
from seorap.engine.scoring.report_text import to_csv, to_markdown
from seorap.engine.scoring.score import score_run
from seorap.engine.store.database import open_db

CORPUS = "fixtures/ko-mini"
SYSTEMS = ["oracle", "oracle-stale", "oracle-merged"]


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    path = tmp_path_factory.mktemp("score") / "runs.db"
    db = open_db(path)
    corpus = load_corpus(CORPUS)
    ids = run(corpus, SYSTEMS, db, Config.offline(), offline=True, corpus_label=CORPUS)
    report = build_report(db, ids, resamples=200)
    return path, db, dict(zip(SYSTEMS, ids)), {r.system: r for r in report.runs}, report


def test_oracle_scores_full_one_everywhere(scored):
    _, _, _, runs, _ = scored
    trajectories = runs["oracle"].trajectories
    assert len(trajectories) == len(load_corpus(CORPUS).trajectories)
    assert all(t.intrinsic.full == 1.0 for t in trajectories)
    assert all(t.stale_facts == 0 and t.claim_precision == 1.0 for t in trajectories)


def test_oracle_stale_shows_stale_facts_and_lower_precision(scored):
    _, _, _, runs, _ = scored
    stale, oracle = runs["oracle-stale"].aggregate, runs["oracle"].aggregate
    assert stale.stale_facts > 0
    assert stale.claim_precision < oracle.claim_precision
    # coverage (recall only) does not see it: the ruler defect the stale metric exists for
    assert stale.intrinsic.mean == 1.0


def test_oracle_merged_collapses_under_filter(scored):
    _, _, _, runs, _ = scored
    merged = runs["oracle-merged"]
    assert merged.aggregate.intrinsic.mean == 1.0
    assert merged.aggregate.intrinsic_filter.mean < 0.5
    assert merged.full_vs_filter["penalised"] > 0 and merged.full_vs_filter["credited"] == 0


def test_the_reader_answers_the_merged_fact_as_well_as_the_oracles_facts(scored):
    """Issue 34's bars: the oracle's run-level extrinsic stays at least what it was before full
    accounting (0.75); oracle-merged, answered by the clauses of its one fact, is credited as
    often as the oracle and keeps no stale fact on the late memo; the audit's correct answers
    pass at least 95 %."""
    _, _, _, runs, _ = scored
    oracle, merged = runs["oracle"], runs["oracle-merged"]
    assert oracle.aggregate.extrinsic.mean >= 0.75
    assert merged.aggregate.extrinsic.mean >= oracle.aggregate.extrinsic.mean
    late = next(t for t in merged.trajectories if t.id == "ko-c4-late-memo")
    assert late.stale_facts == 0
    for r in runs.values():
        assert r.audit is not None and r.audit.kinds["correct"].pass_rate >= 0.95


def test_report_json_has_the_issue_keys(scored):
    _, _, _, _, report = scored
    data = json.loads(report.model_dump_json())
    r = data["runs"][0]
    assert {"run_id", "system", "trajectories", "aggregate", "calls"} <= r.keys()
    t = r["trajectories"][0]
    for key in (
        "id",
        "category",
        "difficulty",
        "udr",
        "fur",
        "op_accuracy",
        "confidence_mae",
        "final_fact_count",
        "stale_facts",
        "claim_precision",
        "quadrant",
        "write_failures",
    ):
        assert key in t
    assert {"full", "filter"} <= t["intrinsic"].keys()
    assert {"compound", "single"} <= t["extrinsic"].keys()
    assert {"full_context", "naive_rag", "no_context"} <= t["baselines"].keys()
    assert t["quadrant"] in ("healthy", "compensation", "bottleneck", "both-low")
    a = r["aggregate"]
    for key in (
        "mad",
        "div_rate",
        "signed_mean",
        "pearson_r",
        "kappa",
        "pass_agreement",
        "partial_share",
        "by_category",
        "by_difficulty",
    ):
        assert key in a
    assert {"mean", "ci_low", "ci_high"} <= a["intrinsic"].keys() and a["extrinsic"][
        "mean"
    ] is not None
    assert {"total", "cached", "by_role", "tokens_in", "tokens_out"} <= r["calls"].keys()
    assert "ko-c5-garam-db" in to_csv(report) and "### Diagnosis" in to_markdown(report)


def test_every_verdict_has_a_rationale_and_diagnosis_text(scored):
    _, db, ids, runs, _ = scored
    missing = db.execute(
        "SELECT COUNT(*) FROM verdicts WHERE rationale IS NULL OR rationale = ''"
    ).fetchone()[0]
    assert missing == 0
    assert all(t.diagnosis for t in runs["oracle"].trajectories)


def test_overrides_reported_beside_raw(scored):
    _, db, ids, _, _ = scored
    row = next(
        db.query(
            "SELECT id FROM verdicts WHERE run_id=? AND kind='claim' AND setup='full' "
            "AND trajectory_id='ko-c5-garam-db' AND state_index=0",
            [ids["oracle"]],
        )
    )
    overrides.add_override(db, row["id"], "NO", "reviewer disagrees", who="tester")
    run_report = build_report(db, [ids["oracle"]], resamples=50).runs[0]
    assert run_report.overrides.count == 1
    assert run_report.overrides.items[0]["who"] == "tester"
    assert run_report.overrides.intrinsic.mean < run_report.aggregate.intrinsic.mean == 1.0
    with pytest.raises(ValueError):
        overrides.add_override(db, row["id"], "NO", " ")


def test_cli_score_report_and_audit(scored, tmp_path):
    from seorap.cli.main import cli

    path, _, ids, _, _ = scored
    runner = CliRunner()
    out = runner.invoke(
        cli, ["score", "--db", str(path), "--run", ids["oracle-merged"], "--judge-mode", "full"]
    )
    assert out.exit_code == 0, out.output
    assert "model calls 0" in out.output
    target = tmp_path / "r.json"
    out = runner.invoke(cli, ["report", "--db", str(path), "--format", "json", "-o", str(target)])
    assert out.exit_code == 0, out.output
    assert len(json.loads(target.read_text())["runs"]) == 3
    out = runner.invoke(cli, ["judge-audit", "--corpus", CORPUS, "--db", str(tmp_path / "a.db")])
    assert out.exit_code == 0, out.output
    assert "hedged" in out.output and "wrong-date" in out.output


def test_live_path_both_cards_and_rescoring_is_free(ollama_server, tmp_path):
    ollama_server.handler = lambda body: (
        json.dumps({"rationale": "맞다", "verdict": "YES"})
        if body.get("format")
        else "가람상사는 Aurora로 이전한다"
    )
    model = next(iter(ollama_server.models))
    config = Config.offline(host=ollama_server.url).with_overrides(
        {"models.judge": model, "models.answerer": model}
    )
    db = open_db(tmp_path / "live.db")
    corpus = load_corpus(CORPUS)
    [run_id] = run(
        corpus,
        ["oracle"],
        db,
        config,
        offline=True,
        trajectories=["ko-c5-garam-db"],
        score=False,
        corpus_label=CORPUS,
    )
    score_run(db, run_id, config, corpus=corpus)
    first = json.loads(db["scores"].get((run_id, "", f"{model}/strict+{model}"))["card"])
    assert first["scoring_calls"] > 0
    card = json.loads(
        db["scores"].get((run_id, "ko-c5-garam-db", f"{model}/strict+{model}"))["card"]
    )
    assert card["intrinsic_full"] == 1.0 and card["extrinsic"]["compound"] == 1.0
    requests = len(ollama_server.bodies("/api/chat"))
    score_run(db, run_id, config, corpus=corpus)
    second = json.loads(db["scores"].get((run_id, "", f"{model}/strict+{model}"))["card"])
    assert second["scoring_calls"] == 0 and second["scoring_cached"] > 0
    assert len(ollama_server.bodies("/api/chat")) == requests


def test_verdicts_record_the_judge_rules_version(scored):
    from seorap.engine.scoring import lexical

    _, db, _, _, _ = scored
    assert {r["rules"] for r in db.query("SELECT DISTINCT rules FROM verdicts")} == {
        lexical.RULES_VERSION
    }


def test_every_report_carries_the_judge_audit(scored):
    from seorap.engine.scoring import lexical
    from seorap.engine.scoring.audit import KINDS
    from seorap.engine.scoring.report_text import to_markdown as md

    _, db, ids, runs, report = scored
    for system, r in runs.items():
        assert r.audit is not None and set(r.audit.kinds) == set(KINDS), system
        assert r.audit.judge == "lexical" and r.audit.sample is None
        assert (
            r.audit.kinds["hedged"].pass_rate == 0.0 and r.audit.kinds["correct"].pass_rate == 1.0
        )
        # oracle-merged included: the reader answers its one merged fact by the clause that holds
        # the asked slot, so full accounting can credit it (no PARTIAL saturation)
        assert r.judge_reliability is not None and r.judge_reliability.reliable, (
            system,
            r.judge_reliability,
        )
        assert r.aggregate.judge_unreliable is None, system
    text = md(report)
    assert (
        f"judge audit (lexical, {lexical.RULES_VERSION}, every item)" in text
        and "PARTIAL saturation" in text
    )
    # the audit's verdicts are kept apart from the run's own
    n = db.execute(
        "SELECT COUNT(*) FROM verdicts WHERE run_id=? AND kind LIKE 'audit:%'",
        [f"audit:{ids['oracle']}"],
    ).fetchone()[0]
    assert n > 0
    assert (
        db.execute(
            "SELECT COUNT(*) FROM verdicts WHERE run_id=? AND kind LIKE 'audit:%'", [ids["oracle"]]
        ).fetchone()[0]
        == 0
    )
