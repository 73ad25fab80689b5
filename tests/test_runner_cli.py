"""`seorap run` through click's CliRunner (offline reference systems, unknown system)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.store.database import open_db

FILE = Path(__file__).parent.parent / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"


def test_run_offline_reference_systems_and_resume(tmp_path):
    db_path = tmp_path / "x.db"
    args = [
        "run",
        "--corpus",
        str(FILE),
        "--system",
        "oracle",
        "--system",
        "oracle-stale",
        "--system",
        "oracle-merged",
        "--db",
        str(db_path),
        "--offline",
        "--no-score",
    ]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    ids = [line for line in first.stdout.splitlines() if line.startswith("oracle")]
    assert len(ids) == 3
    db = open_db(db_path)
    counts = {t: db[t].count for t in ("documents", "facts", "fact_versions", "decisions")}
    assert all(counts.values())
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 0
    assert {t: db[t].count for t in counts} == counts


def test_unknown_system_exit_2(tmp_path):
    result = CliRunner().invoke(
        cli,
        [
            "run",
            "--corpus",
            str(FILE),
            "--system",
            "Z",
            "--db",
            str(tmp_path / "z.db"),
            "--offline",
        ],
    )
    assert result.exit_code == 2 and "unknown system 'Z'" in result.output
