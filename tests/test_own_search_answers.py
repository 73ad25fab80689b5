"""A system's own search is its read path for the questions too (engine/scoring/answer_path.py).

tests/oldest_first_memory.py (an ``exec:`` system) stores each sentence as a fact, m1 m2 m3 in
writing order, and its search returns them oldest first whatever the query:

    m1 "회의실은 3층입니다."  m2 "주차장은 지하 2층입니다."  m3 "회의실은 5층으로 옮겼습니다."

So for "회의실은 지금 몇 층인가요?" (answer 5층) the fact stating "회의실은 5층" is m3, at rank 3 of the
system's search, and for "주차장은 몇 층인가요?" (answer 지하 2층) "주차장은 지하 2층" is m2 at rank 2.
seorap's hybrid retrieval ranks m3 above m2 for the first question (m2 shares only 층 with it;
m1, sharing 회의실 too, comes first), so the same program with ``--no-search`` puts m3 2nd, not
3rd: the test can tell whose ranking the journey read.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

PROGRAM = Path(__file__).parent / "oldest_first_memory.py"
OWN = f"exec:{sys.executable} {PROGRAM}"
HYBRID = f"exec:{sys.executable} {PROGRAM} --no-search"


def state(i, text, claims, stale=()):
    return {
        "index": i,
        "timestamp": f"2026-0{i + 1}-01",
        "action": "create" if i == 0 else "update",
        "confidence": 0.8,
        "claims": claims,
        "staleClaims": list(stale),
        "document": {"id": f"m-d{i}", "type": "slack", "author": {"name": "가"}, "text": text},
    }


def trajectory() -> dict:
    return {
        "id": "m",
        "title": "m",
        "category": "C3",
        "difficulty": "L1",
        "trajectoryType": "linear-evolution",
        "extrinsicQA": [{"question": "회의실은 지금 몇 층인가요?", "answer": "5층"}],
        "singleQA": [{"question": "주차장은 몇 층인가요?", "answer": "지하 2층", "state": 1}],
        "states": [
            state(
                0,
                "회의실은 3층입니다. 주차장은 지하 2층입니다.",
                ["회의실은 3층", "주차장은 지하 2층"],
            ),
            state(
                1,
                "회의실은 5층으로 옮겼습니다.",
                ["회의실은 5층", "주차장은 지하 2층"],
                stale=["회의실은 3층"],
            ),
        ],
    }


@pytest.fixture
def corpus(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "m.json").write_text(json.dumps(trajectory(), ensure_ascii=False), encoding="utf-8")
    return load_corpus(folder)


def scored(tmp_path, corpus, system):
    db = open_db(tmp_path / "r.db")
    [run_id] = run(corpus, [system], db, Config.offline())
    return db, run_id, card(db, run_id)


def card(db, run_id):
    row = next(
        db.query(
            "SELECT card FROM scores WHERE run_id = ? AND trajectory_id = 'm' ORDER BY rowid DESC",
            [run_id],
        )
    )
    return json.loads(row["card"])


def ranks(c) -> dict[str, list]:
    """claim -> the rank of each question's ranking the journey's retrieved stage read."""
    out = {}
    for claim in c["journey"]["claims"]:
        stage = claim["stages"]["retrieved"]
        out[claim["claim"]] = [q["rank"] for q in stage.get("per_question", [])]
    return out


def test_the_journey_reads_the_systems_own_ranks(tmp_path, corpus):
    db, run_id, c = scored(tmp_path, corpus, OWN)
    assert ranks(c)["회의실은 5층"] == [3]
    assert ranks(c)["주차장은 지하 2층"] == [2]
    assert c["extrinsic"]["read_path"] == "own search" and c["extrinsic"]["read_path_na"] is None
    # the lookups were taken once, after the last document, at the deepest k of the depth curve
    rows = list(db.query("SELECT item, position, k, source FROM question_lookups ORDER BY item"))
    assert [(r["item"], r["position"], r["k"], r["source"]) for r in rows] == [
        ("compound/0", 1, 10, "own search"),
        ("single/0", 1, 10, "own search"),
    ]
    # the stored ranking carries the system's scores, not hybrid's
    ranking = json.loads(
        next(db.query("SELECT ranking FROM retrievals WHERE item = 'compound/0'"))["ranking"]
    )
    assert [(h["text"], h["score"], h["rank"]) for h in ranking] == [
        ("회의실은 3층입니다.", 1.0, 1),
        ("주차장은 지하 2층입니다.", 0.5, 2),
        ("회의실은 5층으로 옮겼습니다.", pytest.approx(0.333333), 3),
    ]
    assert "hybrid" not in ranking[0]


def test_the_same_program_without_its_search_is_ranked_by_hybrid(tmp_path, corpus):
    _, _, c = scored(tmp_path, corpus, HYBRID)
    assert c["extrinsic"]["read_path"] == "hybrid"
    assert ranks(c)["회의실은 5층"] == [2]  # not the system's 3: the test above can fail


def test_a_run_without_stored_hits_reads_na_never_our_retrieval(tmp_path, corpus):
    from seorap.engine.scoring.answer_path import NOT_TAKEN
    from seorap.engine.scoring.score import score_run

    db, run_id, _ = scored(tmp_path, corpus, OWN)
    db.execute("DELETE FROM question_lookups")  # as an older database: no table rows
    db.conn.commit()
    score_run(db, run_id, Config.offline())
    c = card(db, run_id)
    assert c["extrinsic"]["read_path_na"] == NOT_TAKEN
    assert c["extrinsic"]["compound"] is None and c["extrinsic"]["single"] is None
    needed = [claim for claim in c["journey"]["claims"] if claim["questions"]]
    assert len(needed) == 2
    for claim in needed:
        for s in ("retrieved", "used", "credited"):
            assert claim["stages"][s] == {"status": "n/a", "why": NOT_TAKEN}
    memory = db.execute(
        "SELECT count(*) FROM retrievals WHERE run_id = ? AND source = 'memory'", [run_id]
    ).fetchone()[0]
    assert memory == 0
    # the baselines do not need the system: still answered
    assert c["extrinsic"]["baselines"]["full_context"] is not None
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import summary_lines

    r = build_report(db, [run_id]).runs[0]
    assert r.answer_path == "own search" and r.answer_path_na == NOT_TAKEN
    assert r.aggregate.extrinsic.mean is None
    assert f"read through: own search (the system's) · n/a ({NOT_TAKEN})" in "\n".join(
        summary_lines(r)
    )


def test_every_report_format_and_the_app_say_which_read_path_answered(tmp_path, corpus):
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import run_figures, summary_lines, to_markdown

    db, run_id, _ = scored(tmp_path, corpus, OWN)
    report = build_report(db, [run_id])
    r = report.runs[0]
    assert r.answer_path == "own search" and r.answer_path_na is None
    said = "memory answers and the journey's retrieved stage read through: own search"
    assert said in "\n".join(summary_lines(r))
    assert said in to_markdown(report)
    assert run_figures(r)["run_answer_path"] == "own search"
    assert json.loads(report.model_dump_json())["runs"][0]["answer_path"] == "own search"
    from seorap.tui.screens.scores_text import read_time_text  # the app's score card

    assert "answers read through: own search" in read_time_text(r).plain


def test_the_questions_view_shows_the_systems_own_scores(tmp_path, corpus):
    from seorap.engine.views.questions import questions_view
    from seorap.tui.screens.questions import render_detail

    db, run_id, _ = scored(tmp_path, corpus, OWN)
    view = questions_view(db, run_id, "m")
    q = next(q for q in view.questions if q.item == "compound/0")
    assert q.read_path == "own search"
    assert [(h.rank, h.own_score) for h in q.ranking][:2] == [(1, 1.0), (2, 0.5)]
    text = render_detail(q, 5, 100, view.stale_ids).plain
    assert "rank  own search score   fact" in text and "bm25" not in text


def test_an_unscored_run_shows_the_systems_own_ranking_live(tmp_path, corpus):
    from seorap.engine.views.questions import live_questions_view

    db = open_db(tmp_path / "r.db")
    [run_id] = run(corpus, [OWN], db, Config.offline(), score=False)
    view = live_questions_view(db, corpus, run_id, "m")
    q = next(q for q in view.questions if q.item == "compound/0")
    assert q.own_search and [h.rank for h in q.ranking if h.holds_answer] == [3]
    assert view.live.startswith("ranking by the system's own search")


def test_an_unfinished_trajectory_reads_na_for_its_questions(tmp_path, corpus):
    """Its questions are asked after the last document, which this run has not written."""
    from seorap.engine.scoring.answer_path import NOT_REACHED
    from seorap.engine.scoring.score import score_run

    db, run_id, _ = scored(tmp_path, corpus, OWN)
    db.execute("DELETE FROM documents WHERE run_id = ? AND position = 1", [run_id])
    db.conn.commit()
    score_run(db, run_id, Config.offline())
    c = card(db, run_id)
    assert c["extrinsic"]["read_path_na"] == NOT_REACHED and c["extrinsic"]["compound"] is None


def test_a_second_run_asks_the_model_answerer_nothing_new(ollama_server, tmp_path, corpus):
    """The own-search context is keyed by content (texts, the system's scores): the same command
    again, a new run id, is answered from the call log: 0 new calls."""
    ollama_server.handler = lambda body: "회의실은 5층입니다."
    model = next(iter(ollama_server.models))
    config = Config.offline(host=ollama_server.url).with_overrides({"models.answerer": model})
    db = open_db(tmp_path / "r.db")
    [first] = run(corpus, [OWN], db, config)
    asked = len(ollama_server.bodies("/api/chat"))
    assert asked > 0  # the memory answers and baselines went to the model
    [again] = run(corpus, [OWN], db, config, label="again")
    assert again != first
    assert len(ollama_server.bodies("/api/chat")) == asked
    assert card(db, again)["extrinsic"]["read_path"] == "own search"


def test_runs_rm_lists_and_removes_the_question_lookups(tmp_path, corpus):
    from seorap.engine.store.database import delete_run, run_rows

    db, run_id, _ = scored(tmp_path, corpus, OWN)
    assert run_rows(db, run_id)["question_lookups"] == 2  # what --dry-run lists
    delete_run(db, run_id)
    assert db.table("question_lookups").count == 0
