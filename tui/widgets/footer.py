"""A Footer that rebuilds its keys only when they change.

Textual's Footer recomposes (removes and mounts a widget per key) every time its screen's bindings
are signalled, which happens on every switch back to a view and on focus moves; on a shared core
that cost 50-100 ms of each view key, while the keys shown were the same
(docs/benchmarks.md, section (h)). This one compares what it would show with what it shows."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeysFooter(Footer):
    _shown: tuple | None = None

    def _signature(self, screen: Screen) -> tuple:
        return tuple(
            (binding.key, binding.action, binding.description, enabled, tooltip)
            for (_, binding, enabled, tooltip) in screen.active_bindings.values()
            if binding.show or binding.action == "command_palette"
        )

    def bindings_changed(self, screen: Screen) -> None:
        if not (screen.app.app_focus and self.is_attached and screen is self.screen):
            super().bindings_changed(screen)
            return
        signature = self._signature(screen)
        if signature == self._shown:  # shown by the last recompose this asked for
            return
        self._shown = signature
        super().bindings_changed(screen)
