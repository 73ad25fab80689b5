"""The app driven by keyboard through Pilot: what each view shows after real key presses."""

from __future__ import annotations

from test_tui_support import until

from seorap.tui.factory import make_app
from seorap.tui.screens.runs import RunsScreen
from seorap.tui.screens.stepper import StepperScreen
from seorap.tui.widgets.claims_table import ClaimsTable
from seorap.tui.widgets.store_table import StoreTable

SIZE = (180, 50)
GARAM = "ko-c5-garam-db"


def cell_texts(table, column: int) -> list[str]:
    return [str(table.get_row_at(i)[column]) for i in range(table.row_count)]


def plain(widget) -> str:
    return str(widget.content)


async def test_runs_table_lists_every_trajectory_with_quadrants(ref):
    path, ids = ref
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        table = screen.query_one("#runs-table")
        assert table.row_count == 3 * 12
        quadrants = set(cell_texts(table, 7))
        # every reference run's judge is trusted (oracle-merged's answers are clauses, not the
        # merged fact whole), so every row shows a quadrant
        assert quadrants <= {"healthy", "compensation", "bottleneck", "both-low"}
        await pilot.press("v")  # first system only
        assert set(cell_texts(table, 0)) == {"oracle"}
        await pilot.press("c", "c", "c", "c", "c")  # C1 → C5
        assert set(cell_texts(table, 2)) == {"C5"}
        assert table.row_count == 2
        await pilot.press("escape")
        assert table.row_count == 36
        await pilot.press("slash", *"garam", "enter")
        assert table.row_count == 3


async def test_enter_opens_stepper_and_arrows_step(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"garam", "enter", "v", "enter")
        await pilot.pause()
        assert isinstance(app.screen, StepperScreen)
        assert app.ctx.selection.trajectory_id == GARAM
        assert app.ctx.selection.position == 0
        await pilot.press("right", "right")
        assert app.ctx.selection.position == 2
        store = app.screen.query_one(StoreTable)
        marks = dict(zip([f.text for f in store.facts], cell_texts(store, 0)))
        assert marks["가람상사 DB 이전 대상은 Aurora로 결정"] == "NEW"
        assert marks["Aurora와 AlloyDB 비교 검토 중"] == "SUPERSEDED"
        await pilot.press("left")
        marks = dict(zip([f.text for f in store.facts], cell_texts(store, 0)))
        assert marks["Aurora와 AlloyDB 비교 검토 중"] == "NEW"
        await pilot.press("escape")
        assert isinstance(app.screen, RunsScreen)


async def test_stale_fact_is_marked_in_oracle_stale(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"], trajectory_id=GARAM)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")

        def marks() -> dict:
            store = app.screen.query_one(StoreTable)
            return dict(zip([f.text for f in store.facts], cell_texts(store, 0)))

        # End reads the last step off the event loop: under load it is shown a moment later
        stale_mark = "Aurora와 AlloyDB 비교 검토 중"
        await until(pilot, lambda: stale_mark in marks(), what="End's last step")
        assert marks()[stale_mark] == "STALE"
        stale = len(app.screen.step.stale_facts)
        assert stale and f"{stale} stale" in plain(app.screen.query_one("#step-title"))


async def test_judge_toggle_changes_verdicts_live(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-merged"], trajectory_id=GARAM)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "right")
        claims = app.screen.query_one(ClaimsTable)
        assert set(cell_texts(claims, 0)) == {"YES"}
        await pilot.press("j")
        assert "filter@0.8" in plain(app.screen.query_one("#claims-title"))
        assert "NO" in set(cell_texts(claims, 0))
        await pilot.press("j")
        assert set(cell_texts(claims, 0)) == {"YES"}


async def test_jump_to_state_and_fact_history(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-merged"], trajectory_id=GARAM)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g", "4", "enter")  # documents count from 1, like the title
        assert app.ctx.selection.position == 3
        await pilot.press("f")
        await pilot.pause()
        table = app.screen.query_one("#fact-versions")
        assert table.row_count == 4  # the merged blob: created, then updated per state
        assert cell_texts(table, 2)[:2] == ["create", "update"]
        await pilot.press("escape")
        assert isinstance(app.screen, StepperScreen)


async def test_help_shows_focused_view_help(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id=GARAM)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert "Trajectory stepper" in app.screen.text  # HelpScreen's own text
        await pilot.press("escape")
        await pilot.press("question_mark")
        assert "judge" in app.screen.text


async def test_override_a_claim_verdict_from_the_claims_pane(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-merged"], trajectory_id=GARAM)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "right", "j")  # filter@0.8: the long merged blob is filtered out
        claims = app.screen.query_one(ClaimsTable)
        assert cell_texts(claims, 0)[0] == "NO"
        await pilot.press("o", *"yes", "enter")
        await pilot.press(*"blob holds it", "enter")
        await pilot.pause()
        assert cell_texts(app.screen.query_one(ClaimsTable), 0)[0] == "YES*"
