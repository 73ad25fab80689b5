"""``--system graphiti`` for real: graphiti-core 0.31.2 on embedded Kùzu (the ``seorap[graphiti]``
extra), its model calls through the loopback recorder in OpenAI's shape to the test Ollama server,
which answers graphiti's prompts by the response model each asks for (tests/graphiti_standin.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("graphiti_core") is None or importlib.util.find_spec("kuzu") is None:
    pytest.skip(
        'the graphiti extra is not installed (pip install "seorap[graphiti]")',
        allow_module_level=True,
    )

import graphiti_standin  # noqa: E402

from seorap.engine.config import Config  # noqa: E402
from seorap.engine.corpus import load_corpus  # noqa: E402
from seorap.engine.run.runner import run  # noqa: E402
from seorap.engine.store.database import open_db  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LATE_MEMO = ROOT / "fixtures" / "ko-mini" / "ko-c4-late-memo.json"

pytestmark = pytest.mark.slow  # real graphiti on Kùzu: ~30-60 s a trajectory on 2 cores


def graphiti_run(server, db, **kwargs):
    server.handler = kwargs.pop("handler", graphiti_standin.handler)
    return run(load_corpus(LATE_MEMO), ["graphiti"], db, Config.offline(host=server.url), **kwargs)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """One graphiti run of ko-c4-late-memo, scored (module-wide: it is the slow part)."""
    from ollama_fake import FakeOllama

    server = FakeOllama().start()
    try:
        db = open_db(tmp_path_factory.mktemp("graphiti") / "g.db")
        [run_id] = graphiti_run(server, db, concurrency=1)
        yield server, db, run_id
    finally:
        server.stop()


def test_graphiti_writes_every_document_and_closes_an_old_fact_with_its_successor(written):
    server, db, run_id = written
    assert db.table("runs").get(run_id)["status"] == "done"
    manifest = json.loads(db.table("runs").get(run_id)["manifest"])
    assert manifest["capabilities"]["takes_dates"] and manifest["capabilities"]["own_search"]
    docs = db.execute("SELECT count(*) FROM documents WHERE run_id = ?", [run_id]).fetchone()[0]
    assert docs == 4
    closed = db.query(
        "SELECT fact_id, successor_id, text FROM fact_versions "
        "WHERE run_id = ? AND status = 'superseded'",
        [run_id],
    )
    links = {r["text"]: r["successor_id"] for r in closed}
    # the January comparison is closed by the March decision, and linked to it
    [(old, new)] = [(t, s) for t, s in links.items() if "비교합니다" in t]
    successor = db.execute("SELECT text FROM facts WHERE id = ?", [new]).fetchone()
    assert successor and "ECS Fargate로 결정" in successor[0]
    # every model call of graphiti's went through our call log, in its phase
    phases = {
        r[0] for r in db.execute("SELECT DISTINCT phase FROM calls WHERE run_id = ?", [run_id])
    }
    assert "graphiti" in phases


def test_the_app_reads_graphitis_supersede_as_lineage(written):
    """What the stepper and the fact history show (engine/views/lineage.py)."""
    from seorap.engine.views.lineage import lineage, successor_text

    _, db, run_id = written
    links = lineage(db, run_id, "ko-c4-late-memo")
    assert links.successor and all(link.known and link.new for link in links.successor.values())
    old, link = next(iter(links.successor.items()))
    assert links.replaces[link.new][0].old == old
    assert successor_text(link)


def test_graphiti_is_scored_at_write_time_and_at_read_time_through_its_own_search(written):
    _, db, run_id = written
    row = next(
        db.query(
            "SELECT card FROM scores WHERE run_id = ? AND trajectory_id = 'ko-c4-late-memo'",
            [run_id],
        )
    )
    card = json.loads(row["card"])
    assert card["intrinsic"]["full"]["fact_accuracy"] is not None
    assert card["intrinsic"]["effective_operations"].count("supersede") >= 1
    reads = card["read_time"]
    assert reads["reads"] > 0 and reads["coverage"] is not None
    assert {r["source"] for r in reads["rows"]} == {"own search"}


def test_graphitis_own_search_answers_the_questions_and_ranks_the_journey(written):
    """The journey's retrieved ranks and the answers' context are graphiti's search, stored when
    the run was written (engine/scoring/answer_path.py), never seorap's retrieval."""
    from seorap.engine.scoring import lexical
    from seorap.engine.store.database import facts_at

    _, db, run_id = written
    tid = "ko-c4-late-memo"
    texts = {f.id: f.text for f in facts_at(db, run_id, tid, None)}
    found = {
        r["item"]: [texts[h["id"]] for h in json.loads(r["hits"])]
        for r in db.query(
            "SELECT item, hits, source FROM question_lookups WHERE run_id = ?", [run_id]
        )
    }
    assert found and any(found.values())
    row = next(
        db.query("SELECT card FROM scores WHERE run_id = ? AND trajectory_id = ?", [run_id, tid])
    )
    card = json.loads(row["card"])
    assert card["extrinsic"]["read_path"] == "own search"
    for r in db.query(
        "SELECT item, ranking FROM retrievals WHERE run_id = ? AND source = 'memory'", [run_id]
    ):
        assert [h["text"] for h in json.loads(r["ranking"])] == found[r["item"]]
    ranks = [
        (c["claim"], q["question"], q["rank"])
        for c in card["journey"]["claims"]
        for q in c["stages"]["retrieved"].get("per_question", [])
    ]
    assert ranks
    for claim, item, rank in ranks:
        hits = found[item][:10]
        assert rank == next((n + 1 for n, t in enumerate(hits) if lexical.holds(claim, t)), None)
    # graphiti's order is not seorap's: hybrid over the same active facts orders them otherwise
    from seorap.engine.models.embedders import HashingEmbedder
    from seorap.engine.retrieval.hybrid import HybridIndex

    active = [f for f in facts_at(db, run_id, tid, None) if f.status == "active"]
    embed = HashingEmbedder().embed
    index = HybridIndex.from_settings(
        [f.id for f in active], [f.text for f in active], embed([f.text for f in active]), None
    )
    questions = {
        r["item"]: r["question"]
        for r in db.query("SELECT item, question FROM question_lookups WHERE run_id = ?", [run_id])
    }
    hybrid = {i: [h.text for h in index.search(q, embed([q])[0], 10)] for i, q in questions.items()}
    assert any(hybrid[i] != found[i] for i in found)


def test_a_second_run_is_served_from_the_cache(written, tmp_path):
    server, db, _ = written
    before = len(server.bodies("/api/chat"))
    [again] = graphiti_run(server, db, concurrency=1, score=False, label="again")
    assert db.table("runs").get(again)["status"] == "done"
    assert len(server.bodies("/api/chat")) == before  # 0 model calls


def test_a_replay_serves_every_call_from_the_log(written):
    server, db, run_id = written
    before = len(server.requests)
    [replayed] = graphiti_run(server, db, concurrency=1, score=False, replay=True, label="replayed")
    assert db.table("runs").get(replayed)["status"] == "done"
    assert len(server.requests) == before  # nothing reached the server

    def texts(rid):
        rows = db.query("SELECT text, status FROM facts WHERE run_id = ? ORDER BY id", [rid])
        return [(r["text"], r["status"]) for r in rows]

    assert texts(replayed) == texts(run_id) != []


def test_a_model_without_graphitis_structure_fails_the_document_and_the_run_goes_on(
    ollama_server, tmp_path
):
    def handler(body):
        title = (body.get("format") or {}).get("title")
        text = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
        if title == "ExtractedEdges" and "ECS Fargate로 결정" in text:
            return "I think the main facts are about Fargate."  # not the structure asked for
        return graphiti_standin.handler(body)

    db = open_db(tmp_path / "g.db")
    [run_id] = graphiti_run(ollama_server, db, handler=handler, concurrency=1, score=False)
    assert db.table("runs").get(run_id)["status"] == "done"
    [failure] = db.query(
        "SELECT position, stage, reason FROM write_failures WHERE run_id = ?", [run_id]
    )
    assert failure["position"] == 1 and failure["stage"] == "write"
    reason = failure["reason"]
    assert "could not write document" in reason and "ExtractedEdges" in reason
    assert "Traceback" not in reason and "\n" not in reason
    docs = db.execute("SELECT count(*) FROM documents WHERE run_id = ?", [run_id]).fetchone()[0]
    assert docs == 4  # the documents after it were written


def test_telemetry_is_off_and_nothing_is_written_under_home(ollama_server, tmp_path):
    """Outside pytest (graphiti turns telemetry off itself under pytest), in a fresh process."""
    ollama_server.handler = graphiti_standin.handler
    home = tmp_path / "home"
    home.mkdir()
    script = (
        "import sys; from pathlib import Path;"
        "from seorap.engine.config import Config;"
        "from seorap.engine.corpus import load_corpus;"
        "from seorap.engine.run.runner import run;"
        "from seorap.engine.store.database import open_db;"
        "from graphiti_core.telemetry import telemetry;"
        f"run(load_corpus({str(LATE_MEMO)!r}), ['graphiti'], open_db({str(tmp_path / 't.db')!r}),"
        f" Config.offline(host={ollama_server.url!r}), trajectories=['ko-c4-late-memo'],"
        " concurrency=1, score=False);"
        "print('enabled', telemetry.is_telemetry_enabled())"
    )
    env = {**os.environ, "HOME": str(home)}
    env.pop("GRAPHITI_TELEMETRY_ENABLED", None)
    proc = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "enabled False" in proc.stdout
    assert not (home / ".cache" / "graphiti").exists()
    assert list(home.rglob("*")) == []


def test_graphitis_calls_fail_over_to_the_other_host(tmp_path):
    """Two servers; the first dies after 5 chat calls: graphiti's calls go on on the second."""
    import threading

    from ollama_fake import FakeOllama

    from seorap.engine.models.hosts import make_chat_backend

    servers = [FakeOllama().start(), FakeOllama().start()]
    victim, seen = servers[0], []

    def dying(body):
        seen.append(1)
        if len(seen) == 5:
            threading.Thread(target=victim.stop, daemon=True).start()
        return graphiti_standin.handler(body)

    victim.handler = dying
    servers[1].handler = graphiti_standin.handler
    try:
        urls = [s.url for s in servers]
        config = Config.offline(hosts=urls, concurrency=1)
        db = open_db(tmp_path / "g.db")
        corpus = load_corpus(LATE_MEMO)
        backend = make_chat_backend(config)
        [run_id] = run(corpus, ["graphiti"], db, config, backend=backend, score=False)
    finally:
        for s in servers:
            s.stop()
    assert db.table("runs").get(run_id)["status"] == "done"
    by_host = dict(
        db.execute("SELECT host, COUNT(*) FROM calls WHERE error IS NULL GROUP BY host").fetchall()
    )
    assert by_host.get(urls[0], 0) >= 4 and by_host.get(urls[1], 0) > 0
    closed = db.execute(
        "SELECT count(*) FROM fact_versions WHERE run_id = ? AND status = 'superseded'", [run_id]
    ).fetchone()[0]
    assert closed >= 1


def test_plan_says_graphitis_calls_are_not_estimated(ollama_server):
    """How many calls a document costs depends on what graphiti finds: --plan says so, and
    planning calls nothing."""
    from seorap.engine.run import planner

    config = Config.offline(host=ollama_server.url)
    plan = planner.plan_run(load_corpus(LATE_MEMO), ["graphiti"], config, None, score=False)
    assert any("graphiti: its model calls are not estimated" in n for n in plan.notes)
    assert ollama_server.bodies("/api/chat") == []


def test_a_late_document_older_than_the_graph_is_written_and_closed_at_once(
    ollama_server, tmp_path
):
    """A January memo arriving after the March decision: graphiti expires the incoming edge at
    once (the graph holds a later value of the same fact); seorap shows it created and retired
    by that document, linked to the edge that outranks it."""
    data = json.loads(LATE_MEMO.read_text(encoding="utf-8"))
    said = {
        0: "주문 API 실행 환경은 Lambda, Fargate, EKS 세 가지를 비교합니다.",
        1: "주문 API 실행 환경은 ECS Fargate로 결정했습니다.",
        2: "주문 API 실행 환경은 Lambda로 기울고 있습니다.",  # dated January, arrives third
        3: "주문 API 트래픽은 30%가 Fargate로 넘어갔습니다.",
    }
    for state in data["states"]:
        state["document"]["text"] = said[state["index"]]
    data["distractors"] = []
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / LATE_MEMO.name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    ollama_server.handler = graphiti_standin.handler
    db = open_db(tmp_path / "g.db")
    config = Config.offline(host=ollama_server.url)
    [run_id] = run(load_corpus(folder), ["graphiti"], db, config, concurrency=1, score=False)
    rows = list(
        db.query(
            "SELECT fact_id, position, operation, status, successor_id, text FROM fact_versions "
            "WHERE run_id = ? ORDER BY position, fact_id, version",
            [run_id],
        )
    )
    late = [r for r in rows if r["position"] == 2 and "기울고" in r["text"]]
    assert [r["operation"] for r in late] == ["create", "supersede"], rows
    successor = db.execute(
        "SELECT text FROM facts WHERE id = ?", [late[-1]["successor_id"]]
    ).fetchone()
    assert successor and "ECS Fargate로 결정" in successor[0]
    [march] = db.execute(
        "SELECT status FROM facts WHERE run_id = ? AND text LIKE '%ECS Fargate로 결정%'", [run_id]
    ).fetchall()
    assert march[0] == "active"  # the later value stays current


def test_the_stand_in_serves_graphiti_directly_under_v1(ollama_server, tmp_path):
    """The stand-in answers graphiti's own client on /v1 too (a user may point graphiti at it
    without seorap): two episodes, the second closes the first's edge."""
    import asyncio
    from datetime import UTC, datetime

    from graphiti_core.nodes import EpisodeType

    from seorap.engine.memory.graphiti import _graphiti

    ollama_server.handler = graphiti_standin.handler

    async def story() -> list:
        graph = await _graphiti(tmp_path / "g.kuzu", f"{ollama_server.url}/v1", "m", "e", 64)
        for day, text in (
            (1, "주문 API 실행 환경은 Lambda입니다."),
            (9, "주문 API 실행 환경은 Fargate입니다."),
        ):
            await graph.add_episode(
                name=f"d{day}",
                episode_body=text,
                source_description="test",
                reference_time=datetime(2026, 3, day, tzinfo=UTC),
                source=EpisodeType.text,
            )
        edges = await graph.search("주문 API 실행 환경", num_results=10)
        await graph.close()
        return edges

    edges = asyncio.run(story())
    assert len(ollama_server.bodies("/v1/chat/completions")) > 0
    assert ollama_server.bodies("/v1/embeddings")
    assert any("Fargate" in e.fact and e.invalid_at is None for e in edges)
