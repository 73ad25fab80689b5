"""Every report format says which run the offline stand-in model wrote."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

FILE = Path(__file__).resolve().parents[1] / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"


def test_stand_in_runs_are_labelled_in_table_md_csv_and_json(tmp_path):
    path = tmp_path / "r.db"
    run(load_corpus(FILE), ["A", "oracle"], open_db(path), Config.offline(), offline=True)

    def report(fmt: str) -> str:
        out = CliRunner().invoke(
            cli, ["report", "--db", str(path), "--format", fmt], env={"COLUMNS": "160"}
        )
        assert out.exit_code == 0, out.output
        return out.output

    data = json.loads(report("json"))
    assert {r["system"]: r["standin"] for r in data["runs"]} == {"A": True, "oracle": False}
    rows = list(csv.DictReader(io.StringIO(report("csv"))))
    assert {(r["system"], r["standin"]) for r in rows} == {("A", "True"), ("oracle", "False")}
    md = report("md")
    assert "(A (stand-in), scoring" in md and "(oracle, scoring" in md
    table = report("table")
    assert "· A (stand-in) ·" in table and "oracle (stand-in)" not in table
