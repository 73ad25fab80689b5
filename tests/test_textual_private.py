"""No private name of a dependency is used (Textual, ollama, Rich...): every ``_name`` our code
reads, writes or passes to getattr/setattr/hasattr/delattr is one our own code defines, and no class
of ours overrides or reuses a private name of a base class from a dependency. A Textual release
then needs no audit of our fast paths: there are none below its public API."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("tui", "engine", "cli")
PUBLIC_UNDERSCORED = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}
"""namedtuple's documented API (the underscore only keeps it apart from the fields)."""
KNOWN = {
    "_exit": "os._exit, documented (cli/run.py: a second Ctrl-C leaves at once)",
    "_threads": "ThreadPoolExecutor's threads, stdlib, read with a fallback (engine/run/pool.py)",
}
"""The standard library's underscored names still read, each with where and why."""
ACCESSORS = {"getattr", "setattr", "hasattr", "delattr"}


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORED


def sources() -> list[Path]:
    return sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*.py"))


def defined_and_used(
    paths: list[Path], root: Path = ROOT
) -> tuple[set[str], list[tuple[str, int, str]]]:
    """The private names our code defines (functions, classes, assignments, parameters, imported
    names of our own modules) and every private name it uses as an attribute or accessor string."""
    defined: set[str] = set()
    used: list[tuple[str, int, str]] = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(root))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            elif isinstance(node, ast.arg):
                defined.add(node.arg)
            elif isinstance(node, ast.Attribute):
                if isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name):
                    if node.value.id in ("self", "cls"):
                        defined.add(node.attr)
                if private(node.attr):
                    used.append((where, node.lineno, node.attr))
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in ACCESSORS:
                if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                    name = node.args[1].value
                    if isinstance(name, str) and private(name):
                        used.append((where, node.lineno, name))
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("seorap"):
                defined.update(alias.asname or alias.name for alias in node.names)
    return defined, used


def foreign_private_uses(paths: list[Path]) -> list[str]:
    defined, used = defined_and_used(paths)
    return [
        f"{where}:{line} {name}"
        for where, line, name in used
        if name not in defined and name not in KNOWN
    ]


def test_our_code_uses_no_private_name_it_does_not_define():
    assert foreign_private_uses(sources()) == []


def test_the_check_finds_a_private_name_of_a_dependency(tmp_path):
    """The case that would fool a name-list check: a private read through a local alias and a
    private name passed to getattr as a string."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(app):\n"
        "    stacks = app._screen_stacks\n"
        "    self_made = 1\n"
        "    return getattr(app, '_installed_screens', None), stacks, self_made\n",
        encoding="utf-8",
    )
    defined, used = defined_and_used([sample], tmp_path)
    assert sorted(name for _, _, name in used if name not in defined) == [
        "_installed_screens",
        "_screen_stacks",
    ]


def our_classes() -> list[type]:
    classes = []
    for path in sources():
        module = ".".join(("seorap", *path.relative_to(ROOT).with_suffix("").parts))
        if module.endswith("__init__") or "__main__" in module:
            continue
        loaded = importlib.import_module(module)
        classes += [
            c
            for _, c in inspect.getmembers(loaded, inspect.isclass)
            if c.__module__ == loaded.__name__
        ]
    return classes


def foreign_private_names(base: type) -> set[str]:
    """A dependency's class: its private attributes and those its code assigns on self."""
    names = {name for name in vars(base) if private(name)}
    try:
        names |= set(re.findall(r"self\.(_\w+)\s*[:=]", inspect.getsource(base)))
    except (OSError, TypeError):
        pass
    return {name for name in names if private(name)}


def class_names(cls: type) -> set[str]:
    """What a class of ours defines in its body (methods, attributes) or assigns on self."""
    [body] = ast.parse(inspect.getsource(cls).strip()).body
    names = set()
    for node in body.body:  # type: ignore[attr-defined]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    for node in ast.walk(body):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            names.add(node.attr)
    return names


def test_no_class_of_ours_overrides_or_reuses_a_private_name_of_a_dependency():
    clashes = []
    for cls in our_classes():
        ours = {name for name in class_names(cls) if private(name)}
        for base in cls.__mro__[1:]:
            if base.__module__.startswith(("seorap", "builtins")) or base is object:
                continue
            clashes += [
                f"{cls.__name__}.{n} ({base.__name__})" for n in ours & foreign_private_names(base)
            ]
    assert sorted(set(clashes)) == []
