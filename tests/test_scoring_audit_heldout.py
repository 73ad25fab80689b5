"""The audit does not grade its own homework: its held-out kinds are worded from lists the lexical
judge's rules never read, and they are built from the ground truth (firm wrong value, negation,
retraction, hedge, replacement, wrong subject, a relative date a week off; paraphrase controls)."""

from __future__ import annotations

import re
from datetime import date

import pytest

pytest.importorskip("kiwipiepy")

from seorap.engine.corpus import load_corpus  # noqa: E402
from seorap.engine.scoring import audit, audit_heldout  # noqa: E402
from seorap.engine.scoring.answerers import ReaderAnswerer  # noqa: E402
from seorap.engine.scoring.judges import LexicalJudge  # noqa: E402
from seorap.engine.scoring.lexical import analysis, polarity  # noqa: E402

MARKER_LISTS = {
    "polarity.RETRACT_VERBS": polarity.RETRACT_VERBS,
    "polarity.RETRACT_NOUNS": polarity.RETRACT_NOUNS,
    "polarity.NEGATING_ADVERBS": {f for f, _ in polarity.NEGATING_ADVERBS},
    "polarity.ASIDE_WORDS": {f for f, _ in polarity.ASIDE_WORDS},
    "polarity.MODAL_NOUNS": polarity.MODAL_NOUNS,
    "polarity.LIKELIHOOD_NOUNS": polarity.LIKELIHOOD_NOUNS,
    "polarity.APPROXIMATION": polarity.APPROXIMATION,
    "polarity.GUESS_ADVERBS": polarity.GUESS_ADVERBS,
    "polarity.HEARSAY_ENDINGS": polarity.HEARSAY_ENDINGS,
    "polarity.GUESS_ENDINGS": polarity.GUESS_ENDINGS,
    "polarity.CONTRAST_ENDINGS": polarity.CONTRAST_ENDINGS,
    "polarity.OPPOSITES": {w for group in polarity.OPPOSITES for pole in group for w in pole},
    "analysis._NEG_MORPHS": {f for f, _ in analysis._NEG_MORPHS},
    "analysis._NEG_NOUNS": analysis._NEG_NOUNS,
    "analysis._CANCEL_NOUNS": analysis._CANCEL_NOUNS,
    "analysis._RETRACT_NOUNS": analysis._RETRACT_NOUNS,
    "analysis._POSTPONE_NOUNS": analysis._POSTPONE_NOUNS,
    "analysis._POSTPONE_VERBS": analysis._POSTPONE_VERBS,
    "analysis._HEDGE_WORDS": {f for f, _ in analysis._HEDGE_WORDS},
}
HELD_OUT = [
    *audit_heldout.NEGATIONS,
    *audit_heldout.RETRACTIONS,
    *audit_heldout.HEDGES,
    *audit_heldout.REPLACEMENTS,
    *audit_heldout.OTHER_SUBJECTS,
]


def _words(template: str) -> list[str]:
    return re.sub(r"\{[ew]\}|이\(가\)|을\(를\)|[.,?]", " ", template).split()


@pytest.mark.parametrize("name", sorted(MARKER_LISTS))
def test_held_out_wording_shares_no_entry_with_the_judge_lists(name):
    words = [w for t in HELD_OUT for w in _words(t)]
    for entry in MARKER_LISTS[name]:
        # an entry of two or more characters never occurs inside the wording; a one-character
        # entry is never a word of it on its own
        hits = [w for w in words if (entry in w if len(entry) > 1 else entry == w)]
        assert hits == [], f"{name} entry {entry!r} occurs in the held-out wording: {hits}"


def test_held_out_kinds_are_built_from_the_ground_truth():
    got = dict(
        (k, a)
        for k, a, _ in audit_heldout.held_out(
            "세미나 일자는 11월 14일", "세미나 일자는 11월 24일", "k", 2026, date(2026, 11, 1)
        )
    )
    assert got["firm-wrong"] == "세미나 일자는 11월 24일"
    assert got["week-off"] == "세미나 일자는 20일 후"  # 11월 21일 from 1 November
    assert got["wrong-subject"].endswith("11월 14일") and not got["wrong-subject"].startswith(
        "세미나"
    )
    assert got["paraphrase-label"] == "세미나 일자: 11월 14일"
    assert set(audit_heldout.WRONG) <= set(audit.WRONG_KINDS)
    assert set(audit_heldout.CONTROLS) <= set(audit.CONTROL_KINDS)


def test_the_lexical_judge_on_the_held_out_kinds():
    corpus = load_corpus("fixtures/ko-mini")
    result = audit.run_audit(
        corpus, LexicalJudge(), ReaderAnswerer(), trajectory_ids={"ko-c5-seminar"}
    )
    figures = audit.figures_from_rows(result.verdicts, judge=result.judge)
    for kind in ("firm-wrong", "negated", "hedged-reworded", "week-off"):
        assert figures.kinds[kind].pass_rate == 0.0, kind
    assert figures.kinds["paraphrase-label"].pass_rate == 1.0
