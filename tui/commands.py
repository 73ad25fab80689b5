"""Command palette (Ctrl+P): every view, every action of every view (chosen from another view, it
switches there first), the app's own keys, open any trajectory."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.keys import format_key

from seorap.tui.messages import OpenTrajectory
from seorap.tui.modes import VIEWS, screen_class
from seorap.tui.text import visible

if TYPE_CHECKING:
    from seorap.tui.app import SeorapApp


def view_actions() -> list[tuple[str, str, str, str]]:
    """Every view's bindings: (view name, view title, key, description) for each binding with a
    description, in the views' order (the help's F1 lists the same keys per view)."""
    out = []
    for name, (_, title, _) in VIEWS.items():
        for binding in Binding.make_bindings(getattr(screen_class(name), "BINDINGS", [])):
            if binding.description:
                out.append((name, title, binding.key, binding.description))
    return out


def shown_key(key: str) -> str:
    """A binding's key as the keyboard shows it: ``/`` for ``slash``, ``]`` for
    ``right_square_bracket`` (the palette said "key slash")."""
    return ", ".join(format_key(k.strip()) for k in key.split(","))


def _binding_action(name: str, key: str) -> str:
    for binding in Binding.make_bindings(getattr(screen_class(name), "BINDINGS", [])):
        if binding.key == key:
            return binding.action
    raise KeyError(key)


class SeorapCommands(Provider):
    """Views, every view's bindings, the app's keys, one 'open' command per trajectory of the run."""

    if TYPE_CHECKING:

        @property
        def app(self) -> SeorapApp:
            """The palette opens in our app only (Textual types it ``App[object]``)."""

    def _commands(self) -> list[tuple[str, str, Callable[..., Any]]]:
        app = self.app
        out: list[tuple[str, str, Callable[..., Any]]] = [
            (f"View: {title}", f"key {key}", partial(app.action_view, name))
            for name, (key, title, _) in VIEWS.items()
        ]
        for name, title, key, description in view_actions():
            here = app.current_mode == name
            out.append(
                (
                    f"{title.split()[0]}: {description}",
                    f"key {shown_key(key)}"
                    + ("" if here else f" in {title.lower()} (switches there)"),
                    partial(self._run_in_view, name, _binding_action(name, key)),
                )
            )
        run_id = app.ctx.selection.run_id
        if run_id:
            for t in app.ctx.corpus.trajectories:
                out.append(
                    (
                        f"Open trajectory {t.id}",
                        visible(t.title),
                        partial(app.post_message, OpenTrajectory(run_id, t.id)),
                    )
                )
        out.append(("Help for this view", "F1 or ?", app.action_help))
        out.append(("Quit", "key q", app.action_quit))
        return out

    async def _run_in_view(self, name: str, action: str) -> None:
        """Switch to the view when another one is shown (as its key does), wait for its screen to
        be mounted, then run the action on that screen."""
        app = self.app
        if app.current_mode != name:
            screen = app.built_screen(name)
            if screen is not None and hasattr(screen, "fill_before_switch"):
                screen.fill_before_switch()
            await app.switch_mode(name)
        await app.run_action(action, app.screen_stack[0])

    async def discover(self) -> Hits:
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
