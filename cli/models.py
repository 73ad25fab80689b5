"""`seorap models [check|pull]`: the configured models, whether Ollama has them, pulling with progress."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from seorap.cli.params import F, FsPath

if TYPE_CHECKING:
    from seorap.engine.config import Config
    from seorap.engine.models.manage import ModelStatus


def _config(config_path: str | None, host: str | None, offline: bool) -> Config:
    """Options given to the subcommand win over those given to `models` itself."""
    # start-up: `seorap --help` loads no pydantic
    from seorap.engine.config import load_config

    parent = click.get_current_context().find_object(dict) or {}
    return load_config(
        config_path or parent.get("config_path"),
        offline=offline or parent.get("offline", False),
        host=host or parent.get("host"),
    )


def _options(f: F) -> F:
    f = click.option(
        "--config",
        "config_path",
        type=FsPath(exists=True, dir_okay=False),
        help="A TOML config file (models, host, ...).",
    )(f)
    f = click.option(
        "--host",
        default=None,
        help="Ollama server (default: config, OLLAMA_HOST, http://localhost:11434).",
    )(f)
    return click.option("--offline", is_flag=True, help="Use the offline preset's model roles.")(f)


@click.group(invoke_without_command=True)
@_options
@click.pass_context
def models(ctx: click.Context, config_path: str | None, host: str | None, offline: bool) -> None:
    """List the configured model per role and whether the Ollama server has it (same as `check`).

    Exit 0 when every Ollama model is present, 1 when some are missing (run `seorap models pull`),
    2 when the server cannot be reached.
    """
    ctx.obj = {"config_path": config_path, "host": host, "offline": offline}
    if ctx.invoked_subcommand is None:
        ctx.exit(_check(_config(config_path, host, offline)))


@models.command()
@_options
def check(config_path: str | None, host: str | None, offline: bool) -> None:
    """List the configured models and whether the Ollama server has each (exit 0/1/2 as `models`)."""
    click.get_current_context().exit(_check(_config(config_path, host, offline)))


@models.command()
@click.argument("names", nargs=-1)
@_options
def pull(names: tuple[str, ...], config_path: str | None, host: str | None, offline: bool) -> None:
    """Pull NAMES (default: every configured Ollama model the server lacks) with a progress bar."""
    # start-up: `seorap --help` loads no httpx, numpy, ollama, pydantic
    from seorap.engine.models.manage import model_status

    config = _config(config_path, host, offline)
    todo = list(names) or [s.model for s in model_status(config) if s.present is False]
    if not todo:
        click.echo("every configured Ollama model is present")
        return
    for name in todo:
        _pull_one(config, name)


def _pull_one(config: Config, name: str) -> None:
    # start-up: `seorap --help` loads no httpx, numpy, ollama, pydantic, rich
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    from seorap.engine.models.manage import pull_model

    columns = (
        TextColumn("[bold]{task.fields[model]}"),
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, transient=False) as progress:
        task = progress.add_task("starting", total=None, model=name)

        def update(status: str, completed: int | None, total: int | None) -> None:
            progress.update(
                task,
                description=status[:40],
                completed=completed or 0,
                total=total if total else None,
            )

        pull_model(config, name, update)
        progress.update(task, description="done")
    click.echo(f"pulled {name}")


def _check(config: Config) -> int:
    """The table of roles and models first, whatever the server says; then, when the server
    cannot be reached, its one sentence (exit 2 through the error handler)."""
    # start-up: `seorap --help` loads no httpx, numpy, ollama, pydantic
    from seorap.engine.errors import ModelError
    from seorap.engine.models.manage import configured_models, model_status

    unreachable: ModelError | None = None
    try:
        statuses = model_status(config)
    except ModelError as exc:  # no server, not Ollama, a bad host: the roles are still known
        statuses, unreachable = configured_models(config), exc
    _print_table(config, statuses, reachable=unreachable is None)
    if unreachable is not None:
        raise unreachable
    missing = [s.model for s in statuses if s.present is False]
    if missing:
        click.echo(f"missing: {', '.join(missing)}; run `seorap models pull` to fetch them.")
        return 1
    return 0


def _print_table(config: Config, statuses: list[ModelStatus], *, reachable: bool) -> None:
    # start-up: `seorap --help` loads no rich
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"models (Ollama at {config.host})")
    for column in ("roles", "model", "source", "status", "digest"):
        table.add_column(column)
    for s in statuses:
        if s.source == "ollama" and not reachable:
            state = "[yellow]not checked (no server)"
        else:
            state = {
                True: "[green]present",
                False: "[red]missing",
                None: "[dim]not an Ollama model",
            }[s.present]
        table.add_row(", ".join(s.roles), s.model, s.source, state, (s.digest or "")[7:19])
    Console().print(table)
