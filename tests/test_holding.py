"""The one (claim, text) verdict (engine/scoring/holding.py): decided once per pair inside a
scoring pass's recording and recorded; outside it, decided afresh; a view's :class:`Held` reads the
stored pairs, computes a missing one on read (counted), and says how it had them."""

from __future__ import annotations

from seorap.engine.scoring import holding
from seorap.engine.scoring.holding import BEFORE, RULE, STORED, UNSCORED, Held


def test_a_pass_decides_each_pair_once_and_records_it(monkeypatch):
    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(holding, "_compute", lambda c, t, *_: calls.append((c, t)) or c in t)
    with holding.recording() as pairs:
        assert holding.verdict("A", "xAx") and holding.verdict("A", "xAx")
        assert not holding.verdict("B", "xAx")
    assert pairs == {("A", "xAx"): True, ("B", "xAx"): False}
    assert calls == [("A", "xAx"), ("B", "xAx")]
    assert holding.rows(pairs) == [("A", "xAx", True), ("B", "xAx", False)]
    holding.verdict("A", "xAx")  # outside a pass: decided afresh, recorded nowhere
    assert len(calls) == 3 and len(pairs) == 2


def test_a_view_reads_the_stored_pair_not_its_own(monkeypatch):
    monkeypatch.setattr(holding, "_compute", lambda c, t, *_: c in t)
    held = Held({("A", "xAx"): False})  # altered as stored: the view follows it
    assert held("A", "xAx") is False and held.missed == 0 and held.note == ""
    assert held("B", "xBx") is True and held.missed == 1  # not stored: computed, counted


def test_how_the_verdicts_were_had_is_said(monkeypatch):
    monkeypatch.setattr(holding, "_compute", lambda c, t, *_: c in t)
    assert "computed on read" in Held({}, BEFORE).note and "re-score" in Held({}, BEFORE).note
    assert "not scored" in Held({}, UNSCORED).note
    assert (
        Held({}, STORED, "lexical-5").note
        == f"stored at score time (lexical-5; re-score for {RULE})"
    )
    before = Held({}, BEFORE)
    assert before("A", "xAx") is True and before.missed == 0  # nothing stored: none missed
