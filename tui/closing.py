"""Widgets mounted while the app closes do not run their mount handlers.

Views are built ahead while the user reads (tui/instant_modes.py), so a screen may be half
mounted when the app closes: a quit key, or a test's end. Closing removes every screen's widgets,
children first, while the widgets still handle the messages they were sent. A widget whose
``Mount`` was still queued then ran its handler with its children gone: the screen's own
``on_mount`` found its panes missing, and Textual's ``Header`` found its ``HeaderTitle`` missing
(``NoMatches``, raised as the app's error, once in a full test run in CI).

``QuietWhenClosing`` (first in the bases) drops a ``Mount`` that arrives once the app has stopped
running: the widget is being removed and would never be shown. The view screens take it (the
only mount handlers of ours that query widgets), and ``Header`` is used only as ``AppHeader``
(tests/test_tui_closing.py makes the race and checks that no module composes ``Header`` itself).
"""

from __future__ import annotations

from textual import events
from textual.message_pump import MessagePump
from textual.widgets import Header


class QuietWhenClosing(MessagePump):
    """Mixin: a ``Mount`` that arrives after the app stopped running is dropped."""

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Mount) and not self.app.is_running:
            return  # mounted as the app closes: its widgets are being removed
        await super().on_event(event)


class AppHeader(QuietWhenClosing, Header):
    """Textual's Header, quiet when mounted as the app closes (its mount queries its title)."""
