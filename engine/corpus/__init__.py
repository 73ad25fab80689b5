"""Trajectories: the ground truth every score is measured against (docs/corpus-format.md).

Field names on disk follow the FEB-30 paper (camelCase); in Python they are snake_case. A corpus is a
folder of ``*.json`` files, one trajectory each, or a single such file. Loading never calls a model;
:func:`engine.validate.validate_path` reports every problem with its file and JSON path. The
trajectory's own classes live in engine/corpus/trajectory.py and are re-exported here.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from seorap.engine.corpus.trajectory import (
    CATEGORY_NAMES,
    QA,
    Action,
    Arrival,
    Author,
    Category,
    Difficulty,
    Distractor,
    DocType,
    Document,
    SingleQA,
    State,
    Trajectory,
    TrajectoryType,
    parse_timestamp,
)
from seorap.engine.corpus.validate import corpus_files, validate_files
from seorap.engine.errors import CorpusError

# The facade: the trajectory classes, re-exported, and what this module defines.
__all__ = [
    "CATEGORY_NAMES",
    "QA",
    "Action",
    "Arrival",
    "Author",
    "Category",
    "Difficulty",
    "Distractor",
    "DocType",
    "Document",
    "SingleQA",
    "State",
    "Trajectory",
    "TrajectoryType",
    "parse_timestamp",
    "CorpusError",
    "Corpus",
    "load_corpus",
    "dump_trajectory",
]


@dataclass(frozen=True)
class Corpus:
    root: Path
    trajectories: list[Trajectory]
    files: dict[str, Path]
    """Trajectory id -> the file it came from."""

    def get(self, trajectory_id: str) -> Trajectory:
        for trajectory in self.trajectories:
            if trajectory.id == trajectory_id:
                return trajectory
        raise KeyError(trajectory_id)

    @property
    def digest(self) -> str:
        """A content hash of the corpus: the run manifest records it."""
        h = hashlib.sha256()
        for trajectory in sorted(self.trajectories, key=lambda t: t.id):
            h.update(trajectory.model_dump_json(by_alias=True).encode())
        return h.hexdigest()[:16]


def load_corpus(path: str | Path) -> Corpus:
    """Load and validate a corpus; raise :class:`CorpusError` listing every problem."""
    path = Path(path)
    report = validate_files(corpus_files(path))
    if report.problems:
        raise CorpusError(report.problems)
    return Corpus(root=path, trajectories=report.trajectories, files=report.files)


def dump_trajectory(trajectory: Trajectory) -> str:
    """Serialize in the on-disk (camelCase) format."""
    data = trajectory.model_dump(by_alias=True, exclude_none=True)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
