"""`seorap runs rm` removes every store a run keeps beside the database — mem0's and graphiti's
(engine/memory/folders.py) — lists them with --dry-run, and touches nothing of another run's."""

from __future__ import annotations

from click.testing import CliRunner
from test_cli_runs_rm import rm, systems, two_runs  # noqa: F401 - fixture

from seorap.cli.main import cli
from seorap.engine.safepath import component
from seorap.engine.store.database import open_db


def _stores(path, run_id: str) -> dict:
    made = {}
    for kind in ("mem0", "graphiti"):
        folder = path.with_name(f"{path.name}.{kind}") / component(run_id) / "ko-c3-hiring-plan"
        folder.mkdir(parents=True)
        (folder / "store.bin").write_bytes(b"x" * 1000)
        made[kind] = folder.parent
    return made


def test_runs_rm_lists_and_removes_the_mem0_and_graphiti_folders_of_its_run(two_runs, monkeypatch):
    ids = {
        r["system"]: r["run_id"]
        for r in open_db(two_runs, readonly=True).query("SELECT * FROM runs")
    }
    mine, other = _stores(two_runs, ids["oracle"]), _stores(two_runs, ids["oracle-stale"])
    dry = rm(two_runs, "--dry-run", monkeypatch=monkeypatch)
    assert dry.exit_code == 0, dry.output
    assert (
        "and remove its mem0 folder" in dry.output
        and "and remove its graphiti folder" in dry.output
    )
    assert all(f.is_dir() for f in mine.values())
    done = rm(two_runs, "--yes", monkeypatch=monkeypatch)
    assert done.exit_code == 0, done.output
    assert "removed its mem0 folder" in done.output and "removed its graphiti folder" in done.output
    assert not any(f.exists() for f in mine.values())
    assert all(f.is_dir() for f in other.values())  # another run's stores stay
    assert systems(two_runs) == ["oracle-stale"]


def test_a_graphiti_folder_that_is_a_link_is_left_alone(two_runs, tmp_path, monkeypatch):
    ids = {
        r["system"]: r["run_id"]
        for r in open_db(two_runs, readonly=True).query("SELECT * FROM runs")
    }
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine")
    owner = two_runs.with_name(two_runs.name + ".graphiti")
    owner.mkdir()
    (owner / component(ids["oracle"])).symlink_to(outside)
    done = CliRunner().invoke(
        cli, ["runs", "rm", "oracle", "--db", str(two_runs), "--yes"], catch_exceptions=False
    )
    assert done.exit_code == 0, done.output
    assert (outside / "keep.txt").read_text() == "mine"
