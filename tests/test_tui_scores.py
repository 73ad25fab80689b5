"""Score cards: the agreement line prints each figure once, with its CI; the bars have gaps."""

from __future__ import annotations

import re

from test_tui_support import open_score_cards

from seorap.engine import views
from seorap.engine.scoring.schema import Interval
from seorap.engine.store.database import open_db
from seorap.tui.screens.scores_text import _value_ci, agreement_text


def test_mad_line_prints_the_value_once_with_its_ci(ref):
    path, ids = ref
    report = views.run_report(open_db(path), ids["oracle-merged"], resamples=50)
    a = report.aggregate
    line = next(x for x in agreement_text(report).plain.splitlines() if x.startswith("MAD "))
    mad = line.split("   ")[0]
    assert a.mad is not None
    if a.mad_ci is not None and a.mad_ci.ci_low is not None:
        assert mad == f"MAD {a.mad:.2f} [{a.mad_ci.ci_low:.2f}, {a.mad_ci.ci_high:.2f}]"
    else:
        assert mad == f"MAD {a.mad:.2f}"
    assert not re.match(r"MAD (\d\.\d\d) \1", mad)


def test_value_ci_formats():
    iv = Interval(mean=0.38, ci_low=0.21, ci_high=0.54)
    assert _value_ci(0.38, iv) == "0.38 [0.21, 0.54]"
    assert _value_ci(0.38, None) == "0.38"
    assert _value_ci(0.38, Interval(mean=0.38)) == "0.38"
    assert _value_ci(None, None) == "—"


async def test_bars_have_gaps_and_group_labels(ref):
    from seorap.tui.factory import make_app

    path, ids = ref
    app = make_app(path, run_id=ids["oracle-merged"])
    async with app.run_test(size=(180, 50)) as pilot:
        await open_score_cards(pilot)
        screen = app.screen
        report = screen.reports[screen.current]
        plain = screen.query_one("#bars").render().plain
        names = [*report.aggregate.by_category, *report.aggregate.by_difficulty]
        assert names and all(n in plain for n in names)
        bottom = next(x for x in plain.splitlines() if x.lstrip().startswith("0.00"))
        inside = bottom.split("┤", 1)[1].rstrip("│ ")
        assert "█" in inside and re.search(r"█ +█", inside), inside  # separate bars, not one block


def _unreliable(report):
    """The same run as the engine reports it when its judge saturates on PARTIAL: the audit's
    figures with 90% PARTIAL on wrong answers, judged by engine.scoring.diagnosis.judge_unreliable
    (the one decision), and the quadrants withheld as engine.scoring.report does it."""
    from seorap.engine.scoring import audit, diagnosis

    figures = report.audit.model_copy(update={"partial_saturation": 0.9})
    verdict = audit.Reliability.from_reason(
        diagnosis.judge_unreliable(
            ["YES", "NO"], audit_partial_saturation=figures.partial_saturation
        )
    )
    assert not verdict.reliable
    aggregate = report.aggregate.model_copy(
        update={
            "judge_unreliable": verdict.reasons[0],
            "quadrants": {},
            "mad": None,
            "div_rate": None,
        }
    )
    trajectories = [
        t.model_copy(update={"quadrant": None, "quadrant_raw": t.quadrant})
        for t in report.trajectories
    ]
    return report.model_copy(
        update={
            "audit": figures,
            "judge_reliability": verdict,
            "aggregate": aggregate,
            "trajectories": trajectories,
        }
    )


def test_score_cards_show_the_judge_audit_of_the_scoring(ref):
    path, ids = ref
    report, _ = views.stored_figures(open_db(path), ids["oracle"])
    audit = views.judge_audit(report)
    assert audit is not None and audit.reliable and audit.judge == "lexical"
    assert [k.kind for k in audit.controls] == [
        "correct",
        "paraphrase",
        "paraphrase-label",
        "paraphrase-order",
    ]
    assert {k.ideal for k in audit.wrong} == {"NO"} and "hedged" in [k.kind for k in audit.wrong]
    text = agreement_text(report).plain
    hedged = next(k for k in audit.wrong if k.kind == "hedged")
    assert f"judge audit (lexical, {audit.rules}, every item) · reliable" in text
    assert f"hedged {hedged.pass_rate:.0%}" in text
    assert f"PARTIAL saturation {audit.partial_saturation:.0%}" in text
    assert "quadrants: healthy" in text and views.UNRELIABLE not in text


async def test_an_unreliable_judge_gets_no_quadrant_on_the_cards(ref):
    from seorap.tui.factory import make_app

    path, ids = ref
    report = _unreliable(views.stored_figures(open_db(path), ids["oracle"])[0])
    text = agreement_text(report).plain
    assert f"quadrants: {views.UNRELIABLE}" in text
    assert "why: the judge audit just below, or `seorap judge-audit`" in text  # a pointer
    assert "PARTIAL share of the wrong answers 0.90 > 0.80" in text  # the engine's reason, shown
    assert "healthy 0" not in text and "healthy" not in text.split("quadrants:")[1].splitlines()[0]
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await open_score_cards(pilot)
        screen = app.screen
        screen.reports = [
            report if n == screen.current else r for n, r in enumerate(screen.reports)
        ]
        screen.draw()  # figures read anew (a new list, as reload makes): the table lists them
        await pilot.pause()
        plot = screen.query_one("#scatter").render().plain
        assert views.UNRELIABLE in plot and "○" in plot
        assert not any(m in plot for m in ("●", "▲", "■", "✖"))  # no quadrant markers
        row = screen.query_one("#variants").get_row(report.run_id)
        assert [str(c) for c in row[-4:]] == ["unreliable", "—", "—", "—"]


async def test_r_keeps_the_run_on_show(ref):  # noqa: F811
    """`r` re-reads the figures: the run `v` moved to stays on show (it jumped back to the app's
    selected run)."""
    from seorap.tui.factory import make_app

    path, ids = ref
    app = make_app(path, run_id=ids["oracle"])
    async with app.run_test(size=(160, 45)) as pilot:
        await open_score_cards(pilot)
        screen = app.screen
        start = screen.reports[screen.current].run_id
        await pilot.press("v")
        await pilot.pause()
        moved = screen.reports[screen.current].run_id
        assert moved != start
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.reports[screen.current].run_id == moved
        assert screen.query_one("#variants").cursor_row == screen.current


def test_a_long_run_label_is_cut_in_the_table_with_a_mark():
    from rich.cells import cell_len

    from seorap.tui.screens.scores_fit import RUN_LABEL_CELLS, run_label_cell

    label = "recorded (A · qwen3.5:9b · ko-mini · 2026-12-01 · replay of A-c5f8dcb9-aaaaaa)"
    cell = run_label_cell(label)
    assert cell_len(cell) == RUN_LABEL_CELLS and cell.endswith("…") and label.startswith(cell[:-1])
    assert run_label_cell("oracle-stale") == "oracle-stale"
