"""Quarantine (engine/memory/quarantine.py): against the Ollama-API test server answering like the
failing real 0.5B model (tests/ollama_fake.py ``failing_model``: a chat log's speaker headers with
the hour shifted, then a loop with a counter), no observation with an ungrounded value and no loop
member reaches the store as a fact; the quarantined ones are stored with their reason, shown in the
stepper's operation log and step summary, counted in every report format and followed by the claim
journey. ``keep_ungrounded`` turns it off, and the report says so."""

from __future__ import annotations

import json
import re

import pytest
from ollama_fake import failing_model

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.memory.grounding import ungrounded
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run import accounting
from seorap.engine.run.runner import run
from seorap.engine.scoring.report import build_report, run_label
from seorap.engine.scoring.report_text import cost_lines, to_csv, to_json, to_markdown
from seorap.engine.store.database import open_db
from seorap.engine.views.stepper import step_view
from seorap.engine.views.steps import step_summary

CORPUS = "fixtures/ko-mini/ko-c4-late-memo.json"
LOOP_ITEM = re.compile(r"^점검 \d+: ")


@pytest.fixture(scope="module")
def failing_run(tmp_path_factory):
    from ollama_fake import FakeOllama

    server = FakeOllama().start()
    try:
        server.handler = failing_model(ollama_handler(StandinBackend()))
        corpus = load_corpus(CORPUS)
        db = open_db(tmp_path_factory.mktemp("q") / "q.db")
        config = Config.offline(host=server.url)
        [run_id] = run(corpus, ["A"], db, config, concurrency=1)
        yield corpus, db, run_id
    finally:
        server.stop()


def _documents(corpus):
    t = corpus.trajectories[0]
    return {a.position: (a.document.text, a.timestamp) for a in t.arrivals()}


def test_no_ungrounded_value_or_loop_member_reaches_the_store(failing_run):
    corpus, db, run_id = failing_run
    docs = _documents(corpus)
    synthesised = list(
        db.query(
            "SELECT o.text, o.position FROM observations o JOIN decisions d "
            "ON d.observation_id = o.id WHERE o.run_id = ?",
            [run_id],
        )
    )
    assert synthesised  # the copied sentence of each document was written
    for row in synthesised:
        assert ungrounded(row["text"], *docs[row["position"]]) is None, row["text"]
        assert not LOOP_ITEM.match(row["text"]), row["text"]
    facts = [r["text"] for r in db.query("SELECT text FROM facts WHERE run_id=?", [run_id])]
    assert not any(re.match(r"1\d:\d\d ", f) or LOOP_ITEM.match(f) for f in facts), facts


def test_the_quarantined_observations_are_stored_with_their_reason(failing_run):
    corpus, db, run_id = failing_run
    rows = list(
        db.query(
            "SELECT text, quarantine FROM observations WHERE run_id=? AND quarantine != ''",
            [run_id],
        )
    )
    reasons = {r["text"]: r["quarantine"] for r in rows}
    # (a) the shifted speaker headers of the chat log (doc 0): the time is not in the document
    assert (
        "ungrounded: the value '19:31' is not in the document"
        in reasons["19:31 차은호 (플랫폼팀장)"]
    )
    # (b) the counter loop's kept items: members of a stopped loop
    loop = [why for text, why in reasons.items() if LOOP_ITEM.match(text)]
    assert loop and all(why.startswith("loop: template") for why in loop)
    # every shifted header the stream kept (it was stopped as a templated loop among them)
    assert sum(1 for t in reasons if re.match(r"1\d:\d\d ", t)) >= 5
    acc = accounting.run_accounting(db, run_id)
    assert acc.total.quarantined == len(rows)
    assert any(f"quarantined {len(rows)}" in line for line in accounting.lines(acc))


def test_the_op_log_and_the_step_summary_show_them(failing_run):
    corpus, db, run_id = failing_run
    step = step_view(db, corpus, run_id, corpus.trajectories[0].id, 0)
    held = [op for op in step.operations if op.quarantined]
    assert held and all(not op.operation and not op.fact_id for op in held)
    assert any("19:31" in op.quarantined for op in held)
    summary = step_summary(step)
    assert summary.quarantined == len(held)
    assert f"{len(held)} quarantined" in summary.line()


def test_every_report_format_counts_them(failing_run):
    _, db, run_id = failing_run
    report = build_report(db, [run_id])
    n = db.execute(
        "SELECT count(*) FROM observations WHERE run_id=? AND quarantine != ''", [run_id]
    ).fetchone()[0]
    [r] = report.runs
    assert json.loads(to_json(report))["runs"][0]["accounting"]["total"]["quarantined"] == n
    header, first = to_csv(report).splitlines()[:2]
    assert dict(zip(header.split(","), first.split(",")))["run_quarantined"] == str(n)
    assert f"quarantined observations (kept out of the store): {n}" in to_markdown(report)
    assert any(f"quarantined {n}" in line for line in cost_lines(r))
    assert not r.keep_ungrounded and "quarantine off" not in run_label(r)


def test_keep_ungrounded_stores_them_and_is_labelled(tmp_path, ollama_server):
    ollama_server.handler = failing_model(ollama_handler(StandinBackend()))
    corpus = load_corpus(CORPUS)
    db = open_db(tmp_path / "k.db")
    config = Config.offline(host=ollama_server.url).with_overrides(keep_ungrounded=True)
    [run_id] = run(corpus, ["A"], db, config, concurrency=1, trajectories=None)
    assert (
        db.execute(
            "SELECT count(*) FROM observations WHERE run_id=? AND quarantine != ''", [run_id]
        ).fetchone()[0]
        == 0
    )
    synthesised = db.execute(
        "SELECT count(*) FROM observations o JOIN decisions d ON d.observation_id = o.id "
        "WHERE o.run_id=? AND (o.text LIKE '19:3%' OR o.text LIKE '점검 %')",
        [run_id],
    ).fetchone()[0]
    assert synthesised >= 5  # what the model would have stored
    [r] = build_report(db, [run_id]).runs
    assert r.keep_ungrounded and "(quarantine off)" in run_label(r)
    assert "quarantine off" in to_markdown(build_report(db, [run_id]))
    manifest = json.loads(db["runs"].get(run_id)["manifest"])
    assert manifest["config"]["keep_ungrounded"] is True
    assert "~" not in run_id and run_id != _default_id(corpus)


def _default_id(corpus):
    from seorap.engine.memory import get_system
    from seorap.engine.run.records import make_run_id

    config = Config.offline()
    return make_run_id("A", corpus, get_system("A", config), config)


def test_a_claim_whose_only_observation_was_quarantined_says_so(tmp_path, ollama_server):
    """Every observation is a document claim behind an invented time: each is quarantined, and
    the journey of each claim its document states reads 'lost at stored: quarantined'."""
    corpus = load_corpus(CORPUS)
    claims = {a.document.text: a for a in corpus.trajectories[0].arrivals()}
    states = corpus.trajectories[0].states
    inner = ollama_handler(StandinBackend())

    def handler(body):
        if "observations" not in json.dumps(body.get("format") or {}):
            return inner(body)
        text = body["messages"][-1]["content"]
        arrival = next(a for d, a in claims.items() if d[:200] in text)
        said = states[arrival.state_index].doc_claims if not arrival.is_distractor else []
        return json.dumps(
            {"observations": [{"text": f"23:59 {c}"} for c in said]}, ensure_ascii=False
        )

    ollama_server.handler = handler
    db = open_db(tmp_path / "j.db")
    [run_id] = run(corpus, ["A"], db, Config.offline(host=ollama_server.url), concurrency=1)
    assert db["facts"].count_where("run_id=?", [run_id]) == 0
    card = json.loads(
        db.execute(
            "SELECT card FROM scores WHERE run_id=? AND trajectory_id != ''", [run_id]
        ).fetchone()[0]
    )
    lost = [c for c in card["journey"]["claims"] if c["loss"] == "stored"]
    assert lost
    for c in lost:
        stored = c["stages"]["stored"]
        assert stored["why"] == "quarantined", c
        assert "ungrounded: the value '23:59'" in stored["quarantine"]
    assert "quarantined" in (card.get("diagnosis") or json.dumps(card))
