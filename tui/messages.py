"""App-wide messages (small dataclasses): screens post them up, the app routes them."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class OpenTrajectory(Message):
    """Open the stepper on (run, trajectory) at a position."""

    run_id: str
    trajectory_id: str
    position: int = 0


@dataclass
class OpenFact(Message):
    """Open one fact's history."""

    run_id: str
    fact_id: str


@dataclass
class RunsChanged(Message):
    """The database got new runs or documents (a live run wrote)."""
