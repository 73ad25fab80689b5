"""Layers are enforced, not a convention: the import-linter contracts in pyproject.toml hold (the
engine imports no app, CLI or terminal library; cli > tui > engine; the app reads the engine
through engine.views and named exceptions), and no module imports itself
through others, function-local imports included (grimp reads every import statement in a file).
Imports made only for the type checker (under ``if TYPE_CHECKING:``) never run and close no cycle:
a screen names the app's class to type ``self.app`` while the app opens the screens."""

from __future__ import annotations

from pathlib import Path

import grimp
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("seorap",)


def import_cycles(graph: grimp.ImportGraph, packages=PACKAGES) -> list[set[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    modules = sorted(m for m in graph.modules if m.split(".")[0] in packages)
    inside = set(modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & inside) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[set[str]] = []
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            recurse = False
            for j in range(i, len(edges[node])):
                nxt = edges[node][j]
                if nxt not in index:
                    work += [(node, j + 1), (nxt, 0)]
                    recurse = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if recurse:
                continue
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return cycles


def test_import_linter_contracts_hold():
    assert (
        lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0
    )


def test_no_import_cycles():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None, exclude_type_checking_imports=True)
    assert any(m.startswith("seorap.engine.") for m in graph.modules)
    assert [sorted(c) for c in import_cycles(graph)] == []


def test_cycle_finder_sees_function_local_imports(tmp_path, monkeypatch):
    """The check itself: a cycle closed only by an import inside a function is still a cycle."""
    pkg = tmp_path / "cyclepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from cyclepkg import b\n")
    (pkg / "b.py").write_text("def f():\n    from cyclepkg import a\n    return a\n")
    (pkg / "c.py").write_text("import cyclepkg.a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("cyclepkg", cache_dir=None)
    assert import_cycles(graph, ("cyclepkg",)) == [{"cyclepkg.a", "cyclepkg.b"}]


def test_views_export_no_private_name():
    """engine.views re-exports its modules' public names only: a caller that needs a private helper
    imports it from the module that defines it."""
    import ast

    tree = ast.parse((ROOT / "engine" / "views" / "__init__.py").read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names]
    assert names and [n for n in names if n.startswith("_")] == []
