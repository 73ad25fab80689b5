"""What a view's first fill shows, read in a thread before the app builds the view ahead (its
screen's ``prepare(app)``, a static method): building it then holds the event loop only to fill it
(issue 36: no piece of work ahead over 20 ms while a key may be waiting)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from seorap.engine import views
from seorap.tui.modes import KEPT_SCREENS, VIEWS, screen_class

if TYPE_CHECKING:
    from seorap.tui.app import SeorapApp


async def prepare_ahead(app: SeorapApp, name: str, judging: bool, wait_s: float) -> None:
    """Run view ``name``'s ``prepare`` in a thread. A ``judging`` view (one whose fill may judge)
    reads without waiting for the judge's analyser; when a verdict it needs was not stored (the
    analyser would be waited for), it reads again once the analyser is ready, looking every
    ``wait_s``."""
    target = name if name in VIEWS else KEPT_SCREENS[name]
    prepare = getattr(screen_class(target), "prepare", None)
    if prepare is None:
        return
    if not judging:
        await asyncio.to_thread(prepare, app)
        return
    while not await asyncio.to_thread(_prepared_without_judge, prepare, app):
        while not views.judge_warm():
            await asyncio.sleep(wait_s)


def _prepared_without_judge(prepare: Callable[[SeorapApp], None], app: SeorapApp) -> bool:
    """Run a view's ``prepare`` (in a thread); False when it needed a judgement the analyser
    process is not ready for."""
    try:
        with views.judge_no_wait():
            prepare(app)
    except views.JudgeNotReady:
        return False
    return True
