"""`/` in the questions view filters the questions table by text, like the runs view's search."""

from __future__ import annotations

from seorap.engine import views
from seorap.engine.store.database import open_db
from seorap.tui.factory import make_app

SIZE = (180, 50)
GARAM = "ko-c5-garam-db"


def _distinctive_word(questions: list[views.QuestionRow]) -> tuple[str, list[views.QuestionRow]]:
    """A word of one question's text that not every question contains."""
    for q in questions:
        for word in q.question.split():
            hits = views.filter_questions(questions, word)
            if 0 < len(hits) < len(questions):
                return word, hits
    raise AssertionError("no distinctive word")


def test_filter_questions_is_a_pure_text_filter(ref):
    path, ids = ref
    qs = views.questions_view(open_db(path), ids["oracle"], GARAM).questions
    assert views.filter_questions(qs, "") == qs
    word, hits = _distinctive_word(qs)
    assert all(word.lower() in " ".join([q.question, q.expected, q.answer]).lower() for q in hits)
    assert views.filter_questions(qs, "no-such-text-xyz") == []
    assert views.filter_questions(qs, "COMPOUND") == [q for q in qs if q.kind == "compound"]


async def test_slash_filters_the_questions_table(ref):
    path, ids = ref
    qs = views.questions_view(open_db(path), ids["oracle"], GARAM).questions
    word, hits = _distinctive_word(qs)
    app = make_app(path, run_id=ids["oracle"], trajectory_id=GARAM)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        table = app.screen.query_one("#questions-list")
        assert table.row_count == len(qs)
        await pilot.press("slash")
        assert app.screen.query_one("#q-search").display
        await pilot.press(*word)
        await pilot.pause()
        assert table.row_count == len(hits) < len(qs)
        title = str(app.screen.query_one("#q-title").content)
        assert f"{len(hits)} of {len(qs)} questions" in title
        await pilot.press("enter")  # closes the bar, keeps the filter
        await pilot.pause()
        assert not app.screen.query_one("#q-search").display
        assert table.row_count == len(hits)
        detail = str(app.screen.query_one("#q-detail").content)
        assert hits[0].question in detail
        await pilot.press("slash", *["backspace"] * len(word), "escape")
        await pilot.pause()
        assert table.row_count == len(qs)
