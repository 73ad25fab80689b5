"""Every command is documented in the README, and every command's help runs."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_command_is_in_readme(name):
    assert f"seorap {name}" in README


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_command_help(name):
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output


def test_spec_commands_exist():
    for name in ["demo", "run", "score", "report", "inspect", "validate", "judge-audit", "models"]:
        assert name in cli.commands
