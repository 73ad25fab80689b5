"""`seorap run` records the corpus as an absolute path, so `inspect` finds it from any directory."""

import os
from pathlib import Path

from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.store.database import open_db

KO_MINI = Path(__file__).resolve().parents[1] / "fixtures" / "ko-mini"


def test_run_records_the_absolute_corpus_path(tmp_path, monkeypatch):
    monkeypatch.chdir(KO_MINI.parent)
    db_path = tmp_path / "runs.db"
    result = CliRunner().invoke(
        cli,
        [
            "run",
            "--corpus",
            "ko-mini",
            "--system",
            "oracle",
            "--db",
            str(db_path),
            "--offline",
            "--no-score",
            "--trajectory",
            "ko-c5-seminar",
        ],
    )
    assert result.exit_code == 0, result.output
    [row] = list(open_db(db_path).query("SELECT corpus FROM runs"))
    assert row["corpus"] == str(KO_MINI) and os.path.isabs(row["corpus"])
