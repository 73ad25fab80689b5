"""Progress on the terminal for `seorap run` and `seorap score`: engine.progress.Progress drawn with
Rich (the engine itself never draws)."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from seorap.engine.untrusted import visible

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import TaskID


class RichProgress:
    """A Rich progress bar per phase plus a counter of operations (create/update/...)."""

    def __init__(self, console: Console | None = None) -> None:
        # start-up: `seorap --help` loads no rich
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import (
            Progress as _Rich,
        )

        self.console = console or Console(stderr=True)
        # run ids and trajectory ids come from corpora and variant files: never parsed as markup
        self._rich = _Rich(
            SpinnerColumn(),
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[rate]}"),
            TextColumn("{task.fields[note]}", style="dim", markup=False),
            console=self.console,
        )
        self._task: TaskID | None = None
        self._tokens0: tuple[float, int] | None = None
        self._ops: dict[str, int] = {}
        self._estimate = ""
        self._lock = threading.Lock()

    def __enter__(self) -> RichProgress:
        self._rich.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._rich.stop()

    def start_phase(self, name: str, total: int) -> None:
        with self._lock:
            self._ops = {}
            self._tokens0 = None
            self._task = self._rich.add_task(visible(name), total=total, note="", rate="")

    def tokens(self, generated: int) -> None:
        """Tokens generated so far by the run's model client: shown as tokens/s of the phase."""

        with self._lock:
            now = time.monotonic()
            if self._tokens0 is None:
                self._tokens0 = (now, generated)
                return
            t0, n0 = self._tokens0
            if self._task is not None and now > t0 and generated > n0:
                self._rich.update(self._task, rate=f"{(generated - n0) / (now - t0):.1f} tok/s")

    def queued(self, text: str) -> None:
        """Our requests waiting in line on a host ("queued behind 1 of ours on HOST"; "" when
        none): shown as the phase's note, so a long wait does not look stuck."""
        with self._lock:
            if self._task is not None:
                self._rich.update(self._task, note=visible(text) if text else "")

    def estimate(self, line: str) -> None:
        """The run's re-estimated time left ("write phase: plan 4 h 07 min → now 12 min left",
        engine/run/replan.py): printed once when it first appears, then kept on the progress line."""
        with self._lock:
            first = not self._estimate
            self._estimate = visible(line)
        if first:
            self.message(line)

    def advance(self, trajectory_id: str, n: int = 1, note: str = "") -> None:
        with self._lock:
            if self._task is not None:
                self._rich.update(self._task, advance=n, note=self._note(trajectory_id))

    def _note(self, trajectory_id: str) -> str:
        ops = " ".join(f"{k}:{v}" for k, v in sorted(self._ops.items()))
        plan = f"  · {self._estimate}" if self._estimate else ""
        return visible(f"{trajectory_id}  {ops}{plan}".strip())

    def fact_written(
        self,
        run_id: str,
        trajectory_id: str,
        position: int,
        operation: str,
        fact_id: str | None,
        text: str,
    ) -> None:
        with self._lock:
            self._ops[operation] = self._ops.get(operation, 0) + 1

    def finish_phase(self) -> None:
        with self._lock:
            for task in self._rich.tasks:
                if task.id == self._task and task.total is not None:
                    self._rich.update(task.id, completed=task.total)
            self._task = None

    def message(self, text: str) -> None:
        self._rich.console.print(visible(text), markup=False, highlight=False)
