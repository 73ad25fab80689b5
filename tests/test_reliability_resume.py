"""The Ollama server dies mid-run (docs/design.md#quality-bars; issue 6 item 3): a clear stop, then a
clean resume.

`seorap run` (variant A, live path) talks to the local fake server, which shuts itself down after N
chat requests. The run must stop with exit code 2 and one sentence naming the host and the fix,
leave no half-written document, and — with a server back (on another port: the host is not part
of the run id or the call keys) — the same command must resume and end with the store of an
uninterrupted run, without repeating any finished model call.
"""

from __future__ import annotations

import os
import threading

import pytest
from test_reliability_support import (
    CountingHandler,
    call_keys,
    copy_corpus,
    integrity,
    live_toml,
    orphan_rows,
    seorap,
    store_of,
)

from seorap.engine.config import load_config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted live run of the same command (in-process, same config file)."""
    from ollama_fake import FakeOllama

    tmp = tmp_path_factory.mktemp("reference")
    corpus_dir, toml = copy_corpus(tmp / "corpus"), live_toml(tmp)
    server = FakeOllama().start()
    server.handler = ollama_handler(StandinBackend())
    try:
        db_path = tmp / "whole.db"
        run(
            load_corpus(corpus_dir),
            ["A"],
            open_db(db_path),
            load_config(toml, host=server.url),
            score=False,
        )
        total = len(server.bodies("/api/chat"))
    finally:
        server.stop()
    return {"db": db_path, "corpus": corpus_dir, "toml": toml, "requests": total}


def cli_run(reference, db_path, host):
    return seorap(
        "run",
        "--corpus",
        str(reference["corpus"]),
        "--system",
        "A",
        "--db",
        str(db_path),
        "--no-score",
        "--config",
        str(reference["toml"]),
        env={**os.environ, "OLLAMA_HOST": host},
    )


@pytest.mark.parametrize("stop_after", [4, 150], ids=["during-extract", "during-write"])
def test_server_killed_mid_run_stops_clearly_and_resumes(reference, tmp_path, stop_after):
    from ollama_fake import FakeOllama

    dying = FakeOllama().start()
    url = dying.url
    stopper = threading.Thread(target=dying.stop)

    def stop_server(n):
        if n == stop_after:  # answer this one, refuse every later connection
            stopper.start()

    dying.handler = CountingHandler(ollama_handler(StandinBackend()), stop_server)
    db_path = tmp_path / "stopped.db"
    try:
        first = cli_run(reference, db_path, url)
    finally:
        if stopper.is_alive() or stopper.ident is not None:
            stopper.join(10)
        else:
            dying.stop()

    assert first.returncode == 2, first.stderr
    errors = [line for line in first.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "ollama serve" in errors[0] and url in errors[0]
    assert errors[0].rstrip().endswith(".") and ". " not in errors[0].rstrip()[:-1]  # one sentence
    assert "Traceback" not in first.stderr
    assert integrity(db_path) == "ok"
    assert set(orphan_rows(db_path).values()) == {0}, "no half-written document"
    before = call_keys(db_path)
    assert 0 < len(before) < reference["requests"]

    back = FakeOllama().start()
    back.handler = ollama_handler(StandinBackend())
    try:
        second = cli_run(reference, db_path, back.url)
        resumed = len(back.bodies("/api/chat"))
    finally:
        back.stop()
    assert second.returncode == 0, second.stderr
    assert store_of(db_path) == store_of(reference["db"])
    keys = call_keys(db_path)
    assert len(keys) == len(set(keys)) and set(keys) == set(call_keys(reference["db"]))
    assert resumed == reference["requests"] - len(before), "a finished call was made again"
    assert integrity(db_path) == "ok"


class DroppingBackend:
    """A chat backend whose connection is reset ``drops`` times (a server going away mid-request)."""

    host = "http://127.0.0.1:9"
    name = "dropping"

    def __init__(self, drops: int):
        self.drops, self.calls = drops, 0

    def chat(self, request):
        import httpx

        from seorap.engine.models.base import ChatReply

        self.calls += 1
        if self.calls <= self.drops:
            raise httpx.ReadError("[Errno 104] Connection reset by peer")
        return ChatReply(content="ok", model=request.model)


def test_a_connection_reset_is_retried_then_one_clear_sentence():
    """Found by the test above: a reset mid-request escaped as a raw httpx.ReadError (traceback,
    exit code 1) instead of ModelUnavailable (exit code 2, one sentence)."""
    from seorap.engine.models.base import ModelUnavailable
    from seorap.engine.models.client import ModelClient

    messages = [{"role": "user", "content": "안녕"}]
    once = DroppingBackend(drops=1)
    assert ModelClient(once, retry_backoff_s=0.001).text("judge", "m", messages) == "ok"
    assert once.calls == 2
    gone = DroppingBackend(drops=99)
    with pytest.raises(ModelUnavailable, match="ollama serve"):
        ModelClient(gone, retry_backoff_s=0.001).text("judge", "m", messages)
    assert gone.calls == 2
