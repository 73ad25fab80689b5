"""Resolve what a person types after `--run`: a full run id, a unique prefix of one, a system
name (`A`, `oracle`) that only one run of the database has, or the label of a labelled run
(`seorap run --label NAME` writes `…~NAME`). Errors name the runs that exist.

A replay (the scratch run `…~rehearsal` that the app's `p` and `seorap demo --replay` write, and the
kept ones, `…~replay`, `…~replay-2`: `seorap demo --replay RUN --keep`) has its recorded run's
system, so a bare system name or prefix would match the replays too ("'A' matches 4 runs"): a
name that matches runs of one's own and replays means one's own runs, never a replay (name a
replay by its full id or its label, `replay-2`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from sqlite_utils import Database


_REPLAY = re.compile(r"rehearsal|replay(-\d+)?")


def is_replay(run_id: str) -> bool:
    """A run the app or `demo --replay` re-enacted from the call log (label ``rehearsal``, or
    ``replay[-N]`` when kept)."""
    return bool(_REPLAY.fullmatch(run_id.partition("~")[2]))


def _own(matches: list[str]) -> list[str]:
    """``matches`` without the replays, when any run of them is not one."""
    own = [m for m in matches if not is_replay(m)]
    return own or matches


def resolve_run(db: Database, value: str, option: str = "--run") -> str:
    """The run id ``value`` stands for, or a click.BadParameter naming the runs in the database."""
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.engine.views.runs import list_runs

    rows = [(r.run_id, r.system) for r in list_runs(db)] if db["runs"].exists() else []
    ids = [run_id for run_id, _ in rows]
    if value in ids:
        return value
    for matches in (
        _own([run_id for run_id, system in rows if system == value]),
        [i for i in ids if i.partition("~")[2] == value],  # a labelled run's label
        _own([i for i in ids if i.startswith(value)]),
    ):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise click.BadParameter(
                f"{value!r} matches {len(matches)} runs: {', '.join(matches)}; "
                "give the full run id",
                param_hint=option,
            )
    # start-up: `seorap --help` loads no sqlite_utils
    from seorap.engine.store.database import check_intact

    check_intact(db)  # a damaged file may read as empty: say so, not "no run"
    known = (
        ", ".join(f"{run_id} ({system})" for run_id, system in rows)
        or "none: run `seorap run` first"
    )
    raise click.BadParameter(f"no run {value!r} in this database. Runs: {known}", param_hint=option)
