"""The model path uses only the public API of ``ollama`` and ``httpx``: no ``obj._name`` in our tree
reads a private name those packages define (their own ``_client``, ``_transport``, ...), except on
``self``/``cls`` (our own attributes). A dependency's private name changes without notice."""

from __future__ import annotations

import ast
from pathlib import Path

import httpx
import ollama

ROOT = Path(__file__).resolve().parents[1]


def _private_names(package) -> set[str]:
    names: set[str] = set()
    for path in Path(package.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, ast.Name):
                names.add(node.id)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _uses(names: set[str], root: Path = ROOT) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr in names):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            base = ast.unparse(node.value)
            if base.startswith(("self.", "cls.")) and "client" not in base and "http" not in base:
                continue  # an attribute of one of our own objects
            found.append(f"{path.relative_to(root)}:{node.lineno} {ast.unparse(node)}")
    return found


def test_no_private_name_of_ollama_or_httpx_is_used():
    private = _private_names(ollama) | _private_names(httpx)
    assert "_client" in private  # the name this test exists for
    assert _uses(private) == []


def test_the_check_sees_the_old_uses(tmp_path):
    (tmp_path / "old.py").write_text(
        "host = str(self.client._client.base_url)\n"
        "http = self._chat.client._client\n"
        "response = client._client.get('/api/tags')\n"
        "self._lock = None\n",
        encoding="utf-8",
    )
    private = _private_names(ollama) | _private_names(httpx)
    assert len(_uses(private, tmp_path)) == 3
