"""Nothing of ours runs once the app has stopped running.

Views are built ahead while the user reads (tui/instant_modes.py), so screens exist that are on
no screen stack. When the app closes, Textual removes the screens of its stacks top-down, then
closes every node left (the screens built ahead and their widgets) in no particular order: a
child may be closed and gone from its parent before the parent handles the messages still in its
queue. A handler of ours that ran then found its panes missing (``NoMatches``: a Mount, a resume,
a worker's result reaching the score cards; Textual's ``Header`` its ``HeaderTitle``), raised as
the app's error in loaded CI runs.

The cure is one rule rather than one check per handler: once the app is no longer running, a
node of ours handles nothing but ``Unmount`` (its widgets are being removed and would never be
shown again).

- ``QuietWhenClosing`` (first in the bases) drops every event but ``Unmount`` and ``Callback``
  from then on, ours and Textual's handlers alike (Textual's public ``on_event`` is where a node
  receives events). A callback is code someone awaits (Textual's own removals, a test pilot
  waiting for the screen to settle): dropped, they would wait forever.
- ``while_running`` wraps a handler of a message that is not an event (a worker's state, a
  table's row, our own messages), which Textual hands to handlers without ``on_event``, and a
  method of ours handed to ``call_later``/``call_after_refresh`` (it runs as a callback).

tests/test_tui_closing.py holds every screen and widget class of the app to it: a class that
handles anything takes the mixin; each of its message handlers, and each of its methods given
as a callback, is wrapped; ``Header`` is used only as ``AppHeader``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from textual import events
from textual.message_pump import MessagePump
from textual.widgets import Header

Handler = TypeVar("Handler", bound=Callable[..., Any])
MARK = "seorap_while_running"
"""Set on a handler ``while_running`` wrapped (the structural test reads it)."""


def stopped(node: MessagePump) -> bool:
    """Whether the app of ``node`` has stopped running (closing, or closed)."""
    return not node.app.is_running


class QuietWhenClosing(MessagePump):
    """Mixin: once the app stopped running, every event but ``Unmount`` and ``Callback`` is
    dropped."""

    async def on_event(self, event: events.Event) -> None:
        if stopped(self) and not isinstance(event, (events.Unmount, events.Callback)):
            return  # closing: its widgets are being removed and would never be shown
        await super().on_event(event)


def while_running(handler: Handler) -> Handler:
    """A message handler, or a method run as a callback, that does nothing once the app stopped
    running (returning None; a handler may return an awaitable, which Textual awaits)."""

    @functools.wraps(handler)
    def run(self: MessagePump, *args: Any, **kwargs: Any) -> Any:
        if stopped(self):
            return None
        return handler(self, *args, **kwargs)

    setattr(run, MARK, True)
    return run  # type: ignore[return-value]


class AppHeader(QuietWhenClosing, Header):
    """Textual's Header, quiet when mounted as the app closes (its mount queries its title)."""
