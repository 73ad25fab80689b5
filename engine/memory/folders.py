"""The folders beside a run database that hold foreign systems' own stores.

mem0 keeps a vector store and a history database per (run, trajectory) under ``<db>.mem0/``,
graphiti a Kùzu graph under ``<db>.graphiti/``; each run's part is ``<db>.<kind>/<run>/``, named
through :func:`~engine.safepath.component` (a stored run id that cannot name a folder is damage).
`seorap runs rm` lists and removes a run's part of each, and only ever inside its owning folder.
This module imports nothing of the systems themselves (their libraries are optional)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from seorap.engine.errors import StoreError
from seorap.engine.safepath import UnsafeName, component, name_problem
from seorap.engine.untrusted import visible

KINDS = ("mem0", "graphiti")
"""The systems that keep stores beside the database, in the order `runs rm` names them."""


def stores_folder(db_path: str | Path, kind: str) -> Path:
    """``<db>.<kind>``: the folder beside the database that owns every run's stores of ``kind``."""
    path = Path(db_path)
    return path.with_name(f"{path.name}.{kind}")


def run_folder(db_path: str | Path, run_id: str, kind: str) -> Path | None:
    """``<db>.<kind>/<run>/`` when it exists (a real folder, not a link), else None."""
    try:
        name = component(run_id, "run id", stored=True)
    except UnsafeName as exc:
        raise StoreError(
            f"the database {visible(str(db_path))} is damaged: it holds a run whose id "
            f"{visible(repr(run_id))} cannot name a folder ({exc.problem}); nothing was changed"
        ) from None
    folder = stores_folder(db_path, kind) / name
    return folder if folder.is_dir() and not folder.is_symlink() else None


def sharer(run_id: str, others: Iterable[str]) -> str | None:
    """The first other run whose id names the same folder as ``run_id`` (ids that differ only in
    what the spelling turns into ``-``, such as ``X~demo`` and ``X-demo``): its store may be the
    folder, so the folder is kept. None when no other run names it."""
    mine = component(run_id, "run id", stored=True)
    for other in others:
        if other == run_id or name_problem(other, stored=True) is not None:
            continue
        if component(other, "run id", stored=True) == mine:
            return other
    return None


def run_folders(db_path: str | Path, run_id: str) -> list[tuple[str, Path]]:
    """(kind, folder) of every store a run has beside the database."""
    found = ((kind, run_folder(db_path, run_id, kind)) for kind in KINDS)
    return [(kind, folder) for kind, folder in found if folder is not None]


def folder_size(folder: Path) -> tuple[int, int]:
    """(files, bytes) under ``folder``: what removing it frees."""
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)
