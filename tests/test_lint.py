"""One formatter and one linter over the whole tree ([tool.ruff] in pyproject.toml).

ruff is pinned exactly in the test extra: a formatter's output changes between releases, and a
check that moves with the installed version would fail on code nobody touched."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(exe).exists():
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    return subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_tree_is_formatted() -> None:
    out = _ruff("format", "--check", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_tree_passes_the_linter() -> None:
    out = _ruff("check", "--output-format", "concise", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_linter_does_not_depend_on_the_folder_name(tmp_path: Path) -> None:
    """A clone in a folder named ``seorap`` (the package's own name) or in any other reads the
    same: ruff decides which imports are first-party from pyproject.toml, not from the folder."""
    for name in ("seorap", "elsewhere"):
        copy = tmp_path / name
        for path in [ROOT / "pyproject.toml", *ROOT.rglob("*.py")]:
            rel = path.relative_to(ROOT)
            if rel.parts[0] in {".git", ".venv", "build", "dist"} or "__pycache__" in rel.parts:
                continue
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            (copy / rel).write_bytes(path.read_bytes())
        out = _ruff("check", "--select", "I", "--output-format", "concise", str(copy), cwd=copy)
        assert out.returncode == 0, f"in a folder named {name!r}:\n" + out.stdout[-3000:]
