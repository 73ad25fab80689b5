"""F1/? help lists the keys that exist: every binding of every screen appears in its help text."""

from __future__ import annotations

import importlib
import re

import pytest

from seorap.tui.app import VIEWS, SeorapApp
from seorap.tui.screens.help import GLOBAL

SCREENS = [v[2] for v in VIEWS.values()] + [
    "seorap.tui.screens.side_by_side:SideBySideScreen",
    "seorap.tui.screens.fact_history:FactHistoryScreen",
]
SHOWN = {
    "plus": "+",
    "equals_sign": "=",
    "minus": "-",
    "left": "←",
    "right": "→",
    "up": "↑",
    "down": "↓",
    "home": "Home",
    "end": "End",
    "escape": "Esc",
    "enter": "Enter",
    "tab": "Tab",
    "slash": "/",
    "question_mark": "?",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "f1": "F1",
    "colon": ":",
}


def keys_in(help_text: str) -> set[str]:
    """The keys a help text names: the tokens of its **bold** spans (`**[ / ]**` → [, ])."""
    spans = re.findall(r"\*\*(.+?)\*\*", help_text)
    return {
        t for span in spans for t in ([span] if span == "/" else re.split(r"[\s,/]+", span)) if t
    }


def binding_keys(cls) -> list[str]:
    return [SHOWN.get(k, k) for b in getattr(cls, "BINDINGS", []) for k in b.key.split(",")]


@pytest.mark.parametrize("path", SCREENS)
def test_every_binding_of_a_screen_is_in_its_help(path):
    module, name = path.split(":")
    cls = getattr(importlib.import_module(module), name)
    named = keys_in(cls.HELP + "\n" + GLOBAL)
    missing = [k for k in binding_keys(cls) if k not in named]
    assert not missing, f"{name} help lacks {missing}"


def test_every_app_binding_is_in_the_global_help():
    named = keys_in(GLOBAL)
    assert not [k for k in binding_keys(SeorapApp) if k not in named]


WIDGET_KEYS = {"Enter", "Tab", "↑", "↓", "Esc", "Ctrl+P", "Ctrl+Q"}
"""Keys the help may name that come from Textual's widgets and app, not from BINDINGS."""


@pytest.mark.parametrize("path", SCREENS)
def test_help_names_no_key_that_does_not_exist(path):
    module, name = path.split(":")
    cls = getattr(importlib.import_module(module), name)
    exists = set(binding_keys(cls)) | set(binding_keys(SeorapApp)) | WIDGET_KEYS | {"1", "7"}
    assert not keys_in(cls.HELP) - exists, f"{name} help names keys it has no binding for"
