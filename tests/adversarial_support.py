"""Helpers of the adversarial probes (tests/test_adversarial_*.py); no tests here.

Every probe runs `seorap` as a stranger would (a subprocess, hostile files around it) and then
checks the three things a probe looks for: no traceback reached the user, no crash log was written
for a fault of the environment, and not one byte changed in a file that is not ours (each such file
is hashed before and after).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SEORAP = str(Path(sys.executable).parent / "seorap")
SMALL = ("ko-c1-daon-backup", "ko-c3-hiring-plan", "ko-c5-seminar")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Foreign:
    """Files that are not ours, in a folder of their own and wherever a probe adds one: hashed when
    made or added, and compared at the end of the test (:meth:`check`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        other = sqlite3.connect(folder / "other-app.sqlite")
        other.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        other.execute("INSERT INTO notes (body) VALUES ('a note of another program')")
        other.commit()
        other.close()
        (folder / "notes.txt").write_text("not ours\n", encoding="utf-8")
        (folder / "data.json").write_text('{"keep": "me"}\n', encoding="utf-8")
        (folder / "secret.jsonl").write_text('{"expected": "a", "answer": "a"}\n')
        self.hashes: dict[Path, str] = {}
        for path in folder.iterdir():
            self.add(path)

    def add(self, path: Path) -> Path:
        self.hashes[Path(path)] = digest(Path(path))
        return Path(path)

    def check(self) -> None:
        changed = [str(p) for p, h in self.hashes.items() if not p.exists() or digest(p) != h]
        assert not changed, f"files that are not ours changed: {changed}"


@pytest.fixture
def foreign(tmp_path):
    files = Foreign(tmp_path / "foreign")
    yield files
    files.check()


def env_for(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("OLLAMA_HOST", None)
    env["SEORAP_LOG_DIR"] = str(tmp_path / "crash-logs")
    env.update(extra)
    return env


def seorap(tmp_path: Path, *args, env=None, cwd=None, timeout=300, **kw):
    """Run `seorap ARGS`; assert no traceback and no crash log (an environment fault is no bug)."""
    proc = subprocess.run(
        [SEORAP, *map(str, args)],
        capture_output=True,
        text=True,
        env=env or env_for(tmp_path),
        cwd=cwd or tmp_path,
        timeout=timeout,
        **kw,
    )
    assert_clean(tmp_path, proc.stderr)
    return proc


def shell(tmp_path: Path, script: str, env=None, timeout=300):
    """A bash script (pipes, ulimit) with `seorap` on the PATH; same checks as :func:`seorap`."""
    env = env or env_for(tmp_path)
    env["PATH"] = f"{Path(SEORAP).parent}:{env['PATH']}"
    proc = subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=timeout,
    )
    assert_clean(tmp_path, proc.stderr)
    return proc


def assert_clean(tmp_path: Path, stderr: str) -> None:
    assert "Traceback" not in stderr, stderr
    assert "internal error" not in stderr, stderr
    logs = tmp_path / "crash-logs"
    assert not logs.exists() or not any(logs.iterdir()), stderr


def one_sentence(stderr: str) -> str:
    """The last line of stderr, which must be the one sentence of an error."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert lines, "nothing said"
    assert lines[-1].rstrip().endswith((".", "`")), lines[-1]
    return lines[-1]


def small_corpus(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in SMALL:
        shutil.copy(ROOT / "fixtures" / "ko-mini" / f"{name}.json", folder)
    return folder


def integrity(db: Path) -> str:
    with sqlite3.connect(db) as con:
        return con.execute("PRAGMA integrity_check").fetchone()[0]
