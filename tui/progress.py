"""The engine's Progress protocol (engine/run/progress.py) for the app: every call, from any worker
thread, becomes a Textual message posted to a widget (post_message is thread-safe)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message
from textual.message_pump import MessagePump


@dataclass
class PhaseStarted(Message):
    name: str
    total: int


@dataclass
class Advanced(Message):
    trajectory_id: str
    n: int
    note: str


@dataclass
class FactWritten(Message):
    run_id: str
    trajectory_id: str
    position: int
    operation: str
    fact_id: str | None
    text: str


@dataclass
class PhaseFinished(Message):
    pass


@dataclass
class Note(Message):
    text: str


class MessageProgress:
    """Implements engine.progress.Progress by posting the messages above to ``target``."""

    def __init__(self, target: MessagePump) -> None:
        self.target = target

    def start_phase(self, name: str, total: int) -> None:
        self.target.post_message(PhaseStarted(name, total))

    def advance(self, trajectory_id: str, n: int = 1, note: str = "") -> None:
        self.target.post_message(Advanced(trajectory_id, n, note))

    def fact_written(
        self,
        run_id: str,
        trajectory_id: str,
        position: int,
        operation: str,
        fact_id: str | None,
        text: str,
    ) -> None:
        self.target.post_message(
            FactWritten(run_id, trajectory_id, position, operation, fact_id, text or "")
        )

    def finish_phase(self) -> None:
        self.target.post_message(PhaseFinished())

    def message(self, text: str) -> None:
        self.target.post_message(Note(text))

    def queued(self, text: str) -> None:
        """Our requests waiting in line on a host: one line in the live view's log."""
        if text:
            self.target.post_message(Note(text))
