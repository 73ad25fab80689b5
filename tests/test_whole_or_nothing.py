"""Whole or nothing (issue 33): a gold-ledger append is one whole line or nothing, never into a
database; every output to stdout or a file is checked (a file size limit is one sentence, exit 2,
never exit 0 with the file cut); no raw ANSI or bidi control reaches a Markdown report or JSON.

A full disk is played by ``RLIMIT_FSIZE`` in a subprocess with SIGXFSZ ignored (the kernel then
answers a write past the limit with a short count, then EFBIG)."""

from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

FILE = Path(__file__).resolve().parents[1] / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"
TRAJ = "ko-c3-hiring-plan"


def seorap(args: list[str], *, limit: int | None = None, stdout=subprocess.PIPE):
    """The command line in a fresh process, with a file size limit of ``limit`` bytes."""

    def fence() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    code = "from seorap.cli.main import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        preexec_fn=fence,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
    )


def contest_args(ledger: Path, item: str = "s0/c0") -> list[str]:
    return [
        "gold",
        "contest",
        "--corpus",
        str(FILE),
        "--ledger",
        str(ledger),
        "--trajectory",
        TRAJ,
        "--item",
        item,
        "--reason",
        "the date is ambiguous " * 20,
    ]


def test_a_ledger_append_past_a_file_size_limit_leaves_no_half_line(tmp_path):
    ledger = tmp_path / "gold.jsonl"
    first = seorap(contest_args(ledger))
    assert first.returncode == 0, first.stderr
    before = ledger.read_bytes()
    cut = seorap(contest_args(ledger, "s0/c1"), limit=len(before) + 40)
    assert cut.returncode == 2, cut.stderr
    said = cut.stderr.decode()
    assert said.count("error:") == 1 and "Traceback" not in said
    assert "gold ledger" in said and "nothing was added" in said
    assert ledger.read_bytes() == before  # cut back: no half line
    again = seorap(contest_args(ledger, "s0/c1"))  # and the ledger still reads
    assert again.returncode == 0, again.stderr
    assert [json.loads(x)["item"] for x in ledger.read_text().splitlines()] == ["s0/c0", "s0/c1"]


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "runs.db"
    run(load_corpus(FILE), ["oracle", "raw"], open_db(path), Config.offline(), offline=True)
    return path


@pytest.mark.parametrize("name", ["runs.db", "runs.db-wal", "runs.db-shm", "link"])
def test_a_ledger_that_is_the_database_or_a_sidecar_is_refused(db, name):
    target = db.parent / name
    if name == "link":
        os.symlink(db, target)
    before = {p.name: p.read_bytes() for p in db.parent.iterdir() if p.is_file()}
    result = CliRunner().invoke(cli, contest_args(target))
    assert result.exit_code == 2, result.output
    assert "belongs to the database" in result.output
    after = {p.name: p.read_bytes() for p in db.parent.iterdir() if p.is_file()}
    assert after == before


def test_a_report_to_stdout_past_a_file_size_limit_exits_2_with_one_sentence(db, tmp_path):
    whole = seorap(["report", "--db", str(db), "--format", "md"])
    assert whole.returncode == 0 and len(whole.stdout) > 4096
    out = tmp_path / "report.md"
    with open(out, "wb") as fh:
        cut = seorap(["report", "--db", str(db), "--format", "md"], limit=1024, stdout=fh)
    said = cut.stderr.decode()
    assert cut.returncode == 2, said  # before: exit 0 and the file cut at 1024 bytes
    assert said.count("\n") == 1 and "file size limit" in said and "Traceback" not in said


def test_markdown_with_o_and_json_outputs_hold_no_raw_controls(db, tmp_path):
    conn = sqlite3.connect(db)
    with conn:  # a system name carrying a colour code, a bidi override and a C1 control
        conn.execute("UPDATE runs SET system = system || char(27) || '[31m' || char(8238, 133)")
    conn.close()
    runner = CliRunner()
    md = tmp_path / "r.md"
    done = runner.invoke(cli, ["report", "--db", str(db), "--format", "md", "-o", str(md)])
    assert done.exit_code == 0, done.output
    text = md.read_text(encoding="utf-8")
    assert "(oracle\\x1b[31m\\u202e\\x85, scoring" in text  # shown, escaped
    for raw in ("\x1b", "\u202e", "\x85"):
        assert raw not in text
    for args in (["compare", "oracle", "raw", "--json"], ["report", "--format", "json"]):
        shown = runner.invoke(cli, [*args, "--db", str(db)])
        assert shown.exit_code in (0, 1), shown.output
        assert "\\u001b[31m\\u202e\\u0085" in shown.output, args
        for raw in ("\x1b", "\u202e", "\x85"):
            assert raw not in shown.output, args
        json.loads(shown.output)  # still JSON, the same value


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_ledger_that_is_a_pipe_or_a_device_is_refused_without_waiting(tmp_path, kind):
    target = tmp_path / "fifo"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target = Path("/dev/null")
    result = CliRunner().invoke(cli, contest_args(target))
    assert result.exit_code == 2, result.output
    assert "gold ledger" in result.output and "Traceback" not in result.output
