"""Views shown again switch in the next frame, and the app knows the views it has built
(docs/design.md#quality-bars: every key ≤ 100 ms). Public Textual API only.

Textual's ``App.switch_mode`` holds all frames back for 50 ms (``App.delay_update``) so that a
screen still composing its widgets is not drawn half-built. A view shown before has nothing to
hide, and the wait was half of a warm key's time: ``InstantModes`` keeps the wait for a view's
first showing and drops it for a view shown before.

``ViewScreen`` (a mixin for every view's screen) registers the screen with the app when it is
mounted, so that background work (read-ahead, the tour's stale-fact case) reaches the views built
so far, and only mounted ones.

Views are built ahead, while the user reads the first one (``build_ahead``): each view's screen is
a named screen (``App.SCREENS``, the mode's base by name), pushed and popped again in the same
callback, so no frame and no key comes between. Being installed, it stays mounted after the pop;
its compose, mount and first layout (Textual lays out a screen when it resumes) then run in its own
message loop's turns while the user reads, and its first showing only draws it. A screen that
resumes while hidden (that push) does not start what its showing starts (``is_current``).

Drawing a screen for the first time is most of what is left (each widget renders its lines, which
it then keeps until it changes): ``draw_ahead`` asks each widget of the hidden screen, laid out,
for the lines Textual's compositor will ask it for (``Widget.render_lines``), one widget at a time;
a widget with a ``build_ahead()`` coroutine (a chart) first makes what it can off the event loop.

Textual restyles the whole app (``App.refresh_css``: reparse every stylesheet, restyle every
screen: 40-100 ms) on a screen's first switch; a screen built ahead was styled when mounted, so
the switch skips that while theme and colours are as they were then (``refresh_css`` below).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Self

from textual import events
from textual.app import App
from textual.errors import NoWidget
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import AwaitMount, Widget

from seorap.tui.closing import QuietWhenClosing
from seorap.tui.modes import VIEWS

if TYPE_CHECKING:
    # What each mixin needs from its host is the whole host class (they extend its methods through
    # super(), which a Protocol cannot type): the type checker reads them as subclasses of it; at
    # run time they are plain classes put before the host in the bases.
    from textual import getters

    from seorap.tui.app import SeorapApp

    _AppHost = App[Any]
    _ScreenHost = Screen[Any]
else:
    _AppHost = _ScreenHost = object

VIEW_SCREEN = "view:{}"
"""The installed name of a view's screen (App.SCREENS; the mode's base screen by name)."""


class InstantModes(_AppHost):
    """Mixin for an App with MODES; put it first in the bases."""

    instant_switch = False
    styled_switch = False

    @property
    def view_screens(self) -> dict[str, Screen]:
        """Every mounted view screen by "module:Class" (ViewScreen registers itself)."""
        screens: dict[str, Screen] = self.__dict__.setdefault("view_screens_by_target", {})
        return screens

    def built_screen(self, mode: str) -> Screen | None:
        """The base screen of a view shown before (None when it was never built)."""
        target = VIEWS[mode][2] if mode in VIEWS else mode
        screen = self.view_screens.get(target)
        return screen if screen is not None and self.reachable(screen) else None

    def mode_built(self, mode: str) -> bool:
        return self.built_screen(mode) is not None

    def built_screens(self) -> list[Screen]:
        """Every view screen that is mounted now."""
        return [screen for screen in self.view_screens.values() if self.reachable(screen)]

    def reachable(self, screen: Screen) -> bool:
        """Whether background work (a worker's result, a read-ahead) may be shown on ``screen``:
        it is mounted and still in the app, and the app is not closing. Closing removes every
        screen's widgets first, while the app still handles messages (a worker that ends then
        found the tour's Static gone: NoMatches), and a removed screen stays ``is_mounted``."""
        return self.is_running and screen.is_mounted and screen.is_attached

    def switch_mode(self, mode: str) -> AwaitMount:
        screen = self.built_screen(mode)
        self.instant_switch = screen is not None
        self.styled_switch = isinstance(screen, ViewScreen) and screen.styled_as_now()
        try:
            return super().switch_mode(mode)
        finally:
            self.instant_switch = self.styled_switch = False

    def refresh_css(self, animate: bool = True) -> None:
        """Textual's switch_mode restyles the whole app when it first shows a screen; a view
        styled when it was built, with the theme and colours as they are now, needs none of it."""
        if not self.styled_switch:
            super().refresh_css(animate)

    def build_ahead(self, name: str) -> AwaitMount | None:
        """Mount the screen of view ``name`` (a VIEWS mode or an App.SCREENS name) without showing
        it, unless it is shown, built or being built, or the app is not on a plain view (an overlay
        on top, shutting down); an awaitable of its mount when it started building it.

        Public API: the screen is installed (App.SCREENS), pushed and popped in one callback; its
        compose and mount follow in its own turns of the event loop."""
        installed = VIEW_SCREEN.format(name) if name in VIEWS else name
        if (
            not self.is_running
            or name == self.current_mode
            or len(self.screen_stack) != 1
            or not self.is_screen_installed(installed)
        ):
            return None
        screen = self.get_screen(installed)
        if screen.is_running:
            return None
        shown = self.screen
        if isinstance(shown, ViewScreen):
            shown.unnoticed(events=2, repaints=2)  # the push's and the pop's
        mounted = self.push_screen(installed)
        self.pop_screen()
        return mounted

    def delay_update(self, delay: float = 0.05) -> None:
        """Textual's switch_mode calls this to hide a screen still composing; a built one is shown
        in the next frame."""
        if not self.instant_switch:
            super().delay_update(delay)


async def draw_ahead(
    app: App,
    screen: Screen,
    settle_s: float = 0.05,
    between: Callable[[], Awaitable[None]] | None = None,
) -> int:
    """Render each widget of ``screen`` (built ahead, hidden, laid out by its first resume) into
    the lines it keeps, with the crop the compositor will use, yielding to the event loop between
    two widgets (and awaiting ``between``: e.g. until a key's frames are drawn); stops when the
    screen is shown or unmounted. The number of widgets drawn."""
    for _ in range(20):  # its resume lays it out at the app's size (Screen's own handler)
        if screen.size == app.size:
            break
        await asyncio.sleep(settle_s)
    await asyncio.sleep(settle_s)  # its widgets take their sizes (Resize) and refill
    drawn = 0
    for widget in list(screen.walk_children(Widget)):
        if screen.is_current or not screen.is_mounted:
            break
        if not widget.is_mounted or not widget.display:
            continue
        try:
            geometry = screen.find_widget(widget)
        except NoWidget:
            continue
        region = geometry.region
        crop = region.intersection(geometry.clip)
        if crop.width and crop.height:
            build = getattr(widget, "build_ahead", None)  # what it can make off the loop first
            if build is not None:
                await build()
                if screen.is_current or not widget.is_mounted:
                    break
            widget.render_lines(Region(crop.x - region.x, crop.y - region.y, *crop.size))
            drawn += 1
        await asyncio.sleep(0)
        if between is not None:
            await between()
    return drawn


class BuiltAhead(QuietWhenClosing, _ScreenHost):
    """Mixin for a screen that may be built ahead (first in the bases): while hidden, it handles
    one event a turn of the event loop, leaving the loop to the screen shown between two.

    Textual's message loop handles every event a node has queued in one turn: a hidden screen's
    resume and its first resize (each a layout of the whole screen; the stepper's first resize
    also restyles all of it, for its breakpoints' class) held the loop ~25 ms together in one
    turn where a key waited. (Setting the breakpoints' class before the screen composes saved that
    restyle but made the stepper's first `e` draw a frame more, 20 ms: left to Textual.)"""

    async def on_event(self, event: events.Event) -> None:
        if not self.is_current and not isinstance(event, events.Compose):
            await asyncio.sleep(0)  # hidden: one event a turn of the event loop
        await super().on_event(event)  # QuietWhenClosing: no mount as the app closes


class ViewScreen(BuiltAhead):
    """Mixin for a view's Screen (first in the bases): registered with the app once mounted, and
    shown again with nothing changed that its styles depend on, not restyled.

    Textual restyles every widget of a screen each time it is shown again (the resume event's
    public ``refresh_styles``), and each restyled widget draws itself anew: 40-70 ms of a warm
    key. Textual dispatches a handler per class of the MRO, the most derived first, so this
    mixin's public ``on_screen_resume`` runs before Screen's own and can clear the flag when the
    app's theme, colours and focus are as they were when the screen was hidden."""

    styled_for: tuple | None = None
    quiet_events = 0
    quiet_repaints = 0

    def unnoticed(self, events: int, repaints: int) -> None:
        """A screen is about to be pushed over this one and popped at once (built ahead): the
        suspend and resume it posts here and the whole-screen repaints it asks for change nothing
        on screen, and would cost a frame (and this view's resume handlers) for an identical
        picture: the next ``events`` suspend/resume events and ``repaints`` plain repaints are
        dropped."""
        self.quiet_events, self.quiet_repaints = events, repaints

    async def on_event(self, event: events.Event) -> None:
        if self.quiet_events and isinstance(event, (events.ScreenSuspend, events.ScreenResume)):
            self.quiet_events -= 1
            return
        await super().on_event(event)  # BuiltAhead, then QuietWhenClosing

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if self.quiet_repaints and repaint and not (regions or layout or recompose):
            self.quiet_repaints -= 1
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    if TYPE_CHECKING:  # self.app is SeorapApp: Textual's getters.app, for the checker only
        app = getters.app(SeorapApp)

    def style_state(self) -> tuple:
        app = self.app
        return (app.theme, app.app_focus, app.ansi_color)

    def styled_as_now(self) -> bool:
        """Styled (when mounted or last hidden) with the app's theme, colours and focus of now."""
        return self.styled_for is not None and self.styled_for == self.style_state()

    def on_mount(self) -> None:
        app = self.app
        self.styled_for = self.style_state()  # mounting styled every widget with today's CSS
        if isinstance(app, InstantModes) and isinstance(app, App):
            cls = type(self)
            app.view_screens[f"{cls.__module__}:{cls.__qualname__}"] = self

    def on_screen_suspend(self) -> None:
        self.styled_for = self.style_state()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self.styled_as_now():
            event.refresh_styles = False
