"""Cancel means cancel during scoring too (issue 37): `x` in the live view while the runs are scored
used to say "cancelling after the current document…", score every run anyway and end "finished:".
The scoring now stops after the trajectory being scored and says it was cancelled."""

from __future__ import annotations

import threading

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.errors import RunCancelled
from seorap.engine.run.progress import RecordingProgress
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

CORPUS = "fixtures/ko-mini"


class CancelWhenScoring(RecordingProgress):
    def __init__(self, cancel: threading.Event) -> None:
        super().__init__()
        self.cancel = cancel

    def advance(self, trajectory_id: str, n: int = 1, note: str = "") -> None:
        super().advance(trajectory_id, n, note)
        if note == "scored":  # the first trajectory scored: x pressed
            self.cancel.set()


def test_a_cancel_while_scoring_stops_after_the_current_trajectory():
    cancel = threading.Event()
    progress = CancelWhenScoring(cancel)
    db = open_db(None)
    corpus = load_corpus(CORPUS)
    two = [t.id for t in corpus.trajectories[:3]]
    with pytest.raises(RunCancelled, match=r"scoring of .* stopped after 1 of 3 trajectories"):
        run(
            corpus,
            ["oracle", "oracle-stale"],
            db,
            Config.offline(),
            offline=True,
            trajectories=two,
            progress=progress,
            cancel=cancel,
        )
    scored = [e for e in progress.events if e[0] == "advance" and e[3] == "scored"]
    assert len(scored) == 1  # not every trajectory of both runs
    statuses = {r["system"]: r["status"] for r in db.query("SELECT system, status FROM runs")}
    assert set(statuses) == {"oracle", "oracle-stale"}
    assert all(s == "done" for s in statuses.values())  # written; scoring resumes later
