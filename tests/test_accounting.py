"""Accounting per run and role (engine/run/accounting.py): hand-computed figures from a call log,
counters stored (they survive the process), re-reads not counted as savings, phases timed by the
runner, the report and the app's view carry it."""

from __future__ import annotations

import json

from pydantic import BaseModel

from seorap.engine.corpus import load_corpus
from seorap.engine.models import calllog
from seorap.engine.models.base import ChatReply, ChatRequest
from seorap.engine.models.client import ModelClient
from seorap.engine.run import accounting
from seorap.engine.store.database import open_db
from seorap.engine.views import accounting_view

CORPUS = "fixtures/ko-mini"


class Obs(BaseModel):
    items: list[str]


class Scripted:
    """A chat backend answering from a list of replies (the last one repeats)."""

    name = "scripted"

    def __init__(self, *replies: ChatReply):
        self.replies = list(replies)
        self.calls = 0

    def chat(self, request: ChatRequest) -> ChatReply:
        self.calls += 1
        return self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]


def _req(role: str, text: str) -> ChatRequest:
    return ChatRequest(role=role, model="m:1b", messages=({"role": "user", "content": text},))


def test_percentile_is_nearest_rank():
    assert accounting.percentile([], 50) is None
    assert accounting.percentile([10, 20, 30, 40], 50) == 20  # rank ceil(2.0) = 2
    assert accounting.percentile([10, 20, 30, 40], 95) == 40  # rank ceil(3.8) = 4
    assert accounting.percentile(list(range(1, 101)), 95) == 95
    assert accounting.percentile([7.0], 95) == 7.0


def test_figures_from_a_hand_made_call_log():
    db = open_db(None)
    run = "A-x"
    # extractor: 3 calls of 1, 2, 5 s; 100/200/300 tokens in, 10/20/70 out; the last one cut
    for i, (ms, tin, tout, reason) in enumerate(
        [(1000, 100, 10, "stop"), (2000, 200, 20, "stop"), (5000, 300, 70, "length")]
    ):
        calllog.put_call(
            db,
            _req("extractor", f"doc {i}"),
            run_id=run,
            phase="extract",
            reply=ChatReply(
                "{}", "m:1b", tokens_in=tin, tokens_out=tout, duration_ms=ms, done_reason=reason
            ),
        )
    calllog.put_call(
        db, _req("extractor", "doc 3"), run_id=run, phase="extract", error="ReadTimeout: x"
    )
    calllog.put_call(
        db,
        _req("synthesizer", "obs"),
        run_id=run,
        phase="synthesize",
        reply=ChatReply(
            "{}", "m:1b", tokens_in=8000, tokens_out=5, duration_ms=400, done_reason="stop"
        ),
        prompt_truncated=True,
    )
    calllog.put_call(
        db,
        _req("synthesizer", "other run"),
        run_id="B-x",
        phase="synthesize",
        reply=ChatReply("{}", "m:1b", tokens_in=1, tokens_out=1, duration_ms=1),
    )
    accounting.bump(db, run, "extract", "extractor", "m:1b", "cached", 4)
    accounting.bump(db, run, "extract", "extractor", "m:1b", "salvaged", 6)
    accounting.bump(db, run, "extract", "extractor", "m:1b", "retries")
    db["write_failures"].insert(
        {
            "id": "w1",
            "run_id": run,
            "trajectory_id": "t",
            "position": 0,
            "stage": "extract",
            "reason": "cut",
            "raw": "",
        }
    )
    acc = accounting.run_accounting(db, run)
    ext, syn = acc.roles
    assert (ext.role, ext.calls, ext.failed, ext.cached, ext.retries, ext.salvaged) == (
        "extractor",
        3,
        1,
        4,
        1,
        6,
    )
    assert (ext.tokens_in, ext.tokens_out, ext.cut, ext.write_failures) == (600, 100, 1, 1)
    assert ext.busy_s == 8.0 and ext.p50_ms == 2000 and ext.p95_ms == 5000
    assert ext.tokens_per_s == 100 / 8.0  # 12.5 generated tokens per second of call time
    assert (syn.calls, syn.truncated, syn.tokens_in) == (1, 1, 8000)
    total = acc.total
    assert (total.calls, total.tokens_out, total.cached, total.p50_ms) == (4, 105, 4, None)
    assert total.tokens_per_s == 105 / 8.4
    headers, rows = accounting.table(acc)
    assert rows[-1][0] == "all" and len(rows) == 3 and all(len(r) == len(headers) for r in rows)
    assert rows[0][headers.index("p95 s")] == "5.00"


def test_cache_hits_are_stored_and_rereads_are_not_savings(tmp_path):
    path = tmp_path / "r.db"
    db = open_db(path)
    backend = Scripted(
        ChatReply('{"items": ["a"]}', "m:1b", tokens_in=5, tokens_out=3, duration_ms=10)
    )
    msgs = [{"role": "user", "content": "문서"}]
    first = ModelClient(backend, db, run_id="A-1")
    first.structured("extractor", "m:1b", msgs, Obs, phase="extract")
    # the same client reading its own reply again (the write phase re-reads extractions): no saving
    assert first.structured("extractor", "m:1b", msgs, Obs, phase="extract").cached
    # another run asking the same: served from the log, a saving for that run
    other = ModelClient(backend, db, run_id="B-1")
    assert other.structured("extractor", "m:1b", msgs, Obs, phase="extract").cached
    assert other.structured("extractor", "m:1b", msgs, Obs, phase="extract").cached
    assert backend.calls == 1
    reopened = open_db(path)  # stored, not only counted in memory
    a, b = accounting.run_accounting(reopened, "A-1"), accounting.run_accounting(reopened, "B-1")
    assert (a.roles[0].calls, a.roles[0].cached) == (1, 0)
    assert (b.roles[0].calls, b.roles[0].cached) == (0, 1)


def test_retries_and_repairs_are_counted_once_even_when_reread(tmp_path):
    db = open_db(tmp_path / "r.db")
    backend = Scripted(
        ChatReply("not json", "m:1b", duration_ms=1),
        ChatReply('```json\n{"items": []}\n```', "m:1b", duration_ms=1),
    )
    client = ModelClient(backend, db, run_id="A-1")
    msgs = [{"role": "user", "content": "x"}]
    for _ in range(3):  # the re-reads walk the same retry path from the log
        out = client.structured("extractor", "m:1b", msgs, Obs, phase="extract")
        assert out.value == Obs(items=[]) and out.retried and out.repaired
    (role,) = accounting.run_accounting(db, "A-1").roles
    assert (role.calls, role.retries, role.repairs, role.cached) == (2, 1, 1, 0)


def test_runner_times_each_phase_and_the_report_and_view_carry_it(tmp_path):
    from seorap.engine.run.runner import run
    from seorap.engine.scoring.report import build_report

    db = open_db(tmp_path / "r.db")
    corpus = load_corpus(CORPUS)
    ids = run(
        corpus,
        ["A", "B"],
        db,
        offline=True,
        trajectories=[corpus.trajectories[0].id],
        concurrency=1,
    )  # one worker: A's extractions are made first, B's served from the log
    a = accounting.run_accounting(db, ids[0])
    assert [p.phase for p in a.phases] == ["extract", "write", "score"]
    assert all(p.sessions == 1 and p.wall_s >= 0 for p in a.phases)
    docs = sum(1 for _ in corpus.trajectories[0].arrivals())
    assert a.phases[1].units == docs
    b = accounting.run_accounting(db, ids[1])
    # B's extraction prompts are A's (same prompt file): served from the log, counted for B
    b_ext = next(r for r in b.roles if r.role == "extractor")
    assert (b_ext.calls, b_ext.cached) == (0, docs)
    report = json.loads(build_report(db, ids).model_dump_json())
    acc = report["runs"][0]["accounting"]
    logged = db.execute(
        "SELECT COUNT(*) FROM calls WHERE run_id=? AND error IS NULL", [ids[0]]
    ).fetchone()[0]
    assert acc["total"]["calls"] == logged > 0
    assert [p["phase"] for p in acc["phases"]] == ["extract", "write", "score"]
    view = accounting_view(db, ids[1])
    assert not view.empty and view.rows[0][:4] == ("extractor", "standin", "0", str(docs))
    assert view.wall.startswith("wall time: extract")


def test_reference_runs_have_no_model_rows_but_a_timed_write(tmp_path):
    from seorap.engine.run.runner import run

    db = open_db(tmp_path / "r.db")
    corpus = load_corpus(CORPUS)
    (rid,) = run(
        corpus, ["oracle"], db, offline=True, trajectories=[corpus.trajectories[0].id], score=False
    )
    view = accounting_view(db, rid)
    assert not view.empty and view.rows == [] and view.wall.startswith("wall time: write ")
    assert accounting_view(db, "no-such-run").wall == "wall time: not recorded"


def test_the_app_score_cards_show_the_cost_of_the_selected_run(tmp_path):
    from seorap.engine.run.runner import run
    from seorap.engine.views import run_report
    from seorap.tui.screens.scores_text import cost_text, rulers_text

    db = open_db(tmp_path / "r.db")
    corpus = load_corpus(CORPUS)
    (rid,) = run(corpus, ["A"], db, offline=True, trajectories=[corpus.trajectories[0].id])
    report = run_report(db, rid, resamples=20)
    text = cost_text(report).plain
    calls = db.execute(
        "SELECT COUNT(*) FROM calls WHERE run_id=? AND role='extractor'", [rid]
    ).fetchone()[0]
    assert f"extractor standin: {calls} calls, 0 cached" in text
    assert "wall time: extract" in text and "Cost" in rulers_text(report, None).plain
    live = cost_text(
        report, accounting_view(db, rid)
    ).plain  # read now: the score phase is timed too
    assert f"extractor standin: {calls} calls" in live and "score" in live


def test_lines_show_trouble_only_when_there_is_some():
    acc = accounting.RunAccounting(
        "r",
        [
            accounting.RoleAccounting(
                "extractor",
                "m",
                calls=2,
                tokens_in=1200,
                tokens_out=300,
                p50_ms=1500,
                p95_ms=4000,
                tokens_per_s=12.5,
                cut=1,
                salvaged=7,
            ),
            accounting.RoleAccounting("judge", "m", calls=1),
        ],
    )
    first, second, wall = accounting.lines(acc)
    assert first == (
        "extractor m: 2 calls, 0 cached · tokens 1,200 in, 300 out · p50 1.5 s, p95 4.0 s "
        "· 12.5 tok/s · cut 1, salvaged 7"
    )
    assert second == "judge m: 1 calls, 0 cached · tokens 0 in, 0 out · p50 –, p95 –"
    assert wall == "wall time: not recorded"
    assert accounting.from_dict(accounting.as_dict(acc)).roles == acc.roles


def test_every_report_format_carries_the_cost(tmp_path):
    import csv
    import io

    from rich.console import Console

    from seorap.cli.report_table import render_table
    from seorap.engine.run.runner import run
    from seorap.engine.scoring.report import build_report
    from seorap.engine.scoring.report_text import to_csv, to_markdown

    db = open_db(tmp_path / "r.db")
    corpus = load_corpus(CORPUS)
    (rid,) = run(corpus, ["A"], db, offline=True, trajectories=[corpus.trajectories[0].id])
    report = build_report(db, [rid], resamples=20)
    calls = db.execute(
        "SELECT COUNT(*) FROM calls WHERE run_id=? AND error IS NULL", [rid]
    ).fetchone()[0]
    md = to_markdown(report)
    assert "### Cost" in md and f"| all |  | {calls} | 0 |" in md and "wall time: extract" in md
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    assert rows and all(r["run_calls"] == str(calls) and r["run_cached"] == "0" for r in rows)
    assert float(rows[0]["run_wall_s"]) > 0
    console = Console(width=100, record=True, file=io.StringIO())
    render_table(report, console)
    text = console.export_text()
    assert "cost" in text and "extractor standin:" in text and "wall time:" in text


def test_cut_replies_and_salvaged_items_are_counted(tmp_path, ollama_server):
    from seorap.engine.config import Config
    from seorap.engine.models.ollama_chat import OllamaChat
    from seorap.engine.models.standin import ollama_handler
    from seorap.engine.run.runner import run

    ollama_server.handler = ollama_handler()
    corpus = load_corpus(CORPUS)
    traj = corpus.trajectories[0]
    docs = sum(1 for _ in traj.arrivals())
    ollama_server.fail("length", fraction=0.6, times=docs)  # every extraction cut at 60 %
    config = Config.offline(
        models={
            "extractor": "qwen3.5:9b",
            "synthesizer": "qwen3.5:9b",
            "answerer": "extractive",
            "judge": "lexical",
            "embedder": "hashing",
        }
    )
    db = open_db(tmp_path / "r.db")
    (rid,) = run(
        corpus,
        ["C"],
        db,
        config,
        backend=OllamaChat(ollama_server.url),
        trajectories=[traj.id],
        score=False,
        concurrency=1,
    )
    (ext,) = [r for r in accounting.run_accounting(db, rid).roles if r.role == "extractor"]
    kept = db.execute("SELECT COUNT(*) FROM observations WHERE run_id=?", [rid]).fetchone()[0]
    assert ext.cut == docs and ext.salvaged == kept > 0 and ext.calls == docs
