"""Keys typed right after the first paint, on a real terminal (a tmux pty): Textual's own input
driver reads them (Pilot bypasses it), and none is lost or lands on the wrong view (issue 36)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import seorap
from seorap.engine.config import load_config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db
from seorap.tui.factory import bundled_corpus_path

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (a real pty)")

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_HOME = Path(seorap.__file__).resolve().parents[1]
"""What the app's process needs on PYTHONPATH to import this very seorap."""
WAIT_S = 120.0
"""Generous: CI machines and shared ones may be loaded (the keys must still land, later)."""


class Tmux:
    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.name, *args], capture_output=True, text=True, check=False
        ).stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "t")

    def wait_for(self, text: str, most_s: float = WAIT_S) -> str:
        end = time.monotonic() + most_s
        while time.monotonic() < end:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.02)
        raise AssertionError(f"{text!r} never on screen; the screen:\n{self.screen()}")


@pytest.fixture
def tmux():
    pane = Tmux(f"seorap-test-{os.getpid()}")
    yield pane
    pane("kill-server")


def app_db(tmp_path: Path) -> Path:
    db_path = tmp_path / "runs.db"
    run(
        load_corpus(bundled_corpus_path()),
        ["oracle-stale"],
        open_db(db_path),
        load_config(offline=True),
        offline=True,
        score=False,
        corpus_label=str(bundled_corpus_path()),
    )
    return db_path


def start(tmux: Tmux, db_path: Path, home: Path) -> None:
    env = f"env HOME={home} PYTHONPATH={PACKAGE_HOME} TERM=xterm-256color"
    command = (
        f"cd {ROOT} && {env} {sys.executable} -c 'from seorap.cli.main import main; main()' "
        f"inspect --db {db_path}"
    )
    tmux("new-session", "-d", "-s", "t", "-x", "160", "-y", "45", command)


@pytest.mark.parametrize("after_s", [0.2])
def test_search_typed_right_after_first_paint_opens_its_trajectory(tmux, tmp_path, after_s):
    """ "/late-memo⏎" typed in one burst 0.2 s after the runs view's first frame: the search
    gets every letter (none goes to the table behind it) and Enter closes it on the one row
    left; the next Enter opens ko-c4-late-memo (not the row the cursor was on before)."""
    start(tmux, app_db(tmp_path), tmp_path)
    tmux.wait_for("rows · ")
    time.sleep(after_s)
    tmux("send-keys", "-t", "t", "-l", "/late-memo")
    tmux("send-keys", "-t", "t", "Enter")
    screen = tmux.wait_for("search='late-memo'")  # a letter lost: never (the screen is shown)
    assert "1 rows · sort trajectory ↑ · search='late-memo'" in screen, screen
    tmux("send-keys", "-t", "t", "Enter")
    screen = tmux.wait_for("doc 1/")
    title = next(line for line in screen.splitlines() if "doc 1/" in line)
    assert "ko-c4-late-memo" in title, screen
