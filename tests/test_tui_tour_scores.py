"""One frame per step; the demo tour's stale-fact case; the score cards' rulers, seeds, group CIs
and the verdicts that moved between the full and filter judge views."""

from __future__ import annotations

import time

import pytest
from test_tui_support import CORPUS, open_score_cards

from seorap.engine import views
from seorap.engine.corpus import load_corpus
from seorap.engine.scoring import lexical
from seorap.engine.store.database import facts_at, open_db
from seorap.tui.factory import make_app
from seorap.tui.widgets.document import DocumentPane
from seorap.tui.widgets.operations import OperationLog

SIZE = (160, 45)
GARAM = "ko-c5-garam-db"

MAX_FRAMES = 2
"""A step's frame and Textual's scrollbar repaint after the layout."""


@pytest.mark.parametrize(
    "size,trajectory",
    [
        (SIZE, GARAM),
        ((100, 30), GARAM),
        ((100, 30), "ko-c1-daon-backup"),
        ((100, 30), "ko-c4-late-memo"),
    ],
)
async def test_a_step_is_one_frame_and_scrollbars_follow_the_content(ref, size, trajectory):
    """At 100x30 a step often makes a table's rows outgrow (or fit) its pane: its scrollbar is
    always shown, so that is no second layout. Public API only, Textual repaints the scrollbars
    once after the layout: a step is the frame of its content and at most that scrollbar frame
    (one frame while our code overrode the private Widget._scroll_update)."""
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"], trajectory_id=trajectory)
    frames: list[float] = []
    display = app._display  # noqa: SLF001

    def counted(screen, renderable):
        frames.append(time.perf_counter())
        return display(screen, renderable)

    app._display = counted  # noqa: SLF001
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        last = app.screen.step.last_position
        for key in ["right"] * last + ["left"] * 2:
            frames.clear()
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            assert len(frames) <= MAX_FRAMES, f"{key}: {len(frames)} frames"
            for pane in (app.screen.query_one(DocumentPane), app.screen.query_one(OperationLog)):
                bar = pane.vertical_scrollbar
                assert bar.window_virtual_size == pane.virtual_size.height
                assert (
                    bar.window_size == pane.container_size.height - pane.scrollbar_size_horizontal
                )


@pytest.mark.parametrize("size", [SIZE, (100, 30)])
async def test_every_step_of_every_trajectory_is_one_frame(ref, size):
    """A step whose title wraps differently, or whose rows outgrow a pane, moved the panes below
    it: a second layout and frame. Every step of the bundled corpus, forward, is its content's
    frame and at most the scrollbars' one."""
    from seorap.tui.messages import OpenTrajectory

    path, ids = ref
    run_id = ids["oracle-stale"]
    app = make_app(path, run_id=run_id, trajectory_id=GARAM)
    frames: list[str] = []
    display = app._display  # noqa: SLF001

    def counted(screen, renderable):
        frames.append(type(screen).__name__)
        return display(screen, renderable)

    app._display = counted  # noqa: SLF001
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for trajectory in load_corpus(CORPUS).trajectories:
            app.post_message(OpenTrajectory(run_id, trajectory.id))
            await pilot.pause()
            for n in range(len(trajectory.states) - 1):
                frames.clear()
                await pilot.press("right")
                await pilot.pause()
                await pilot.pause()
                assert len(frames) <= MAX_FRAMES, (
                    f"{trajectory.id} step {n + 2}: {len(frames)} frames"
                )


def test_stale_case_comes_from_the_stored_run(ref):
    path, ids = ref
    db, corpus = open_db(path), load_corpus(CORPUS)
    case = views.stale_case(db, corpus, current_run=ids["oracle"])
    assert case is not None
    cards = views.score_cards(db)
    card = cards[(case.run_id, case.trajectory_id)]
    assert case.stale_count == card["intrinsic"]["stale_facts"] > 0
    assert case.extrinsic == card["extrinsic"]["compound"] >= 0.5
    assert case.intrinsic == card["intrinsic_full"]
    if not any(
        c["intrinsic"].get("stale_facts") for (run, _), c in cards.items() if run == ids["oracle"]
    ):
        assert not case.current_run and case.run_id != ids["oracle"]
    final = {f.id: f.text for f in facts_at(db, case.run_id, case.trajectory_id)}
    stale_claims = {c for s in corpus.get(case.trajectory_id).states for c in s.stale_claims}
    assert len(case.stale_facts) == case.stale_count
    for f in case.stale_facts:
        assert f.text == final[f.fact_id]
        assert f.stale_claims and set(f.stale_claims) <= stale_claims
        assert all(lexical.holds(c, f.text) for c in f.stale_claims)
    stored = views.questions_view(db, case.run_id, case.trajectory_id).questions
    assert [(q.item, q.answer, q.verdict) for q in case.questions] == [
        (q.item, q.answer, q.verdict) for q in stored
    ]
    # the current run wins when it has a case of its own
    own = views.stale_case(db, corpus, current_run=case.run_id)
    assert own.run_id == case.run_id and own.current_run


async def test_demo_offers_the_stale_fact_case_when_no_compensation(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(180, 60)) as pilot:
        await pilot.press("7")
        await app.workers.wait_for_complete()  # the stale-fact case is found in a worker
        await pilot.pause()
        screen = app.screen
        text = str(screen.query_one("#demo-compensation").content)
        if screen.stops["compensation"] is not None:  # a real compensation case: no fallback
            assert "OFFERED INSTEAD" not in text
            return
        case = screen.stale
        assert case is not None
        assert "OFFERED INSTEAD: A STALE-FACT CASE (not in the compensation quadrant)" in text
        assert case.run_id in text and case.trajectory_id in text
        assert f"{case.stale_count} stale fact" in text
        for f in case.stale_facts:
            assert f.text in text and all(c in text for c in f.stale_claims)
        for q in case.questions:
            assert q.answer in text
        assert "recall-only" in text and f"count ({case.stale_count}) did" in text
        # one case per database, whatever run is selected: the tour's and side by side's
        assert case == views.stale_case(open_db(path), load_corpus(CORPUS))
        assert "has none" not in text
        await pilot.press("c")
        await pilot.pause()
        assert app.ctx.selection.trajectory_id == case.trajectory_id
        assert app.ctx.selection.run_id == case.run_id


async def test_score_cards_show_rulers_seeds_group_cis_and_moved_verdicts(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-merged"])
    async with app.run_test(size=(180, 60)) as pilot:
        await open_score_cards(pilot)
        screen = app.screen
        report = screen.reports[screen.current]
        text = str(screen.query_one("#rulers").content)
        assert report.rulers and "Rulers" in text
        for r in report.rulers:
            assert f"{r.scoring} {r.mode}" in text and f"intrinsic {r.intrinsic:.2f}" in text
        if report.rulers_spread is not None:
            assert f"spread {report.rulers_spread:.2f}" in text
        assert "Seeds" in text
        for name, g in report.aggregate.by_category.items():
            ci = g.extrinsic_ci
            assert name in text
            if ci is not None and ci.ci_low is not None and ci.method == "range":
                # categories of 2 trajectories: the range, never a bracket read as a 95% CI
                assert f"{ci.mean:.2f} ({ci.ci_low:.2f}–{ci.ci_high:.2f})" in text
            elif ci is not None and ci.ci_low is not None:
                assert f"{ci.mean:.2f} [{ci.ci_low:.2f}, {ci.ci_high:.2f}]" in text
        diff = views.full_vs_filter_diff(open_db(path), report.run_id, report.scoring)
        assert "Verdicts that moved (full → filter)" in text
        assert f"credited {diff.counts['credited']}" in text
        assert f"penalised {diff.counts['penalised']}" in text
        for m in diff.moved[:30]:
            assert m.text in text


def test_moved_text_lists_each_moved_verdict():
    from seorap.tui.screens.scores_text import moved_text

    diff = views.RulerDiff(
        "full",
        "filter",
        {"credited": 1, "penalised": 1, "unchanged": 3},
        [
            views.MovedVerdict("credited", "t1", "s0/c1", "[b]claim one[/b]", "NO", "YES"),
            views.MovedVerdict("penalised", "t2", "s1/c0", "claim two", "YES", "PARTIAL"),
        ],
    )
    plain = moved_text(diff).plain
    assert "credited 1" in plain and "penalised 1" in plain and "unchanged 3" in plain
    assert "NO → YES  t1 state 1, claim 2  [b]claim one[/b]" in plain  # item ids in words
    assert "YES → PARTIAL  t2 state 2, claim 1  claim two" in plain
