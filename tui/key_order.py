"""Keys reach the widget they were typed for, in order, however fast they come (issue 36).

Textual's app hands each key to the focused widget's message queue as soon as it reads it; the
binding the key triggers runs later, when the key has bubbled back up to the app. Keys typed in a
burst ("/late-memo⏎" right after the first paint) were therefore all handed to the runs table
before `/` had opened (and focused) the search: the letters went to the table and Enter opened
the row under the cursor. Pilot posts one key at a time and waits, so only a real terminal showed
it (tests/test_tui_pty.py).

``KeysInOrder`` (a mixin for the App, first in the bases) lets one key through at a time: after a
key is handed over, a marker follows it up the same chain of message queues (the widget it went
to, each ancestor, the app: ``call_later`` on each in turn, so the marker runs after the key was
handled there and after it bubbled on), then once more through the app's queue, where callbacks
the key's action scheduled (a focus) run first. Keys that arrive meanwhile wait, in order; so do
keys while the view a key asked for is still being built (``keys_wait``) or the screen on top is
not mounted yet. ``HOLD_MOST_S`` bounds every wait: a key is never held for ever.
Public Textual API only (``call_later``, ``ancestors_with_self``, ``is_forwarded``).
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App
from textual.dom import DOMNode

if TYPE_CHECKING:
    _AppHost = App[Any]
else:
    _AppHost = object

HOLD_MOST_S = 1.0
"""The longest a key waits for the one before it (a marker lost with a closed widget, say)."""
RETRY_S = 0.01
"""While keys wait for a view being built: how often the app looks again."""


class KeysInOrder(_AppHost):
    """Mixin for the App: keys handled one at a time, each after the one before has landed."""

    keys_waiting: deque[events.Key] | None = None
    key_since: float | None = None
    """When the key being handled (whose marker is travelling) was handed over; None: none is."""
    wait_since = 0.0
    """When the first waiting key began to wait."""
    release_pending = False

    def keys_wait(self) -> bool:
        """True while keys must wait (the app overrides it: a view being built for a key)."""
        return False

    async def on_event(self, event: events.Event) -> None:
        if not isinstance(event, events.Key) or event.is_forwarded:
            await super().on_event(event)
            return
        if self.keys_waiting is None:
            self.keys_waiting = deque()
        if self.key_since is not None or self.keys_waiting or self._hold():
            if not self.keys_waiting:
                self.wait_since = time.monotonic()
            self.keys_waiting.append(event)
            self._release_later()
            return
        await self._hand_over(event)

    def _hold(self) -> bool:
        return self.keys_wait() or not self.screen.is_mounted

    async def _hand_over(self, event: events.Key) -> None:
        target: DOMNode = self.focused or self.screen  # where Textual sends it (App.on_event)
        chain = [node for node in target.ancestors_with_self if node is not self]
        self.key_since = time.monotonic()
        await super().on_event(event)
        self._follow(chain)

    def _follow(self, chain: list[DOMNode]) -> None:
        """Run after the key was handled by ``chain[0]``, then by each next queue up to the app,
        then after what the app queued meanwhile."""
        while chain:
            node, chain = chain[0], chain[1:]
            if node.call_later(self._follow, chain):
                return
        self.call_later(self._at_app)

    def _at_app(self) -> None:
        """The key has bubbled back to the app and its binding ran; what the binding queued on
        the app (a widget's focus: Widget.focus is a call_later) runs before the marker lands."""
        self.call_later(self._landed)

    async def _landed(self) -> None:
        self.key_since = None
        await self._release()

    def _release_later(self) -> None:
        if not self.release_pending:
            self.release_pending = True
            self.set_timer(RETRY_S, self._release_tick)

    async def _release_tick(self) -> None:
        self.release_pending = False
        await self._release()

    async def _release(self) -> None:
        """Hand over the next waiting key once nothing holds it (or it waited HOLD_MOST_S)."""
        waiting = self.keys_waiting
        if not waiting:
            return
        now = time.monotonic()
        overdue = now - self.wait_since > HOLD_MOST_S
        if (self.key_since is not None or self._hold()) and not overdue:
            self._release_later()
            return
        event = waiting.popleft()
        self.wait_since = now
        await self._hand_over(event)
