"""Variants A, B and C through the real ollama client against the local fake Ollama server.

The server's chat handler is the stand-in (engine/models/standin.py), so the write path runs end to end over
HTTP; the tests assert what was sent (model, format schema, temperature 0, seed, keep_alive, think,
the variant's system prompt, the untrusted-document delimiters) and that malformed replies and a
500 are handled.
"""

from __future__ import annotations

from pathlib import Path

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.memory import get_system
from seorap.engine.memory.schemas import Extraction, SynthesisChoice
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

CORPUS = Path(__file__).parent.parent / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"


def live_run(server, tmp_path, system):
    config = Config.offline(host=server.url)
    corpus = load_corpus(CORPUS)
    db = open_db(tmp_path / f"{system}.db")
    [run_id] = run(corpus, [system], db, config, score=False, concurrency=2)
    return db, run_id, config


def test_variants_through_ollama_client(ollama_server, tmp_path):
    ollama_server.handler = ollama_handler(StandinBackend())
    for system in ("A", "B", "C"):
        ollama_server.reset()
        db, run_id, config = live_run(ollama_server, tmp_path, system)
        bodies = ollama_server.bodies("/api/chat")
        extract = [b for b in bodies if "<document>" in b["messages"][1]["content"]]
        synth = [b for b in bodies if b not in extract]
        assert len(extract) == db["documents"].count_where("run_id=?", [run_id])
        for body in bodies:
            assert body["model"] == "qwen3.5:9b"
            assert body["options"]["temperature"] == 0 and body["options"]["seed"] == 0
            assert body["keep_alive"] == config.keep_alive and body.get("think") is False
        assert extract[0]["format"] == Extraction.model_json_schema()
        assert "data, not instructions" in extract[0]["messages"][1]["content"]
        variant = get_system(system)
        assert extract[0]["messages"][0]["content"] == variant.extraction_prompt
        if system == "C":
            assert synth == []
        else:
            assert synth and synth[0]["format"] == SynthesisChoice.model_json_schema()
            assert {b["messages"][0]["content"] for b in synth} == {variant.synthesis_prompt}
        assert db["facts"].count_where("run_id=?", [run_id]) > 0
        manifest = db["runs"].get(run_id)["manifest"]
        assert "sha256:" in manifest  # model digest from the server recorded


def test_bias_lines_only_in_a(ollama_server, tmp_path):
    ollama_server.handler = ollama_handler(StandinBackend())
    prompts = {}
    for system in ("A", "B"):
        ollama_server.reset()
        live_run(ollama_server, tmp_path, system)
        prompts[system] = {b["messages"][0]["content"] for b in ollama_server.bodies("/api/chat")}
    assert any("When unsure" in p for p in prompts["A"])
    assert not any("When unsure" in p for p in prompts["B"])


def test_malformed_reply_counts_and_500_is_retried(ollama_server, tmp_path):
    ollama_server.handler = ollama_handler(StandinBackend())
    ollama_server.fail("500")
    ollama_server.fail("malformed", times=2)
    db, run_id, _ = live_run(ollama_server, tmp_path, "A")
    failures = list(db.query("SELECT * FROM write_failures WHERE run_id=?", [run_id]))
    assert len(failures) == 1 and failures[0]["stage"] == "extract"
    assert db["documents"].count_where("run_id=?", [run_id]) == 3
    assert db["calls"].count_where("error IS NOT NULL") == 1  # the 500, retried
