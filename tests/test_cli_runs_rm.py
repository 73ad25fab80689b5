"""`seorap runs rm`: asks on a terminal unless --yes, refuses without one, --dry-run lists."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from seorap.cli import runs as runs_cli
from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

FILE = Path(__file__).resolve().parents[1] / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"


@pytest.fixture
def two_runs(tmp_path):
    path = tmp_path / "runs.db"
    run(
        load_corpus(FILE), ["oracle", "oracle-stale"], open_db(path), Config.offline(), offline=True
    )
    return path


def systems(path) -> list[str]:
    return sorted(
        r["system"] for r in open_db(path, readonly=True).query("SELECT system FROM runs")
    )


def rm(path, *args, terminal=False, answer=None, monkeypatch=None):
    if monkeypatch is not None:
        monkeypatch.setattr(runs_cli, "_on_terminal", lambda: terminal)
    return CliRunner().invoke(cli, ["runs", "rm", "oracle", "--db", str(path), *args], input=answer)


def test_without_a_terminal_it_refuses_unless_yes(two_runs, monkeypatch):
    refused = rm(two_runs, monkeypatch=monkeypatch)
    assert refused.exit_code == 2
    assert "give --yes to delete, or --dry-run" in refused.output
    assert systems(two_runs) == ["oracle", "oracle-stale"]
    done = rm(two_runs, "--yes", monkeypatch=monkeypatch)
    assert done.exit_code == 0 and "deleted oracle-" in done.output
    assert systems(two_runs) == ["oracle-stale"]


def test_dry_run_lists_the_counts_that_rm_then_deletes(two_runs, monkeypatch):
    dry = rm(two_runs, "--dry-run", monkeypatch=monkeypatch)
    assert dry.exit_code == 0, dry.output
    assert dry.output.startswith("would delete run oracle-") and "(system oracle)" in dry.output
    assert "the shared call log stays" in dry.output and "nothing deleted" in dry.output
    assert systems(two_runs) == ["oracle", "oracle-stale"]
    listed = dry.output.split(": ", 1)[1].split(";")[0]
    done = rm(two_runs, "--yes", monkeypatch=monkeypatch)
    assert f"({listed})" in done.output  # the same tables and row counts


def test_on_a_terminal_it_asks_and_no_keeps_the_run(two_runs, monkeypatch):
    kept = rm(two_runs, terminal=True, answer="n\n", monkeypatch=monkeypatch)
    assert kept.exit_code == 1 and "? [y/N]" in kept.output and "nothing deleted" in kept.output
    assert systems(two_runs) == ["oracle", "oracle-stale"]
    default = rm(two_runs, terminal=True, answer="\n", monkeypatch=monkeypatch)
    assert default.exit_code == 1 and systems(two_runs) == ["oracle", "oracle-stale"]
    gone = rm(two_runs, terminal=True, answer="y\n", monkeypatch=monkeypatch)
    assert gone.exit_code == 0 and "deleted oracle-" in gone.output
    assert systems(two_runs) == ["oracle-stale"]


def test_an_unknown_run_is_named_before_any_question(two_runs, monkeypatch):
    monkeypatch.setattr(runs_cli, "_on_terminal", lambda: True)
    out = CliRunner().invoke(cli, ["runs", "rm", "nosuch", "--db", str(two_runs), "--dry-run"])
    assert out.exit_code == 2 and "no run 'nosuch'" in out.output


def test_runs_says_which_runs_a_stand_in_wrote(tmp_path):
    import json

    path = tmp_path / "s.db"
    run(load_corpus(FILE), ["A", "oracle"], open_db(path), Config.offline(), offline=True)
    table = CliRunner().invoke(cli, ["runs", "--db", str(path)]).output.splitlines()
    by_system = {line.split()[1]: line for line in table[1:]}
    assert "A (stand-in)" in by_system["A"] and "stand-in" not in by_system["oracle"]
    rows = [
        json.loads(line)
        for line in CliRunner()
        .invoke(cli, ["runs", "--db", str(path), "--json"])
        .output.splitlines()
    ]
    flags = {r["system"]: (r["standin"], r["label"]) for r in rows}
    assert flags == {"A": (True, "A (stand-in)"), "oracle": (False, "oracle")}


def _rows_of(path, run_id: str) -> dict[str, int]:
    """Every table (or view) with a run_id column: rows of the run, or of its judge audit."""
    db = open_db(path, readonly=True)
    out = {}
    for (name,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT IN "
        "('runs', 'scopes', 'calls', 'calls_data') AND name NOT LIKE '%_data'"
    ).fetchall():
        if "run_id" in {r[1] for r in db.execute(f"PRAGMA table_info([{name}])")}:
            n = db.execute(
                f"SELECT count(*) FROM [{name}] WHERE run_id IN (?, ?)", [run_id, f"audit:{run_id}"]
            ).fetchone()[0]
            if n:
                out[name] = n
    return out


def test_rm_removes_and_dry_run_lists_every_row_of_the_run(two_runs, monkeypatch):
    """phases, call counters, stored figures and the judge audit's verdicts included: a run made
    again by the same command must not inherit them (timings x2, summed call counts)."""
    rid = next(
        r["run_id"]
        for r in open_db(two_runs, readonly=True).query(
            "SELECT run_id FROM runs WHERE system = 'oracle'"
        )
    )
    before = _rows_of(two_runs, rid)
    assert {"phases", "score_figures", "verdicts"} <= set(before)
    listed = rm(two_runs, "--dry-run", monkeypatch=monkeypatch).output
    for table in before:
        assert f" {table}" in listed, table
    assert "verdicts (judge audit)" in listed
    assert rm(two_runs, "--yes", monkeypatch=monkeypatch).exit_code == 0
    assert _rows_of(two_runs, rid) == {}
