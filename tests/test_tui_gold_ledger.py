"""The gold-error ledger in the app (issue 22, docs/metrics.md#gold-ledger): a contested question or
claim is marked ⚑ as soon as `w` writes its contest, `w` on a marked item withdraws the contest
(one line of reason, appended to the ledger), the mark is gone after it, and the score cards' gold
figures and ceiling follow both."""

import json
import re

from test_tui_support import CORPUS, open_score_cards

from seorap.engine.corpus import gold, load_corpus
from seorap.tui.factory import make_app
from seorap.tui.widgets.claims_table import ClaimsTable
from seorap.tui.widgets.detail import DetailPane
from seorap.tui.widgets.funnel import Funnel

HIRING = "ko-c3-hiring-plan"
REASON = "[red]답이 둘[/red]"
"""Typed by a person, shown later: markup that must stay literal."""


def ledger_of(path):
    return path.with_name(path.stem + ".gold.jsonl")


def _ledger(path) -> list[dict]:
    ledger = ledger_of(path)
    if not ledger.exists():
        return []
    return [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]


async def _type(pilot, keys: str) -> None:
    await pilot.press("w")
    await pilot.pause()
    await pilot.press(*keys, "enter")
    await pilot.pause()


def _compound_line(app) -> str:
    shown = str(app.screen.query_one(Funnel).content)
    return next((line for line in shown.splitlines() if line.startswith("extrinsic compound")), "")


async def test_questions_view_marks_a_contest_and_withdraws_it_and_the_scores_follow(ref):
    path, ids = ref
    # compound/0 is the only compound question of each trajectory: contested, this trajectory's
    # compound ceiling is 0 and every other's 1, so the headline ceiling is (n - 1) / n
    n = len(load_corpus(CORPUS).trajectories)
    app = make_app(path, run_id=ids["oracle-stale"], trajectory_id=HIRING)
    async with app.run_test(size=(160, 45)) as pilot:
        await open_score_cards(pilot)
        assert "contested" not in str(app.screen.query_one(Funnel).content)

        await pilot.press("3")
        await pilot.pause()
        questions = app.screen
        table = questions.query_one("#questions-list")
        assert questions.shown[0].item == "compound/0"
        assert "⚑" not in str(table.get_row_at(0)[0])
        await _type(pilot, REASON)
        entry = _ledger(path)[-1]
        assert (entry["item"], entry["reason"], entry["withdrawn"]) == (
            "compound/0",
            REASON.strip(),
            False,
        )
        # marked at once, without leaving the view: the kind cell, the title, the detail
        assert str(table.get_row_at(0)[0]) == "compound 1 ⚑"
        assert all("⚑" not in str(table.get_row_at(r)[0]) for r in range(1, table.row_count))
        assert "⚑ 1 contested" in str(questions.query_one("#q-title").content)
        detail = questions.query_one("#q-detail").content
        assert f"⚑ gold contested ({entry['who']}: [red]답이 둘[/red])" in detail
        assert "w withdraws the contest" in detail

        await open_score_cards(pilot)
        assert "gold: 1 contested (compound/0)" in str(app.screen.query_one(Funnel).content)
        assert f"ceiling {(n - 1) / n:.2f}" in _compound_line(app)
        report = app.screen.reports[app.screen.current]
        assert report.run_id == ids["oracle-stale"]
        assert report.gold.figures["extrinsic"].ceiling == (n - 1) / n
        assert report.gold.figures["intrinsic"].ceiling == 1.0  # no claim contested

        # w on the marked question withdraws its contest instead of contesting it again
        await pilot.press("3")
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        prompt = app.screen.query_one("Static").content
        shown = "compound question 1 (compound/0)"  # counted from 1 as on screen, the stored id
        assert str(prompt).startswith(f"Withdraw the contest of {HIRING} {shown}")
        await pilot.press("enter")  # no reason: refused in the dialog, which stays open
        await pilot.pause()
        assert "type a reason" in str(app.screen.query_one("#prompt-error").content)
        assert len(_ledger(path)) == 1
        await pilot.press(*"다시 보니 하나", "enter")  # the keys go to the input, not the app
        await pilot.pause()
        contest, withdrawal = _ledger(path)
        assert (withdrawal["item"], withdrawal["withdrawn"]) == ("compound/0", True)
        assert withdrawal["reason"] == "다시 보니 하나" and withdrawal["who"] == contest["who"]
        assert all("⚑" not in str(table.get_row_at(r)[0]) for r in range(table.row_count))
        assert "contested" not in str(questions.query_one("#q-title").content)
        assert "gold contested" not in questions.query_one("#q-detail").content

        await open_score_cards(pilot)
        assert "contested" not in str(app.screen.query_one(Funnel).content)
        assert app.screen.reports[app.screen.current].gold is None

        # contested again: in force again, the ceiling moves again
        await pilot.press("3")
        await pilot.pause()
        await _type(pilot, "역시 모호")
        assert [e["withdrawn"] for e in _ledger(path)] == [False, True, False]
        assert str(table.get_row_at(0)[0]) == "compound 1 ⚑"
        await open_score_cards(pilot)
        assert re.search(rf"ceiling {(n - 1) / n:.2f}\b", _compound_line(app))


async def test_stepper_marks_a_contested_claim_and_withdraws_it(ref):
    path, ids = ref
    # a contest from the CLI before the app starts, its reason with an escape sequence and markup
    hostile = "\x1b[2J[b]둘[/b]"
    gold.contest(load_corpus(CORPUS), HIRING, "s0/c1", hostile, ledger_of(path), who="kim")
    app = make_app(path, run_id=ids["oracle-stale"], trajectory_id=HIRING)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("2", "c", "down")
        await pilot.pause()
        claims = app.screen.query_one(ClaimsTable)
        assert "⚑" not in str(claims.get_row_at(0)[-1])
        assert "⚑ " in str(claims.get_row_at(1)[-1])
        assert (
            "⚑ gold contested (kim: \\x1b[2J[b]둘[/b])" in app.screen.query_one(DetailPane).content
        )
        await pilot.press("up")
        await pilot.pause()
        await _type(pilot, "stale seat count")
        assert [(e["item"], e["withdrawn"]) for e in _ledger(path)][1:] == [("s0/c0", False)]
        claims = app.screen.query_one(ClaimsTable)
        assert "⚑ " in str(claims.get_row_at(0)[-1])  # the row, at once
        assert all("⚑" not in str(claims.get_row_at(r)[-1]) for r in range(2, claims.row_count))
        assert "⚑ gold contested" in app.screen.query_one(DetailPane).content

        await open_score_cards(pilot)
        report = app.screen.reports[app.screen.current]
        assert report.gold.figures["intrinsic"].ceiling < 1

        await pilot.press("2")
        await pilot.pause()
        claims = app.screen.query_one(ClaimsTable)
        claims.focus()
        await pilot.pause()
        await _type(pilot, "it was right")
        assert [(e["item"], e["withdrawn"]) for e in _ledger(path)][1:] == [
            ("s0/c0", False),
            ("s0/c0", True),
        ]
        claims = app.screen.query_one(ClaimsTable)
        assert "⚑" not in str(claims.get_row_at(0)[-1])
        assert "⚑ " in str(claims.get_row_at(1)[-1])  # the CLI's contest stands
        assert "gold contested" not in app.screen.query_one(DetailPane).content

        await open_score_cards(pilot)
        assert [c["item"] for c in app.screen.reports[app.screen.current].gold.contested] == [
            "s0/c1"
        ]
