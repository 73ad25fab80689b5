"""Several Ollama servers for one run (engine/models/hosts.py): both serve, a host killed mid-run
hands its work to the other and the store is the same as a one-server run; no host left is one
sentence; hosts must serve the same digests."""

from __future__ import annotations

import threading

import pytest
from ollama_fake import FakeOllama, closed_port_url

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.base import ChatRequest, ModelError, ModelMissing, ModelUnavailable
from seorap.engine.models.client import ModelClient
from seorap.engine.models.hosts import HostPool, chat_hosts, check_hosts, make_chat_backend
from seorap.engine.models.ollama_chat import OllamaChat
from seorap.engine.models.standin import ollama_handler
from seorap.engine.store.database import open_db

MODEL = "qwen3.5:9b"
CORPUS = "fixtures/ko-mini"


@pytest.fixture
def two_servers():
    servers = [FakeOllama().start(), FakeOllama().start()]
    for s in servers:
        s.handler = ollama_handler()
    try:
        yield servers
    finally:
        for s in servers:
            s.stop()


def _config(hosts: list[str], concurrency: int = 1) -> Config:
    return Config.offline(
        hosts=hosts,
        concurrency=concurrency,
        models={
            "extractor": MODEL,
            "synthesizer": MODEL,
            "answerer": "extractive",
            "judge": "lexical",
            "embedder": "hashing",
        },
    )


def _store(db, run_id) -> list[tuple]:
    return [
        (r["trajectory_id"], r["text"], r["status"], r["version"])
        for r in db.query(
            "SELECT trajectory_id, text, status, version FROM facts WHERE run_id=? ORDER BY trajectory_id, text",
            [run_id],
        )
    ]


def _run(tmp_path, name, config, trajectories):
    from seorap.engine.run.runner import run

    db = open_db(tmp_path / f"{name}.db")
    (rid,) = run(
        load_corpus(CORPUS),
        ["A"],
        db,
        config,
        backend=make_chat_backend(config),
        trajectories=trajectories,
        score=False,
    )
    return db, rid


def test_config_hosts_make_a_pool_with_per_host_concurrency(two_servers):
    urls = [s.url for s in two_servers]
    pool = make_chat_backend(_config(urls + [urls[0] + "/"], concurrency=3))
    assert isinstance(pool, HostPool) and pool.hosts == urls and pool.per_host == 3
    assert chat_hosts(Config(host="http://a:1")) == ["http://a:1"]
    assert isinstance(make_chat_backend(Config(host=urls[0])), OllamaChat)


def test_two_servers_both_serve_and_a_killed_one_hands_its_work_over(tmp_path, two_servers):
    corpus = load_corpus(CORPUS)
    trajs = [t.id for t in corpus.trajectories[:2]]
    urls = [s.url for s in two_servers]
    # the reference: one server
    ref_db, ref = _run(tmp_path, "one", _config([urls[1]]), trajs)
    reference = _store(ref_db, ref)
    two_servers[1].requests.clear()
    # two servers, the first killed after it has answered 5 chat calls
    victim, seen = two_servers[0], []
    inner = victim.handler

    def dying(body):
        seen.append(1)
        if len(seen) == 5:
            threading.Thread(target=victim.stop, daemon=True).start()
        return inner(body)

    victim.handler = dying
    db, rid = _run(tmp_path, "two", _config(urls, concurrency=1), trajs)
    by_host = dict(
        db.execute("SELECT host, COUNT(*) FROM calls WHERE error IS NULL GROUP BY host").fetchall()
    )
    assert by_host.get(urls[0], 0) >= 4 and by_host.get(urls[1], 0) > by_host[urls[0]]
    assert _store(db, rid) == reference  # the same store as the one-server run


def test_no_healthy_host_left_is_one_sentence():
    pool = HostPool([OllamaChat(closed_port_url()), OllamaChat(closed_port_url())])
    with pytest.raises(ModelUnavailable) as info:
        ModelClient(pool).text("judge", MODEL, [{"role": "user", "content": "x"}])
    message = str(info.value)
    assert message.startswith("No healthy model server is left") and message.endswith(".")
    assert all(h in message for h in pool.hosts) and pool.healthy() == []


def test_a_down_host_is_skipped_without_failing_the_call(ollama_server):
    pool = HostPool([OllamaChat(closed_port_url()), OllamaChat(ollama_server.url)])
    reply = pool.chat(ChatRequest("judge", MODEL, ({"role": "user", "content": "x"},)))
    assert reply.content == "ok" and reply.host == ollama_server.url
    assert pool.healthy() == [ollama_server.url]


def test_hosts_must_serve_the_same_digests():
    same = {"http://a": {MODEL: "sha256:1"}, "http://b": {MODEL: "sha256:1"}}
    check_hosts(same, [MODEL])
    with pytest.raises(ModelError) as info:
        check_hosts({"http://a": {MODEL: "sha256:1"}, "http://b": {MODEL: "sha256:2"}}, [MODEL])
    assert "different weights" in str(info.value) and "http://b" in str(info.value)
    with pytest.raises(ModelMissing) as info:
        check_hosts({"http://a": {MODEL: "sha256:1"}, "http://b": {}}, [MODEL])
    assert "http://b" in str(info.value) and "seorap models pull" in str(info.value)


def test_cache_keys_do_not_depend_on_the_host(two_servers):
    db = open_db(None)
    msgs = [{"role": "user", "content": "같은 질문"}]
    ModelClient(OllamaChat(two_servers[0].url), db).text("judge", MODEL, msgs)
    ModelClient(OllamaChat(two_servers[1].url), db).text(
        "judge", MODEL, msgs
    )  # served from the log
    assert len(two_servers[0].bodies("/api/chat")) == 1 and two_servers[1].bodies("/api/chat") == []


def test_cli_repeated_host_checks_every_host_and_spreads_the_work(tmp_path, two_servers):
    from click.testing import CliRunner

    from seorap.cli.main import cli

    cfg = tmp_path / "seorap.toml"
    cfg.write_text(
        'embedder_backend = "hashing"\n[models]\nembedder = "hashing"\n', encoding="utf-8"
    )
    traj = load_corpus(CORPUS).trajectories[0].id
    args = [
        "run",
        "--corpus",
        CORPUS,
        "--system",
        "A",
        "--trajectory",
        traj,
        "--no-score",
        "--config",
        str(cfg),
        "--db",
        str(tmp_path / "r.db"),
    ]
    result = CliRunner().invoke(cli, args + sum((["--host", s.url] for s in two_servers), []))
    assert result.exit_code == 0, result.output
    for server in two_servers:
        assert any(r["path"] == "/api/tags" for r in server.requests)  # preflight on every host
        assert server.bodies("/api/chat")  # and both served calls
    # a third host without the model: refused before any work, one sentence
    extra = FakeOllama(models={"other:1b": "sha256:" + "d" * 64}).start()
    try:
        before = [len(s.bodies("/api/chat")) for s in two_servers]
        result = CliRunner().invoke(
            cli,
            args[:-1]
            + [str(tmp_path / "r2.db"), "--host", two_servers[0].url, "--host", extra.url],
        )
        assert (
            result.exit_code == 2 and extra.url in result.output and "qwen3.5:9b" in result.output
        )
        assert [len(s.bodies("/api/chat")) for s in two_servers] == before and not extra.bodies(
            "/api/chat"
        )
    finally:
        extra.stop()


# ---- every role on the host list: embeddings too (issue: "several hosts fail with Ollama embeddings")
def _embed_config(hosts: list[str]) -> Config:
    """Chat and embeddings on the host list; ``host`` points at a closed port, so any call that
    still went to it would fail."""
    return _config(hosts).with_overrides(
        {"embedder_backend": "ollama", "models.embedder": "bge-m3", "host": closed_port_url()}
    )


def _dies_on(server: FakeOllama, when) -> list[int]:
    """``server`` stops (connection refused from then on) at the first embed call ``when(texts)``
    accepts; returns the list of embed calls it served before."""
    served: list[int] = []
    inner = server.embed_handler

    def handler(texts):
        if when(texts, len(served)) and server._server is not None:
            threading.Thread(target=server.stop, daemon=True).start()
        served.append(len(texts))
        return inner(texts)

    server.embed_handler = handler
    return served


@pytest.mark.parametrize("phase", ["write", "score"])
def test_a_host_list_serves_embeddings_and_fails_over(tmp_path, two_servers, phase):
    from seorap.engine.run.runner import run
    from seorap.engine.scoring.extrinsic import questions

    corpus = load_corpus(CORPUS)
    traj = corpus.trajectories[0]
    asked = {q.question for q in questions(traj)}
    victim, other = two_servers
    if phase == "write":
        _dies_on(victim, lambda texts, n: n == 2)  # its third embed call, mid-write
    else:
        _dies_on(victim, lambda texts, n: bool(asked & set(texts)))  # the first question embedded
    db = open_db(tmp_path / f"{phase}.db")
    (rid,) = run(
        corpus, ["A"], db, _embed_config([s.url for s in two_servers]), trajectories=[traj.id]
    )
    row = db.execute("SELECT status FROM runs WHERE run_id = ?", [rid]).fetchone()
    assert row[0] == "done"
    assert victim._server is None  # it really died during the run
    assert other.bodies("/api/embed")  # the other host embedded (before and after the death)
    scored = db.execute("SELECT COUNT(*) FROM verdicts WHERE run_id = ?", [rid]).fetchone()[0]
    assert scored > 0
