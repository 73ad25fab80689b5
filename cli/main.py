"""Entry point: `seorap`. Each command lives in its own module and registers itself here.

This is also the one place that turns errors into what the user reads and the exit code
(engine/errors.py has the table): a ``SeorapError`` prints its sentence; anything else is a bug, so
its traceback goes to a log file and the user reads one sentence naming that file (exit 70).
"""

from __future__ import annotations

import datetime as _dt
import errno
import importlib
import os
import sqlite3
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any, NoReturn

import click

from seorap.cli import output
from seorap.engine.errors import (
    EXIT_CANNOT_PROCEED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    InputProblems,
    SeorapError,
)
from seorap.engine.outfile import is_environment, why
from seorap.engine.store.sqlerrors import translate_sqlite_error
from seorap.engine.untrusted import visible

# Modules that define click commands (every top-level `click.Command` in them is added).
COMMAND_MODULES = [
    "seorap.cli.models",
    "seorap.cli.validate",
    "seorap.cli.run",
    "seorap.cli.synth",
    "seorap.cli.app",
    "seorap.cli.score",
    "seorap.cli.report",
    "seorap.cli.judge",
    "seorap.cli.judge_audit",
    "seorap.cli.diff",
    "seorap.cli.compare",
    "seorap.cli.override",
    "seorap.cli.gold",
    "seorap.cli.runs",
    "seorap.cli.importers",
]


def log_dir() -> Path:
    """Where tracebacks of internal errors go: $SEORAP_LOG_DIR, else the user's state folder."""
    if os.environ.get("SEORAP_LOG_DIR"):
        return Path(os.environ["SEORAP_LOG_DIR"])
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "seorap" / "logs"


def _write_traceback(exc: BaseException) -> Path | None:
    """The traceback in a log file; None when none could be written. Never raises: an argument
    that is not UTF-8 is written escaped (``\\xff``)."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    try:
        text = f"seorap {' '.join(sys.argv[1:])}\n\n" + "".join(traceback.format_exception(exc))
        data = text.encode("utf-8", "backslashreplace")
    except Exception:  # the crash handler must not crash: keep what can be said
        data = f"seorap: {type(exc).__name__} (its traceback could not be formatted)\n".encode()
    for folder in (log_dir(), Path(tempfile.gettempdir()) / "seorap-logs"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"crash-{stamp}-{os.getpid()}.log"
            path.write_bytes(data)
            return path
        except (OSError, ValueError):
            continue
    return None


def not_utf8(args: list[str]) -> str | None:
    """One sentence naming the first argument that is not UTF-8 text (the system hands such bytes
    over as lone surrogates), None when every argument is."""
    for i, arg in enumerate(args):
        if not any("\udc80" <= ch <= "\udcff" for ch in arg):
            continue
        before = args[i - 1] if i and args[i - 1].startswith("-") else ""
        name = f"the value of {before}" if before else f"argument {i + 1}"
        shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        return f"{name} ({visible(shown)}) is not UTF-8 text; give every argument as UTF-8"
    return None


def sentence(message: str) -> str:
    """``message`` made terminal-safe, on one line, ending as a sentence."""
    text = " ".join(visible(message).split()) or "failed"
    return text if text.endswith((".", "?", "!", "`")) else text + "."


class SeorapGroup(click.Group):
    """The top-level group: every command runs inside the one error handler."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        problem = not_utf8(args)
        if problem is not None:  # before any command reads it as text and fails in its middle
            click.echo(f"error: {sentence(problem)}", err=True)
            ctx.exit(EXIT_CANNOT_PROCEED)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:  # what the command returns (click's Any)
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except InputProblems as exc:
            for problem in exc.problems[:50]:
                click.echo(visible(problem), err=True)
            if len(exc.problems) > 50:
                click.echo(f"... and {len(exc.problems) - 50} more", err=True)
            click.echo(f"error: {sentence(exc.summary)}", err=True)
            ctx.exit(exc.exit_code)
        except SeorapError as exc:
            prefix = "" if exc.exit_code == EXIT_INTERRUPTED else "error: "  # a cancel is no error
            click.echo(f"{prefix}{sentence(str(exc))}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("interrupted.", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except (
            sqlite3.Error
        ) as exc:  # a full disk, a locked, read-only or damaged file: one sentence
            known = translate_sqlite_error(exc, _db_argument(sys.argv[1:]))
            if known is None:
                _internal(ctx, exc)
            else:
                click.echo(f"error: {sentence(str(known))}", err=True)
                ctx.exit(known.exit_code)
        except OSError as exc:
            if exc.errno == errno.EPIPE:  # the reader closed the pipe (`| head`): its choice
                quiet_exit()
            if not is_environment(exc):
                _internal(ctx, exc)
            where = f"use {exc.filename}" if exc.filename else "write the output"
            if not exc.filename:
                discard_stdout()  # what is still buffered cannot be written either: one sentence
            click.echo(f"error: {sentence(f'cannot {where}: {why(exc)}')}", err=True)
            ctx.exit(EXIT_CANNOT_PROCEED)
        except Exception as exc:  # a bug: keep the traceback, say one sentence
            _internal(ctx, exc)


EXIT_PIPE = 141
"""A closed output pipe: what a Unix tool killed by SIGPIPE reports (128 + 13), without a word."""


def quiet_exit() -> NoReturn:
    """The reader of our output went away (`seorap runs | head -1`): stop at once and say nothing,
    as Unix tools do. stdout is pointed at /dev/null so the final flush cannot complain."""
    discard_stdout()
    raise SystemExit(EXIT_PIPE)


def discard_stdout() -> None:
    """Point stdout at /dev/null: what is still buffered goes nowhere instead of failing again at
    the final flush (a second sentence, or Python's shutdown warning)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _internal(ctx: click.Context, exc: BaseException) -> None:
    """A bug: the traceback goes to a log file, the user reads one sentence naming it (exit 70)."""
    path = _write_traceback(exc)
    where = f"the traceback is in {path}" if path else "no log file could be written"
    try:
        detail = sentence(f"{type(exc).__name__}: {exc}")[:200].rstrip(".")
    except Exception:  # an exception whose text cannot be made: its name is enough
        detail = type(exc).__name__
    _say(f"internal error ({detail}); {visible(where)}; please report it.")
    ctx.exit(EXIT_INTERNAL)


def _db_argument(args: list[str]) -> str:
    """The ``--db`` value of the command line ('' when none): where an SQLite error happened."""
    for i, arg in enumerate(args):
        if arg == "--db" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--db="):
            return arg[len("--db=") :]
    return ""


@click.group(cls=SeorapGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="seorap")
def cli() -> None:
    """seorap (서랍): open an agent's memory drawer and grade what is inside.

    Start with `seorap demo` (the app on the bundled Korean corpus). Every command has --help.
    """


def _register() -> None:
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        commands = [
            v
            for v in vars(module).values()
            if isinstance(v, click.Command) and getattr(v.callback, "__module__", None) == name
        ]
        nested = {
            id(sub) for c in commands if isinstance(c, click.Group) for sub in c.commands.values()
        }
        for command in commands:
            if id(command) not in nested:
                cli.add_command(command)


_register()


def main() -> None:
    """Run the command; then flush stdout here, so a full disk or a closed pipe met by the last
    buffered output is one sentence (exit 2) or a quiet stop, not Python's shutdown warning."""
    try:
        output.install()  # every write to stdout checked: a cut output is exit 2, never exit 0
        cli()
    except SystemExit as exc:
        code = exc.code
    else:
        code = 0
    try:  # what is still buffered for stdout: a full disk or a closed pipe surfaces here
        if sys.stdout is not None:  # None when started with stdout closed (`>&-`)
            sys.stdout.flush()
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            quiet_exit()
        discard_stdout()
        _say(f"error: {sentence(f'cannot write the output: {why(exc)}')}")
        code = EXIT_CANNOT_PROCEED
    raise SystemExit(code)  # the code the handler above chose (or the output's failure)


def _say(line: str) -> None:
    try:
        click.echo(line, err=True)
    except OSError:
        pass  # stderr is gone too: the exit code is all that is left
