"""The stepper at the scale of real runs (issue 25): run A of ko-c4-late-memo written offline by the
stand-in (~60 new facts a document). At 100×30 doc 2's supersede is named in the title on arrival
and one key (the changed filter, or `x`) or an id search puts it in the store pane; text search
selects the matching fact or observation; each pane has its key; at 80×24 the fact text keeps
its width; the fact history's why is readable at 100×30."""

from __future__ import annotations

import pytest
from store_support import copy_db
from test_tui_support import CORPUS, reference_db

from seorap.engine import views
from seorap.engine.corpus import load_corpus
from seorap.engine.store.database import open_db
from seorap.tui.factory import make_app
from seorap.tui.screens.fact_history import FactHistoryScreen
from seorap.tui.widgets.operations import OperationLog
from seorap.tui.widgets.store_table import StoreTable

LATE = "ko-c4-late-memo"
SMALL = (100, 30)


@pytest.fixture(scope="module")
def run_a_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("a") / "a.db"
    reference_db(path, ["A"], trajectories=[LATE])
    return path


@pytest.fixture
def run_a(run_a_path, tmp_path):
    """(path, run id, the supersedes doc 2 made as the engine reads them)."""
    path = copy_db(run_a_path, tmp_path / "a.db")
    db = open_db(path)
    [run_id] = [r["run_id"] for r in db.query("SELECT run_id FROM runs WHERE system='A'")]
    step = views.step_view(db, load_corpus(CORPUS), run_id, LATE, 1)
    summary = views.step_summary(step)
    assert summary.new > 40 and summary.superseded  # the real-run shape this test is about
    return path, run_id, summary


def title_lines(app) -> list[str]:
    return str(app.screen.query_one("#step-title").content).split("\n")


def visible(store: StoreTable, fact_id: str) -> bool:
    """The fact's row is among the rows the pane shows now (under the header)."""
    row = next(n for n, f in enumerate(store.facts) if f.id == fact_id)
    top = int(store.scroll_y)
    return top <= row < top + store.size.height - 1


def screen_lines(app) -> list[str]:
    return ["".join(s.text for s in strip) for strip in app.screen._compositor.render_strips()]


async def test_the_supersede_is_named_on_arrival_and_one_key_shows_it(run_a):
    path, run_id, summary = run_a
    link = summary.superseded[0]
    pair = views.supersede_text(link)  # e.g. f0030→f0108, whatever ids the stand-in gave
    app = make_app(path, run_id=run_id, trajectory_id=LATE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("right")
        await pilot.pause()
        lines = title_lines(app)
        assert lines[0].startswith("doc 2/4")
        assert f"superseded: {pair}" in lines[1] and f"+{summary.new} new" in lines[1]
        assert any(pair in line for line in screen_lines(app)[:4])  # drawn, not cut
        store = app.screen.query_one(StoreTable)
        assert store.size.height >= 7  # the view's subject: header + 6 facts at 100×30
        # on arrival the supersede pair is the store's first two rows
        assert [f.id for f in store.facts[:2]] == [link.old, link.new]
        await pilot.press("v")  # changed at this document only
        await pilot.pause()
        assert store.filter == "changed" and all(f.mark for f in store.facts)
        assert visible(store, link.old) and visible(store, link.new)
        assert len(store.facts) == summary.new + summary.updated + summary.reinforced + 2
        assert "changed at this document" in str(app.screen.query_one("#store-title").content)
        for _ in views.FILTERS[2:]:
            await pilot.press("v")
            await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        assert store.filter == "all"


async def test_x_walks_the_summary_and_a_click_on_it_too(run_a):
    path, run_id, summary = run_a
    link = summary.superseded[0]
    app = make_app(path, run_id=run_id, trajectory_id=LATE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("right", "down", "down", "x")
        await pilot.pause()
        store = app.screen.query_one(StoreTable)
        assert app.focused is store and store.focused_fact().id == link.old
        assert "superseded" in app.screen.query_one("#detail").content
        await pilot.press("x")
        await pilot.pause()
        assert store.focused_fact().id == link.new
        assert "replaces" in app.screen.query_one("#detail").content
        await pilot.click("#step-title", offset=(5, 1))  # the summary line
        await pilot.pause()
        assert store.focused_fact().id == summary.targets[2 % len(summary.targets)]


async def test_id_search_and_go_to_select_the_fact(run_a):
    path, run_id, summary = run_a
    link = summary.superseded[0]
    old, new = views.short_id(link.old), views.short_id(link.new)
    app = make_app(path, run_id=run_id, trajectory_id=LATE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("right", "v", "v", "v")  # a filter (stale) that hides it
        await pilot.pause()
        store = app.screen.query_one(StoreTable)
        await pilot.press("slash", *old, "enter")
        await pilot.pause()
        assert app.ctx.selection.position == 1  # in this document's store: stays
        assert store.focused_fact().id == link.old and visible(store, link.old)
        assert store.filter == "all"  # the filter gave way
        await pilot.press("home", "colon", *new, "enter")  # from doc 1: where it was written
        await pilot.pause()
        assert app.ctx.selection.position == 1 and store.focused_fact().id == link.new
        await pilot.press("colon", "3", "enter")
        await pilot.pause()
        assert app.ctx.selection.position == 2
        await pilot.press("colon", "f9999", "enter")
        await pilot.pause()
        assert app.ctx.selection.position == 2  # no such fact: says so, stays


async def test_text_search_selects_the_fact_or_observation_and_n_N_walk(run_a):
    path, run_id, summary = run_a
    link = summary.superseded[0]
    db = open_db(path)
    [text] = [
        r["text"] for r in db.query("SELECT text FROM fact_versions WHERE fact_id=?", [link.new])
    ]
    words = " ".join(text.split()[:2])  # "다른 API는": the start of the replacing fact
    app = make_app(path, run_id=run_id, trajectory_id=LATE)
    async with app.run_test(size=SMALL) as pilot:
        screen = app.screen
        found = screen.matches(words)
        assert views.Match(1, "fact", link.new) in found
        await pilot.press("slash", *words, "enter")
        await pilot.pause()
        first = found[screen.match_index]
        assert app.ctx.selection.position == first.position
        store, log = screen.query_one(StoreTable), screen.query_one(OperationLog)
        for _ in range(len(found)):
            m = screen.found[screen.match_index]
            if m.kind == "fact":
                assert store.focused_fact().id == m.key and visible(store, m.key)
            elif m.kind == "observation":
                assert log.selected == m.key and "▶ " in log.content
                assert log.scroll_y > 0 or log.content.index("▶ ") < 400  # scrolled to it
            if m == views.Match(1, "fact", link.new):
                break
            await pilot.press("n")
            await pilot.pause()
        else:
            pytest.fail("n never reached the replacing fact")
        at = screen.match_index
        await pilot.press("N")
        await pilot.pause()
        assert screen.match_index == (at - 1) % len(found)


async def test_each_pane_has_a_key_and_shows_its_focus(run_a):
    path, run_id, _ = run_a
    app = make_app(path, run_id=run_id, trajectory_id=LATE)
    async with app.run_test(size=SMALL) as pilot:
        for key, pane in (
            ("d", "document"),
            ("l", "operations"),
            ("i", "detail"),
            ("t", "timeline"),
        ):
            await pilot.press(key)
            await pilot.pause()
            assert app.focused.id == pane
        await pilot.press("s")
        await pilot.pause()
        assert app.focused.id == "store"
        assert app.screen.query_one("#store-title").has_class("-focused")
        await pilot.press("c")
        await pilot.pause()
        assert app.focused.id == "claims"
        assert app.screen.query_one("#claims-title").has_class("-focused")
        assert not app.screen.query_one("#store-title").has_class("-focused")


async def test_the_log_lists_changes_first(run_a):
    path, run_id, summary = run_a
    app = make_app(path, run_id=run_id, trajectory_id=LATE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("right")
        await pilot.pause()
        log = app.screen.query_one(OperationLog).content
        body = log[log.index("Operation log") :]
        first = body.split("\n")[2:]  # the first observation's lines
        assert any("→ supersede" in line for line in first[:6]), first[:6]
        assert body.index("→ supersede") < body.index("→ create")


async def test_80_columns_keep_the_fact_text_readable(run_a):
    path, run_id, summary = run_a
    link = summary.superseded[0]
    app = make_app(path, run_id=run_id, trajectory_id=LATE)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right")
        await pilot.pause()
        store = app.screen.query_one(StoreTable)
        fact = store.facts[0]
        assert fact.id == link.old
        row = next(line for line in screen_lines(app) if views.short_id(link.old) + " " in line)
        shown = row[row.index(views.short_id(link.old)) :]
        # at least 10 characters (~18 cells of Korean) of the fact text are on screen
        assert fact.text[:10] in shown, row
        assert views.supersede_text(link) in title_lines(app)[1]


async def test_fact_history_why_is_readable_at_100x30(run_a):
    path, run_id, summary = run_a
    link = summary.superseded[0]
    app = make_app(path, run_id=run_id, trajectory_id=LATE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("right", "x", "x", "f")
        await pilot.pause()
        assert isinstance(app.screen, FactHistoryScreen)
        assert app.screen.fact_id == link.new
        lines = screen_lines(app)
        why = link.why()
        assert why and any(why in line for line in lines), why  # the whole reason, in the table
        assert "observation: " in str(app.screen.query_one(".fact-text").content)
