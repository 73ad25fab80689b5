"""Model swaps in a live-path run with two chat models (docs/design.md#quality-bars "Live runs";
issue 6 item 2).

Extractor = model X, synthesizer = model Y (config roles). Ollama keeps a model loaded until another
one evicts it, so every change of model between consecutive chat requests is a potential swap. The
runner groups work by phase (all extraction, then all synthesis), so the request log should change
model once: X…X Y…Y, however many systems and worker threads.
"""

from __future__ import annotations

from itertools import groupby

from test_reliability_support import copy_corpus

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

X, Y = "qwen3.5:9b", "qwen3.8:27b"  # both known to tests/ollama_fake.py


def switches(models: list[str]) -> int:
    """Changes of model between consecutive requests."""
    return sum(1 for a, b in zip(models, models[1:]) if a != b)


def loads_per_model(models: list[str]) -> dict[str, int]:
    """Runs of consecutive requests per model: how many times each one had to be (re)loaded."""
    out: dict[str, int] = {}
    for model, _ in groupby(models):
        out[model] = out.get(model, 0) + 1
    return out


def test_switches_and_loads_are_pure_functions():
    assert switches([X, X, Y, Y]) == 1 and switches([X, Y, X, Y]) == 3 and switches([]) == 0
    assert loads_per_model([X, Y, X, Y]) == {X: 2, Y: 2}


def test_two_chat_models_switch_once(ollama_server, tmp_path):
    ollama_server.handler = ollama_handler(StandinBackend())
    config = Config.offline(host=ollama_server.url).with_overrides(
        {"models.extractor": X, "models.synthesizer": Y}
    )
    corpus = load_corpus(copy_corpus(tmp_path / "corpus"))
    db = open_db(tmp_path / "swaps.db")
    run_ids = run(corpus, ["A", "B"], db, config, score=False, concurrency=2)

    bodies = ollama_server.bodies("/api/chat")
    models = [b["model"] for b in bodies]
    extraction = [b for b in bodies if "<document>" in b["messages"][1]["content"]]
    assert {b["model"] for b in extraction} == {X} and set(models) == {X, Y}
    # A and B share the extraction prompt: B's extractions are served from the call log
    assert len(extraction) == db["documents"].count // 2
    print(
        f"\nmodel switches: {switches(models)} over {len(models)} chat requests; "
        f"loads per model: {loads_per_model(models)}"
    )
    assert switches(models) == 1
    assert loads_per_model(models) == {X: 1, Y: 1}
    # the call log agrees with the server, phase by phase
    phases = [
        (r["phase"], r["model"]) for r in db.query("SELECT phase, model FROM calls ORDER BY id")
    ]
    assert loads_per_model([f"{p}:{m}" for p, m in phases]) == {
        f"extract:{X}": 1,
        f"synthesize:{Y}": 1,
    }
    assert all(db["runs"].get(r)["status"] == "done" for r in run_ids)


def test_resume_keeps_the_grouping(ollama_server, tmp_path):
    """A resumed run (half the documents already written) still changes model at most once."""
    ollama_server.handler = ollama_handler(StandinBackend())
    config = Config.offline(host=ollama_server.url).with_overrides(
        {"models.extractor": X, "models.synthesizer": Y}
    )
    corpus = load_corpus(copy_corpus(tmp_path / "corpus"))
    db = open_db(tmp_path / "resume.db")
    first = corpus.trajectories[0].id
    run(corpus, ["A"], db, config, score=False, trajectories=[first])
    ollama_server.reset()
    run(corpus, ["A"], db, config, score=False, concurrency=2)
    models = [b["model"] for b in ollama_server.bodies("/api/chat")]
    assert models and switches(models) == 1


def test_ollama_embedder_is_not_interleaved_with_the_synthesizer(ollama_server, tmp_path):
    """With the embedder on Ollama too (bge-m3), observation vectors are fetched in batches between
    the phases: X…X E…E Y…Y, each model loaded once (before the fix: 14 switches on this corpus)."""
    ollama_server.handler = ollama_handler(StandinBackend())
    config = Config.offline(host=ollama_server.url).with_overrides(
        {
            "models.extractor": X,
            "models.synthesizer": Y,
            "models.embedder": "bge-m3",
            "embedder_backend": "ollama",
        }
    )
    corpus = load_corpus(copy_corpus(tmp_path / "corpus"))
    db = open_db(tmp_path / "embed.db")
    run(corpus, ["A"], db, config, score=False, concurrency=2)
    models = [
        r["body"]["model"]
        for r in ollama_server.requests
        if r["path"] in ("/api/chat", "/api/embed")
    ]
    print(f"\nwith an Ollama embedder: {switches(models)} switches over {len(models)} requests")
    assert loads_per_model(models) == {X: 1, "bge-m3": 1, Y: 1}
    assert db["embeddings"].count > 0
