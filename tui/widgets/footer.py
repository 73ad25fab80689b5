"""The keys of the view: one line, drawn as one widget, that never cuts a key silently.

Textual's Footer mounts a widget per key and recomposes them whenever its screen's bindings are
signalled (every focus move, every return to a view): a mount of a dozen widgets and a layout of
the whole screen. Hiding and showing composed key widgets instead (this footer's previous form)
still laid the whole screen out on each change — about half of the CPU of `/` and Esc in the
stepper and the second layout of every view's first showing (docs/benchmarks.md, issue 36). This
footer is a single line: a change of keys repaints it, nothing moves, nothing is laid out, and a
view built ahead shows its keys the first time it is drawn.

It looks and acts as Textual's Footer: " key description " per key in the theme's footer colours,
the command palette's key at the right edge after a thin rule, a key under the pointer highlighted
(with its tooltip, if it has one), a click on a key presses it (a disabled key rings the bell). On
a narrow terminal it keeps help and quit, then the screen's keys in order while they fit, and ends
with "…" when any were left out (all of them stay in the command palette and in F1's help); where
even help and quit would not fit beside the palette's key, that key goes (ctrl+p still opens the
palette). Keys bound to one action show once (the first), as in Textual's Footer; binding groups
are shown key by key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget

from seorap.tui.closing import QuietWhenClosing, while_running

KEPT_ACTIONS = ("help", "quit")
"""Actions whose keys stay in the footer at any width."""

K = TypeVar("K")

EDGE = "▏"
"""The rule before the command palette's key (Textual's ``vkey`` border)."""


@dataclass(frozen=True)
class Key:
    """A key the footer shows: what is pressed, how it is written, what it does."""

    key: str
    key_display: str
    description: str
    action: str
    enabled: bool = True
    tooltip: str = ""


def key_width(key: object) -> int:
    """Cells a footer key takes: " key " then "description "."""
    display, description = (
        str(getattr(key, "key_display", "")),
        str(getattr(key, "description", "")),
    )
    return cell_len(display) + 2 + (cell_len(description) + 1 if description else 0)


def palette_width(key: Key) -> int:
    """Cells the palette's key takes: the rule, "key", " description" and one cell of padding."""
    return 1 + cell_len(key.key_display) + (1 + cell_len(key.description)) + 1


def fit_keys(keys: list[K], room: int) -> tuple[list[K], bool]:
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


def screen_keys(screen: Screen) -> tuple[tuple[Key, ...], Key | None]:
    """The keys ``screen`` shows now (one per action, in binding order) and the command palette's
    key (None when the app has no palette or nothing binds it)."""
    app = screen.app
    active = screen.active_bindings

    def key(binding: Binding, enabled: bool, tooltip: str) -> Key:
        display = app.get_key_display(binding)
        return Key(binding.key, display, binding.description, binding.action, enabled, tooltip)

    keys: dict[str, Key] = {}
    for _, binding, enabled, tooltip in active.values():
        if binding.show and binding.action not in keys:
            keys[binding.action] = key(binding, enabled, tooltip or "")
    found = active.get(app.COMMAND_PALETTE_BINDING) if app.ENABLE_COMMAND_PALETTE else None
    palette = None
    if found is not None:
        _, binding, enabled, _ = found
        palette = key(binding, enabled, binding.tooltip or binding.description)
    return tuple(keys.values()), palette


class KeysFooter(QuietWhenClosing, Widget, can_focus=False):
    ALLOW_SELECT = False
    COMPONENT_CLASSES = {
        "footer-key--key",
        "footer-key--description",
        "footer-key--hover",
        "footer-key--edge",
    }
    DEFAULT_CSS = """
    KeysFooter {
        dock: bottom;
        height: 1;
        width: 1fr;
        text-wrap: nowrap;
        color: $footer-foreground;
        background: $footer-background;
        & > .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .footer-key--hover {
            background: $block-hover-background;
        }
        & > .footer-key--edge {
            color: $foreground 20%;
        }
    }
    """

    _keys: tuple[tuple[Key, ...], Key | None] | None = None
    _spans: tuple[tuple[int, int, Key], ...] = ()
    _hover: Key | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    @while_running
    def bindings_changed(self, screen: Screen) -> None:
        """The screen's keys may have changed: repaint the line if they did."""
        if screen is not self.screen or not self.is_attached:
            return
        keys = screen_keys(screen)
        if keys != self._keys:
            self._keys = keys
            self.refresh()

    def shown(self) -> tuple[list[Key], bool]:
        """The keys on the line now, left to right (the palette's last), and whether any of the
        screen's keys were left out for want of room."""
        keys, palette, cut = self._fitted()
        return keys + ([palette] if palette else []), cut

    def _fitted(self) -> tuple[list[Key], Key | None, bool]:
        """(the screen's keys that fit, the palette's key if it fits, whether any was left out)."""
        if self._keys is None:
            self._keys = screen_keys(self.screen)
        keys, palette = self._keys
        kept = sum(key_width(k) for k in keys if k.action in KEPT_ACTIONS) + 1
        if palette and self.size.width - palette_width(palette) < kept:
            palette = None  # too narrow for help, quit and the palette: the palette's key goes
        room = self.size.width - (palette_width(palette) if palette else 0)
        fitted, cut = fit_keys(list(keys), room)
        return fitted, palette, cut

    def render(self) -> Text:
        shown, palette, cut = self._fitted()
        style = self.get_component_rich_style
        key_style, description_style = style("footer-key--key"), style("footer-key--description")
        line, spans = Text(no_wrap=True, end=""), []

        def add(key: Key, *parts: tuple[str, Style]) -> None:
            start = line.cell_len
            for text, part_style in parts:
                line.append(text, part_style)
            if not key.enabled:
                line.stylize(Style(dim=True), start)
            if key == self._hover:
                line.stylize(Style(bgcolor=style("footer-key--hover").bgcolor), start)
            spans.append((start, line.cell_len, key))

        for key in shown:
            description = [(f"{key.description} ", description_style)] if key.description else []
            add(key, (f" {key.key_display} ", key_style), *description)
        if cut:
            line.append("…")
        if palette is not None:
            line.append(" " * (self.size.width - line.cell_len - palette_width(palette)))
            edge = (EDGE, style("footer-key--edge"))
            add(
                palette,
                edge,
                (palette.key_display, key_style),
                (f" {palette.description}", description_style),
                (" ", Style()),
            )
        self._spans = tuple(spans)
        return line

    @property
    def hovered(self) -> Key | None:
        """The key under the pointer, drawn highlighted (None: none)."""
        return self._hover

    def key_at(self, x: int) -> Key | None:
        """The key drawn at column ``x`` of the line, if any."""
        return next((key for start, end, key in self._spans if start <= x < end), None)

    @while_running
    def on_mouse_move(self, event: events.MouseMove) -> None:
        key = self.key_at(event.x)
        if key != self._hover:
            self._hover = key
            self.tooltip = key.tooltip if key and key.tooltip else None  # as Textual's keys do
            self.refresh()

    @while_running
    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover, self.tooltip = None, None
            self.refresh()

    @while_running
    def on_mouse_down(self, event: events.MouseDown) -> None:
        key = self.key_at(event.x)
        if key is None:
            return
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()
