"""How long work reports progress: a small Protocol with Null, Rich and recording implementations.

The engine never prints. ``seorap run`` passes :class:`RichProgress`; the app passes one that posts
Textual messages; tests pass :class:`NullProgress` or :class:`RecordingProgress`. Every method may be
called from worker threads, so implementations must be thread-safe.
"""

from __future__ import annotations

import threading
from typing import Protocol, runtime_checkable


@runtime_checkable
class Progress(Protocol):
    def start_phase(self, name: str, total: int) -> None:
        """A phase ("extract", "write A", "score") with ``total`` units (documents) begins."""

    def advance(self, trajectory_id: str, n: int = 1, note: str = "") -> None:
        """``n`` units of the current phase are done (``note``: a short human label)."""

    def fact_written(self, run_id: str, trajectory_id: str, position: int, operation: str,
                     fact_id: str | None, text: str) -> None:
        """A decision was applied to the store (for live displays)."""

    def finish_phase(self) -> None:
        """The current phase is over."""

    def message(self, text: str) -> None:
        """A line for the user (resume notices, write failures, warnings)."""


class NullProgress:
    """Ignores everything."""

    def start_phase(self, name: str, total: int) -> None: ...
    def advance(self, trajectory_id: str, n: int = 1, note: str = "") -> None: ...
    def fact_written(self, run_id, trajectory_id, position, operation, fact_id, text) -> None: ...
    def finish_phase(self) -> None: ...
    def message(self, text: str) -> None: ...


class RecordingProgress:
    """Keeps every event in ``events`` (tests and the app's headless views)."""

    def __init__(self) -> None:
        self.events: list[tuple] = []
        self._lock = threading.Lock()

    def _add(self, *event) -> None:
        with self._lock:
            self.events.append(event)

    def start_phase(self, name: str, total: int) -> None:
        self._add("start", name, total)

    def advance(self, trajectory_id: str, n: int = 1, note: str = "") -> None:
        self._add("advance", trajectory_id, n, note)

    def fact_written(self, run_id, trajectory_id, position, operation, fact_id, text) -> None:
        self._add("fact", run_id, trajectory_id, position, operation, fact_id)

    def finish_phase(self) -> None:
        self._add("finish")

    def message(self, text: str) -> None:
        self._add("message", text)

    def of(self, kind: str) -> list[tuple]:
        return [e for e in self.events if e[0] == kind]


class RichProgress:
    """A Rich progress bar per phase plus a counter of operations (create/update/...)."""

    def __init__(self, console=None) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress as _Rich, SpinnerColumn,
                                   TextColumn, TimeElapsedColumn)

        self.console = console or Console(stderr=True)
        self._rich = _Rich(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                           MofNCompleteColumn(), TimeElapsedColumn(),
                           TextColumn("{task.fields[note]}", style="dim"), console=self.console)
        self._task = None
        self._ops: dict[str, int] = {}
        self._lock = threading.Lock()

    def __enter__(self) -> "RichProgress":
        self._rich.start()
        return self

    def __exit__(self, *exc) -> None:
        self._rich.stop()

    def start_phase(self, name: str, total: int) -> None:
        with self._lock:
            self._ops = {}
            self._task = self._rich.add_task(name, total=total, note="")

    def advance(self, trajectory_id: str, n: int = 1, note: str = "") -> None:
        with self._lock:
            if self._task is not None:
                self._rich.update(self._task, advance=n, note=self._note(trajectory_id))

    def _note(self, trajectory_id: str) -> str:
        ops = " ".join(f"{k}:{v}" for k, v in sorted(self._ops.items()))
        return f"{trajectory_id}  {ops}".strip()

    def fact_written(self, run_id, trajectory_id, position, operation, fact_id, text) -> None:
        with self._lock:
            self._ops[operation] = self._ops.get(operation, 0) + 1

    def finish_phase(self) -> None:
        with self._lock:
            for task in self._rich.tasks:
                if task.id == self._task and task.total is not None:
                    self._rich.update(task.id, completed=task.total)
            self._task = None

    def message(self, text: str) -> None:
        self._rich.console.print(text)
