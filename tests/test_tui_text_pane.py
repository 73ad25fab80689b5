"""The stepper's text panes (tui/widgets/text_pane.py): wrapped at the pane's width, once per
width, scrolled and drawn a line at a time."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import App

from seorap.tui.widgets.text_pane import TextPane

LONG = Text(
    "다온헬스케어 진료 데이터 백업은 매일 새벽 두 시에 시작된다. " * 6 + "\n" + "끝 줄", "bold"
)


class One(App):
    def compose(self):
        yield TextPane()


def drawn(pane: TextPane) -> list[str]:
    return [pane.render_line(y).text.rstrip() for y in range(pane.size.height)]


async def test_text_wraps_at_the_pane_width_and_is_wrapped_once_per_width():
    async with One().run_test(size=(40, 12)) as pilot:
        pane = pilot.app.query_one(TextPane)
        pane.show_text(LONG)
        await pilot.pause()
        width = pane.scrollable_content_region.width
        lines = drawn(pane)
        assert pane.content == LONG.plain and pane.virtual_size.height > 6
        assert all(cell_len(line) <= width for line in lines)
        assert cell_len(lines[0]) > width - 6  # the pane's width is used, not a narrower one
        assert "".join(lines).replace(" ", "").startswith("다온헬스케어진료데이터백업은")
        strips, _ = pane.wrapped(LONG.copy())
        assert strips is pane.wrapped(LONG)[0]  # the same text at the same width: kept
        await pilot.resize_terminal(60, 12)
        await pilot.pause()
        wider = drawn(pane)
        assert pane.scrollable_content_region.width > width and cell_len(wider[0]) > width
        assert pane.wrapped(LONG)[0] is not strips


async def test_scrolling_shows_the_lines_below_and_blank_past_the_end():
    async with One().run_test(size=(40, 6)) as pilot:
        pane = pilot.app.query_one(TextPane)
        pane.show_text(LONG)
        await pilot.pause()
        top = drawn(pane)
        total = pane.virtual_size.height
        pane.scroll_to(y=2, animate=False, immediate=True)
        await pilot.pause()
        assert drawn(pane)[0] == top[2]
        pane.show_text(Text("짧다"))
        await pilot.pause()
        assert pane.scroll_offset.y == 0 and drawn(pane)[0] == "짧다"
        assert drawn(pane)[1:] == [""] * (pane.size.height - 1) and total > 1
