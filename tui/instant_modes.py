"""Views switch in one frame, and each view is built before its key is first pressed
(docs/design.md#quality-bars: every key ≤ 100 ms).

Three costs sat on every view key, whatever the view did:

- Textual's ``App.switch_mode`` holds all frames back for 50 ms (``App.delay_update``) so that a
  screen still composing its widgets is not drawn half-built. A view that is already built has
  nothing to hide, and the wait was half of a warm key's time. ``InstantModes`` keeps the wait for a
  view's first build and drops it for a view that exists.
- The first press of a view's key composed its widgets, styled and mounted them and loaded its data:
  130-330 ms. ``InstantModes.prebuild`` does that work ahead, while the user reads the first view:
  the screen is built and mounted but not shown, and ``switch_mode`` then finds it ready, as it
  does a view shown before. A screen built ahead gets its ``ScreenResume`` (where views read their
  data) only when it is shown, as any view does.
- Each time a screen is shown again Textual restyles every widget on it, and each restyled widget
  draws itself anew: 40-70 ms of a warm key, though nothing that styles depend on had changed.
  ``QuietResume`` skips that restyle when the app's CSS, theme and focus are as they were when the
  screen was last styled (when it was hidden, or built); otherwise Textual restyles as before.

This follows private attributes of Textual 8.2.8 (pinned exactly in pyproject.toml):
``App._screen_stacks`` (one stack of screens per mode), ``App._modes``, ``App._get_screen`` and
``App._load_screen_css``, which ``App._init_mode`` uses to build a mode's screen, the counter
(``_css_update_count``) by which ``switch_mode`` decides whether to restyle the whole app, and the
private handlers ``Screen._on_screen_resume`` / ``_on_screen_suspend`` (``QuietResume`` runs just
before them, as Textual dispatches a handler of each class in the MRO). When a release
lacks them, ``FAST_PATH`` is False: views are built on first use and every switch waits Textual's
50 ms, as before (tests/test_textual_private.py checks both paths).
"""

from __future__ import annotations

from textual.app import App
from textual.screen import Screen

PRIVATE_NAMES = ("_get_screen", "_load_screen_css", "_init_mode")
"""Private App methods this module calls or mirrors (and the Screen methods below)."""
SCREEN_PRIVATE_NAMES = (
    "_refresh_layout",
    "_on_screen_resume",
    "_on_screen_suspend",
    "_update_auto_focus",
)
PRIVATE_ATTRIBUTES = ("_screen_stacks", "_modes", "_css_update_count")
"""Private attributes of an App instance this module reads and fills."""


def missing_private_names(app: object | None = None) -> list[str]:
    missing = [name for name in PRIVATE_NAMES if not callable(getattr(App, name, None))]
    missing += [name for name in SCREEN_PRIVATE_NAMES if not callable(getattr(Screen, name, None))]
    if app is not None:
        missing += [name for name in PRIVATE_ATTRIBUTES if not hasattr(app, name)]
    return missing


FAST_PATH = not missing_private_names()


class InstantModes:
    """Mixin for an App with MODES; put it first in the bases."""

    _instant_switch = False
    _has_private_names: bool | None = None

    def _fast(self) -> bool:
        """FAST_PATH, and this app has the private attributes (looked up once: it is asked on
        every switch and every building step)."""
        if self._has_private_names is None:
            self._has_private_names = not missing_private_names(self)
        return FAST_PATH and self._has_private_names

    def mode_built(self, mode: str) -> bool:
        """The mode's screen exists (built ahead or shown before)."""
        return self._fast() and bool(self._screen_stacks.get(mode))  # type: ignore[attr-defined]

    def switch_mode(self, mode: str):  # type: ignore[override]
        self._instant_switch = self.mode_built(mode)
        try:
            return super().switch_mode(mode)  # type: ignore[misc]
        finally:
            self._instant_switch = False

    def delay_update(self, delay: float = 0.05) -> None:
        """Textual's switch_mode calls this to hide a screen still composing; a built one is shown
        in the next frame."""
        if not self._instant_switch:
            super().delay_update(delay)  # type: ignore[misc]

    def prebuild(self, mode: str) -> bool:
        """Build and mount the mode's screen without showing it (as ``App._init_mode`` does, minus
        the resume); True when it built one now."""
        if (
            not self._fast()
            or not self.is_running  # type: ignore[attr-defined]
            or mode == self.current_mode
            or self.mode_built(mode)
        ):  # type: ignore[attr-defined]
            return (
                False  # (shutting down: App._close_all is walking the stacks a build would add to)
            )
        factory = self._modes.get(mode)  # type: ignore[attr-defined]
        if not callable(factory):
            return False
        self._screen_stacks[mode] = [self._build(factory())]  # type: ignore[attr-defined]
        return True

    def prebuild_installed(self, name: str, factory) -> bool:
        """Install (App.install_screen) and mount a pushed screen ahead, e.g. a view's overlay
        that is kept between visits; True when it built one now."""
        if not self._fast() or not self.is_running or self.is_screen_installed(name):  # type: ignore[attr-defined]
            return False
        screen = factory()
        self.install_screen(screen, name)  # type: ignore[attr-defined]
        self._build(screen)
        return True

    def _build(self, screen: Screen) -> Screen:
        built, _ = self._get_screen(screen)  # type: ignore[attr-defined]
        self._load_screen_css(built)  # type: ignore[attr-defined]
        # Mounting styles the screen with the stylesheet as it is now: its first switch need not
        # restyle every screen of the app (App.refresh_css, 250 ms with all views built). A later
        # change of theme or CSS still makes the counts differ, and the switch refreshes then.
        built._css_update_count = self._css_update_count  # type: ignore[attr-defined]
        if isinstance(built, QuietResume):
            built.styled_now()
        return built

    PRELAYOUT_PASSES = 3
    """Layout passes offscreen per screen at most: laying out sends widgets their sizes, and some
    (wrapped text) then ask for another layout; a widget that always asks cannot keep the app busy."""

    def prelayout(self, screen: Screen | None) -> bool:
        """Lay a screen built ahead out at the app's size and draw it offscreen once it is mounted,
        and again while its widgets ask for it, so that its first showing only draws what changed;
        True when it did. A screen that is not current is laid out but never displayed (as
        Screen._on_timer_update does for the current one, minus the display)."""
        if (
            screen is None
            or not self._fast()
            or screen is self.screen  # type: ignore[attr-defined]
            or not screen.is_mounted
        ):
            return False
        passes = getattr(screen, "_prelayout_passes", 0)
        pending = (
            screen._size != self.size
            or screen._layout_required  # type: ignore[attr-defined]
            or screen._dirty_widgets
        )  # type: ignore[attr-defined]
        if not pending or passes >= self.PRELAYOUT_PASSES:
            return False
        screen._prelayout_passes = passes + 1  # type: ignore[attr-defined]
        # focused as on its first showing (Screen._on_screen_resume), so that the styles and the
        # footer keys that depend on focus settle now, not in the first frames of the switch
        screen._update_auto_focus()  # type: ignore[attr-defined]
        screen._refresh_layout(self.size)  # type: ignore[attr-defined]
        screen._layout_required = False  # type: ignore[attr-defined]
        screen._dirty_widgets.clear()  # type: ignore[attr-defined]
        screen._compositor.render_update(full=True)  # type: ignore[attr-defined]
        return True

    def restyle(self, screen: Screen | None) -> bool:
        """Bring a built screen that is not shown up to the app's CSS (the view first shown at
        start was styled before the theme settled, and a theme change restyles only the current
        screen): what App.refresh_css would do to every screen of the app at its next switch,
        for this screen alone; True when it did."""
        if (
            screen is None
            or not self._fast()
            or screen is self.screen  # type: ignore[attr-defined]
            or not screen.is_mounted
            or screen._css_update_count == self._css_update_count
        ):  # type: ignore[attr-defined]
            return False
        self.stylesheet.update(screen)  # type: ignore[attr-defined]
        screen._css_update_count = self._css_update_count  # type: ignore[attr-defined]
        if isinstance(screen, QuietResume):
            screen.styled_now()
        return True

    def built_screens(self) -> list[Screen]:
        """Every view's screen built so far (ahead or when shown) and every installed screen."""
        stacks = getattr(self, "_screen_stacks", None)  # private: the current stack without it
        screens = (
            [screen for stack in stacks.values() for screen in stack]
            if isinstance(stacks, dict)
            else list(self.screen_stack)
        )  # type: ignore[attr-defined]
        installed = getattr(self, "_installed_screens", {})
        screens += [screen for screen in installed.values() if isinstance(screen, Screen)]
        return list(dict.fromkeys(screens))

    def built_screen(self, mode: str) -> Screen | None:
        """The base screen of a mode built ahead or shown before."""
        return self._screen_stacks[mode][0] if self.mode_built(mode) else None  # type: ignore[attr-defined]


class QuietResume:
    """Mixin for a view's Screen (first in the bases): shown again with nothing changed that its
    styles depend on, it is not restyled (see the module's docstring)."""

    _styled_for: tuple | None = None

    def _style_state(self) -> tuple:
        app = self.app  # type: ignore[attr-defined]
        return (getattr(app, "_css_update_count", None), app.theme, app.app_focus, app.ansi_color)

    def styled_now(self) -> None:
        """The screen's styles match the app as it is now."""
        self._styled_for = self._style_state()

    def _on_screen_suspend(self) -> None:
        # dispatched before Screen._on_screen_suspend (a handler per class of the MRO, no super())
        self.styled_now()

    def _on_screen_resume(self, event) -> None:
        # dispatched before Screen._on_screen_resume, which restyles when refresh_styles is set
        if FAST_PATH and self._styled_for is not None and self._styled_for == self._style_state():
            event.refresh_styles = False
