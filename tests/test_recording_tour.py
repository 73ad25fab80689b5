"""The shipped recording's answers are its model's, and the offline tour (the recording beside the
offline reference systems, as `seorap demo` holds them) draws its compensation candidate from them
or says that the recording offers none, as docs/demo.md says (issue 35.8)."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

from seorap.engine import views
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.fmt import figure
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db
from seorap.engine.store.recording import import_recording, read_recording

ROOT = Path(__file__).resolve().parents[1]
KO_MINI = ROOT / "fixtures" / "ko-mini"
SHIPPED = sorted((ROOT / "fixtures" / "recordings").glob("*.jsonl.gz"))
pytestmark = pytest.mark.skipif(not SHIPPED, reason="no recording shipped")


def _reply(call: dict) -> str:
    raw = call.get("raw")
    if raw is None and call.get("raw_z"):
        raw = zlib.decompress(call["raw_z"]).decode()
    return str(raw or "")


def test_every_answer_of_the_shipped_recording_is_a_reply_of_the_model_it_names():
    header, rows = read_recording(SHIPPED[0])
    model = header["label"]["model"]
    [run] = [r for t, r in rows if t == "runs"]
    assert json.loads(run["config"])["models"]["answerer"] == model
    assert json.loads(run["manifest"])["config"]["models"]["answerer"] == model
    answers = [r for t, r in rows if t == "answers"]
    replies = {_reply(c).strip() for t, c in rows if t == "calls" and c["role"] == "answerer"}
    assert answers and {a["answerer"] for a in answers} == {model}
    assert all(a["answer"] in replies for a in answers)  # each one the model's own reply
    assert {c["model"] for t, c in rows if t == "calls"} == {model}


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory):
    """The shipped recording beside the offline reference systems on its trajectory, as the
    demo's database holds them: (path, the recording's run id, its model, its trajectory)."""
    header, _ = read_recording(SHIPPED[0])
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    db = open_db(path)
    run_id, _ = import_recording(db, SHIPPED[0])
    corpus = load_corpus(KO_MINI)
    [trajectory] = {r["trajectory_id"] for r in db.query("SELECT trajectory_id FROM documents")}
    corpus.trajectories[:] = [t for t in corpus.trajectories if t.id == trajectory]
    run(corpus, ["oracle-stale", "oracle"], db, Config.offline(), offline=True)
    db.close()
    return path, run_id, header["label"]["model"], trajectory


def _candidate(db, corpus):
    return views.demo_tour(db, corpus)["compensation"] or views.stale_case(db, corpus)


def test_the_offline_tour_takes_its_compensation_candidate_from_the_recording_or_says_why_not(
    demo_db,
):
    path, run_id, model, trajectory = demo_db
    db = open_db(path, readonly=True)
    corpus = load_corpus(KO_MINI)
    assert views.model_answerers(db) == {run_id: model}  # the reference systems: a reader's
    candidate = _candidate(db, corpus)
    note = views.real_answers_note(db, candidate.run_id if candidate else None)
    card = views.score_cards(db)[(run_id, trajectory)]
    demo_md = (ROOT / "docs" / "demo.md").read_text(encoding="utf-8")
    if candidate is not None and candidate.run_id == run_id:
        assert note == f"Its answers are a real model's ({model})."
        assert "the tour's compensation candidate is the recording's" in demo_md
        return
    # no case from the recording: the note says so, with the recording's own figures
    label = views.run_labels(db)[run_id]
    intrinsic = figure(card["intrinsic_full"])
    extrinsic = figure(card["extrinsic"]["compound"])
    assert note.startswith(f"{label}, answered by {model}, offers no compensation case")
    assert f"intrinsic {intrinsic}, extrinsic {extrinsic}" in note
    stale = card["intrinsic"]["stale_facts"]
    assert f"{stale} stale fact" in note
    assert ("its judge cannot carry a diagnosis" in note) == bool(card.get("judge_unreliable"))
    assert "the recording offers no compensation case" in demo_md


async def test_the_tour_says_under_its_compensation_case_whose_answers_it_shows(demo_db):
    from seorap.tui.factory import make_app  # textual loads only for the app test

    path, run_id, model, trajectory = demo_db
    corpus = load_corpus(KO_MINI)
    db = open_db(path, readonly=True)
    candidate = _candidate(db, corpus)
    note = views.real_answers_note(db, candidate.run_id if candidate else None)
    app = make_app(path, corpus=KO_MINI)
    async with app.run_test(size=(180, 60)) as pilot:
        await pilot.press("7")
        await app.workers.wait_for_complete()  # the stale-fact case is found in a worker
        await pilot.pause()
        text = str(app.screen.query_one("#demo-compensation").content)
    assert note and note in text
    if candidate is not None:
        assert candidate.run_id in text or candidate.system in text
