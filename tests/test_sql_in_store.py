"""SQL lives in the store layer: every SQL string of the package is written in engine/store (its
named query functions), and views, scoring, the run, the models, the memory systems, the app and
the CLI call those functions. An AST check over the tree finds string constants (and f-strings)
that look like SQL — a statement (SELECT, INSERT, UPDATE, DELETE, CREATE, PRAGMA ...) or a piece of
one (a WHERE fragment ``run_id = ?``, ``ORDER BY``, ``IN ({})``) — in any module outside
engine/store. Docstrings are prose and not looked at.

NOT_YET lists the files still to convert; it only shrinks: a listed file found clean fails too
(remove it from the list)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIRS = ("engine", "cli", "tui")
STORE = Path("engine/store")

NOT_YET: set[str] = set()

_STATEMENT = (
    r"SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WITH|REPLACE|VACUUM|ATTACH|DETACH"
    r"|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|ANALYZE|REINDEX|EXPLAIN"
)
_LOWER_STATEMENT = (
    r"select\s+(\*|count\(|distinct\b|[\w.]+(\s*,\s*[\w.]+)*\s+from\b)"
    r"|insert\s+(or\s+\w+\s+)?into\b|update\s+\S+\s+set\b|delete\s+from\b"
    r"|create\s+(temp\w*\s+)?(unique\s+)?(table|index|view|trigger)\b"
    r"|drop\s+(table|index|view|trigger)\b|alter\s+table\b|pragma\s+\w+"
)
SQL_PATTERNS = [
    re.compile(rf"^\s*\(?\s*({_STATEMENT})\b"),  # a statement, in capitals
    re.compile(
        r"\b(FROM|WHERE|GROUP BY|ORDER BY|JOIN|LIMIT|UNION|INSERT|DISTINCT|COALESCE"
        r"|IS NULL|IS NOT NULL|ON CONFLICT)\b"
    ),
    re.compile(rf"^\s*({_LOWER_STATEMENT})", re.IGNORECASE),  # a statement, in small letters
    re.compile(r"[\w\]}]\s*(=|!=|<>|<=|>=|<|>)\s*(\?|:[a-z_]\w*)"),  # run_id = ?, x <= :p
    re.compile(r"\b(group by|order by)\b|^\s+where\s+$"),
    re.compile(r"\b\w+\s+(in|IN)\s*\((\?|\{)"),  # run_id IN (?, ?) / IN ({})
    re.compile(r"\b\w+\s+is\s+(not\s+)?null\b", re.IGNORECASE),
    re.compile(r"\b(coalesce|count|sum|max|min|group_concat|instr)\((\*|\w)", re.IGNORECASE),
]


def looks_like_sql(text: str) -> bool:
    return any(p.search(text) for p in SQL_PATTERNS)


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):  # an f-string: its literal parts, {} for each value
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def sql_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string constant or f-string in ``source`` that looks like SQL."""
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = body[0] if body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))  # a docstring
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)  # read as part of the f-string
    found = []
    for node in ast.walk(tree):
        text = None if id(node) in skip else _text(node)
        if text is not None and looks_like_sql(text):
            found.append((node.lineno, text))
    return sorted(found)


def outside_store() -> dict[str, list[tuple[int, str]]]:
    found = {}
    for folder in PACKAGE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if rel.is_relative_to(STORE):
                continue
            hits = sql_literals(path.read_text(encoding="utf-8"))
            if hits:
                found[rel.as_posix()] = hits
    return found


def test_no_sql_outside_the_store_layer():
    found = outside_store()
    new = {f: hits for f, hits in found.items() if f not in NOT_YET}
    assert not new, (
        "SQL outside engine/store: write it as a named query function in engine/store "
        "and call that:\n"
        + "\n".join(f"{f}:{line}: {text[:80]!r}" for f, hits in new.items() for line, text in hits)
    )
    clean = sorted(NOT_YET - set(found))
    assert not clean, f"no SQL left in {clean}: remove them from NOT_YET"


def test_the_check_finds_sql_and_passes_prose():
    sql = [
        "SELECT run_id FROM runs ORDER BY created_at",
        "select * from calls where key = ? and error is null",
        "PRAGMA table_info([runs])",
        "INSERT OR REPLACE INTO scores (run_id) VALUES (?)",
        "run_id = ? AND trajectory_id = ?",
        " WHERE run_id IN ({})",
        "error is not null",
        " group by role order by role",
        "CREATE TABLE IF NOT EXISTS phases (run_id TEXT)",
        "update runs set status = ?",
    ]
    prose = [
        "Select a run",
        "select the run to compare with",
        "where",
        "no verdict moved",
        "write one with `seorap run` first",
        "deleted from the list",
        "the count (of runs) is shown",
    ]
    assert [t for t in sql if not looks_like_sql(t)] == []
    assert [t for t in prose if looks_like_sql(t)] == []
    source = (
        '"""Module docstring: SELECT x FROM y is prose here."""\n'
        "def f(db, by):\n"
        '    """SELECT in a docstring is prose."""\n'
        '    return db.query(f"SELECT {by}, COUNT(*) FROM calls GROUP BY {by}")\n'
    )
    assert sql_literals(source) == [(4, "SELECT {}, COUNT(*) FROM calls GROUP BY {}")]
