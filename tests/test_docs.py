"""Every command is documented in the README, every command's help runs, and the repository cites only
its own docs."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_command_is_in_readme(name):
    assert f"seorap {name}" in README


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_command_help(name):
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output


def test_core_commands_exist():
    for name in ["demo", "run", "score", "report", "inspect", "validate", "judge-audit", "models"]:
        assert name in cli.commands


# ---- the repository reads on its own: no outside document cited, every docs citation resolves ----

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ["engine", "tui", "cli", "docs", "tests", "bench", "README.md", "pyproject.toml", ".ci"]
SUFFIXES = {".py", ".md", ".toml", ".tcss", ".txt", ""}


def _files():
    for name in CHECKED:
        path = ROOT / name
        paths = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for p in paths:
            if (
                p.suffix in SUFFIXES
                and "__snapshots__" not in p.parts
                and "__pycache__" not in p.parts
            ):
                yield p


def _anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_no_outside_spec_is_cited():
    needle = "SP" + "EC"  # split so this file does not match itself
    hits = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in _files()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if needle in line
    ]
    assert hits == []


def test_docs_citations_resolve():
    """Every `docs/<page>.md#<anchor>` in code, and every `(<page>.md#<anchor>)` link in docs, names a
    page and a heading that exist."""
    broken = []
    for p in _files():
        text = p.read_text(encoding="utf-8")
        cited = re.findall(r"docs/([\w-]+\.md)#([\w-]+)", text)
        if p.parent.name == "docs":
            cited += re.findall(r"\]\(([\w-]+\.md)#([\w-]+)\)", text)
        for page, anchor in cited:
            target = ROOT / "docs" / page
            headings = (
                re.findall(r"^#+ (.+)$", target.read_text(encoding="utf-8"), re.M)
                if target.exists()
                else []
            )
            if anchor not in {_anchor(h) for h in headings}:
                broken.append(f"{p.relative_to(ROOT)}: docs/{page}#{anchor}")
    assert broken == []
