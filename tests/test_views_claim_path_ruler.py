"""A claim's journey line under an unreliable judge (engine/views/claim_path.py): the stages whose
own check reads the judge's labels show ? and no loss point is named from them — in the stepper's
claim rows, the tour's lost claims and every path built from a card; a reliable judge's paths are
unchanged.

One database, three trajectories (as tests/test_ruler_marks.py, plus hiring): oracle-stale scored by
the lexical judge and then by an always-PARTIAL one (the latest scoring, found unreliable); the
oracle scored by the lexical judge (reliable: its losses at credited are named)."""

import pytest
from unreliable_support import score_always_partial

from seorap.engine import views
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring.journey import STAGES
from seorap.engine.store.database import open_db
from seorap.engine.views.claim_path import LABELLED, RULER_NOTE, WITHHELD, claim_path, lost_at
from seorap.engine.views.common import latest_card
from seorap.engine.views.demo import journey_told

HIRING = "ko-c3-hiring-plan"
OTHERS = ["ko-c5-garam-db", "ko-c4-late-memo"]
REASON = "compound PARTIAL share 1.00 > 0.80"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    db = open_db(tmp_path_factory.mktemp("ruler") / "runs.db")
    corpus = load_corpus("fixtures/ko-mini")
    only = dict(offline=True, trajectories=[HIRING, *OTHERS])
    [shaky] = run(corpus, ["oracle-stale"], db, Config.offline(), **only)
    score_always_partial(db, shaky, corpus)  # the latest scoring: the card's judge is unreliable
    [steady] = run(corpus, ["oracle"], db, Config.offline(), **only)
    return db, corpus, shaky, steady


def test_under_an_unreliable_judge_no_claim_path_names_a_loss_point(runs):
    db, corpus, shaky, _ = runs
    t = corpus.get(HIRING)
    card = latest_card(db, shaky, HIRING)
    assert card["judge_unreliable"]
    stored = {c["claim"]: c for c in card["journey"]["claims"]}
    assert {c["loss"] for c in stored.values()} == {"stored"}  # what would have been named
    paths = views.stored_paths(db, shaky, t)
    assert paths.keys() == stored.keys()
    for claim, path in paths.items():
        assert path.loss is None and path.why == "" and path.withheld, claim
        assert path.unreliable == card["judge_unreliable"]
        marks = dict(path.marks)
        assert [s for s, _ in path.marks] == list(STAGES)
        assert {marks[s] for s in LABELLED} <= {"?", "n/a"} and marks["stored"] == "?"
        assert marks["said"] == marks["extracted"] == "✓"  # not the judge's: they stay
        for text in (path.line(), path.conclusion(), path.conclusion(evidence=False)):
            assert "lost at" not in text and "not lost" not in text
        assert path.conclusion() == f"{WITHHELD} {RULER_NOTE}"
        assert path.line().endswith(f" · {WITHHELD} {RULER_NOTE}")
    # the stepper's claim rows take the same paths
    step = views.step_view(db, corpus, shaky, HIRING, 0)
    rows = [c for c in step.claims if c.path is not None]
    assert rows and all(c.path == paths[c.claim] for c in rows)
    # the tour tells no loss point from this card
    assert journey_told(card, t, "compensation") == ("", ())


def test_a_reliable_judge_s_paths_are_unchanged(runs):
    db, corpus, _, steady = runs
    named = []
    for tid in (HIRING, *OTHERS):
        t = corpus.get(tid)
        card = latest_card(db, steady, tid)
        assert not card["judge_unreliable"]
        paths = views.stored_paths(db, steady, t)
        for c in card["journey"]["claims"]:
            path = paths[c["claim"]]
            assert path.loss == c["loss"] and not path.withheld and path.unreliable is None
            assert "?" not in dict(path.marks).values()
            assert RULER_NOTE not in path.line() + path.conclusion()
            if path.loss:
                named.append(path)
                assert path.conclusion() == f"{lost_at(path.loss)}: {path.why}"
                assert path.line().endswith(f" · {lost_at(path.loss)}")
            else:
                assert path.conclusion() == "not lost" and path.line().endswith(" · not lost")
    assert named  # the oracle's answers lose some claims at credited: named as before
    # the step view's claim rows take them too
    step = views.step_view(db, corpus, steady, HIRING, 0)
    rows = [c for c in step.claims if c.path is not None]
    assert rows and all(
        c.path == views.stored_paths(db, steady, corpus.get(HIRING))[c.claim] for c in rows
    )


def _journey(loss, **status):
    stages = {s: {"status": status.get(s, "pass")} for s in STAGES}
    stages["extracted"]["state"] = 0
    return {"item": "s0/c0", "stages": stages, "loss": loss}


@pytest.mark.parametrize(
    ("loss", "status", "named"),
    [
        # before every labelled stage: not the judge's word, named
        ("said", {"said": "fail"}, "said"),
        ("extracted", {"extracted": "fail"}, "extracted"),
        # from stored on a loss point rests on the labels (retrieved and used too: the stages
        # before them passed by the judge's YES)
        ("stored", {"stored": "fail"}, None),
        ("kept", {"kept": "fail"}, None),
        ("retrieved", {"retrieved": "fail"}, None),
        ("used", {"used": "fail"}, None),
        ("credited", {"credited": "fail"}, None),
        (None, {}, None),
    ],
)
def test_which_loss_point_an_unreliable_judge_lets_through(loss, status, named):
    path = claim_path(_journey(loss, **status), {0: 0}, REASON)
    assert path.loss == named
    assert path.withheld == (named is None)
    marks = dict(path.marks)
    # retrieved and used are lexical checks: their own mark stays
    for s in STAGES:
        own = {"pass": "✓", "fail": "✗"}[status.get(s, "pass")]
        assert marks[s] == ("?" if s in LABELLED else own), s
    told = path.conclusion()
    assert told.endswith(RULER_NOTE)
    assert told.startswith(f"lost at {named} (") if named else told.startswith(WITHHELD)
    # the same journey under a reliable judge: named as stored
    reliable = claim_path(_journey(loss, **status), {0: 0}, None)
    assert reliable.loss == loss and not reliable.withheld and RULER_NOTE not in reliable.line()
