"""QA fixes of the app, driven by keys through Pilot: stepper search, the operation log's
candidate ids and guard label, changed facts first, a narrow terminal, the compare title, the
side-by-side fallback and the fact-history title."""

from __future__ import annotations

from seorap.engine.views import Candidate, Operation
from seorap.tui.factory import make_app
from seorap.tui.screens.stepper import StepperScreen
from seorap.tui.widgets.operations import render_operation
from seorap.tui.widgets.store_table import StoreTable

GARAM = "ko-c5-garam-db"


def test_operation_names_candidate_facts_and_the_guard_once():
    op = Operation(
        "o1",
        "obs",
        "status",
        [Candidate("run/t/f0007", "old fact", 0.91)],
        "update",
        "reinforce",
        "downgrade",
        "downgrade: update → reinforce (older observation)",
        "run/t/f0007",
        "old fact",
        "old fact",
        "",
    )
    plain = render_operation(1, op).plain
    assert "0.910 f0007 old fact" in plain
    assert "guard downgrade: update → reinforce" in plain
    assert "downgrade: downgrade" not in plain


async def test_stepper_search_jumps_to_the_document_and_n_goes_on(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id=GARAM)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = app.screen
        assert isinstance(screen, StepperScreen)
        found = screen.matches("Aurora")
        positions = sorted({m.position for m in found})
        assert len(positions) >= 2
        await pilot.press("slash", *"Aurora")
        await pilot.pause()
        assert app.ctx.selection.position == found[0].position
        await pilot.press("enter")
        later = next(n for n, m in enumerate(found) if m.position == positions[1])
        await pilot.press(*["n"] * later)  # n walks every hit: facts, observations, documents
        await pilot.pause()
        assert app.ctx.selection.position == positions[1]
        await pilot.press("N")
        assert screen.match_index == later - 1
        await pilot.press("slash", *"zzqq", "enter")
        await pilot.pause()
        assert app.ctx.selection.position == found[later - 1].position  # no match: stays
        assert screen.matches("zzqq") == []


async def test_store_lists_this_steps_changes_on_top(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id=GARAM)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("right", "right")
        store = app.screen.query_one(StoreTable)
        marks = [str(store.get_row_at(i)[0]) for i in range(store.row_count)]
        assert marks[0] in {"NEW", "UPDATED", "REINFORCED", "SUPERSEDED"}
        first_blank = marks.index("") if "" in marks else len(marks)
        assert all(m == "" or m == "STALE" for m in marks[first_blank:])


async def test_narrow_terminal_gives_the_store_room(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id=GARAM)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.has_class("-narrow")
        assert screen.query_one("#timeline").size.width <= 19
        assert screen.query_one("#step-right").size.width > screen.query_one("#document").size.width
        assert str(screen.query_one("#step-title").content).startswith("doc 1/")  # first


async def test_compare_title_is_visible(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("5")
        await pilot.pause()
        title = app.screen.query_one("#compare-title")
        assert "A = " in str(title.content)
        assert title.region.y >= 1 and title.region.height >= 1  # on screen, under the header
        assert app.screen.scroll_y == 0


async def test_side_by_side_offers_the_stale_case_like_the_tour(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("7")
        await app.workers.wait_for_complete()  # the stale-fact case is found in a worker
        await pilot.pause()
        tour = app.screen
        if tour.stops.get("compensation") is not None or tour.stale is None:
            return  # the reference runs have a real compensation case: nothing to fall back to
        await pilot.press("s")
        await pilot.pause()
        side = app.screen
        title = str(side.query_one("#side-compensation-title").content)
        assert "offered instead" in title and tour.stale.trajectory_id in title
        left = side.query_one("#side-compensation-store")
        assert left.row_count > 0  # the stale case's store fills the left panel (was: headers only)
        assert any(f.stale for f in left.facts)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, StepperScreen)
        assert app.ctx.selection.trajectory_id == tour.stale.trajectory_id
        assert app.ctx.selection.position == tour.stale.position  # the step that shows the case
        assert app.screen.step.stale_facts


async def test_fact_history_title_says_version_in_the_singular(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id=GARAM)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f")
        await pilot.pause()
        title = str(app.screen.query_one("#fact-title").content)
        assert " version · " in title or " versions · " in title
        assert " 1 versions" not in title
