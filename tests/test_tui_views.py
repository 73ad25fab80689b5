"""The other views by keyboard: questions, score cards, compare, demo tour, live run, palette."""

from __future__ import annotations

from test_tui_support import run_from_palette

from seorap.tui.factory import make_app
from seorap.tui.screens.live import LiveScreen

SIZE = (180, 50)
GARAM = "ko-c5-garam-db"


async def test_questions_view_shows_ranking_and_answer_ranks(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id=GARAM)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        table = app.screen.query_one("#questions-list")
        assert table.row_count == 4  # one compound + three single questions
        assert str(table.get_row_at(0)[0]) == "compound 1"  # numbered as in the detail
        detail = str(app.screen.query_one("#q-detail").content)
        assert "answer-holding facts at rank" in detail and "depth curve" in detail
        assert "hybrid" in detail and "top-5 cut" in detail


async def test_an_unscored_run_ranks_its_questions_live_in_a_worker_behind_a_placeholder(tmp_path):
    from test_tui_support import CORPUS

    from seorap.engine.config import load_config
    from seorap.engine.corpus import load_corpus
    from seorap.engine.run.runner import run
    from seorap.engine.store.database import open_db

    corpus = load_corpus(CORPUS)
    [run_id] = run(
        corpus,
        ["oracle"],
        open_db(tmp_path / "u.db"),
        load_config(offline=True),
        offline=True,
        score=False,
        trajectories=[GARAM],
    )
    app = make_app(tmp_path / "u.db", run_id=run_id, trajectory_id=GARAM)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        title = app.screen.query_one("#q-title")
        if app.screen.query_one("#questions-list").row_count == 0:  # the worker may already be done
            assert "ranking the questions live…" in str(title.content)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.query_one("#questions-list").row_count == 4
        assert "ranking computed live" in str(title.content) and "not scored" in str(title.content)


async def test_score_cards_show_quadrant_labels(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-merged"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await app.workers.wait_for_complete()
        await pilot.pause()
        agreement = str(app.screen.query_one("#agreement").content)
        # the reader answers a merged fact by the clause that holds the asked slot, so the audit
        # trusts oracle-merged's judge and its quadrants are shown
        assert "quadrants:" in agreement and "healthy" in agreement and "bottleneck" in agreement
        assert "judge unreliable" not in agreement
        assert app.screen.query_one("#variants").row_count == 3
        status = str(app.screen.query_one("#scores-status").content)
        assert "oracle-merged" in status
        await pilot.press("v")
        assert str(app.screen.query_one("#scores-status").content) != status


async def test_compare_lists_flipped_facts(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await app.workers.wait_for_complete()
        await pilot.pause()
        title = str(app.screen.query_one("#compare-title").content)
        assert "flipped" in title
        # write-time and read-time figures of both runs, side by side (oracle reads 1.0)
        a_line = next(line for line in title.splitlines() if line.startswith("A write-time"))
        assert "read-time: accuracy 1.00" in a_line and "stale-at-read rate 0%" in a_line
        assert any(line.startswith("B write-time") for line in title.splitlines())
        await pilot.press("k", "k", "k")  # facts only
        table = app.screen.query_one("#compare-table")
        assert table.row_count > 0
        assert {str(table.get_row_at(i)[1]) for i in range(table.row_count)} == {"fact"}


async def test_demo_tour_explains_from_the_run_diagnosis(ref):
    path, ids = ref
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("7")
        bottleneck = str(app.screen.query_one("#demo-bottleneck").content)
        compensation = str(app.screen.query_one("#demo-compensation").content)
        assert "BOTTLENECK" in bottleneck and "COMPENSATION" in compensation
        stop = app.screen.stops["bottleneck"]
        if stop is not None:
            assert stop.diagnosis and stop.diagnosis in bottleneck
            await pilot.press("b")
            assert app.ctx.selection.trajectory_id == stop.trajectory_id


async def test_live_run_writes_reference_systems_in_a_worker(tmp_path):
    app = make_app(tmp_path / "live.db")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("6")
        assert isinstance(app.screen, LiveScreen)
        await pilot.press("t", "r")  # one trajectory, reference systems
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "finished" in str(app.screen.query_one("#live-status").content)
        assert app.screen.facts_seen > 0
        assert app.screen.query_one("#live-trajectories").row_count == 1
        await pilot.press("1")
        # three systems of the one trajectory written: no row for trajectories no run wrote
        assert app.screen.query_one("#runs-table").row_count == 3


async def test_command_palette_opens_a_view(ref):
    path, ids = ref
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await run_from_palette(pilot, "score cards", lambda: app.current_mode == "scores")


async def test_demo_side_by_side_shows_both_cases_in_two_panels(ref):
    from seorap.engine import views

    path, ids = ref
    app = make_app(path)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("7", "s")
        await pilot.pause()
        stops = views.demo_tour(app.ctx.db, app.ctx.corpus)
        for q in ("compensation", "bottleneck"):
            title = str(app.screen.query_one(f"#side-{q}-title").content)
            store = app.screen.query_one(f"#side-{q}-store")
            if stops[q] is None:  # empty unless the stale-fact case stands in (compensation)
                stands_in = q == "compensation" and "offered instead" in title
                assert f"no {q} case" in title and (store.row_count > 0) == stands_in
            else:
                assert stops[q].trajectory_id in title and "Δ (int−ext)" in title
                assert store.row_count > 0
        await pilot.press("escape")
        assert app.screen.query_one("#demo-bottleneck")
