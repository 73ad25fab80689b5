"""The one error handler (cli/main.py): every error class maps to its exit code and one sentence;
anything else is a bug that leaves a log file and exit 70; nothing prints a traceback."""

from __future__ import annotations

import ast
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine import errors

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def command():
    """Register a throwaway command that raises what the test gives it."""
    holder = {}

    @click.command("boom")
    def boom() -> None:
        raise holder["exc"]

    cli.add_command(boom)
    yield holder
    cli.commands.pop("boom")


def invoke(holder, exc, tmp_path):
    holder["exc"] = exc
    return CliRunner().invoke(cli, ["boom"], env={"SEORAP_LOG_DIR": str(tmp_path / "logs")})


@pytest.mark.parametrize(
    "exc, code",
    [
        (errors.ModelUnavailable("cannot reach Ollama at http://127.0.0.1:1"), 2),
        (errors.ModelMissing("model 'x' is not on the server"), 2),
        (errors.UnknownSystem("no system 'Z'"), 2),
        (errors.StoreError("x.db is not a seorap database"), 2),
        (errors.UsageError("bad value"), 2),
        (errors.ConfigError("c.toml:3: models.judge: expected a string"), 1),
    ],
)
def test_each_error_class_has_its_exit_code_and_one_sentence(command, tmp_path, exc, code):
    result = invoke(command, exc, tmp_path)
    assert result.exit_code == code
    lines = result.output.strip().splitlines()
    assert lines[-1] == f"error: {str(exc).rstrip('.')}."
    assert "Traceback" not in result.output
    assert not (tmp_path / "logs").exists()  # known errors leave no crash log


def test_a_cancel_is_said_plainly(command, tmp_path):
    result = invoke(
        command,
        errors.RunCancelled(
            "Cancelled: 3 of 9 documents are saved; run the same command again to resume from there"
        ),
        tmp_path,
    )
    assert result.exit_code == 130
    assert result.output == (
        "Cancelled: 3 of 9 documents are saved; run the same command again to resume from there.\n"
    )


def test_problem_lists_come_first_and_the_sentence_last(command, tmp_path):
    result = invoke(
        command,
        errors.CorpusError(["a.json: states[0]: missing", "b.json: 3:1: JSON syntax"]),
        tmp_path,
    )
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "a.json: states[0]: missing",
        "b.json: 3:1: JSON syntax",
        "error: invalid corpus: 2 problems (listed above); nothing was written.",
    ]


def test_a_bug_leaves_a_log_file_and_exit_70(command, tmp_path):
    result = invoke(command, KeyError("missing-key"), tmp_path)
    assert result.exit_code == 70
    [line] = result.output.strip().splitlines()
    assert line.startswith("internal error (KeyError: 'missing-key'); the traceback is in ")
    [log] = (tmp_path / "logs").iterdir()
    assert str(log) in line and "Traceback" in log.read_text() and "missing-key" in log.read_text()


def test_hostile_text_in_a_message_is_made_visible(command, tmp_path):
    result = invoke(
        command, errors.UsageError("no run '\x1b]0;pwned\x07\x1b[2J'\nsecond line"), tmp_path
    )
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert result.output.strip() == r"error: no run '\x1b]0;pwned\x07\x1b[2J' second line."


def test_interrupt_exits_130(command, tmp_path):
    result = invoke(command, KeyboardInterrupt(), tmp_path)
    assert result.exit_code == 130 and result.output.strip() == "interrupted."


def test_only_the_handler_chooses_exit_codes():
    """No command calls sys.exit: errors are raised and cli/main.py maps them."""
    offenders = []
    for path in sorted((ROOT / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "exit"
                and getattr(node.func.value, "id", "") == "sys"
            ):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


def test_every_user_error_derives_from_one_base():
    classes = [v for v in vars(errors).values() if isinstance(v, type) and issubclass(v, Exception)]
    assert all(issubclass(c, errors.SeorapError) for c in classes)
    assert {c.exit_code for c in classes} == {1, 2, 130}
