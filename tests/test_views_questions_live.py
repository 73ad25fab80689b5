"""Questions view of an unscored run: the ranking is computed live with HybridIndex.explain."""

from __future__ import annotations

from test_tui_support import reference_db

from seorap.engine import views
from seorap.tui.factory import make_app

GARAM = "ko-c5-garam-db"


def unscored(tmp_path):
    from seorap.engine.config import load_config
    from seorap.engine.run.runner import run

    db, corpus, _ = reference_db(tmp_path / "seed.db", systems=["oracle"], trajectories=[GARAM])
    [run_id] = run(
        corpus,
        ["oracle-stale"],
        db,
        load_config(offline=True),
        offline=True,
        score=False,
        trajectories=[GARAM],
    )
    return tmp_path / "seed.db", db, corpus, run_id


def test_live_ranking_when_no_stored_retrievals(tmp_path):
    _, db, corpus, run_id = unscored(tmp_path)
    assert views.questions_view(db, run_id, GARAM).questions == []
    view = views.live_questions_view(db, corpus, run_id, GARAM)
    t = corpus.get(GARAM)
    assert len(view.questions) == len(t.extrinsic_qa) + len(t.single_qa)
    assert "computed live" in view.live and "hashing" in view.live
    for q in view.questions:
        assert [h.rank for h in q.ranking] == list(range(1, len(q.ranking) + 1))
        assert all(abs(h.hybrid - (0.3 * h.bm25_norm + 0.7 * h.dense)) < 1e-5 for h in q.ranking)
        assert q.verdict is None and q.answer == ""  # nothing invented
    assert any(q.answer_ranks for q in view.questions)


async def test_questions_screen_shows_live_ranking(tmp_path):
    path, _, _, run_id = unscored(tmp_path)
    app = make_app(path, run_id=run_id, trajectory_id=GARAM)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        title = str(app.screen.query_one("#q-title").content)
        assert "computed live" in title
        detail = str(app.screen.query_one("#q-detail").content)
        assert "answer-holding facts at rank" in detail and "top-5 cut" in detail
