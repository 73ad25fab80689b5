"""Titles ask for a layout only when their height may change (tui/widgets/title.py), and the score
cards' charts are built once per figure, size and theme (tui/widgets/kept_plot.py)."""

from __future__ import annotations

from rich.text import Text
from test_tui_support import open_score_cards
from textual.app import App
from textual.widget import Widget
from textual_plotext.plot import Plot

from seorap.tui.factory import make_app
from seorap.tui.widgets.title import Title


class Titled(App):
    CSS = "#auto { height: auto; } #fixed { height: 2; }"

    def compose(self):
        yield Title("첫 제목", id="auto")
        yield Title("고정", id="fixed")


async def test_a_title_asks_for_a_layout_only_when_its_height_may_change(monkeypatch):
    asked = []
    real = Widget.refresh
    monkeypatch.setattr(
        Widget,
        "refresh",
        lambda self, *a, layout=False, **k: (
            (asked.append((self.id, layout)) if isinstance(self, Title) else None)
            or real(self, *a, layout=layout, **k)
        ),
    )
    async with Titled().run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        auto, fixed = pilot.app.query_one("#auto", Title), pilot.app.query_one("#fixed", Title)
        asked.clear()
        auto.update(Text("같은 한 줄 제목"))
        fixed.update("아주 긴 제목 " * 10)
        assert asked == [("auto", False), ("fixed", False)]
        auto.update("[b]같은[/b] 한 줄")  # a string may hold markup: asked, to be safe
        assert asked[-1] == ("auto", True)
        auto.update("두 줄로 넘어가는 아주 긴 제목 " * 3)
        assert asked[-1] == ("auto", True)
        await pilot.pause()
        assert auto.size.height > 1 and "두 줄로" in str(auto.content)


async def test_a_run_drawn_before_draws_no_chart_again(ref, monkeypatch):
    """`v` cycles the scored runs; once each was drawn, cycling again builds no chart (plotext
    built both charts on every `v`, ~25 ms)."""
    builds = []
    real = Plot.build
    monkeypatch.setattr(Plot, "build", lambda self: builds.append(1) or real(self))
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await open_score_cards(pilot)
        runs = len(app.screen.reports)
        for _ in range(runs):
            await pilot.press("v")
            await pilot.pause()
        assert builds and runs > 1
        builds.clear()
        for _ in range(runs):
            await pilot.press("v")
            await pilot.pause()
        assert builds == []
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        assert builds  # another theme: drawn again in its colours
