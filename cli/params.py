"""Values checked where they enter: click types and callbacks shared by every command.

Each rejects a bad value with one sentence naming the option (click turns it into exit code 2):
thresholds in (0, 1] or ``auto``, counts ≥ 1, database and output paths that cannot lose data.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from seorap.cli.runref import resolve_run

if TYPE_CHECKING:
    from sqlite_utils import Database

F = TypeVar("F", bound=Callable[..., object])
"""A command's function: an option decorator hands it back unchanged."""


class ThresholdType(click.ParamType):
    """A cosine threshold in (0, 1], or ``auto``."""

    name = "NUMBER|auto"

    def convert(  # value: what was typed (click's Any), or a default
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float | str:
        if value == "auto":
            return "auto"
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is neither a number nor 'auto'", param, ctx)
        if not 0 < number <= 1:
            self.fail(
                f"{value!r} is outside (0, 1]: a cosine threshold above 0 and at most 1, or 'auto'",
                param,
                ctx,
            )
        return number


class FsPath(click.Path):
    """``click.Path`` that says "folder" where click says "directory" (one word in every message)."""

    def __init__(self, **kwargs: Any) -> None:  # click.Path's keywords
        super().__init__(**kwargs)
        if self.dir_okay and not self.file_okay:
            self.name = "folder"

    def fail(
        self,
        message: str,
        param: click.Parameter | None = None,
        ctx: click.Context | None = None,
    ) -> NoReturn:
        super().fail(message.replace("is a directory", "is a folder"), param, ctx)


class CorpusType(click.ParamType):
    """A corpus: a folder of trajectory files or one file, or the name of a bundled corpus
    (``ko-mini``, found inside the installed package, whatever the current folder)."""

    name = "PATH|NAME"

    def __init__(self, exists: bool = True) -> None:
        self.exists = exists

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> str:
        # start-up: `seorap --help` loads no pydantic
        from seorap.engine.corpus.bundled import bundled_corpora, corpus_location

        location = corpus_location(str(value))
        if self.exists and not Path(location).exists():
            names = ", ".join(bundled_corpora()) or "none"
            self.fail(
                f"{str(value)!r} is no file or folder here, nor a bundled corpus (bundled: {names})",
                param,
                ctx,
            )
        return location


CORPUS_HELP = (
    "A folder of trajectory *.json files, one such file, or a bundled corpus by name (ko-mini)."
)


POSITIVE = click.IntRange(min=1)
"""An integer ≥ 1 (concurrency, counts)."""


def db_path_option(*, exists: bool = True, help: str = "The run database.") -> Callable[[F], F]:
    """``--db FILE``: never empty, never a folder; ``exists`` for commands that only read."""

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is None:
            return value
        if not str(value).strip():
            raise click.BadParameter(
                "is empty: give the database file (e.g. --db runs.db)", ctx, param
            )
        path = Path(value)
        if path.is_dir():
            raise click.BadParameter(f"{value} is a folder, not a database file", ctx, param)
        if exists and not path.exists():
            raise click.BadParameter(f"{value} does not exist", ctx, param)
        return str(value)

    return click.option("--db", "db_path", required=True, type=str, callback=check, help=help)


def check_output(path: str | None, db_path: str | None = None, *, option: str = "-o") -> None:
    """Refuse, before any work, to write over a database or any file that belongs to one (its
    -wal, -shm or -journal; through links and relative paths), a folder, or into a folder that does
    not exist or cannot be written."""
    if path is None:
        return
    # start-up: `seorap --help` loads no sqlite_utils
    from seorap.engine.store.database import database_of

    if not str(path).strip():
        raise click.BadParameter("is empty: give a file name", param_hint=option)
    out = Path(path)
    owner = database_of(out, db_path)
    if owner is not None:
        what = "the run database itself" if owner == str(out.resolve()) else f"part of {owner}"
        raise click.BadParameter(
            f"{path} is {what} (an SQLite database or its journal); a report never writes "
            "there, give another file name",
            param_hint=option,
        )
    if out.is_dir():
        raise click.BadParameter(f"{path} is a folder; give a file name", param_hint=option)
    if out.exists() and not out.is_file():
        return  # a terminal, a pipe, /dev/null: written in place
    folder = Path(os.path.realpath(out)).parent
    if not folder.is_dir():
        raise click.BadParameter(f"folder {str(out.parent)!r} does not exist", param_hint=option)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise click.BadParameter(f"folder {str(out.parent)!r} cannot be written", param_hint=option)


def resolve_runs(db: Database, values: Iterable[str], option: str = "--run") -> list[str]:
    """Every ``--run`` value resolved the same way in every command (id, unique prefix, system
    name with one run); duplicates dropped, order kept."""

    out: list[str] = []
    for value in values:
        run_id = resolve_run(db, value, option)
        if run_id not in out:
            out.append(run_id)
    return out


def check_scoring(
    db: Database, run_ids: list[str], scoring: str | None, option: str = "--scoring"
) -> None:
    """A named scoring setup must exist for at least one of the runs."""
    if scoring is None:
        return
    # start-up: `seorap --help` loads no sqlite_utils
    from seorap.engine.store.database import check_intact
    from seorap.engine.store.queries.scores import scorings

    known = scorings(db, run_ids)
    if scoring not in known:
        check_intact(db)  # a damaged file may read as empty: say so, not "no scoring setup"
        listed = ", ".join(known) or "none (run `seorap score` first)"
        raise click.BadParameter(
            f"no scoring setup {scoring!r}; stored: {listed}", param_hint=option
        )
