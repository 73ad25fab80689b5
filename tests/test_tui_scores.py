"""Score cards: the agreement line prints each figure once, with its CI; the bars have gaps."""

from __future__ import annotations

import re

from test_tui_support import ref, ref_db_path  # noqa: F401 - fixtures

from seorap.engine import views
from seorap.engine.scoring.schema import Interval
from seorap.engine.store import open_db
from seorap.tui.screens.scores import _value_ci, agreement_text


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
        await pilot.press("4")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        report = screen.reports[screen.current]
        plain = screen.query_one("#bars").render().plain
        names = [*report.aggregate.by_category, *report.aggregate.by_difficulty]
        assert names and all(n in plain for n in names)
        bottom = next(x for x in plain.splitlines() if x.lstrip().startswith("0.00"))
        inside = bottom.split("┤", 1)[1].rstrip("│ ")
        assert "█" in inside and re.search(r"█ +█", inside), inside  # separate bars, not one block
