"""Entry point: `seorap`. Each command lives in its own module and registers itself here."""

from __future__ import annotations

import importlib

import click

# Modules that define click commands (every top-level `click.Command` in them is added).
COMMAND_MODULES = [
    "cli.models",
    "cli.validate",
    "cli.run",
    "cli.synth",
    "cli.app",
    "cli.score",
    "cli.report",
    "cli.judge_audit",
    "cli.diff",
    "cli.override",
]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="seorap")
def cli() -> None:
    """seorap (서랍): open an agent's memory drawer and grade what is inside.

    Start with `seorap demo` (the app on the bundled Korean corpus). Every command has --help.
    """


def _register() -> None:
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        commands = [v for v in vars(module).values()
                    if isinstance(v, click.Command) and getattr(v.callback, "__module__", None) == name]
        nested = {id(sub) for c in commands if isinstance(c, click.Group) for sub in c.commands.values()}
        for command in commands:
            if id(command) not in nested:
                cli.add_command(command)


_register()


def main() -> None:
    cli()
