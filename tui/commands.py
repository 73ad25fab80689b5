"""Command palette (Ctrl+P): every view, every action of the current screen, open any trajectory."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from seorap.tui.messages import OpenTrajectory
from seorap.tui.modes import VIEWS
from seorap.tui.text import visible
from textual.command import DiscoveryHit, Hit, Hits, Provider


class SeorapCommands(Provider):
    """Views, the focused screen's bindings, and one 'open' command per trajectory of the run."""

    def _commands(self) -> list[tuple[str, str, Callable]]:
        app = self.app
        out = [
            (f"View: {title}", f"key {key}", partial(app.action_view, name))
            for name, (key, title, _) in VIEWS.items()
        ]
        screen = app.screen_stack[0] if len(app.screen_stack) > 1 else app.screen
        for binding in getattr(type(screen), "BINDINGS", []):
            out.append(
                (
                    f"{type(screen).__name__.removesuffix('Screen')}: {binding.description}",
                    f"key {binding.key}",
                    partial(app.run_action, binding.action, screen),
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
        return out

    async def discover(self) -> Hits:
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
