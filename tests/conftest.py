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


# ---- TUI and views: the reference database, written once for the whole session ----
# Defined here, not imported into each test module: a fixture imported into a module is that
# module's own definition, so a session-scoped one imported by 35 modules was built 35 times
# (15-24 s each, about 12 of the suite's 42 minutes).
@pytest.fixture(scope="session")
def ref_db_path(tmp_path_factory) -> Path:
    """The bundled corpus written (and scored) by the three reference systems, once per session.
    Shared by every test that asks for it: read it, never write it (``ref`` gives a copy)."""
    from test_tui_support import reference_db

    path = tmp_path_factory.mktemp("ref") / "ref.db"
    reference_db(path)
    return path


@pytest.fixture
def ref(ref_db_path, tmp_path):
    """A private copy of the reference database: (path, run ids by system)."""
    from store_support import copy_db

    from seorap.engine.store.database import open_db

    path = copy_db(ref_db_path, tmp_path / "ref.db")
    db = open_db(path)
    ids = {r["system"]: r["run_id"] for r in db.query("SELECT system, run_id FROM runs")}
    return path, ids
