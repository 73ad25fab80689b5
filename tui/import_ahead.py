"""Importing a module ahead in small pieces: the modules of this package it imports first, leaves
first, one at a time.

``import_module("seorap.tui.screens.stepper")`` runs the bodies of every module of ours it pulls in
that is not imported yet, in one call: 19-22 ms of the event loop's time right after the first
paint. Imported leaves first, each import runs one module's body (a few ms), and the app yields to
the event loop between two (tui/app.py, ``import_ahead``).

Which modules a module imports is read from its source (its top-level ``import`` statements, with
``ast``), never by importing anything: ``importlib.util.find_spec`` of a submodule imports its
parent packages. A library's module that a module of ours imports is a piece of its own, and so is
each name taken from it (``textual.widgets`` imports a widget's module on first use); what a
library's module imports in turn is not read.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

PACKAGE = "seorap"
ROOT = Path(__file__).resolve().parent.parent
"""The package's directory (the repository's top level, installed as ``seorap``)."""


def source_of(module: str) -> Path | None:
    """The source file of one of this package's modules (a package's ``__init__.py``); None for
    another package's module or a name with no file."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    base = ROOT.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imports_of(module: str) -> list[str]:
    """The modules that ``module`` (one of this package's) imports at its top level, in the order
    it does: of this package, a package before its submodules and ``from package import
    submodule`` as the submodule; of a library, the module named and each name taken from it
    (``from textual.widgets import RichLog``: ``textual.widgets``, ``textual.widgets:RichLog``).
    Imports under ``if TYPE_CHECKING:`` (or any other block) are not
    read: they do not run on import."""
    path = source_of(module)
    if path is None:
        return []
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return []  # importing it will say what is wrong
    out: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
            names += [f"{node.module}.{a.name}" for a in node.names if a.name != "*"]
        else:
            continue
        for name in names:
            if name.split(".")[0] != PACKAGE:  # a library's: the module, and each name from it
                out.append(name if name == names[0] else ":".join(name.rsplit(".", 1)))
                continue
            parts = name.split(".")
            for end in range(1, len(parts) + 1):  # its packages first
                dotted = ".".join(parts[:end])
                if dotted not in out and source_of(dotted) is not None:
                    out.append(dotted)
    return out


def is_loaded(name: str) -> bool:
    """Whether importing ``name`` (a module, or ``module:Name``) would run nothing: the module is
    imported and the name is among its globals (a package that loads its names lazily, such as
    ``textual.widgets``, imports a submodule on the first ``getattr``)."""
    module, _, attr = name.partition(":")
    loaded = sys.modules.get(module)
    return loaded is not None and (not attr or attr in vars(loaded))


def load(name: str) -> None:
    """Import ``name``: a module, or ``module:Name`` (the module, then its attribute, as
    ``from module import Name`` does)."""
    module, _, attr = name.partition(":")
    loaded = importlib.import_module(module)
    if attr:
        getattr(loaded, attr, None)


def pieces(
    module: str, loader: Callable[[str], None] | None = None
) -> Iterator[Callable[[], object]]:
    """The pieces of importing ``module``, each to be run before the next is asked for (one per
    turn of the event loop): reading one module's source for what it imports, or loading one
    name. Every module of this package that ``module`` imports, transitively, that is not
    imported yet comes after the modules it imports (cycles are cut where they close).
    ``loader``: what loads one name (``load``)."""
    seen: set[str] = set()

    def walk(name: str) -> Iterator[Callable[[], object]]:
        if name in seen or is_loaded(name):
            return
        seen.add(name)
        deps: list[str] = []
        yield lambda: deps.extend(imports_of(name.partition(":")[0]))
        for dep in deps:
            yield from walk(dep)
        yield lambda: (loader or load)(name)

    yield from walk(module)
