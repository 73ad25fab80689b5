"""`seorap models [check|pull]` and the preflight, against the local fake Ollama server."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from ollama_fake import closed_port_url

from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.models.base import ModelMissing, ModelUnavailable
from seorap.engine.models.manage import check_models, configured_models, model_status, pull_model


def test_configured_models_group_roles():
    statuses = configured_models(Config())
    assert [(s.model, s.roles, s.source) for s in statuses] == [
        ("qwen3.5:9b", ["extractor", "synthesizer"], "ollama"),
        ("qwen3.8:27b", ["answerer", "judge"], "ollama"),
        ("bge-m3", ["embedder"], "bge-m3"),
    ]
    offline = {s.model: s.source for s in configured_models(Config.offline())}
    assert offline["reader"] == "stand-in" and offline["lexical"] == "stand-in"


def test_status_marks_present_and_missing(ollama_server):
    del ollama_server.models["qwen3.8:27b"]
    cfg = Config(host=ollama_server.url, embedder_backend="ollama")
    by_model = {s.model: s for s in model_status(cfg)}
    assert by_model["qwen3.5:9b"].present and by_model["qwen3.5:9b"].digest.startswith("sha256:")
    assert by_model["qwen3.8:27b"].present is False
    assert by_model["bge-m3"].present  # served as bge-m3:latest
    with pytest.raises(ModelMissing, match="qwen3.8:27b"):
        check_models(cfg)
    assert check_models(cfg, roles=["extractor", "synthesizer"])[0].present


def test_preflight_unreachable():
    with pytest.raises(ModelUnavailable, match="ollama serve"):
        check_models(Config(host=closed_port_url()))


def test_pull_streams_progress_and_installs(ollama_server):
    seen = []
    pull_model(Config(host=ollama_server.url), "gemma3:1b", lambda s, c, t: seen.append((s, c, t)))
    assert seen[0][0] == "pulling manifest" and seen[-1][0] == "success"
    assert (750, 1000) in [(c, t) for _, c, t in seen]
    assert "gemma3:1b" in ollama_server.models
    assert ollama_server.bodies("/api/pull")[0]["model"] == "gemma3:1b"


def test_cli_check_exit_codes(ollama_server):
    runner = CliRunner()
    ok = runner.invoke(cli, ["models", "--host", ollama_server.url])
    assert ok.exit_code == 0, ok.output
    assert "qwen3.5:9b" in ok.output and "present" in ok.output
    del ollama_server.models["qwen3.5:9b"]
    missing = runner.invoke(cli, ["models", "check", "--host", ollama_server.url])
    assert missing.exit_code == 1 and "seorap models pull" in missing.output
    down = runner.invoke(cli, ["models", "check", "--host", closed_port_url()])
    assert down.exit_code == 2 and "ollama serve" in down.output


def test_cli_pull_missing_then_check_passes(ollama_server):
    del ollama_server.models["qwen3.8:27b"]
    runner = CliRunner()
    result = runner.invoke(cli, ["models", "--host", ollama_server.url, "pull"])
    assert result.exit_code == 0, result.output
    assert "pulled qwen3.8:27b" in result.output
    assert [b["model"] for b in ollama_server.bodies("/api/pull")] == ["qwen3.8:27b"]
    assert runner.invoke(cli, ["models", "--host", ollama_server.url]).exit_code == 0


def test_cli_pull_unreachable_is_one_sentence():
    url = closed_port_url()
    result = CliRunner().invoke(cli, ["models", "pull", "qwen3.5:9b", "--host", url])
    assert result.exit_code == 2 and url in result.output and "ollama serve" in result.output


def test_cli_pull_error_mid_stream(ollama_server):
    ollama_server.fail("error_line", path="/api/pull")
    result = CliRunner().invoke(cli, ["models", "pull", "nosuch:1b", "--host", ollama_server.url])
    assert result.exit_code == 2 and "Pulling 'nosuch:1b'" in result.output


def test_cli_check_without_server_lists_roles_then_one_sentence():
    url = closed_port_url()
    result = CliRunner().invoke(cli, ["models", "check", "--host", url], env={"COLUMNS": "120"})
    assert result.exit_code == 2
    out = result.output
    for role, model in [
        ("extractor", "qwen3.5:9b"),
        ("answerer", "qwen3.8:27b"),
        ("embedder", "bge-m3"),
    ]:
        assert role in out and model in out
    assert "not checked (no server)" in out and "present" not in out
    assert out.index("qwen3.8:27b") < out.index("Cannot reach the Ollama server")
    assert out.count("Cannot reach") == 1 and "Traceback" not in out
