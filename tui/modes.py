"""The views of the app, by name: its Textual modes, their keys and titles (the app and the command
palette both read this list)."""

from __future__ import annotations

import importlib

VIEWS = {
    "runs": ("1", "Runs and trajectories", "seorap.tui.screens.runs:RunsScreen"),
    "stepper": ("2", "Trajectory stepper", "seorap.tui.screens.stepper:StepperScreen"),
    "questions": ("3", "Questions and retrieval", "seorap.tui.screens.questions:QuestionsScreen"),
    "scores": ("4", "Score cards", "seorap.tui.screens.scores:ScoresScreen"),
    "compare": ("5", "Compare two runs", "seorap.tui.screens.compare:CompareScreen"),
    "live": ("6", "Live run", "seorap.tui.screens.live:LiveScreen"),
    "demo": ("7", "Demo tour", "seorap.tui.screens.demo:DemoScreen"),
}
"""name -> (key, title, "module:Screen"); screens are imported when first shown (first paint)."""

SIDE_BY_SIDE = "side-by-side"
KEPT_SCREENS = {SIDE_BY_SIDE: "seorap.tui.screens.side_by_side:SideBySideScreen"}
"""Pushed screens installed once and kept between visits (name -> "module:Screen")."""


def screen_class(name: str) -> type:
    """The screen class of a view (or of a "module:Screen" target), imported on first use."""
    module, cls = (VIEWS[name][2] if name in VIEWS else name).split(":")
    screen: type = getattr(importlib.import_module(module), cls)
    return screen
