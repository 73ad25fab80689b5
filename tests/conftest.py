"""Shared pytest fixtures. Keep additive: each area appends its own fixtures below."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # so tests can `from ollama_fake import ...`


# ---- MODELS: a local Ollama-speaking HTTP server (tests/ollama_fake.py) ----
@pytest.fixture
def ollama_server():
    """A started :class:`ollama_fake.FakeOllama` on 127.0.0.1 (random port); stopped afterwards.

    ``ollama_server.url`` is the host for OllamaChat / ModelClient.from_config / Config(host=...)."""
    from ollama_fake import FakeOllama

    server = FakeOllama().start()
    try:
        yield server
    finally:
        server.stop()


# ---- PLANNER: a local OpenAI-speaking HTTP server (tests/openai_fake.py) ----
@pytest.fixture
def openai_server():
    """A started :class:`openai_fake.FakeOpenAI` on 127.0.0.1; ``openai_server.url`` ends in /v1."""
    from openai_fake import FakeOpenAI

    server = FakeOpenAI().start()
    try:
        yield server
    finally:
        server.stop()
