"""The command palette (Ctrl+P) lists every action of the app, whichever view is shown."""

from __future__ import annotations

from test_tui_support import run_from_palette

from seorap.tui.commands import SeorapCommands, view_actions
from seorap.tui.factory import make_app
from seorap.tui.modes import VIEWS, screen_class

SIZE = (160, 45)


def test_view_actions_cover_every_described_binding_of_every_view():
    listed = {(name, key) for name, _, key, _ in view_actions()}
    for name in VIEWS:
        for binding in screen_class(name).BINDINGS:
            if binding.description:
                assert (name, binding.key) in listed
    assert {name for name, *_ in view_actions()} >= {"stepper", "questions", "demo", "live"}


async def test_palette_from_the_runs_view_lists_other_views_actions_and_runs_them(ref):
    from seorap.tui.screens.side_by_side import SideBySideScreen

    path, _ = ref
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        assert app.current_mode == "runs"
        names = [name for name, _, _ in SeorapCommands(app.screen)._commands()]
        for wanted in ("Trajectory: fact history", "Demo: side by side", "Score: next run", "Quit"):
            assert wanted in names
        await run_from_palette(
            pilot, "Demo: side by side", lambda: isinstance(app.screen, SideBySideScreen)
        )
        assert app.current_mode == "demo"
        assert isinstance(app.screen, SideBySideScreen)


def test_the_palette_names_keys_as_the_keyboard_shows_them():
    from seorap.tui.commands import shown_key

    assert shown_key("slash") == "/"  # was "key slash"
    assert shown_key("right_square_bracket") == "]"
    assert shown_key("f1,question_mark") == "f1, ?"
    assert shown_key("v") == "v"
