"""``--system mem0``: mem0's open-source library (``pip install "seorap[mem0]"``), run locally.

- Models: mem0's LLM is the run's extractor model, its embedder the run's embedder; both reached
  through a loopback :class:`~engine.memory.recorder.Recorder`, so every call is in the call log
  (role ``extractor``, phase ``mem0``), cached and replayable. mem0 writes today's date into its
  prompt (``## Current Date``, and ``## Observation Date`` when it is not given one); the cache key
  leaves those lines out (:func:`key_messages`), so a second run on another day is served from the
  cache.
- Storage: a folder beside the run database, ``<db>.mem0/<run>/<trajectory>/`` (a qdrant vector
  store on disk and mem0's history database), fresh for every (run, trajectory).
- Telemetry off (``MEM0_TELEMETRY=false``, set before mem0 is imported; mem0's own settings folder,
  ``MEM0_DIR``, is pointed inside that folder too): no network beyond the recorder.
- Capabilities: mem0 2.x reports its events (only ``ADD``: it never updates or deletes when
  writing, so it is append-only), keeps a history per memory, has its own search, and its
  open-source ``add`` refuses a timestamp: it is not told document dates.
"""

from __future__ import annotations

import os
import re
import threading
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from seorap.engine.config import Config
from seorap.engine.memory import folders
from seorap.engine.memory.foreign import SystemFault, fresh_store
from seorap.engine.memory.interface import (
    Capabilities,
    DocumentIn,
    HeldFact,
    ReportedOperation,
)
from seorap.engine.memory.recorder import Recorder
from seorap.engine.safepath import unlink

if TYPE_CHECKING:
    from mem0 import Memory

    from seorap.engine.memory.recorder import Recorder
    from seorap.engine.models.client import ModelClient
    from seorap.engine.run.phases import RunContext

os.environ["MEM0_TELEMETRY"] = "false"  # read by mem0 when it is imported: before any import of it

USER = "seorap"
PHASE = "mem0"
ALL = 100_000
"""``get_all``'s top_k: every memory (mem0 returns 20 by default)."""
VOLATILE = re.compile(r"^## (Current Date|Observation Date)\n[^\n]*\n?", re.MULTILINE)


class Mem0Item(BaseModel):
    model_config = ConfigDict(extra="allow")
    text: str


class Mem0Extraction(BaseModel):
    """The reply mem0's extraction prompt asks for: ``{"memory": [{"text": ...}, ...]}``."""

    model_config = ConfigDict(extra="allow")
    memory: list[Mem0Item] = []


def key_messages(messages: list[dict]) -> list[dict]:
    """The messages as the cache key reads them: mem0's date lines left out."""
    return [
        {**m, "content": VOLATILE.sub("", m["content"])} if isinstance(m.get("content"), str) else m
        for m in messages
    ]


def make_system(config: Config) -> Mem0System:
    try:
        version = metadata.version("mem0ai")
    except metadata.PackageNotFoundError:
        raise SystemFault(
            'system mem0: mem0 is not installed; install the extra: pip install "seorap[mem0]"'
        ) from None
    return Mem0System(config, version)


class Mem0System:
    name = "mem0"
    uses_llm = True
    calls_per_document = 1
    """Chat calls per written document (one extraction per ``add``): what ``--plan`` counts."""
    capabilities = Capabilities(
        reports_operations=True,
        keeps_history=True,
        takes_dates=False,
        own_search=True,
        updates_at_write=False,
    )

    def __init__(self, config: Config, version: str) -> None:
        self.config = config
        self.version = version
        self.ctx: Any = None
        """The run's context (engine/run/phases.py RunContext), given by :meth:`bind`."""
        self.folder: Path | None = None
        self.recorder: Recorder | None = None
        self.client: ModelClient | None = None
        self._lock = threading.Lock()

    def spec(self) -> dict:
        return {"kind": "mem0", "mem0ai": self.version, "version": 1}

    # -- run hooks (engine/memory/foreign.py) -----------------------------------------------
    def bind(self, ctx: RunContext) -> None:
        """Before the first memory: the run's model client, embedder and database folder."""
        with self._lock:
            if self.recorder is not None:
                return
            self.ctx = ctx
            self.folder = _folder(ctx.db_path)
            os.environ["MEM0_TELEMETRY"] = "false"
            os.environ.setdefault("MEM0_DIR", str(self.folder / "settings"))
            self.client = _recording_client(ctx)

            models = [ctx.config.models.extractor, _embedder_name(ctx)]
            self.recorder = Recorder(self._chat, self._embed, models)

    def shutdown(self) -> None:
        if self.recorder is not None:
            self.recorder.stop()
            self.recorder = None

    def cancel(self) -> None:
        if self.client is not None:
            self.client.cancel()

    # -- the recorder's two calls --------------------------------------------------------------
    def _chat(self, body: dict) -> str:
        assert self.client is not None and self.ctx is not None
        messages = [
            {"role": m.get("role", "user"), "content": m.get("content") or ""}
            for m in body.get("messages", [])
        ]
        result = self.client.structured(
            "extractor",
            self.ctx.config.models.extractor,
            messages,
            Mem0Extraction,
            phase=PHASE,
            think=self.ctx.config.think,
            run_id=self.ctx.run_id,
            salvage=True,
        )
        if result.value is None:
            return result.raw  # mem0 reads an unusable reply as "nothing extracted"
        # What we parsed (a repaired or salvaged reply too), so mem0 reads what we logged.
        return result.value.model_dump_json()

    def _embed(self, texts: list[str]) -> list[list[float]]:
        assert self.ctx is not None
        return [[float(x) for x in row] for row in self.ctx.embedder.embed(texts)]

    # -- memories ------------------------------------------------------------------------------
    def open(self, run_id: str, trajectory_id: str) -> Mem0Memory:
        if self.recorder is None or self.folder is None or self.ctx is None:
            raise SystemFault("system mem0: opened before the run bound it to a model client")
        where = fresh_store(self.folder, "mem0", run_id, trajectory_id)
        dims = len(self._embed(["dimension probe"])[0])
        # optional dependency: mem0 loads only when this runs
        from mem0 import Memory
        from mem0.memory import main as mem0_main
        from mem0.memory import telemetry

        # Off also when mem0 was imported before the variable was set (it copies the flag).
        telemetry.MEM0_TELEMETRY = False
        mem0_main.MEM0_TELEMETRY = False
        config = {
            "llm": {
                "provider": "ollama",
                "config": {
                    "model": self.ctx.config.models.extractor,
                    "ollama_base_url": self.recorder.url,
                },
            },
            "embedder": {
                "provider": "ollama",
                "config": {
                    "model": _embedder_name(self.ctx),
                    "ollama_base_url": self.recorder.url,
                    "embedding_dims": dims,
                },
            },
            "vector_store": {
                "provider": "qdrant",
                "config": {
                    "path": str(where / "qdrant"),
                    "collection_name": "memories",
                    "embedding_model_dims": dims,
                    "on_disk": True,
                },
            },
            "history_db_path": str(where / "history.db"),
        }
        return Mem0Memory(Memory.from_config(config))


class Mem0Memory:
    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    def write(self, document: DocumentIn) -> list[ReportedOperation] | None:
        result = self.memory.add(document.text, user_id=USER)
        return [
            ReportedOperation(str(r.get("event", "")), str(r["id"]), str(r.get("memory", "")))
            for r in (result or {}).get("results", [])
        ]

    def facts(self) -> list[HeldFact]:
        rows = self.memory.get_all(filters={"user_id": USER}, top_k=ALL).get("results", [])
        out = []
        for r in rows:
            earlier = [h.get("old_memory") for h in self.memory.history(r["id"]) or []]
            out.append(
                HeldFact(str(r["id"]), str(r.get("memory", "")), versions=[e for e in earlier if e])
            )
        return out

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        found = self.memory.search(query, top_k=k, filters={"user_id": USER}, threshold=0.0)
        return [(str(r["id"]), float(r.get("score") or 0.0)) for r in found.get("results", [])]

    def close(self) -> None:
        """mem0's ``close`` releases its history database; its local qdrant client (which locks
        the folder) is closed too, so a restarted trajectory can open the folder again."""
        close = getattr(self.memory, "close", None)
        if callable(close):
            close()
        client = getattr(getattr(self.memory, "vector_store", None), "client", None)
        if client is not None and callable(getattr(client, "close", None)):
            client.close()


def run_folder(db_path: str | Path, run_id: str) -> Path | None:
    """The folder that holds one run's mem0 stores (``<db>.mem0/<run>/``), None when there is none
    (`seorap runs rm` removes it with the run's rows)."""
    return folders.run_folder(db_path, run_id, "mem0")


def stores_folder(db_path: str | Path) -> Path:
    """``<db>.mem0``: the folder beside the database that owns every run's mem0 stores."""
    return folders.stores_folder(db_path, "mem0")


def _folder(db_path: str) -> Path:
    if not db_path:
        raise SystemFault("system mem0: needs a run database on disk (its folder goes beside it)")
    folder = stores_folder(db_path)
    try:
        folder.mkdir(parents=True, exist_ok=True)  # may be a link to another disk: it owns the rest
        probe = folder / ".write-test"
        probe.write_text("")
        unlink(probe, folder)
    except OSError as exc:
        raise SystemFault(
            f"system mem0: cannot write its folder {folder}: {exc.strerror or exc}"
        ) from None
    return folder


def _recording_client(ctx: RunContext) -> ModelClient:
    """A model client like the run's (same backend, call log and cache) whose cache key leaves
    out mem0's date lines."""
    # start-up: httpx, ollama load only when this runs
    from seorap.engine.models.client import ModelClient

    if ctx.client is None:
        raise SystemFault("system mem0: the run gave it no model client")
    client = ModelClient.from_config(
        ctx.config, ctx.client.db, backend=ctx.client.backend, replay=ctx.client.replay
    )
    client.key_filter = key_messages
    return client


def _embedder_name(ctx: RunContext) -> str:
    return getattr(ctx.embedder, "name", "") or ctx.config.role_model("embedder")
