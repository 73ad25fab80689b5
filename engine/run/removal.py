"""Remove one run for good: its rows and its foreign systems' folders beside the database.

One guarded path serves `seorap runs rm` and the replay that replaces its scratch rehearsal
(engine/run/rehearsal.py): the writer lease is held while the rows go (a run another process is
writing is refused with :class:`DatabaseBusy`), and a folder is only ever removed inside its owning
``<db>.<kind>/`` folder (engine/memory/folders.py, engine/safepath.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sqlite_utils import Database

from seorap.engine.memory.folders import folder_size, run_folders, sharer, stores_folder
from seorap.engine.safepath import remove_tree
from seorap.engine.store.database import db_file, delete_run
from seorap.engine.store.lease import writer
from seorap.engine.store.queries.runs import run_ids


@dataclass(frozen=True)
class FolderRemoval:
    kind: str
    """``mem0`` or ``graphiti``."""
    folder: Path
    files: int
    size: int
    """Bytes under the folder before it was removed."""
    error: str = ""
    """Why the file system refused to remove it ('' when it was removed)."""
    kept_for: str = ""
    """Another run of the database whose id names the same folder (then it is kept, '' else)."""


@dataclass(frozen=True)
class Removed:
    run_id: str
    rows: dict[str, int]
    """{table: rows deleted} (:func:`engine.store.database.delete_run`)."""
    folders: list[FolderRemoval] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(f.error for f in self.folders)


def remove_run(
    db: Database, run_id: str, *, calls: bool = False, command: str = "runs rm"
) -> Removed:
    """Delete ``run_id``'s rows (the shared call log too with ``calls``) and its folders, under the
    writer lease. A stored id that cannot name a folder raises StoreError before anything goes."""
    path = db_file(db)
    found = run_folders(path, run_id) if path else []
    shared = (sharer(run_id, run_ids(db)) if found else None) or ""
    with writer(db, command, [run_id]):
        rows = delete_run(db, run_id, calls=calls)
        folders = [_remove_folder(kind, folder, path, shared) for kind, folder in found]
    return Removed(run_id, rows, folders)


def _remove_folder(kind: str, folder: Path, db_path: str, shared: str) -> FolderRemoval:
    """Remove one folder; kept when another run's id names it too (``shared``): it may be that
    run's store (ids that differ only in characters the spelling turns into ``-``)."""
    files, size = folder_size(folder)
    if shared:
        return FolderRemoval(kind, folder, files, size, kept_for=shared)
    try:
        remove_tree(folder, stores_folder(db_path, kind))
    except OSError as exc:
        return FolderRemoval(kind, folder, files, size, str(exc.strerror or exc))
    return FolderRemoval(kind, folder, files, size)
