"""Ids are names, never paths (engine/safepath.py): a run id ``..`` or ``.`` edited into a database
row, a corpus trajectory id ``..``, and the one guard every removal goes through. Each probe here
deleted files outside seorap's folders before (issue 33)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.errors import CorpusError
from seorap.engine.run.runner import run
from seorap.engine.safepath import (
    OutsideFolder,
    UnsafeName,
    component,
    make_dirs,
    name_problem,
    remove_tree,
)
from seorap.engine.store.database import open_db

FILE = Path(__file__).resolve().parents[1] / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"
RUN_IDS = ["..", ".", "../data", "a/b", "x\x1by", ""]
HOSTILE = ["", ".", "..", "../x", "a/b", "a\\b", "a\0b", "a\x1bb", "a\nb", "\x7f"]


@pytest.mark.parametrize("text", HOSTILE)
def test_component_refuses_what_a_path_reads_as_a_place(text):
    assert name_problem(text) is not None
    with pytest.raises(UnsafeName):
        component(text, "run id")


def test_component_spells_names_as_earlier_versions_did():
    assert component("oracle-abcd1234-ef0123~demo") == "oracle-abcd1234-ef0123-demo"
    assert component("ko-c3-hiring-plan") == "ko-c3-hiring-plan"
    assert component("계획 1") == "계획-1"
    with pytest.raises(UnsafeName, match="spelled '.'"):
        component(". ")  # today's spelling would have made it '.'


def test_the_guard_refuses_the_owner_itself_and_anything_outside(tmp_path):
    owner = tmp_path / "own"
    (owner / "in").mkdir(parents=True)
    (tmp_path / "keep").write_text("x")
    for path in (owner, owner / ".", owner / "..", owner / "in" / ".." / "..", tmp_path / "keep"):
        with pytest.raises(OutsideFolder):
            remove_tree(path, owner)
    os.symlink(tmp_path, owner / "link")
    with pytest.raises(OutsideFolder):
        make_dirs(owner / "link" / "new", owner)
    remove_tree(owner / "link", owner)  # the link goes, never what it points at
    assert (tmp_path / "keep").exists() and not (owner / "link").exists()
    remove_tree(owner / "in", owner)
    assert not (owner / "in").exists() and owner.is_dir()


def _db_with_run_id(tmp_path: Path, new_id: str) -> Path:
    path = tmp_path / "data" / "runs.db"
    path.parent.mkdir()
    run(load_corpus(FILE), ["oracle"], open_db(path), Config.offline(), offline=True)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE runs SET run_id = ?", [new_id])
    conn.close()
    return path


@pytest.mark.parametrize("run_id", ["..", "."])
def test_runs_rm_of_a_run_id_that_is_a_place_is_damage_and_deletes_nothing(tmp_path, run_id):
    db = _db_with_run_id(tmp_path, run_id)
    (tmp_path / "data" / "notes.txt").write_text("mine")
    other = tmp_path / "data" / "runs.db.mem0" / "A-other-run" / "t"
    other.mkdir(parents=True)
    (other / "store").write_text("another run's store")
    result = CliRunner().invoke(cli, ["runs", "rm", run_id, "--db", str(db), "--yes"])
    assert result.exit_code == 2, result.output
    assert "is damaged" in result.output and "cannot name a folder" in result.output
    assert "Traceback" not in result.output
    assert (tmp_path / "data" / "notes.txt").read_text() == "mine"
    assert (other / "store").exists() and db.exists()
    rows = sqlite3.connect(db).execute("SELECT count(*) FROM runs").fetchone()[0]
    assert rows == 1  # nothing deleted


def test_runs_rm_finds_the_folder_todays_naming_made(tmp_path):
    path = tmp_path / "runs.db"
    [run_id] = run(
        load_corpus(FILE),
        ["oracle"],
        open_db(path),
        Config.offline(),
        offline=True,
        label="demo",
    )
    folder = tmp_path / "runs.db.mem0" / run_id.replace("~", "-")  # how mem0 spelled it
    (folder / "t").mkdir(parents=True)
    result = CliRunner().invoke(cli, ["runs", "rm", run_id, "--db", str(path), "--yes"])
    assert result.exit_code == 0, result.output
    assert "removed its mem0 folder" in result.output and not folder.exists()


def test_runs_rm_finds_the_folder_of_a_label_an_earlier_version_took_with_a_slash(tmp_path):
    """Labels were not checked before: `--label a/b` made the run id `…~a/b` and mem0's folder
    `…-a-b`. Such a run is still removed with its folder; a separator before the `~` stays damage
    (tests above)."""
    db = _db_with_run_id(tmp_path, "oracle-abcd~a/b")
    folder = tmp_path / "data" / "runs.db.mem0" / "oracle-abcd-a-b"
    (folder / "t").mkdir(parents=True)
    dry = CliRunner().invoke(cli, ["runs", "rm", "oracle-abcd~a/b", "--db", str(db), "--dry-run"])
    assert dry.exit_code == 0 and "and remove its mem0 folder" in dry.output, dry.output
    result = CliRunner().invoke(cli, ["runs", "rm", "oracle-abcd~a/b", "--db", str(db), "--yes"])
    assert result.exit_code == 0, result.output
    assert "removed its mem0 folder" in result.output and not folder.exists()
    assert (tmp_path / "data" / "runs.db.mem0").is_dir()


def test_runs_rm_keeps_a_folder_another_run_names_too(tmp_path):
    """`X~a/b` and `X~a-b` are both spelled `X-a-b`: removing one run keeps the folder, which may
    be the other's store, and says so."""
    db = _db_with_run_id(tmp_path, "oracle-abcd~a/b")
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "INSERT INTO runs (run_id, system, status, manifest) SELECT 'oracle-abcd~a-b', "
            "system, status, manifest FROM runs WHERE run_id = 'oracle-abcd~a/b'"
        )
    conn.close()
    folder = tmp_path / "data" / "runs.db.mem0" / "oracle-abcd-a-b"
    (folder / "t").mkdir(parents=True)
    result = CliRunner().invoke(cli, ["runs", "rm", "oracle-abcd~a/b", "--db", str(db), "--yes"])
    assert result.exit_code == 0, result.output
    assert "kept its mem0 folder" in result.output and "oracle-abcd~a-b" in result.output
    assert (folder / "t").is_dir()


def test_a_stored_label_spelled_as_a_place_is_still_damage():
    assert name_problem("~/..", stored=True) is None  # the text itself names no place…
    with pytest.raises(UnsafeName, match="spelled '..'"):
        component("~/..", stored=True)  # …but spelled it would
    with pytest.raises(UnsafeName):
        component("../x~a", stored=True)  # a separator before the label


def _hostile_corpus(tmp_path: Path, trajectory_id: str) -> Path:
    data = json.loads(FILE.read_text(encoding="utf-8"))
    data["id"] = trajectory_id
    data["states"][1]["document"]["id"] = "../../etc"
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "t.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return folder


def test_validate_names_a_trajectory_id_dot_dot_with_its_file_and_json_path(tmp_path):
    corpus = _hostile_corpus(tmp_path, "..")
    result = CliRunner().invoke(cli, ["validate", str(corpus)])
    assert result.exit_code == 1, result.output
    assert f"{corpus / 't.json'}: id: the trajectory id '..' cannot be a name" in result.output
    assert "states[1].document.id: the document id '../../etc'" in result.output
    with pytest.raises(CorpusError):
        load_corpus(corpus)


def test_mem0_refuses_a_trajectory_id_that_is_a_place_before_removing_anything(tmp_path):
    from seorap.engine.memory.foreign import SystemFault
    from seorap.engine.memory.mem0 import Mem0System

    system = Mem0System(Config.offline(), "test")
    system.folder = tmp_path / "runs.db.mem0"
    other = system.folder / "A-other" / "t"
    other.mkdir(parents=True)
    system.recorder = object()  # type: ignore[assignment]  # bound enough to reach the paths
    system.ctx = object()
    for run_id, trajectory_id in (("A-run", ".."), ("A-run", "."), ("..", "t"), ("A-run", "")):
        with pytest.raises(SystemFault, match="cannot name a file"):
            system.open(run_id, trajectory_id)
    assert other.is_dir() and sorted(os.listdir(system.folder)) == ["A-other"]


def _hashes(root: Path) -> dict[str, str]:
    out = {}
    for dirpath, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(dirpath) / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                out[rel] = "link:" + os.readlink(path)
            elif path.is_file():
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                out[rel] = "dir"
    return out


def _changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


def test_a_run_over_hostile_ids_changes_only_the_database_ledger_and_its_own_folders(
    tmp_path, ollama_server
):
    """The done-when of issue 33: every hostile id in a corpus and in a database, and every command
    that touches files; afterwards every file is byte-identical except the database and its
    sidecars, the ledger asked for, and the run's own folders."""
    root = tmp_path / "tree"
    root.mkdir()
    db = _db_with_run_id(root, "..")
    data = db.parent
    conn = sqlite3.connect(db)
    with conn:  # more hostile runs: '.', a separator, a control character, empty
        for hostile in RUN_IDS[1:]:
            conn.execute(
                "INSERT INTO runs (run_id, system, status, manifest) "
                "SELECT ?, system || ?, status, manifest FROM runs WHERE run_id = '..'",
                [hostile, hostile],
            )
        conn.execute("UPDATE documents SET trajectory_id = '..' WHERE run_id = '..'")
    conn.close()
    (data / "notes.txt").write_text("mine")
    store = data / "runs.db.mem0" / "A-other" / "t"
    store.mkdir(parents=True)
    (store / "qdrant").write_text("another run's store")
    (root / "good").mkdir()
    good = root / "good" / "good.json"
    shutil.copy(FILE, good)
    hostile = _hostile_corpus(root, "..")
    ledger = root / "ledger.jsonl"
    before = _hashes(root)

    runner = CliRunner()
    outcomes = [
        runner.invoke(cli, ["validate", str(hostile)]).exit_code,
        runner.invoke(
            cli, ["run", "--corpus", str(hostile), "--system", "oracle", "--db", str(db)]
        ).exit_code,
        *[
            runner.invoke(cli, ["runs", "rm", run_id, "--db", str(db), "--yes"]).exit_code
            for run_id in RUN_IDS
        ],
        runner.invoke(
            cli,
            ["run", "--corpus", str(good), "--system", "oracle", "--db", str(db)]
            + ["--offline", "--label", "../x"],
        ).exit_code,
        runner.invoke(
            cli,
            ["run", "--corpus", str(good), "--system", "raw", "--db", str(db)] + ["--offline"],
        ).exit_code,
        runner.invoke(
            cli,
            ["gold", "contest", "--corpus", str(good), "--ledger", str(ledger)]
            + ["--trajectory", "ko-c3-hiring-plan", "--item", "s0/c0", "--reason", "probe"],
        ).exit_code,
    ]
    assert outcomes[: 3 + len(RUN_IDS)] == [1, 1, *[2] * len(RUN_IDS), 2], outcomes
    assert outcomes[-2:] == [0, 0], outcomes
    if importlib.util.find_spec("mem0") is not None:  # its stores go to <db>.mem0/<run>/
        config = Config.offline(host=ollama_server.url)
        [own] = run(load_corpus(good), ["mem0"], open_db(db), config, score=False)
        assert (data / "runs.db.mem0" / component(own)).is_dir()
        own_folder = f"data/runs.db.mem0/{component(own)}"
        allowed_settings = "data/runs.db.mem0/settings"  # mem0's own settings (MEM0_DIR)
    else:
        own_folder = allowed_settings = "-"

    allowed = {"data/runs.db", "data/runs.db-wal", "data/runs.db-shm", "data/runs.db-journal"}
    allowed.add("ledger.jsonl")
    changed = {
        c
        for c in _changed(before, _hashes(root))
        if not c.startswith((own_folder, allowed_settings))
    }
    assert changed <= allowed, changed - allowed
    assert (data / "notes.txt").read_text() == "mine" and (store / "qdrant").exists()
    # what was asked did happen (the database's pages may still be in its write-ahead log)
    assert "ledger.jsonl" in changed and {"data/runs.db", "data/runs.db-wal"} & changed


@pytest.mark.parametrize("name", ["../escaped.json", "..", "a/b.json", ""])
def test_write_files_writes_only_directly_into_its_folder(tmp_path, name):
    from seorap.engine.outfile import OutputError, write_files

    out = tmp_path / "out"
    with pytest.raises(OutputError, match="cannot write"):
        write_files(out, [("first.json", "{}"), (name, "{}")])
    assert sorted(os.listdir(tmp_path)) == ["out"] and os.listdir(out) == []  # first removed


def test_a_trajectory_that_fails_its_schema_still_has_its_ids_checked(tmp_path):
    data = json.loads(FILE.read_text(encoding="utf-8"))
    data["id"] = "a/b"
    data["difficulty"] = 7  # a schema problem
    (tmp_path / "t.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(tmp_path)])
    assert result.exit_code == 1
    assert (
        "difficulty" in result.output and "id: the trajectory id 'a/b' cannot be" in result.output
    )


def test_a_name_longer_than_a_file_name_is_refused():
    assert component("가" * 85)  # 255 bytes
    with pytest.raises(UnsafeName, match="longer than a file name"):
        component("가" * 86)
