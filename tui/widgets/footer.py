"""A Footer that rebuilds its keys only when they change, and that never cuts a key silently.

Textual's Footer recomposes (removes and mounts a widget per key) every time its screen's bindings
are signalled, which happens on every switch back to a view and on focus moves; on a shared core
that cost 50-100 ms of each view key, while the keys shown were the same
(docs/benchmarks.md, section (h)). This one compares what it would show with what it shows.

On a narrow terminal Textual's Footer scrolls its keys off the right edge, cutting one mid-word
("f1 hel") with nothing to say so, and help and quit, bound last by the app, go first. This one
keeps help and quit, then the screen's keys in order while they fit, and ends with "…" when any
were left out (all of them stay in the command palette and in F1's help).

When a screen's keys change to a few of those shown before (the search bar takes the letter keys
on `/` and gives them back on Esc), this one hides and shows its key widgets instead of removing
and mounting a widget per key: Textual's recompose of the stepper's footer was 40-50 ms of the
~100 ms of CPU `/` and Esc took there (docs/benchmarks.md, issue 36). It composes every key,
those the width leaves out hidden, so that a change of width or of keys only toggles them; keys
it has no widget for (or in another order) are composed anew, as Textual does."""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.events import Resize
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Label

from seorap.tui.closing import QuietWhenClosing, while_running

KEPT_ACTIONS = ("help", "quit")
"""Actions whose keys stay in the footer at any width."""


def key_width(key: Widget) -> int:
    """Cells a (non-compact) footer key takes: " key " then "description "."""
    display, description = (
        str(getattr(key, "key_display", "")),
        str(getattr(key, "description", "")),
    )
    return cell_len(display) + 2 + (cell_len(description) + 1 if description else 0)


def identity(key: Widget) -> tuple:
    """What a footer key shows and does: two widgets alike in this are interchangeable."""
    return (
        getattr(key, "key", None),
        getattr(key, "action", None),
        getattr(key, "description", None),
        key.has_class("-disabled"),
        str(key.tooltip or ""),
        key.has_class("-command-palette"),
    )


def fit_keys(keys: list[Widget], room: int) -> tuple[list[Widget], bool]:
    """The keys to show in ``room`` cells, in their order: help and quit first in priority, then
    the others in order while they fit (one cell kept for "…" when any is left out). Returns the
    keys and whether any was left out."""
    if sum(key_width(k) for k in keys) <= room:
        return keys, False
    kept = [k for k in keys if getattr(k, "action", None) in KEPT_ACTIONS]
    used = sum(key_width(k) for k in kept) + 1
    for k in keys:
        if k not in kept and used + key_width(k) <= room:
            kept.append(k)
            used += key_width(k)
    return [k for k in keys if k in kept], True


class KeysFooter(QuietWhenClosing, Footer):
    _shown: tuple | None = None
    _composed_width = 0

    def compose(self) -> ComposeResult:
        items = list(super().compose())
        if any(not hasattr(w, "action") for w in items):  # a key group: shown as Textual does
            yield from items
            return
        palette = [w for w in items if w.has_class("-command-palette")]
        keys = [w for w in items if not w.has_class("-command-palette")]
        self._composed_width = self.app.size.width
        shown, cut = fit_keys(keys, self._room(palette))
        for key in keys:
            key.display = key in shown
        yield from keys
        more = Label("…", classes="footer-more")
        more.display = cut
        yield more
        yield from palette

    def _room(self, palette: list[Widget]) -> int:
        """Cells for the keys: the app's width less the palette key's (its border and padding)."""
        return self.app.size.width - sum(key_width(w) + 2 for w in palette)

    def _toggled(self) -> bool:
        """Show the keys the screen has now by hiding and showing the key widgets composed
        before; False (nothing changed) when one of them has no widget or the order differs."""
        items = list(super().compose())  # widgets made, not mounted: a few ms less than a mount
        if not items or any(not hasattr(w, "action") for w in items):
            return False
        mounted = {identity(w): w for w in self.children if hasattr(w, "action")}
        mores = [w for w in self.children if w.has_class("footer-more")]
        palette = [w for w in items if w.has_class("-command-palette")]
        keys = [w for w in items if not w.has_class("-command-palette")]
        if not mores or any(identity(w) not in mounted for w in items):
            return False
        shown, cut = fit_keys(keys, self._room(palette))
        wanted = [mounted[identity(w)] for w in shown + palette]
        children = list(self.children)
        order = [children.index(w) for w in wanted]
        if order != sorted(order):
            return False
        for widget in mounted.values():
            widget.display = any(widget is w for w in wanted)
        mores[0].display = cut
        return True

    def on_resize(self, event: Resize) -> None:
        if self._composed_width and event.size.width != self._composed_width:
            self.refresh(recompose=True)

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
        if not self.children:  # its first keys: composed as Textual does
            super().bindings_changed(screen)
            return
        # after the frame the change came with (as Textual's recompose): that frame, e.g. the
        # search bar opening, goes out first
        self.call_after_refresh(self._show_keys, screen)

    @while_running
    def _show_keys(self, screen: Screen) -> None:
        if self.is_attached and not self._toggled():
            super().bindings_changed(screen)
