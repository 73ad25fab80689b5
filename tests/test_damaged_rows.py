"""Damaged stored content (issue 33): a call log reply that is not zlib data or inflates past the
bound, a manifest or a score card that is not JSON: one sentence naming the run and the table,
exit 2 (before: exit 70, "please report"; and a 500 KB reply inflated to 2 GB)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.store import compact
from seorap.engine.store.damage import DamagedRow, stored_json, unzip
from seorap.engine.store.database import open_db

FILE = Path(__file__).resolve().parents[1] / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"


def test_a_reply_that_inflates_past_the_bound_is_refused_without_inflating_it():
    bomb = zlib.compress(b"\0" * (64 * 2**20), 9)  # 64 KB that would be 64 MiB
    assert len(bomb) < 100_000
    with pytest.raises(DamagedRow, match="the call log of run r1 is damaged.*inflates past"):
        unzip(bomb, "r1")
    with pytest.raises(DamagedRow, match="not zlib data"):
        compact.raw_reply({"raw_z": b"not zlib", "run_id": "r1"})
    with pytest.raises(DamagedRow, match="cut short"):
        unzip(zlib.compress(b"hello" * 100)[:-6], "r1")
    assert unzip(zlib.compress("답".encode()), "r1") == "답"


def test_stored_json_names_the_table_and_the_run():
    with pytest.raises(DamagedRow, match=r"the manifest of run A-1 is damaged \(it is not JSON\)"):
        stored_json("{not json", "manifest", "A-1")
    with pytest.raises(DamagedRow, match="not an object"):
        stored_json("[1]", "score card", "A-1")
    assert stored_json(None, "manifest", "A-1", {}) == {}


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "runs.db"
    run(load_corpus(FILE), ["oracle", "A"], open_db(path), Config.offline(), offline=True)
    return path


def _edit(db: Path, sql: str) -> None:
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(sql)
    conn.close()


@pytest.mark.parametrize(
    ("sql", "table"),
    [
        ("UPDATE runs SET manifest = '{broken' WHERE system = 'oracle'", "manifest"),
        ("UPDATE scores SET card = 'not json' WHERE run_id LIKE 'oracle%'", "score card"),
    ],
)
def test_report_on_a_damaged_row_is_one_sentence_exit_2(db, sql, table):
    _edit(db, sql)
    result = CliRunner().invoke(cli, ["report", "--db", str(db), "--format", "json"])
    assert result.exit_code == 2, result.output
    assert f"the {table} of run oracle-" in result.output and "is damaged" in result.output
    assert "please report" not in result.output


def test_a_replay_over_a_damaged_call_log_names_the_run(db):
    _edit(db, "UPDATE calls_data SET raw_z = x'00ff00ff'")
    args = ["run", "--corpus", str(FILE), "--system", "A", "--db", str(db), "--offline"]
    result = CliRunner().invoke(cli, [*args, "--replay", "--label", "again"])
    assert result.exit_code == 2, result.output
    assert "the call log of run A-" in result.output and "is damaged" in result.output


# ---- arguments that are not UTF-8 -------------------------------------------------------------
def _seorap_bytes(*args: bytes) -> subprocess.CompletedProcess:
    code = b"from seorap.cli.main import main; main()"
    return subprocess.run(
        [sys.executable.encode(), b"-c", code, *args], capture_output=True, timeout=120
    )


@pytest.mark.parametrize(
    "args",
    [
        [b"runs", b"--db", b"\xff.db"],
        [b"judge", b"--expected", b"\xfe", b"--answer", b"x"],
        [b"gold", b"contest", b"--corpus", b"ko-mini", b"--trajectory", b"ko-c3-hiring-plan"]
        + [b"--item", b"s0/c0", b"--reason", b"bad \xff", b"--ledger", b"/nonexistent/g"],
        [b"run", b"--corpus", b"ko-mini", b"--system", b"oracle", b"--label", b"\xc3("]
        + [b"--db", b"/nonexistent/r.db", b"--offline"],
    ],
)
def test_an_argument_that_is_not_utf8_is_one_sentence(args):
    result = _seorap_bytes(*args)
    said = result.stderr.decode("utf-8")  # what we print is UTF-8 itself
    assert result.returncode == 2, said
    assert said.count("\n") == 1 and "is not UTF-8 text" in said and "Traceback" not in said
    name = args[args.index(next(a for a in args if not _utf8(a))) - 1].decode()
    assert f"the value of {name}" in said


def _utf8(arg: bytes) -> bool:
    try:
        arg.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def test_the_crash_handler_writes_its_log_whatever_the_arguments(tmp_path, monkeypatch):
    from seorap.cli import main as entry

    monkeypatch.setenv("SEORAP_LOG_DIR", str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["seorap", "report", "--label", "a\udcff"])
    path = entry._write_traceback(RuntimeError("bad \udcfe byte"))
    assert path is not None and path.parent == tmp_path
    text = path.read_text(encoding="utf-8")
    assert "a\\udcff" in text or "a\\xff" in text
    assert "RuntimeError" in text


# ---- configuration: the hosts preflight checks, numbers that are booleans -----------------------
def test_preflight_checks_the_one_entry_hosts_list_not_host(ollama_server):
    from ollama_fake import closed_port_url

    from seorap.engine.models.base import ModelUnavailable
    from seorap.engine.models.manage import preflight

    dead = closed_port_url()
    roles = ["extractor", "synthesizer"]
    used = Config(host=dead, hosts=[ollama_server.url], embedder_backend="hashing")
    preflight(used, roles)  # before: refused for the unused host
    wrong = Config(host=ollama_server.url, hosts=[dead], embedder_backend="hashing")
    with pytest.raises(ModelUnavailable, match=dead.split("//")[1]):
        preflight(wrong, roles)  # before: passed, and the run failed on its first call


@pytest.mark.parametrize(
    "toml",
    ["concurrency = true", "seed = false", "timeout_s = true", "[retrieval]\ntop_k = true"],
)
def test_a_boolean_where_a_number_belongs_is_refused(tmp_path, toml):
    from seorap.engine.config import load_config
    from seorap.engine.errors import ConfigError

    path = tmp_path / "c.toml"
    path.write_text(toml + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=f"{path}:"):
        load_config(path)
