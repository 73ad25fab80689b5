"""Config: defaults (docs/models.md), the offline preset, TOML loading and CLI overrides."""

from __future__ import annotations

import pytest

from seorap.engine.config import Config, load_config
from seorap.engine.errors import ConfigError


def test_defaults_follow_the_reference_study(monkeypatch):
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    c = Config()
    assert (c.models.extractor, c.models.synthesizer) == ("qwen3.5:9b", "qwen3.5:9b")
    assert (c.models.answerer, c.models.judge, c.models.embedder) == (
        "qwen3.8:27b",
        "qwen3.8:27b",
        "bge-m3",
    )
    assert (c.temperature, c.seed, c.host, c.timeout_s, c.concurrency) == (
        0.0,
        0,
        "http://localhost:11434",
        120.0,
        2,
    )
    assert (c.retrieval.bm25_weight, c.retrieval.dense_weight, c.retrieval.top_k) == (0.3, 0.7, 5)
    assert c.judging.filter_threshold == 0.8 and c.think is False


def test_host_from_environment(monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", "http://gpu-box:11434")
    assert Config().host == "http://gpu-box:11434"


def test_offline_preset():
    c = Config.offline()
    assert c.embedder_backend == "hashing"
    assert (c.models.answerer, c.models.judge) == ("reader", "lexical")
    assert Config.offline(seed=3).seed == 3


def test_toml_then_overrides(tmp_path):
    path = tmp_path / "seorap.toml"
    path.write_text(
        'seed = 42\nembedder_backend = "ollama"\n[models]\njudge = "gemma3:12b"\n'
        "[retrieval]\ntop_k = 3\n",
        encoding="utf-8",
    )
    c = load_config(path, **{"models.extractor": "qwen3:4b", "retrieval__top_k": None, "seed": 1})
    assert (c.seed, c.embedder_backend, c.models.judge, c.models.extractor) == (
        1,
        "ollama",
        "gemma3:12b",
        "qwen3:4b",
    )
    assert (
        c.retrieval.top_k == 3 and c.models.answerer == "qwen3.8:27b"
    )  # untouched keys keep defaults
    assert load_config(path, offline=True).models.answerer == "reader"


def test_unknown_keys_are_refused(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("temprature = 0.5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad.toml:1: temprature: unknown key.*'temperature'"):
        load_config(path)
    with pytest.raises(ValueError):
        Config().with_overrides({"nosuch.key": 1})


def test_digest_ignores_operational_fields():
    base = Config()
    assert (
        base.digest() == base.with_overrides(host="http://x:1", concurrency=8, timeout_s=5).digest()
    )
    assert base.digest() != base.with_overrides(seed=1).digest()
    assert base.role_model("judge") == "qwen3.8:27b"
