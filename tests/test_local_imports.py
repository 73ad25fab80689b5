"""An import inside a function in engine/, cli/ or tui/ says why it is not at the top of its module.

Every function-local import carries a one-line reason comment, on its line or the line above,
naming one of three reasons: ``start-up`` (`seorap --help` and the app's first paint load no
module they do not need: tests/test_import_hygiene.py), ``optional dependency`` (an extra that
may not be installed) or ``import cycle``. A run of consecutive imports shares the comment above
its first line. Any other function-local import belongs at the top of its module."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIRS = ("engine", "cli", "tui")
REASONS = ("start-up", "optional dependency", "import cycle")


def _has_reason(line: str) -> bool:
    return "#" in line and any(r in line.split("#", 1)[1] for r in REASONS)


def _next_in_block(lines: list[str], before: ast.stmt, st: ast.stmt) -> bool:
    """``st`` follows the import ``before`` in one block: nothing but blank lines between them (the
    formatter parts an import block into groups: third-party, then seorap's own)."""
    between = lines[(before.end_lineno or before.lineno) : st.lineno - 1]
    return all(not x.strip() for x in between)


def unexplained(source: str) -> list[int]:
    """Lines of function-local imports in ``source`` without a reason comment."""
    lines = source.splitlines()
    tree = ast.parse(source)
    bad = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            for field in ("body", "orelse", "finalbody"):
                body = getattr(node, field, None)
                if not isinstance(body, list):  # a lambda's body is one expression
                    continue
                previous_ok = None  # the import just above, when it had a reason
                for st in body:
                    if not isinstance(st, ast.Import | ast.ImportFrom):
                        previous_ok = None
                        continue
                    own = lines[st.lineno - 1 : st.end_lineno]
                    above = lines[st.lineno - 2] if st.lineno > 1 else ""
                    ok = (
                        any(_has_reason(x) for x in own)
                        or (above.strip().startswith("#") and _has_reason(above))
                        or (previous_ok is not None and _next_in_block(lines, previous_ok, st))
                    )
                    if not ok:
                        bad.append(st.lineno)
                    previous_ok = st if ok else None
    return sorted(set(bad))


def test_every_function_local_import_gives_its_reason():
    found = []
    for path in sorted(p for d in DIRS for p in (ROOT / d).rglob("*.py")):
        for line in unexplained(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}:{line}")
    assert found == [], "hoist these, or say why not (" + ", ".join(REASONS) + ")"


def test_the_rule_reads_runs_and_reasons():
    source = (
        "def f():\n"
        "    # start-up: numpy loads only when this runs\n"
        "    import numpy\n"
        "    import json\n"
        "    x = 1\n"
        "    import re\n"  # after a statement: a run of its own, unexplained
        "    import os  # import cycle: os imports this module\n"
        "    # a comment without a reason\n"
        "    import sys\n"
        "import math\n"  # module level: not looked at
    )
    assert unexplained(source) == [6, 9]
