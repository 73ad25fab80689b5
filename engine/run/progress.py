"""How long work reports progress: a small Protocol with Null and recording implementations.

The engine never prints. ``seorap run`` passes cli/progress.py's ``RichProgress``; the app passes one
that posts Textual messages (tui/progress.py); tests pass :class:`NullProgress` or
:class:`RecordingProgress`. Every method may be called from worker threads, so implementations must
be thread-safe.
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

    def fact_written(
        self,
        run_id: str,
        trajectory_id: str,
        position: int,
        operation: str,
        fact_id: str | None,
        text: str,
    ) -> None:
        """A decision was applied to the store (for live displays)."""

    def finish_phase(self) -> None:
        """The current phase is over."""

    def message(self, text: str) -> None:
        """A line for the user (resume notices, write failures, warnings)."""


class NullProgress:
    """Ignores everything."""

    def start_phase(self, name: str, total: int) -> None: ...
    def advance(self, trajectory_id: str, n: int = 1, note: str = "") -> None: ...
    def fact_written(
        self,
        run_id: str,
        trajectory_id: str,
        position: int,
        operation: str,
        fact_id: str | None,
        text: str,
    ) -> None: ...
    def finish_phase(self) -> None: ...
    def message(self, text: str) -> None: ...


class RecordingProgress:
    """Keeps every event in ``events`` (tests and the app's headless views)."""

    def __init__(self) -> None:
        self.events: list[tuple] = []
        self._lock = threading.Lock()

    def _add(self, *event: object) -> None:
        with self._lock:
            self.events.append(event)

    def start_phase(self, name: str, total: int) -> None:
        self._add("start", name, total)

    def advance(self, trajectory_id: str, n: int = 1, note: str = "") -> None:
        self._add("advance", trajectory_id, n, note)

    def fact_written(
        self,
        run_id: str,
        trajectory_id: str,
        position: int,
        operation: str,
        fact_id: str | None,
        text: str,
    ) -> None:
        self._add("fact", run_id, trajectory_id, position, operation, fact_id)

    def finish_phase(self) -> None:
        self._add("finish")

    def message(self, text: str) -> None:
        self._add("message", text)

    def of(self, kind: str) -> list[tuple]:
        return [e for e in self.events if e[0] == kind]
