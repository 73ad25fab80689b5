"""Read-time state, hand-computed on a small append-only store where it differs from write-time.

Two documents on one topic: the meeting room is on the 3rd floor, then it moved to the 5th.
An append-only store holds both sentences after the second document, so write-time coverage is
1.0 at both states (the current value is stored) while the old value is still held (a stale fact).

- ``forgetful`` (its own search returns only the first fact it stored): at state 1 the read
  returns the 3rd-floor fact only. The reader reads "3층", the judge says NO: read-time accuracy
  (1 + 0) / 2 = 0.5 and coverage 0 — below write-time (1.0): stored but not retrieved. That
  reading states the stale value: stale-at-read 1 of 2 reads = 0.5.
- ``append-only`` (no own search: seorap's hybrid retrieval over its facts): both facts come back
  for the slot question "회의실은?" (the claim without its value). The 5층 fact is the more recent
  and holds the claim, and no more recent hit supersedes it: read-time accuracy 1.0. What the reader
  answered is the best-ranked hit, the 3층 fact (the question no longer names 5층, and both facts
  answer it alike): that reading states a stale value, stale-at-read 1 of 2 = 0.5 — while write-time
  counts the stale fact in the store (stale facts 1, claim precision 1/2 = 0.5).

Every lookup asks the slot question, never the claim: "회의실은?" for both claims.
"""

from __future__ import annotations

import json

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

OLD, NEW = "회의실은 3층입니다.", "회의실은 5층으로 옮겼습니다."


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
        "states": [
            state(0, OLD, ["회의실은 3층"]),
            state(1, NEW, ["회의실은 5층"], stale=["회의실은 3층"]),
        ],
    }


def card(tmp_path, system):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "m.json").write_text(json.dumps(trajectory(), ensure_ascii=False), encoding="utf-8")
    db = open_db(tmp_path / "r.db")
    [run_id] = run(load_corpus(folder), [system], db, Config.offline())
    row = next(
        db.query("SELECT card FROM scores WHERE run_id = ? AND trajectory_id = 'm'", [run_id])
    )
    return db, run_id, json.loads(row["card"])


def test_stored_but_not_retrieved_reads_below_write_time(tmp_path):
    db, run_id, c = card(tmp_path, "systems_support:forgetful")
    assert c["intrinsic"]["full"]["fact_accuracy"] == 1.0  # both values stored
    rt = c["read_time"]
    assert [r["score"] for r in rt["rows"]] == [1.0, 0.0]
    assert rt["accuracy"] == pytest.approx(0.5)
    assert rt["coverage"] == 0.0
    assert rt["stale_at_read"] == pytest.approx(0.5)
    assert rt["rows"][1]["reading"] == OLD and rt["rows"][1]["stale"] is True
    assert {r["source"] for r in rt["rows"]} == {"own search"}
    # the lookups are stored: re-scoring needs no system
    assert db.table("read_lookups").count_where("run_id = ?", [run_id]) == 2


def test_stale_value_resolved_by_the_reader(tmp_path):
    db, run_id, c = card(tmp_path, "systems_support:append_only")
    intr = c["intrinsic"]
    assert intr["full"]["fact_accuracy"] == 1.0
    assert intr["stale_facts"] == 1 and intr["claim_precision"] == pytest.approx(0.5)
    rt = c["read_time"]
    assert [r["score"] for r in rt["rows"]] == [1.0, 1.0]
    assert rt["rows"][1]["reading"] == OLD and rt["rows"][1]["stale"] is True
    assert rt["accuracy"] == 1.0 and rt["coverage"] == 1.0
    assert rt["stale_at_read"] == pytest.approx(0.5)
    assert {r["source"] for r in rt["rows"]} == {"hybrid"}
    assert {(r["query"], r["query_kind"]) for r in rt["rows"]} == {("회의실은?", "generated")}
    stored = {r["query"] for r in db.query("SELECT query FROM read_lookups")}
    assert stored == {"회의실은?"}


def test_report_has_read_time_block_and_na_reasons(tmp_path):
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import summary_lines

    db, run_id, _ = card(tmp_path, "systems_support:append_only")
    report = build_report(db, [run_id])
    r = report.runs[0]
    assert r.read_time is not None and r.read_time.accuracy.mean == 1.0
    assert set(r.read_time.not_applicable) == {"udr", "temporal", "lineage", "confidence_mae"}
    assert r.trajectories[0].udr is None or r.trajectories[0].append_only
    text = "\n".join(summary_lines(r))
    assert "read-time (hybrid, 2 reads, generated slot questions)" in text
    assert "read below write: not retrieved 0 · outranked 0 · ruler disagreement 0" in text
    assert "udr: n/a (append-only" in text
    csv_row = json.loads(report.model_dump_json())["runs"][0]["trajectories"][0]
    assert csv_row["read_accuracy"] == 1.0 and csv_row["stale_at_read"] == 0.5


def test_stepper_shows_the_read_of_a_claim(tmp_path):
    from seorap.engine.views import step_view
    from seorap.tui.widgets.detail import render_claim

    db, run_id, _ = card(tmp_path, "systems_support:forgetful")
    corpus = load_corpus(tmp_path / "corpus")
    step = step_view(db, corpus, run_id, "m", 1)
    [claim] = step.claims
    assert claim.read is not None and claim.read.source == "own search"
    assert [h.text for h in claim.read.hits] == [OLD]
    assert claim.read.reading == OLD and claim.read.label == "NO" and claim.read.stale
    text = render_claim(claim, step).plain
    assert "read time (own search): 1 fact(s) returned" in text
    assert "states a stale value" in text
    ops = [(o.operation, o.raw_operation) for o in step.operations]
    assert ops == [("create", "ADD")]  # the system's own word beside ours


def test_confidence_mae_is_na_when_the_system_reports_no_confidence(tmp_path):
    """The store keeps such a fact at 0.5, which against the corpus's 0.8 would fake an MAE of
    0.3: the report must say n/a (why) instead, in every format."""
    from seorap.engine.scoring.report import build_report, rows
    from seorap.engine.scoring.report_text import run_figures, summary_lines

    db, run_id, _ = card(tmp_path, "systems_support:append_only")
    r = build_report(db, [run_id]).runs[0]
    why = "the system reports no confidence for its facts"
    assert r.not_applicable["confidence_mae"] == why
    assert r.trajectories[0].confidence_mae is None and r.aggregate.confidence_mae.mean is None
    assert f"confidence MAE n/a ({why})" in "\n".join(summary_lines(r))
    assert rows(build_report(db, [run_id]))[0]["confidence_mae"] == "n/a"
    assert run_figures(r)["run_confidence_mae"] == "n/a"
    # the operations were reported: op accuracy is a figure, not n/a
    assert "op_accuracy" not in r.not_applicable and r.trajectories[0].op_accuracy is not None


def test_confidence_mae_of_a_system_that_reports_confidence(tmp_path):
    # each state writes one fact at 0.6 against the corpus's 0.8: |0.8 - 0.6| = 0.2 at both states
    from seorap.engine.scoring.report import build_report

    db, run_id, c = card(tmp_path, "systems_support:confident")
    r = build_report(db, [run_id]).runs[0]
    assert "confidence_mae" not in r.not_applicable
    assert r.trajectories[0].confidence_mae == pytest.approx(0.2)


def test_declared_confidence_missing_on_a_fact_is_one_sentence(tmp_path):
    from seorap.engine.memory.foreign import SystemFault

    with pytest.raises(SystemFault, match="declares reports_confidence but listed fact 'x1'"):
        card(tmp_path, "systems_support:claims_confidence")


def test_op_accuracy_is_na_when_the_system_reports_no_operations(tmp_path):
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import summary_lines

    db, run_id, _ = card(tmp_path, "systems_support:silent")
    r = build_report(db, [run_id]).runs[0]
    assert r.trajectories[0].op_accuracy is None and r.aggregate.op_accuracy is None
    assert "op accuracy n/a (the system reports no operations" in "\n".join(summary_lines(r))


def test_compare_figures_put_read_time_beside_write_time(tmp_path):
    # forgetful (module docstring): write-time accuracy 1.0 and coverage 1.0 with one stale fact;
    # read-time accuracy 0.5, coverage 0.0, stale-at-read 0.5
    from seorap.engine.views import side_figures

    db, run_id, _ = card(tmp_path, "systems_support:forgetful")
    f = side_figures(db, run_id)
    assert (f.write_accuracy, f.write_coverage, f.stale_facts) == (1.0, 1.0, 1)
    assert (f.read_accuracy, f.read_coverage, f.stale_at_read) == (0.5, 0.0, 0.5)


def _rescore_as_older(db, run_id, query=None):
    """An older database, scored again: its lookups asked with the claim (no query stored), or with
    ``query``, a slot question older rules generated."""
    from seorap.engine.scoring.score import score_run

    db.execute("UPDATE read_lookups SET query = ?, query_kind = ?", [query, query and "generated"])
    db.conn.commit()
    score_run(db, run_id, Config.offline())
    row = next(
        db.query(
            "SELECT card FROM scores WHERE run_id = ? AND trajectory_id = 'm' ORDER BY rowid DESC",
            [run_id],
        )
    )
    return json.loads(row["card"])["read_time"]


def test_older_lookups_are_asked_again_on_our_read_path(tmp_path):
    db, run_id, c = card(tmp_path, "systems_support:append_only")
    rt = _rescore_as_older(db, run_id)
    assert [r["recomputed"] for r in rt["rows"]] == [True, True]
    assert {r["query"] for r in rt["rows"]} == {"회의실은?"}
    assert [r["score"] for r in rt["rows"]] == [r["score"] for r in c["read_time"]["rows"]]
    assert rt["na"] == 0


def test_older_lookups_through_own_search_read_na(tmp_path):
    db, run_id, _ = card(tmp_path, "systems_support:forgetful")
    rt = _rescore_as_older(db, run_id)
    assert rt["reads"] == 0 and rt["na"] == 2 and rt["coverage"] is None
    assert rt["na_reason"] == "taken with the value in the query; re-run"
    assert all(r["score"] is None for r in rt["rows"])


def test_lookups_asked_with_an_older_slot_question_are_asked_again(tmp_path):
    # the question's rules changed since the run was written (a frequency used to stay in it):
    # the stored lookup answers another question, so scoring asks today's on our read path, and a
    # system's own search (gone at scoring) reads n/a with the reason
    db, run_id, c = card(tmp_path, "systems_support:append_only")
    rt = _rescore_as_older(db, run_id, query="회의실은 매주?")
    assert [r["recomputed"] for r in rt["rows"]] == [True, True]
    assert {r["query"] for r in rt["rows"]} == {"회의실은?"}
    assert [r["score"] for r in rt["rows"]] == [r["score"] for r in c["read_time"]["rows"]]
    (tmp_path / "own").mkdir()
    db, run_id, _ = card(tmp_path / "own", "systems_support:forgetful")
    rt = _rescore_as_older(db, run_id, query="회의실은 매주?")
    assert rt["reads"] == 0 and rt["na"] == 2
    assert rt["na_reason"] == "taken with an older slot question; re-run"


def test_lookups_that_asked_todays_question_are_read_as_stored(tmp_path):
    db, run_id, c = card(tmp_path, "systems_support:append_only")
    assert not any(r["recomputed"] for r in c["read_time"]["rows"])


def test_a_foreign_systems_fact_ids_are_the_same_in_two_identical_runs(tmp_path):
    """Its own ids are random and its listing order too; ours follow the facts' texts, so the
    judge's cache and a comparison of the two runs line up."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    t = trajectory()
    t["states"][1]["document"]["text"] = "회의실은 5층으로 옮겼습니다. 다과는 2층. 주차는 지하 1층."
    (folder / "m.json").write_text(json.dumps(t, ensure_ascii=False), encoding="utf-8")
    db = open_db(tmp_path / "r.db")
    corpus = load_corpus(folder)
    one = run(corpus, ["systems_support:splitting"], db, Config.offline(), score=False)[0]
    two = run(
        corpus, ["systems_support:splitting"], db, Config.offline(), score=False, label="again"
    )[0]

    def facts(rid):
        rows = db.query("SELECT fact_id, text FROM fact_versions WHERE run_id = ?", [rid])
        return sorted((r["fact_id"].rsplit("/", 1)[1], r["text"]) for r in rows)

    assert len(facts(one)) == 4 and facts(one) == facts(two)


def test_the_cancel_sentence_says_what_a_foreign_system_will_redo(tmp_path):
    from seorap.engine.run.records import cancelled_sentence

    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "m.json").write_text(json.dumps(trajectory(), ensure_ascii=False), encoding="utf-8")
    db = open_db(tmp_path / "r.db")
    corpus = load_corpus(folder)
    [rid] = run(corpus, ["systems_support:splitting"], db, Config.offline(), score=False)
    db.execute("DELETE FROM documents WHERE run_id = ? AND position = 1", [rid])  # cut after doc 1
    db.conn.commit()
    said = cancelled_sentence(db, [rid], corpus.trajectories, {rid: "splitting"})
    assert said == (
        "Cancelled: 1 of 2 documents are saved; run the same command again to resume from there "
        "(system splitting restarts its 1 unfinished trajectory(ies) from their first document, "
        "writing 1 saved document(s) again)."
    )
    # seorap's own systems resume where they stopped: nothing to redo
    assert cancelled_sentence(db, [rid], corpus.trajectories).endswith("resume from there.")


def test_localization_counts_no_extraction_for_a_system_that_reports_none(tmp_path):
    """A foreign system hands over facts, never observations: its extraction count is n/a (the
    journey marks that stage n/a too), not a failure per docClaim."""
    _, _, c = card(tmp_path, "systems_support:append_only")
    failures = c["intrinsic"]["failures"]
    assert failures["extraction"] is None
    assert c["journey"]["claims"][0]["stages"]["extracted"]["status"] == "n/a"
