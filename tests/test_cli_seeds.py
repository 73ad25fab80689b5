"""`seorap run --seed 0 --seed 1`: one run per system and seed; the report groups them (mean ± sd)."""

import json
from pathlib import Path

from click.testing import CliRunner

from seorap.cli.main import cli

KO_MINI = Path(__file__).resolve().parents[1] / "fixtures" / "ko-mini"


def test_repeated_seeds_make_separate_runs_that_the_report_groups(tmp_path):
    db = str(tmp_path / "seeds.db")
    result = CliRunner().invoke(
        cli,
        [
            "run",
            "--corpus",
            str(KO_MINI),
            "--system",
            "A",
            "--db",
            db,
            "--offline",
            "--seed",
            "0",
            "--seed",
            "1",
            "--trajectory",
            "ko-c5-seminar",
        ],
    )
    assert result.exit_code == 0, result.output
    run_ids = [line for line in result.output.splitlines() if line.startswith("A-")]
    assert len(set(run_ids)) == 2
    out = tmp_path / "r.json"
    assert (
        CliRunner()
        .invoke(cli, ["report", "--db", db, "--format", "json", "-o", str(out)])
        .exit_code
        == 0
    )
    report = json.loads(out.read_text(encoding="utf-8"))
    seeds = report["runs"][0]["aggregate"]["seeds"]
    assert seeds["n"] == 2 and sorted(seeds["seeds"]) == [0, 1]
