"""``--system graphiti``: graphiti (Zep's temporal knowledge graph, ``pip install "seorap[graphiti]"``),
run locally on an embedded Kùzu graph.

- Models: graphiti's LLM is the run's extractor model and its embedder the run's embedder, both
  reached through the loopback :class:`~engine.memory.recorder.Recorder` in OpenAI's shape
  (graphiti's ``OpenAIGenericClient`` speaks chat completions; Ollama serves the same under ``/v1``
  for users who point graphiti at it directly). Every call is in the call log (role ``extractor``,
  phase ``graphiti``), cached and replayable; each structured call is asked with graphiti's own
  response model, named in the request.
- No cross-encoder: graphiti's OpenAI reranker scores passages with ``logit_bias`` over OpenAI's
  token ids, which means nothing to another model; its search runs without reranking (reciprocal
  rank fusion of its BM25 and vector searches, graphiti's default for ``search``).
- Storage: ``<db>.graphiti/<run>/<trajectory>/graph.kuzu``, fresh for every (run, trajectory).
  Kùzu is embedded (no server); graphiti's Kùzu driver creates no full-text index, so the adapter
  creates them through the driver before the first episode.
- Telemetry off (``GRAPHITI_TELEMETRY_ENABLED=false`` before graphiti is imported): nothing is sent
  and nothing is written under the user's home.
- The story in seorap's terms: each document is an episode whose ``reference_time`` is the
  document's date; each entity edge is a fact (its ``fact`` text); an edge graphiti invalidates
  (``invalid_at`` or ``expired_at`` set) is retired, linked to the edge that replaced it (the edge
  whose ``valid_at`` is the old edge's ``invalid_at``). An edge that arrives already invalid (a late
  document older than what the graph holds) is created and retired by the same document.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Coroutine
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from seorap.engine.config import Config
from seorap.engine.errors import SeorapError
from seorap.engine.memory import folders
from seorap.engine.memory.foreign import SystemFault, fresh_store
from seorap.engine.memory.interface import (
    Capabilities,
    DocumentFailed,
    DocumentIn,
    HeldFact,
    ReportedOperation,
)
from seorap.engine.memory.recorder import Recorder
from seorap.engine.safepath import make_dirs

if TYPE_CHECKING:
    from seorap.engine.models.client import ModelClient
    from seorap.engine.run.phases import RunContext

os.environ["GRAPHITI_TELEMETRY_ENABLED"] = "false"  # read by graphiti when it decides to send

PHASE = "graphiti"
ALL = 100_000
T = TypeVar("T")


def make_system(config: Config) -> GraphitiSystem:
    try:
        version = metadata.version("graphiti-core")
        metadata.version("kuzu")
    except metadata.PackageNotFoundError:
        raise SystemFault(
            'system graphiti: graphiti is not installed; install the extra: pip install "seorap[graphiti]"'
        ) from None
    return GraphitiSystem(config, version)


def response_models() -> dict[str, type[BaseModel]]:
    """graphiti's response models by the name its client sends with each structured call."""
    # optional dependency: graphiti loads only when a run uses it
    from graphiti_core.prompts import (
        dedupe_edges,
        dedupe_nodes,
        extract_edges,
        extract_nodes,
        extract_nodes_and_edges,
        summarize_nodes,
    )

    out: dict[str, type[BaseModel]] = {}
    for module in (
        dedupe_edges,
        dedupe_nodes,
        extract_edges,
        extract_nodes,
        extract_nodes_and_edges,
        summarize_nodes,
    ):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseModel) and value is not BaseModel:
                out.setdefault(value.__name__, value)
    return out


class GraphitiSystem:
    name = "graphiti"
    uses_llm = True
    calls_per_document = None
    """graphiti's calls per document depend on what it finds (entities, edges, candidates):
    ``--plan`` says "not estimated"."""
    capabilities = Capabilities(
        reports_operations=True,
        keeps_history=True,
        takes_dates=True,
        own_search=True,
        updates_at_write=True,
    )

    def __init__(self, config: Config, version: str) -> None:
        self.config = config
        self.version = version
        self.ctx: Any = None
        self.folder: Path | None = None
        self.recorder: Recorder | None = None
        self.client: ModelClient | None = None
        self.models: dict[str, type[BaseModel]] = {}
        self.fatal: SeorapError | None = None
        """An error of our model path during a call graphiti made (it sees only a 500): raised
        again when graphiti gives up, so the run stops as it would for our own systems."""
        self._lock = threading.Lock()

    def spec(self) -> dict:
        return {"kind": "graphiti", "graphiti-core": self.version, "version": 1}

    # -- run hooks (engine/memory/foreign.py) -----------------------------------------------
    def bind(self, ctx: RunContext) -> None:
        with self._lock:
            if self.recorder is not None:
                return
            self.ctx = ctx
            self.folder = _folder(ctx.db_path)
            self.client = _client(ctx)
            self.models = response_models()
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
            {"role": m.get("role", "user"), "content": _text(m.get("content"))}
            for m in body.get("messages", [])
        ]
        schema = (body.get("response_format") or {}).get("json_schema") or {}
        model = self.models.get(str(schema.get("name", "")))
        extractor = self.ctx.config.models.extractor
        if model is None:
            raise SystemFault(
                f"system graphiti asked for a reply of an unknown shape {schema.get('name')!r}"
            )
        try:
            result = self.client.structured(
                "extractor",
                extractor,
                messages,
                model,
                phase=PHASE,
                think=self.ctx.config.think,
                run_id=self.ctx.run_id,
                salvage=True,
            )
        except SeorapError as exc:  # the server is gone, the run was cancelled: not this document's
            self.fatal = exc
            raise
        if result.value is None:
            raise SystemFault(
                f"system graphiti: the model gave no usable {model.__name__} "
                f"({result.failure or 'not the structure asked for'})"
            )
        return result.value.model_dump_json()

    def _embed(self, texts: list[str]) -> list[list[float]]:
        assert self.ctx is not None
        return [[float(x) for x in row] for row in self.ctx.embedder.embed(texts)]

    # -- memories ------------------------------------------------------------------------------
    def open(self, run_id: str, trajectory_id: str) -> GraphitiMemory:
        if self.recorder is None or self.folder is None or self.ctx is None:
            raise SystemFault("system graphiti: opened before the run bound it to a model client")
        where = fresh_store(self.folder, "graphiti", run_id, trajectory_id)
        dims = len(self._embed(["dimension probe"])[0])
        return GraphitiMemory(
            self,
            where / "graph.kuzu",
            base_url=f"{self.recorder.url}/v1",
            chat_model=self.ctx.config.models.extractor,
            embed_model=_embedder_name(self.ctx),
            dims=dims,
        )


class GraphitiMemory:
    """One graph on embedded Kùzu, driven on its own event loop (graphiti is asynchronous)."""

    def __init__(
        self,
        owner: GraphitiSystem,
        path: Path,
        *,
        base_url: str,
        chat_model: str,
        embed_model: str,
        dims: int,
    ) -> None:
        self.owner = owner
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="seorap-graphiti", daemon=True
        )
        self.thread.start()
        self.known: dict[str, bool] = {}
        """Edge uuid -> active, as listed after the last document."""
        self.graphiti: Any = self._await(_graphiti(path, base_url, chat_model, embed_model, dims))

    def _await(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def write(self, document: DocumentIn) -> list[ReportedOperation] | None:
        # optional dependency: loaded by open() already
        from graphiti_core.nodes import EpisodeType

        recorder = self.owner.recorder
        seen = len(recorder.errors) if recorder else 0
        try:
            result = self._await(
                self.graphiti.add_episode(
                    name=document.id,
                    episode_body=document.text,
                    source_description=f"document {document.id} by {document.author or 'unknown'}",
                    reference_time=_when(document.date),
                    source=EpisodeType.text,
                )
            )
        except Exception as exc:  # noqa: BLE001 - graphiti gave up on this episode
            if self.owner.fatal is not None:
                raise self.owner.fatal from None
            why = recorder.errors[-1] if recorder and len(recorder.errors) > seen else ""
            raise DocumentFailed(_sentence(why) or f"{type(exc).__name__}: {exc}") from None
        out = []
        for edge in result.edges:
            closed = edge.invalid_at is not None or edge.expired_at is not None
            if edge.uuid not in self.known:
                out.append(ReportedOperation("create", edge.uuid, edge.fact))
            elif closed and self.known[edge.uuid]:
                out.append(ReportedOperation("supersede", edge.uuid, edge.fact))
        return out

    def facts(self) -> list[HeldFact]:
        edges = self._await(self._edges())
        active = {e.uuid: e.invalid_at is None and e.expired_at is None for e in edges}
        self.known = dict(active)
        out = []
        for e in edges:
            successor = None if active[e.uuid] else _successor(e, edges, active)
            out.append(HeldFact(e.uuid, e.fact, active=active[e.uuid], superseded_by=successor))
        return out

    async def _edges(self) -> list[Any]:
        # optional dependency: loaded by open() already
        from graphiti_core.edges import EntityEdge

        driver = self.graphiti.driver
        try:
            edges = await EntityEdge.get_by_group_ids(driver, [""], limit=ALL)
        except Exception as exc:  # noqa: BLE001 - graphiti raises its own "not found" on none
            if type(exc).__name__ == "GroupsEdgesNotFoundError":
                return []
            raise
        return sorted(edges, key=lambda e: (e.created_at, e.uuid))

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        found = self._await(self.graphiti.search(query, num_results=k))
        return [(e.uuid, 1.0 / (rank + 1)) for rank, e in enumerate(found)]

    def close(self) -> None:
        try:
            self._await(self.graphiti.close())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


async def _graphiti(path: Path, base_url: str, chat_model: str, embed_model: str, dims: int) -> Any:
    # optional dependency: graphiti and kuzu load only when a run uses them
    from graphiti_core import Graphiti
    from graphiti_core.cross_encoder.client import CrossEncoderClient
    from graphiti_core.driver.driver import GraphProvider
    from graphiti_core.driver.kuzu_driver import KuzuDriver
    from graphiti_core.embedder.openai import OpenAIEmbedder, OpenAIEmbedderConfig
    from graphiti_core.graph_queries import get_fulltext_indices
    from graphiti_core.llm_client.config import LLMConfig
    from graphiti_core.llm_client.openai_generic_client import OpenAIGenericClient

    class NoReranker(CrossEncoderClient):
        """Passages in the order graphiti's own fusion ranked them (no cross-encoder)."""

        async def rank(self, query: str, passages: list[str]) -> list[tuple[str, float]]:
            return [(p, 1.0 / (i + 1)) for i, p in enumerate(passages)]

    key = "seorap-loopback"  # the recorder asks for none; the client requires one
    llm = OpenAIGenericClient(
        LLMConfig(api_key=key, base_url=base_url, model=chat_model, small_model=chat_model)
    )
    embedder = OpenAIEmbedder(
        OpenAIEmbedderConfig(
            api_key=key, base_url=base_url, embedding_model=embed_model, embedding_dim=dims
        )
    )
    driver = KuzuDriver(db=str(path))
    graphiti = Graphiti(
        graph_driver=driver, llm_client=llm, embedder=embedder, cross_encoder=NoReranker()
    )
    await graphiti.build_indices_and_constraints()
    for query in get_fulltext_indices(GraphProvider.KUZU):
        await driver.execute_query(query)
    return graphiti


def _successor(old: Any, edges: list[Any], active: dict[str, bool]) -> str | None:
    """The edge that closed ``old``: graphiti sets the old edge's ``invalid_at`` to the ``valid_at``
    of the edge that contradicted it; of several, the one between the same two entities first."""
    if old.invalid_at is None:
        return None
    found = [e for e in edges if e.uuid != old.uuid and e.valid_at == old.invalid_at]
    found.sort(
        key=lambda e: (
            {e.source_node_uuid, e.target_node_uuid}
            != {old.source_node_uuid, old.target_node_uuid},
            not active[e.uuid],
        )
    )
    return found[0].uuid if found else None


def _when(date: str) -> datetime:
    """A document's ISO date as an aware datetime (graphiti compares them with its own)."""
    try:
        when = datetime.fromisoformat(date)
    except ValueError:
        raise SystemFault(
            f"system graphiti: the document date {date!r} is not an ISO date"
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _sentence(why: str) -> str:
    """The recorder's note of a failed call without its exception name."""
    return why.partition(": ")[2] if why.startswith("SystemFault: ") else why


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI's content parts
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _folder(db_path: str) -> Path:
    if not db_path:
        raise SystemFault(
            "system graphiti: needs a run database on disk (its folder goes beside it)"
        )
    path = Path(db_path)
    folder = folders.stores_folder(path, "graphiti")
    try:
        make_dirs(folder, path.parent)
    except OSError as exc:
        raise SystemFault(
            f"system graphiti: cannot write its folder {folder}: {exc.strerror or exc}"
        ) from None
    return folder


def _client(ctx: RunContext) -> ModelClient:
    # start-up: httpx, ollama load only when this runs
    from seorap.engine.models.client import ModelClient

    if ctx.client is None:
        raise SystemFault("system graphiti: the run gave it no model client")
    return ModelClient.from_config(
        ctx.config, ctx.client.db, backend=ctx.client.backend, replay=ctx.client.replay
    )


def _embedder_name(ctx: RunContext) -> str:
    return getattr(ctx.embedder, "name", "") or ctx.config.role_model("embedder")
