"""Esc is not held back 100 ms: `seorap demo` and `seorap inspect` set Textual's Esc wait (the
ESCDELAY environment variable, read when Textual loads) to 50 ms before the app loads it, and
keep a value the user has set (tui/terminal.py; docs/design.md, "Keys and the terminal")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import seorap

PACKAGE_HOME = Path(seorap.__file__).resolve().parents[1]

PROBE = """
import os, sys
from click.testing import CliRunner
from seorap.cli.main import cli
assert "textual" not in sys.modules  # the command line loads no Textual before the command runs
got = CliRunner().invoke(cli, [{command!r}, "--db", {db!r}])  # not a database: stops there
assert got.exit_code != 0, got.output
import textual.constants
print(os.environ.get("ESCDELAY"), textual.constants.ESCAPE_DELAY)
"""


@pytest.mark.parametrize("command", ["inspect", "demo"])
@pytest.mark.parametrize(("users", "expected"), [(None, "50 0.05"), ("150", "150 0.15")])
def test_the_app_waits_50_ms_after_esc_unless_the_user_set_escdelay(
    command, users, expected, tmp_path
):
    db = tmp_path / "not-a.db"
    db.write_text("not a database")
    env = {k: v for k, v in os.environ.items() if k != "ESCDELAY"}
    env["PYTHONPATH"] = str(PACKAGE_HOME)
    if users is not None:
        env["ESCDELAY"] = users
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(command=command, db=str(db))],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert out.stdout.split() == expected.split()
