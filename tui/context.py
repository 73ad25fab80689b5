"""What the app is looking at: the database, the corpus and the current selection.

Screens read the engine through engine.views with this context; they never query tables directly.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import sqlite_utils

from seorap.engine.corpus import Corpus
from seorap.engine.run.pacer import Pace
from seorap.engine.store.database import open_db

if TYPE_CHECKING:
    from seorap.engine.config import Config


@dataclass
class Selection:
    run_id: str | None = None
    trajectory_id: str | None = None
    position: int = 0
    judge_mode: str = "full"
    compare_run_id: str | None = None
    question: str | None = None
    """A question item (``compound/0``) the questions view selects when next shown (the stepper's
    journey keys r and u)."""
    claim: str | None = None
    """An expected claim the stepper selects, its journey in view, when next shown (the questions
    view's p)."""

    def step_trajectory(self, ids: list[str], delta: int) -> bool:
        """Move to the trajectory ``delta`` places away in ``ids`` (wrapping), at its first
        document; False when the current trajectory is not in ``ids``."""
        if self.trajectory_id not in ids:
            return False
        self.trajectory_id = ids[(ids.index(self.trajectory_id) + delta) % len(ids)]
        self.position = 0
        return True


@dataclass
class AppContext:
    db_path: Path | None
    db: sqlite_utils.Database
    corpus: Corpus
    selection: Selection = field(default_factory=Selection)
    banner: str = ""
    """One line shown on the runs screen, e.g. that the runs are offline reference systems."""
    filter_threshold: float = 0.8
    autorun: list[str] = field(default_factory=list)
    """Systems the live view runs offline as soon as the app opens (`seorap demo`, empty db):
    built ahead first, hidden, while the runs view shows the runs there are (tui/app.py)."""
    progress: str = ""
    """A run going on behind the view on screen (the first start's reference systems): one line,
    shown by the runs view under its banner; empty when none."""
    probe_ollama: bool = False
    """Check Ollama after the first paint (`seorap demo`): reachable → run variant A live;
    not → a banner saying so."""
    live_config: Config | None = None
    """seorap.engine.config.Config for live runs (key a, the demo's autostart); None: load_config()
    (OLLAMA_HOST and the configured models)."""
    live_autostart: list[str] = field(default_factory=list)
    """Systems the live view starts on Ollama as soon as it is free (set by the probe)."""
    replay_pace: Pace = field(default_factory=Pace)
    """How fast the live view replays a recorded run (`seorap demo --pace`; + and - change it)."""
    replay_start: str | None = None
    """A run the live view replays as soon as it is shown (`seorap demo --replay RUN`)."""
    replay_keep: bool = False
    """Replays are kept as runs of their own (`seorap demo --keep`) rather than written to the one
    scratch run the next replay replaces (engine/run/rehearsal.py)."""

    def worker_db(self, *, readonly: bool = True) -> sqlite_utils.Database:
        """The database for a worker thread: its own connection to the file (read-only when
        browsing; runs and replays write), or the in-memory database itself (tests)."""
        return open_db(self.db_path, readonly=readonly) if self.db_path else self.db

    @contextmanager
    def own_connection(self) -> Iterator[sqlite_utils.Database]:
        """A read-only connection of its own to the database file, closed after the block: what a
        view reads in a thread before the app builds it (needs a file: ``db_path``)."""
        assert self.db_path is not None, "an in-memory database has no second connection"
        db = open_db(self.db_path, readonly=True)
        try:
            yield db
        finally:
            db.conn.close()
