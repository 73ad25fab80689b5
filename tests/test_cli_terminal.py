"""Terminal-safe command line: corpus text with escape sequences, an OSC-8 link and Rich markup in a
trajectory id is printed visibly (``\\x1b…``, ``[link=…]`` literal) by every command, in a real
terminal (a pty), in every format."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from store_support import seorap_env

ROOT = Path(__file__).resolve().parents[1]
SEORAP = str(Path(sys.executable).parent / "seorap")
FILE = ROOT / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"
CLEAR = "\x1b[2J"
OSC8 = "\x1b]8;;file:///etc/passwd\x1b\\"
MARKUP_ID = "evil[link=file:etc-passwd]x[bold]y"
"""Rich markup that would open a live link; no '/' (ids are names, never paths: validate refuses a
separator), so the link stays open to the end of the text if Rich ever read it."""


def in_pty(*args: str) -> tuple[int, str]:
    """Run seorap with stdout and stderr on a pseudo-terminal; (exit code, everything printed)."""
    master, slave = pty.openpty()
    env = seorap_env(COLUMNS="200", TERM="xterm-256color")
    proc = subprocess.Popen(
        [SEORAP, *args],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            proc.kill()
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return proc.wait(timeout=60), out.decode("utf-8", "replace")


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    data = json.loads(FILE.read_text(encoding="utf-8"))
    data["id"] = MARKUP_ID
    state = data["states"][0]
    bad_claim = f"{CLEAR}지워진 화면{OSC8}링크"
    state["claims"] = [*state["claims"], bad_claim]
    state["document"]["text"] += f"\n{bad_claim}"
    (folder / "corpus").mkdir()
    (folder / "corpus" / "hostile.json").write_text(
        json.dumps(data, ensure_ascii=False), encoding="utf-8"
    )
    db = folder / "runs.db"
    made = subprocess.run(
        [
            SEORAP,
            "run",
            "--corpus",
            str(folder / "corpus"),
            "--system",
            "oracle",
            "--system",
            "raw",
            "--offline",
            "--db",
            str(db),
        ],
        capture_output=True,
        text=True,
        env=seorap_env(),
    )
    assert made.returncode == 0, made.stderr
    return db


def assert_safe(output: str, shown: bool = True) -> None:
    assert CLEAR not in output and "\x1b]8;" not in output
    assert (
        not shown
        or "\\x1b[2J" in output
        or "\\x1b]8" in output
        or MARKUP_ID.split("[")[0] in output
    )


@pytest.mark.parametrize(
    "args",
    [
        ["report", "--format", "table"],
        ["report", "--format", "md"],
        ["report", "--format", "csv"],
        ["report", "--format", "json"],
        ["diff", "--run", "oracle", "--run", "raw", "--all"],
        ["runs"],
    ],
)
def test_hostile_text_is_shown_not_executed(hostile_db, args):
    code, output = in_pty(*args, "--db", str(hostile_db))
    assert code == 0, output
    assert_safe(output, shown=args[0] != "runs")
    assert "Traceback" not in output


def test_markup_in_trajectory_ids_stays_literal(hostile_db):
    code, output = in_pty("report", "--format", "table", "--db", str(hostile_db))
    assert code == 0, output
    assert "\x1b]8;id=" not in output  # Rich writes a live link as OSC 8 with an id
    assert "evil[link=" in output or "evil[…" in output or "evil" in output


def test_diff_shows_claim_escapes_visibly(hostile_db):
    code, output = in_pty(
        "diff",
        "--run",
        "oracle",
        "--run",
        "raw",
        "--all",
        "--kind",
        "claim",
        "--db",
        str(hostile_db),
    )
    assert code == 0, output
    assert "\\x1b[2J" in output and CLEAR not in output


def test_run_progress_does_not_interpret_markup(tmp_path, hostile_db):
    corpus = hostile_db.parent / "corpus"
    code, output = in_pty(
        "run",
        "--corpus",
        str(corpus),
        "--system",
        "oracle",
        "--offline",
        "--no-score",
        "--db",
        str(tmp_path / "p.db"),
    )
    assert code == 0, output
    assert "\x1b]8;id=" not in output and CLEAR not in output
