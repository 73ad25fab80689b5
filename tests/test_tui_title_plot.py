"""Titles ask for a layout only when their height may change (tui/widgets/title.py)."""

from __future__ import annotations

from rich.text import Text
from textual.app import App
from textual.widget import Widget

from seorap.tui.widgets.title import Title


class Titled(App):
    CSS = "#auto { height: auto; } #fixed { height: 2; }"

    def compose(self):
        yield Title("첫 제목", id="auto")
        yield Title("고정", id="fixed")


async def test_a_title_asks_for_a_layout_only_when_its_height_may_change(monkeypatch):
    asked = []
    real = Widget.refresh
    monkeypatch.setattr(Widget, "refresh", lambda self, *a, layout=False, **k:
                        (asked.append((self.id, layout)) if isinstance(self, Title) else None)
                        or real(self, *a, layout=layout, **k))
    async with Titled().run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        auto, fixed = pilot.app.query_one("#auto", Title), pilot.app.query_one("#fixed", Title)
        asked.clear()
        auto.update(Text("같은 한 줄 제목"))
        fixed.update("아주 긴 제목 " * 10)
        assert asked == [("auto", False), ("fixed", False)]
        auto.update("두 줄로 넘어가는 아주 긴 제목 " * 3)
        assert asked[-1] == ("auto", True)
        await pilot.pause()
        assert auto.size.height > 1 and "두 줄로" in str(auto.content)

