"""Files cut by concept, functions short and simple, in engine/, cli/ and tui/: no file over 500 lines, no
function over 60 lines (from ``def`` to its last line, decorators aside), no function over
cyclomatic complexity 15.

The complexity is ruff's C901 (the mccabe count; ruff is pinned exactly in the test extra, and
``[tool.ruff.lint.mccabe]`` in pyproject.toml sets 15, so ``ruff check --select C901 engine cli tui``
by hand gives the same answer). It is read per function here rather than through ruff's
per-file-ignores, which would let a new complex function into a listed file unseen.

The allowlists below are empty: every function is within the limits. One listed there (with its
size and a line saying why it cannot be cut) may only shrink: a listed function that grows past its
figure fails, a new offender fails, and a listed one back within the limit fails too (remove it
from the list)."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DIRS = ("engine", "cli", "tui")
FILE_LINES = 500
FUNCTION_LINES = 60
COMPLEXITY = 15

LONG_FUNCTIONS: dict[str, int] = {}

COMPLEX_FUNCTIONS: dict[str, int] = {}


def _sources() -> list[Path]:
    return sorted(p for d in DIRS for p in (ROOT / d).rglob("*.py"))


def _functions(tree: ast.AST, prefix: str = ""):
    """(qualified name, node) of every function, nested ones and methods included."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield prefix + node.name, node
            yield from _functions(node, prefix + node.name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, prefix + node.name + ".")
        else:
            yield from _functions(node, prefix)


def _over(found: dict[str, int], allowed: dict[str, int], limit: int) -> list[str]:
    problems = [
        f"{key}: {n} (limit {limit})" for key, n in sorted(found.items()) if key not in allowed
    ]
    problems += [
        f"{key}: {found[key]}, grown past its listed {n}"
        for key, n in sorted(allowed.items())
        if found.get(key, 0) > n
    ]
    problems += [
        f"{key}: within the limit now (or gone): remove it from the list"
        for key in sorted(allowed)
        if key not in found
    ]
    return problems


def test_no_file_over_500_lines():
    long = {
        str(p.relative_to(ROOT)): n
        for p in _sources()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > FILE_LINES
    }
    assert long == {}, "cut these files where a concept ends: " + repr(long)


def test_no_function_over_60_lines():
    found = {}
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, node in _functions(tree):
            n = (node.end_lineno or node.lineno) - node.lineno + 1
            if n > FUNCTION_LINES:
                found[f"{path.relative_to(ROOT)}:{name}"] = n
    assert _over(found, LONG_FUNCTIONS, FUNCTION_LINES) == []


def test_no_function_over_complexity_15():
    exe = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(exe).exists():
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    out = subprocess.run(
        [exe, "check", "--select", "C901", "--output-format", "json", "--exit-zero", *DIRS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    found = {}
    for d in json.loads(out.stdout):
        m = re.match(r"`(.+)` is too complex \((\d+) > (\d+)\)", d["message"])
        assert m, d["message"]
        assert int(m[3]) == COMPLEXITY, "[tool.ruff.lint.mccabe] max-complexity is not 15"
        path = Path(d["filename"]).resolve().relative_to(ROOT)
        found[f"{path}:{m[1]}"] = int(m[2])
    assert _over(found, COMPLEX_FUNCTIONS, COMPLEXITY) == []


def test_the_limits_see_every_kind_of_function():
    """The walk finds methods and nested functions (a 61-line inner function is not hidden)."""
    source = "class A:\n    def m(self):\n        def inner():\n" + "\n".join(
        ["            x = 1"] * 60
    )
    names = {name: node for name, node in _functions(ast.parse(source))}
    assert set(names) == {"A.m", "A.m.inner"}
    assert names["A.m.inner"].end_lineno - names["A.m.inner"].lineno + 1 == 61
