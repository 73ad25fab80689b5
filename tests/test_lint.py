"""One formatter and one linter over the whole tree ([tool.ruff] in pyproject.toml).

ruff is pinned exactly in the test extra: a formatter's output changes between releases, and a
check that moves with the installed version would fail on code nobody touched."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(exe).exists():
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    return subprocess.run([exe, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_the_tree_is_formatted() -> None:
    out = _ruff("format", "--check", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_tree_passes_the_linter() -> None:
    out = _ruff("check", "--output-format", "concise", ".")
    assert out.returncode == 0, out.stdout + out.stderr
