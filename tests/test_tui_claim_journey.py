"""The claim journey in the app (issue 22, deliverable 3): the stepper shows the selected claim's
journey as one line of stage marks with its loss point and evidence, each piece of evidence one key
away (e the observation, k the fact version, r the ranking, u the answer), and w contests a claim or
a question's gold, after which the score cards show each figure with and without it and the ceiling.
"""

import csv
import io
import json

import pytest
from rich.console import Console
from test_tui_support import CORPUS, open_score_cards

from seorap.cli.report_table import render_table
from seorap.engine import views
from seorap.engine.corpus import load_corpus
from seorap.engine.scoring.journey import STAGES
from seorap.engine.scoring.report import build_report
from seorap.engine.scoring.report_text import to_csv, to_json, to_markdown
from seorap.engine.store.database import open_db
from seorap.engine.views.claim_path import lost_at
from seorap.engine.views.verdicts import claim_journeys
from seorap.tui.factory import make_app
from seorap.tui.widgets.detail import DetailPane, render_path
from seorap.tui.widgets.operations import OperationLog
from seorap.tui.widgets.store_table import StoreTable

HIRING = "ko-c3-hiring-plan"
STALE_BACKEND = "하반기 백엔드 개발자 채용은 3명"


def test_on_the_whole_corpus_every_loss_point_is_shown_with_its_evidence(ref_db_path):
    """Every claim of every trajectory of the three reference runs: one line of seven marks; a lost
    claim names its loss point and its evidence, and the evidence is there to jump to (the fact in
    the store at that document, the observation in that document's log, the question's ranking at
    the rank told)."""
    db, corpus = open_db(ref_db_path), load_corpus(CORPUS)
    steps: dict[tuple, views.StepView] = {}

    def step(rid, tid, position):
        key = (rid, tid, position)
        if key not in steps:
            steps[key] = views.step_view(db, corpus, rid, tid, position)
        return steps[key]

    seen, lost = 0, {}
    for run in db.query("SELECT run_id, system FROM runs ORDER BY system"):
        rid = run["run_id"]
        for t in corpus.trajectories:
            journeys = claim_journeys(db, rid, t.id)
            assert journeys, (run["system"], t.id)
            questions = {q.item: q for q in views.questions_view(db, rid, t.id).questions}
            for _claim, path in views.stored_paths(db, rid, t).items():
                seen += 1
                assert [s for s, _ in path.marks] == list(STAGES)
                shown = render_path(path).plain
                assert shown.startswith("journey said ")
                if path.observation is not None:  # extracted ✓: the observation is in its log
                    ops = step(rid, t.id, path.document).operations
                    assert path.observation in {o.observation_id for o in ops}
                if path.fact is not None:
                    store = {f.id for f in step(rid, t.id, path.fact[0]).store}
                    assert path.fact[1] in store, (t.id, path.item)
                if path.question is not None and path.rank is not None:
                    ranking = questions[path.question].ranking
                    assert ranking[path.rank - 1].fact_id == path.ranked_fact
                if path.loss is None:
                    assert "not lost" in shown
                    continue
                lost[path.loss] = lost.get(path.loss, 0) + 1
                assert path.why and f"{lost_at(path.loss)}: {path.why}" in shown
                if path.loss == "kept" and "still states it" in path.why:
                    assert path.fact is not None and views.short_id(path.fact[1]) in path.why
                if path.loss in ("retrieved", "used", "credited"):
                    assert path.question in questions and path.answer in questions
                    named = path.question if path.loss == "retrieved" else path.answer
                    assert path.why.startswith(f"{views.item_label(named)}:")  # counted from 1
    assert seen > 200
    # the reference systems lose claims at kept (oracle-stale's stale values), retrieved, used and
    # credited; each of those losses was checked above
    assert {"kept", "retrieved", "used", "credited"} <= set(lost)


async def test_the_stepper_shows_the_journey_and_each_key_reaches_its_evidence(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"], trajectory_id=HIRING)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("2")
        await pilot.pause()
        screen = app.screen
        await pilot.press("c")  # the claims pane: its first claim is the stale 백엔드 3명
        await pilot.pause()
        detail = screen.query_one(DetailPane).content
        assert STALE_BACKEND in detail
        assert (
            "journey said ✓ → extracted ✓ → stored ✓ → kept ✗ → retrieved n/a → used n/a → "
            "credited n/a"
        ) in detail
        assert (
            "lost at kept (the store lost or outdated it): f0001 still states it at doc 3, "
            "after it became stale"
        ) in detail
        assert "e observation (doc 1) · k fact f0001 (doc 3) · w contest" in detail

        await pilot.press("k")  # the fact version that still states the stale value, at doc 3
        await pilot.pause()
        assert app.ctx.selection.position == 2
        store = screen.query_one(StoreTable)
        assert store.has_focus and views.short_id(store.focused_fact().id) == "f0001"
        assert "f0001" in screen.query_one(DetailPane).content

        await pilot.press("e")  # the observation that stated it, in doc 1's log
        await pilot.pause()
        assert app.ctx.selection.position == 0
        log = screen.query_one(OperationLog)
        assert log.has_focus and log.selected.endswith("/p000/o001")
        assert "▶" in log.content

        # a claim that reaches the reader: 마감일 (s0/c2), credited ✗ on compound/0
        await pilot.press("c", "down", "down")
        await pilot.pause()
        detail = screen.query_one(DetailPane).content
        assert (
            "lost at credited (the answer was not judged correct): compound question 1: the "
            "answer was judged PARTIAL"
        ) in detail
        assert "r ranking (compound question 1, rank 1) · u answer (compound question 1)" in detail
        await pilot.press("r")
        await pilot.pause()
        await pilot.pause()
        assert app.current_mode == "questions"
        questions = app.screen
        row = questions.shown[questions.query_one("#questions-list").cursor_row]
        assert row.item == "compound/0"
        assert row.question in questions.query_one("#q-detail").content
        assert app.ctx.selection.question is None  # asked once


async def test_a_contest_from_the_app_changes_the_figures_and_the_ceiling(ref):
    path, ids = ref
    ledger = path.with_name(path.stem + ".gold.jsonl")
    app = make_app(path, run_id=ids["oracle-stale"], trajectory_id=HIRING)
    async with app.run_test(size=(160, 45)) as pilot:
        await open_score_cards(pilot)
        from seorap.tui.widgets.funnel import Funnel

        assert "contested" not in str(app.screen.query_one(Funnel).content)
        await pilot.press("2", "c", "w")
        await pilot.pause()
        await pilot.press(*"stale seat count")
        await pilot.press("enter")
        await pilot.pause()
        entries = [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]
        assert [(e["trajectory"], e["item"], e["kind"], e["reason"]) for e in entries] == [
            (HIRING, "s0/c0", "claim", "stale seat count")
        ]
        assert entries[0]["text"] == STALE_BACKEND
        detail = app.screen.query_one(DetailPane).content
        assert f"gold contested ({entries[0]['who']}: stale seat count)" in detail

        # a question, from the questions view
        await pilot.press("3")
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        await pilot.press(*"ambiguous")
        await pilot.press("enter")
        await pilot.pause()
        items = [json.loads(line)["item"] for line in ledger.read_text().splitlines()]
        assert items == ["s0/c0", app.screen.shown[0].item]
        await pilot.press("down", "w")  # the list is read again after a contest: the row stays
        await pilot.pause()
        await pilot.press(*"unclear", "enter")
        await pilot.pause()
        items = [json.loads(line)["item"] for line in ledger.read_text().splitlines()]
        assert items[2] == app.screen.shown[1].item
        assert app.screen.query_one("#questions-list").cursor_row == 1

        await open_score_cards(pilot)
        shown = str(app.screen.query_one(Funnel).content)
        assert f"gold: 3 contested (s0/c0, {items[1]}, {items[2]})" in shown
        assert "without" in shown and "ceiling" in shown
        # the contested claim moves the intrinsic ceiling below 1 (oracle-stale holds the claim:
        # its 1.00 is flagged above it); the contested question leaves its own figure out
        report = app.screen.reports[app.screen.current]
        assert report.run_id == ids["oracle-stale"]
        figures = report.gold.figures
        assert figures["intrinsic"].ceiling < 1 and figures["intrinsic"].above_ceiling
        assert "ceiling 0.9" in shown and "⚠ above ceiling" in shown
        kind = "extrinsic" if items[1].startswith("compound") else "extrinsic_single"
        assert figures[kind].ceiling < 1
        assert figures[kind].with_contested.mean != figures[kind].without_contested.mean

    # the contest made in the app reaches every report format (the ledger beside the database)
    report = build_report(open_db(path), [ids["oracle-stale"]])
    gold = json.loads(to_json(report))["runs"][0]["gold"]
    assert [c["item"] for c in gold["contested"]] == items
    assert gold["figures"]["intrinsic"]["ceiling"] < 1
    header, first = list(csv.reader(io.StringIO(to_csv(report))))[:2]
    row = dict(zip(header, first, strict=True))
    assert row["run_gold_contested"] == "3" and row["run_gold_intrinsic_above_ceiling"] == "True"
    assert "### Gold (3 contested" in to_markdown(report)
    buffer = io.StringIO()
    render_table(report, Console(file=buffer, width=200))
    assert (
        f"gold: 3 contested ({HIRING} s0/c0, {HIRING} {items[1]}, {HIRING} {items[2]})"
        in buffer.getvalue()
    )


# ---- the tour, picked and told from the journeys -------------------------------------------------


def _card(gap: float, losses: list[str]) -> dict:
    claims = [{"claim": f"c{n}", "item": f"s0/c{n}", "loss": s} for n, s in enumerate(losses)]
    return {"quadrant": "bottleneck", "signed_diff": gap, "journey": {"claims": claims}}


def test_the_tour_prefers_a_clear_case_whose_claims_were_lost_where_its_quadrant_says(monkeypatch):
    from seorap.engine.views import demo

    cards = {
        ("r", "wide"): _card(0.9, ["credited"]),  # widest gap, but its claims were lost reading
        ("r", "told"): _card(0.5, ["retrieved", "credited"]),  # lost at retrieved: a bottleneck
        ("r", "faint"): _card(0.1, ["retrieved"]),  # below the margin: never picked first
    }
    monkeypatch.setattr(demo, "score_cards", lambda db: cards)
    monkeypatch.setattr(demo, "run_labels", lambda db: {"r": "sys"})
    monkeypatch.setattr(demo, "model_answerers", lambda db: {})  # no database: no model's answers
    corpus = type("C", (), {"get": staticmethod(lambda t: (_ for _ in ()).throw(KeyError(t)))})
    assert demo.demo_tour(None, corpus)["bottleneck"].trajectory_id == "told"
    cards.pop(("r", "told"))
    assert demo.demo_tour(None, corpus)["bottleneck"].trajectory_id == "wide"
    cards.pop(("r", "wide"))
    assert demo.demo_tour(None, corpus)["bottleneck"] is None  # 0.1 is no clear case


async def test_the_tour_tells_the_stale_case_from_its_journeys(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-stale"])
    async with app.run_test(size=(180, 60)) as pilot:
        await pilot.press("7")
        await app.workers.wait_for_complete()
        await pilot.pause()
        case = app.screen.stale
        assert case is not None and case.run_id == ids["oracle-stale"]
        # oracle-stale keeps every replaced value active: the stale claims are lost at kept
        assert case.story.startswith(f"{len(case.lost)} claims lost at kept — the stale value")
        assert case.story.endswith("yet the answer was right")
        text = str(app.screen.query_one("#demo-compensation").content)
        assert f"From the claims' journeys: {case.story}" in text
        claim, first = case.lost[0]
        assert first.loss == "kept" and first.fact is not None
        assert f"✗ {claim} — lost at kept (the store lost or outdated it): {first.why}" in text
        assert views.short_id(first.fact[1]) in first.why


@pytest.fixture
def shaky(tmp_path):
    """oracle-stale on hiring (and two more trajectories), scored last by an always-PARTIAL judge:
    the card's judge is unreliable (tests/unreliable_support.py)."""
    from unreliable_support import score_always_partial

    from seorap.engine.config import Config
    from seorap.engine.run.runner import run

    path, corpus = tmp_path / "shaky.db", load_corpus(CORPUS)
    db = open_db(path)
    only = dict(offline=True, trajectories=[HIRING, "ko-c5-garam-db", "ko-c4-late-memo"])
    [rid] = run(corpus, ["oracle-stale"], db, Config.offline(), score=False, **only)
    score_always_partial(db, rid, corpus)
    return path, rid


async def test_under_an_unreliable_judge_the_stepper_names_no_loss_point(shaky):
    """The claim lost at kept under the lexical judge (above): its judge-built stages read ?, the
    loss point is withheld with the ruler's note, the keys to the evidence stay."""
    path, rid = shaky
    app = make_app(path, run_id=rid, trajectory_id=HIRING)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("2")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        detail = app.screen.query_one(DetailPane).content
        assert STALE_BACKEND in detail
        assert (
            "journey said ✓ → extracted ✓ → stored ? → kept ? → retrieved n/a → used n/a → "
            "credited n/a"
        ) in detail
        assert "loss point withheld (? = unreliable ruler: see the judge audit)" in detail
        assert "lost at" not in detail and "not lost" not in detail
        assert "e observation (doc 1)" in detail and "w contest" in detail
