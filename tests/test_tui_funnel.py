"""The claim funnel chart and the contested gold beside the score cards (tui/widgets/funnel.py)."""

from __future__ import annotations

from click.testing import CliRunner
from test_tui_support import open_score_cards

from seorap.cli.main import cli
from seorap.engine.scoring.schema import (
    GoldFigure,
    GoldFigures,
    Interval,
    JourneyFigures,
    JourneyStage,
)
from seorap.tui.widgets.funnel import bar, funnel_text, gold_text


def test_bars_in_eighths():
    assert bar(1.0, 4) == "████"
    assert bar(0.0, 4) == "    "
    assert bar(0.25, 4) == "█   "
    assert bar(1 / 8, 4) == "▌   "  # 1/8 of 4 cells = 4 eighths: half a cell
    assert bar(1 / 16, 4) == "▎   "  # 2 eighths: a quarter cell
    assert bar(None, 3) == "   "


def _stage(n, survived, low=None, high=None):
    share = survived / n if n else None
    return JourneyStage(
        n=n, survived=survived, share=Interval(mean=share, ci_low=low, ci_high=high)
    )


def test_the_funnel_chart_by_hand():
    journey = JourneyFigures(
        stages={
            "said": _stage(6, 6, 1.0, 1.0),
            "kept": _stage(6, 3, 0.25, 0.75),
            "retrieved": _stage(0, 0),
        },
        losses={"kept": 3},
    )
    lines = funnel_text(journey, width=8).plain.splitlines()
    assert lines[1] == "said      ████████ 6/6 1.00 [1.00, 1.00]"
    assert lines[2] == "kept      ████     3/6 0.50 [0.25, 0.75]"
    assert lines[3] == "retrieved n/a     "
    assert lines[4] == "lost at: kept 3"
    assert funnel_text(None).plain == ""
    # an unreliable judge: the chart says so and names no loss point
    shaky = funnel_text(journey, width=8, unreliable="compound PARTIAL share 1.00 > 0.80").plain
    assert "unreliable ruler" in shaky.splitlines()[0] and "lost at" not in shaky


def test_the_gold_block_by_hand():
    gold = GoldFigures(
        contested=[{"item": "s0/c2"}],
        figures={
            "intrinsic": GoldFigure(
                with_contested=Interval(mean=1.0),
                without_contested=Interval(mean=1.0),
                ceiling=0.77,
                above_ceiling=True,
            )
        },
    )
    assert gold_text(gold).plain == (
        "gold: 1 contested (s0/c2)\nintrinsic full: 1.00 · without 1.00 · ceiling 0.77 ⚠ above "
        "ceiling\n"
    )
    assert gold_text(None).plain == ""


async def test_the_score_cards_show_the_funnel_and_a_contest(ref):
    from seorap.tui.factory import make_app

    path, ids = ref
    args = ["gold", "contest", "--corpus", "ko-mini", "--trajectory", "ko-c3-hiring-plan"]
    out = CliRunner().invoke(
        cli, [*args, "--item", "single/0", "--reason", "두 가지로 읽힌다", "--db", str(path)]
    )
    assert out.exit_code == 0, out.output
    app = make_app(str(path), run_id=ids["oracle-merged"])
    async with app.run_test(size=(180, 50)) as pilot:
        await open_score_cards(pilot)
        screen = app.screen
        report = screen.reports[screen.current]
        plain = screen.query_one("#funnel").render().plain
        assert "claim funnel" in plain
        said = report.journey.stages["said"]
        assert f"said      {'█' * 20} {said.survived}/{said.n}" in plain
        assert "gold: 1 contested (single/0)" in plain
        ceiling = report.gold.figures["extrinsic_single"].ceiling
        assert ceiling is not None and ceiling < 1
        assert f"ceiling {ceiling:.2f}" in plain
