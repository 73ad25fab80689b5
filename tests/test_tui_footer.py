"""The footer: one line that shows the view's keys as Textual's Footer does, presses a key clicked,
highlights the key under the pointer, and shows a view's keys the first time the view is drawn."""

from __future__ import annotations

from test_tui_small_sizes import screen_text

from seorap.tui.factory import make_app
from seorap.tui.screens.help import HelpScreen
from seorap.tui.screens.stepper import StepperScreen
from seorap.tui.widgets.footer import KeysFooter


def _column_of(footer: KeysFooter, key: str) -> int:
    return next(x for x in range(footer.size.width) if getattr(footer.key_at(x), "key", "") == key)


async def test_a_click_on_a_key_presses_it_and_the_pointer_highlights_it(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(KeysFooter)
        x = _column_of(footer, "f1")
        assert footer.key_at(x - 1) is not None and footer.key_at(x - 1).key != "f1"
        await pilot.hover(KeysFooter, offset=(x + 1, 0))
        assert footer.hovered.key == "f1" and footer.tooltip is None  # no tooltip of its own
        await pilot.hover(KeysFooter, offset=(footer.size.width - 4, 0))  # the palette's key
        assert footer.hovered.action == "command_palette" and footer.tooltip  # Textual's own
        await pilot.hover(KeysFooter, offset=(footer.size.width - 20, 0))  # between the keys
        assert footer.hovered is None and footer.tooltip is None
        await pilot.click(KeysFooter, offset=(x + 1, 0))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_a_view_built_ahead_shows_its_keys_when_first_drawn(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(1.0)  # the views are built meanwhile
        await pilot.press("2")
        await pilot.pause()
        assert isinstance(app.screen, StepperScreen)
        footer = screen_text(app).splitlines()[-1]
        assert "next change" in footer and "help" in footer and "palette" in footer, footer
        assert footer.rstrip().endswith("^p palette")  # the palette's key at the right edge


async def test_too_narrow_for_the_palette_the_footer_keeps_help_and_quit_whole(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(26, 12)) as pilot:
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        assert "f1 help" in footer and "q quit" in footer and "^p" not in footer, footer
        keys = [k.key for k in app.screen.query_one(KeysFooter).shown()[0]]
        assert keys[-2:] == ["f1", "q"]  # the palette's key went; the room left takes others
