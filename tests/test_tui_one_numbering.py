"""One numbering of states and documents in the app, and the journey line a key away (issue 37).

Every view counts documents, states and questions from 1 (the stored ids `s0/c2`, `compound/0`,
`-d0` stay as they are, shown beside their words in the details): the numbers shown for one
trajectory are collected from the rendered screens of the stepper, the journey, the fact history,
the questions view, the tour, side by side and the help, and checked to agree — the same document
is "doc 2" everywhere, the same question "single question 2". From the stepper and from the
questions view a claim's journey line is on screen after one key, `p` (at most 3 allowed)."""

from __future__ import annotations

import re

import pytest
from test_tui_every_view_fits import screen_cells
from test_tui_support import CORPUS

from seorap.engine import views
from seorap.engine.corpus import load_corpus
from seorap.tui.factory import make_app
from seorap.tui.screens.help import HelpScreen
from seorap.tui.widgets.claims_table import ClaimsTable
from seorap.tui.widgets.detail import DetailPane

GARAM = "ko-c5-garam-db"
RAW_ITEM = re.compile(r"(?<![\w/])(?:s\d+/c\d+|(?:compound|single)/\d+)(?![\w/])")
DOC_WITH_ID = re.compile(r"doc (\d+) \(([\w-]+-d\d+)\)")


async def settle(app, pilot, seconds: float = 0.2) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause(seconds)


def screen_text(app) -> str:
    return "\n".join("".join(row) for row in screen_cells(app))


def check_items(text: str, where: str) -> None:
    """A stored item id is never shown alone: its words (counted from 1) are on the same screen."""
    for raw in RAW_ITEM.findall(text):
        assert views.item_label(raw) in text.replace("\n", " "), (where, raw)


def check_documents(text: str, where: str, positions: dict[str, int]) -> None:
    """'doc N (ko-…-dK)': N is the document's place in the trajectory, counted from 1."""
    for n, doc_id in DOC_WITH_ID.findall(text):
        assert int(n) == positions[doc_id] + 1, (where, n, doc_id)


@pytest.fixture
def garam():
    t = load_corpus(CORPUS).get(GARAM)
    return t, {a.document.id: a.position for a in t.arrivals()}


async def test_the_numbers_shown_for_one_trajectory_agree_across_views(ref, garam):
    path, ids = ref
    trajectory, positions = garam
    app = make_app(path, run_id=ids["oracle-stale"], trajectory_id=GARAM)
    screens: dict[str, str] = {}
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("right")  # the second document
        await settle(app, pilot)
        step = app.screen.step
        assert step.position == 1 and step.state_index == 1
        screens["stepper"] = text = screen_text(app)
        assert "doc 2/4" in text
        assert "state 2 · expected" in text  # the document pane
        assert "Expected claims of state 2" in text and "Corpus, state 2:" in text
        assert not re.search(r"state [013]\b", text)  # no other state is named at document 2
        await pilot.press("p")  # the journey, its evidence numbered like the title
        await settle(app, pilot)
        screens["journey"] = screen_text(app)
        journey = app.screen.query_one(ClaimsTable).focused_claim().path
        text = app.screen.query_one(DetailPane).text.plain  # the pane's whole text, unwrapped
        check_items(text, "journey (whole)")
        assert f"first expected as {views.item_label(journey.item)} ({journey.item})" in text
        if journey.document is not None:
            assert f"e observation (doc {journey.document + 1})" in text
        if journey.fact is not None:
            assert f"(doc {journey.fact[0] + 1})" in text
        await pilot.press("s", "f")  # the fact history of the store's selected fact
        await settle(app, pilot)
        screens["fact history"] = text = screen_text(app)
        assert DOC_WITH_ID.search(text), text
        await pilot.press("escape", "3")
        await settle(app, pilot)
        screens["questions"] = text = screen_text(app)
        rows = app.screen.shown
        for q in rows:
            label = views.item_label(q.item)
            assert label.replace(" question ", " ") in text, label  # the kind cell: 'single 2'
        assert f"{views.item_label(rows[0].item)} ({rows[0].item})" in text  # the detail
        for keys in (["7"], ["7", "s"]):
            await pilot.press(*keys)
            await settle(app, pilot, 0.5)
            screens["tour" if keys == ["7"] else "side by side"] = screen_text(app)
        await pilot.press("2", "f1")
        await settle(app, pilot)
        assert isinstance(app.screen, HelpScreen)
        screens["help"] = text = screen_text(app)
        assert "counted from 1" in text
    for where, text in screens.items():
        check_items(text, where)
        check_documents(text, where, positions)


@pytest.mark.parametrize("size", [(160, 45), (80, 24)])
async def test_the_journey_line_is_one_key_from_the_stepper(ref, size):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"], trajectory_id=GARAM)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        assert "journey said" not in screen_text(app)  # the store has the focus, not a claim
        keys = ["p"]
        await pilot.press(*keys)
        await settle(app, pilot)
        assert len(keys) <= 3
        assert_journey_on_screen(app)
        footer = screen_text(app).splitlines()[-1]
        if size[0] >= 160:
            assert "p journey" in footer, footer


async def test_the_journey_line_is_one_key_from_the_questions_view(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"], trajectory_id=GARAM)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("3")
        await settle(app, pilot)
        q = app.screen.shown[0]
        assert "p claim journey" in screen_text(app).splitlines()[-1]
        keys = ["p"]
        await pilot.press(*keys)
        await settle(app, pilot)
        assert len(keys) <= 3
        assert app.current_mode == "stepper"
        position, claim = views.question_journey(
            app.ctx.db, app.ctx.corpus.get(GARAM), ids["oracle-stale"], q.item
        )
        assert app.screen.step.position == position
        assert app.screen.query_one(ClaimsTable).focused_claim().claim == claim
        assert_journey_on_screen(app)


def assert_journey_on_screen(app) -> None:
    """The journey line's first row is drawn inside the detail pane."""
    pane = app.screen.query_one(DetailPane)
    region = pane.region.intersection(app.screen.region)
    rows = screen_cells(app)
    drawn = [
        "".join(rows[y][region.x : region.x + region.width])
        for y in range(region.y, region.y + region.height)
    ]
    assert any("journey said" in line for line in drawn), drawn


def test_stored_items_in_a_sentence_read_in_words_counted_from_1():
    said = 'compound/0 (NO): rank 2; single/1 (NO); s2/c0 kept, "s1/c0x" and a/single/3 are not ids'
    assert views.items_in_words(said) == (
        "compound question 1 (NO): rank 2; single question 2 (NO); state 3, claim 1 kept, "
        '"s1/c0x" and a/single/3 are not ids'
    )


def test_a_question_leads_to_the_claim_lost_at_its_ranking_or_answer_first(garam):
    trajectory, _ = garam

    def journey(item, loss, ok):
        per = [{"question": "single/1", "ok": ok}]
        stages = {"retrieved": {"per_question": per}, "used": {}, "credited": {}}
        return {"item": item, "loss": loss, "stages": stages}

    journeys = {
        "kept well": journey("s0/c0", None, True),
        "lost here": journey("s2/c1", "retrieved", False),
    }
    positions = {a.state_index: a.position for a in trajectory.arrivals() if a.distractor is None}
    assert views.question_claim(journeys, trajectory, "single/1") == (positions[2], "lost here")
    del journeys["lost here"]
    assert views.question_claim(journeys, trajectory, "single/1") == (positions[0], "kept well")
    assert views.question_claim(journeys, trajectory, "compound/0") is None
