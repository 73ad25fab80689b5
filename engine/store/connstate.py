"""What seorap knows about one open database connection beyond SQLite itself: whether it was
opened read-only, and the compact layout's caches of text and scope ids (engine/store/compact.py).

Kept beside the connection (keyed by the ``sqlite_utils.Database`` object, dropped with it) rather
than stuck onto it as attributes, so it is typed and every connection has it."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlite_utils import Database


@dataclass
class ConnState:
    readonly: bool = False
    """Opened with ``open_db(..., readonly=True)``: nothing is created or written through it."""
    text_ids: dict[str, int] = field(default_factory=dict)
    """text -> id in ``texts``, for texts this connection has seen."""
    scope_ids: dict[tuple[str | None, str | None], int] = field(default_factory=dict)
    """(run, trajectory) -> id in ``scopes``."""
    path: str | None = None
    """The file behind the connection ('' in memory), once asked for."""

    def forget_ids(self) -> None:
        """After a rollback: ids handed out inside it may be gone."""
        self.text_ids = {}
        self.scope_ids = {}


_GUARDS: dict[str, Callable[[Database], None]] = {}
"""Database file -> the check its writer lease makes inside every transaction of this process
(engine/store/lease.py registers it while the lease is held)."""


def set_commit_guard(path: str, check: Callable[[Database], None] | None) -> None:
    """Make ``check`` run inside every :func:`~engine.store.database.transaction` on ``path``
    (``None`` removes it)."""
    if check is None:
        _GUARDS.pop(path, None)
    else:
        _GUARDS[path] = check


def commit_guard(path: str) -> Callable[[Database], None] | None:
    return _GUARDS.get(path)


_STATES: weakref.WeakKeyDictionary[Database, ConnState] = weakref.WeakKeyDictionary()


def state(db: Database) -> ConnState:
    """The connection's state (a fresh one the first time it is asked for)."""
    found = _STATES.get(db)
    if found is None:
        found = _STATES[db] = ConnState()
    return found
