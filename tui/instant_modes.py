"""Views shown again switch in the next frame, and the app knows the views it has built
(docs/design.md#quality-bars: every key ≤ 100 ms). Public Textual API only.

Textual's ``App.switch_mode`` holds all frames back for 50 ms (``App.delay_update``) so that a
screen still composing its widgets is not drawn half-built. A view shown before has nothing to
hide, and the wait was half of a warm key's time: ``InstantModes`` keeps the wait for a view's
first showing and drops it for a view shown before.

``ViewScreen`` (a mixin for every view's screen) registers the screen with the app when it is
mounted, so that background work (read-ahead, the tour's stale-fact case) reaches the views built
so far, and only mounted ones.

A view's first showing composes and mounts its screen then (views are not built ahead: Textual's
public API has no way to mount a screen without showing it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from seorap.tui.modes import VIEWS
from textual import events
from textual.app import App
from textual.screen import Screen
from textual.widget import AwaitMount

if TYPE_CHECKING:
    # What each mixin needs from its host is the whole host class (they extend its methods through
    # super(), which a Protocol cannot type): the type checker reads them as subclasses of it; at
    # run time they are plain classes put before the host in the bases.
    from seorap.tui.app import SeorapApp
    from textual import getters

    _AppHost = App[Any]
    _ScreenHost = Screen[Any]
else:
    _AppHost = _ScreenHost = object


class InstantModes(_AppHost):
    """Mixin for an App with MODES; put it first in the bases."""

    instant_switch = False

    @property
    def view_screens(self) -> dict[str, Screen]:
        """Every mounted view screen by "module:Class" (ViewScreen registers itself)."""
        return self.__dict__.setdefault("view_screens_by_target", {})

    def built_screen(self, mode: str) -> Screen | None:
        """The base screen of a view shown before (None when it was never built)."""
        target = VIEWS[mode][2] if mode in VIEWS else mode
        screen = self.view_screens.get(target)
        return screen if screen is not None and screen.is_mounted else None

    def mode_built(self, mode: str) -> bool:
        return self.built_screen(mode) is not None

    def built_screens(self) -> list[Screen]:
        """Every view screen that is mounted now."""
        return [screen for screen in self.view_screens.values() if screen.is_mounted]

    def switch_mode(self, mode: str) -> AwaitMount:
        self.instant_switch = self.mode_built(mode)
        try:
            return super().switch_mode(mode)
        finally:
            self.instant_switch = False

    def delay_update(self, delay: float = 0.05) -> None:
        """Textual's switch_mode calls this to hide a screen still composing; a built one is shown
        in the next frame."""
        if not self.instant_switch:
            super().delay_update(delay)


class ViewScreen(_ScreenHost):
    """Mixin for a view's Screen (first in the bases): registered with the app once mounted, and
    shown again with nothing changed that its styles depend on, not restyled.

    Textual restyles every widget of a screen each time it is shown again (the resume event's
    public ``refresh_styles``), and each restyled widget draws itself anew: 40-70 ms of a warm
    key. Textual dispatches a handler per class of the MRO, the most derived first, so this
    mixin's public ``on_screen_resume`` runs before Screen's own and can clear the flag when the
    app's theme, colours and focus are as they were when the screen was hidden."""

    styled_for: tuple | None = None

    if TYPE_CHECKING:  # self.app is SeorapApp: Textual's getters.app, for the checker only
        app = getters.app(SeorapApp)

    def style_state(self) -> tuple:
        app = self.app
        return (app.theme, app.app_focus, app.ansi_color)

    def on_mount(self) -> None:
        app = self.app
        if isinstance(app, InstantModes) and isinstance(app, App):
            cls = type(self)
            app.view_screens[f"{cls.__module__}:{cls.__qualname__}"] = self

    def on_screen_suspend(self) -> None:
        self.styled_for = self.style_state()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self.styled_for is not None and self.styled_for == self.style_state():
            event.refresh_styles = False
