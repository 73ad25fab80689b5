"""The ``runs`` row of a run: its id, started (with its manifest), finished, or marked
cancelled/failed (engine/run/runner.py)."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlite_utils import Database

from seorap.engine.config import Config
from seorap.engine.corpus import Corpus, Trajectory
from seorap.engine.run.manifest import ModelInfo, RunManifest, package_versions
from seorap.engine.store.damage import stored_json
from seorap.engine.store.database import dumps, transaction
from seorap.engine.store.queries import runs
from seorap.engine.store.queries.calls import model_digests
from seorap.engine.store.queries.writes import (
    document_count,
    documents_by_trajectory,
    documents_saved,
)

if TYPE_CHECKING:
    from seorap.engine.memory import System
    from seorap.engine.models.base import ChatBackend, Embedder
    from seorap.engine.models.client import ModelClient

STANDIN = "standin"
WRITE_CONFIG_KEYS = ("seed", "temperature", "num_ctx", "num_predict", "think", "embedder_backend")


def config_hash(system: System, config: Config) -> str:
    spec = system.spec()
    body: dict[str, object] = {"system": spec}
    if system.uses_llm:
        body["models"] = {r: config.role_model(r) for r in ("extractor", "synthesizer", "embedder")}
        body["options"] = {k: _plain(getattr(config, k)) for k in WRITE_CONFIG_KEYS}
        if config.keep_ungrounded:  # only when set: the ids of every earlier run stay as they were
            body["keep_ungrounded"] = True
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _plain(value: object) -> object:
    return value.model_dump() if hasattr(value, "model_dump") else value


def make_run_id(name: str, corpus: Corpus, system: System, config: Config) -> str:
    return f"{run_name(name, system)}-{corpus.digest[:8]}-{config_hash(system, config)[:6]}"


def run_name(name: str, system: System) -> str:
    """The system's part of a run id: its name, or for a foreign system (whose ``--system`` value
    may be a command line) the name it gives itself, made safe for an id (no ``/``, no spaces)."""
    if getattr(system, "fresh_on_resume", False):
        own = getattr(getattr(system, "inner", None), "name", "") or "system"
        return re.sub(r"[^\w.+-]+", "-", str(own)).strip("-") or "system"
    return name


def _start_run(
    db: Database,
    run_id: str,
    name: str,
    system: System,
    corpus: Corpus,
    config: Config,
    offline: bool,
    replay: bool,
    label: str | None,
    client: ModelClient | None,
    emb: Embedder | None,
    scope: list[str] | None = None,
) -> bool:
    """Insert or restart the run's row; True when the run is new. ``scope``: the trajectories this
    command writes (None: all of them), added to the run's manifest."""
    models = {}
    if system.uses_llm:
        chat = client.backend if client is not None else None
        backend = chat.name if chat is not None else ""
        server = _server_facts(chat)
        models = {
            r: ModelInfo(name=config.role_model(r), backend=backend, **server)
            for r in ("extractor", "synthesizer")
        }
        models["embedder"] = ModelInfo(name=emb.name if emb is not None else "", backend="embedder")
    manifest = RunManifest(
        run_id=run_id,
        system=name,
        system_spec=system.spec(),
        corpus=label or str(corpus.root),
        corpus_digest=corpus.digest,
        trajectories=[t.id for t in corpus.trajectories],
        scope=scope,
        config=config.model_dump(mode="json"),
        config_hash=config_hash(system, config),
        offline=offline,
        replay=replay,
        models=models,
        capabilities=system.capabilities.to_dict(),
        packages=package_versions(),
    )
    existing = runs.exists(db, run_id)
    row = {
        "run_id": run_id,
        "system": name,
        "corpus": manifest.corpus,
        "corpus_digest": corpus.digest,
        "config": dumps(manifest.config),
        "status": "running",
        "finished_at": None,
        "error": None,
    }
    if existing:
        db.table("runs").update(run_id, {**row, **_grown(db, run_id, scope, manifest.trajectories)})
    else:
        db.table("runs").insert(
            {**row, "manifest": manifest.model_dump_json(), "created_at": manifest.created_at}
        )
    return not existing


def _grown(db: Database, run_id: str, scope: list[str] | None, corpus: list[str]) -> dict:
    """The restarted run's manifest with its scope grown by this command's (no change: {})."""
    before = stored_json(db.table("runs").get(run_id)["manifest"], "manifest", run_id, {}) or {}
    if before.get("scope") is None:  # the whole corpus already
        return {}
    before["scope"] = grown_scope(before["scope"], scope, corpus)
    return {"manifest": dumps(before)}


def grown_scope(before: list[str], now: list[str] | None, corpus: list[str]) -> list[str] | None:
    """A run's scope after one more command wrote ``now`` (None: the whole corpus)."""
    if now is None:
        return None
    wanted = set(before) | set(now)
    return None if wanted >= set(corpus) else [t for t in corpus if t in wanted]


def _server_facts(chat: ChatBackend | None) -> dict:
    """Hosts and the server's reported version, for the manifest (no I/O for a stand-in)."""
    if chat is None or getattr(chat, "name", "") in ("", STANDIN):
        return {}
    hosts = list(
        getattr(chat, "hosts", None)
        or ([host] if isinstance(host := getattr(chat, "host", None), str) else [])
    )
    info: dict = {}
    server_info = getattr(chat, "server_info", None)
    if callable(server_info):
        try:
            info = server_info() or {}
        except Exception:  # noqa: BLE001 - a version we cannot read is simply not recorded
            info = {}
    return {"hosts": hosts, "server_version": info.get("version")}


def _record_served(db: Database, run_id: str, client: ModelClient | None) -> None:
    """The model names the server said it served (OpenAI-compatible backends), into the manifest."""
    served = getattr(getattr(client, "backend", None), "served", None)
    if client is None or not callable(served):  # a client is there when served is
        return
    row = db.table("runs").get(run_id)
    manifest = stored_json(row["manifest"], "manifest", run_id, {})
    for info in manifest.get("models", {}).values():
        if info.get("backend") == getattr(client.backend, "name", None):
            info["served"] = served(info["name"]) or info.get("served")
    db.table("runs").update(run_id, {"manifest": json.dumps(manifest, ensure_ascii=False)})


def _finish_run(db: Database, run_id: str, status: str) -> None:
    manifest = json.loads(db.table("runs").get(run_id)["manifest"])
    digests = model_digests(db)
    for info in manifest.get("models", {}).values():
        info["digest"] = digests.get(info["name"], info.get("digest"))
    with transaction(db):  # under the writer lease
        db.table("runs").update(
            run_id,
            {
                "status": status,
                "manifest": json.dumps(manifest, ensure_ascii=False),
                "finished_at": _now(),
            },
        )


def _mark_unfinished(
    db: Database, run_id: str, status: str, error: str | None = None, *, new: bool = False
) -> None:
    """Mark a run that stopped; a replay this call created that wrote no document is removed
    instead (a failed or cancelled replay leaves no empty run behind; a cancelled run stays, to
    resume). A database that cannot be written (disk full) keeps ``running``, which reads as
    ``interrupted`` once the lease lapses."""
    try:
        if new and document_count(db, run_id) == 0:
            runs.remove(db, run_id)
        elif db.table("runs").get(run_id)["status"] == "running":
            db.table("runs").update(run_id, {"status": status, "error": error})
    except sqlite3.Error:
        pass


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def cancelled_sentence(
    db: Database,
    run_ids: list[str],
    trajs: list[Trajectory],
    fresh: dict[str, str] | None = None,
) -> str:
    """One sentence: how many documents are saved, that the same command resumes, and what it
    will redo per system whose memory lives outside seorap (``fresh``: run id -> system name):
    such a system restarts an unfinished trajectory from its first document."""
    total = sum(len(list(t.arrivals())) for t in trajs) * len(run_ids)
    saved = documents_saved(db, run_ids, [t.id for t in trajs])
    redo = []
    done = documents_by_trajectory(db) if fresh else {}
    for run_id, name in (fresh or {}).items():
        cut = [n for t in trajs if 0 < (n := done.get((run_id, t.id), 0)) < len(list(t.arrivals()))]
        if cut:
            redo.append(
                f"system {name} restarts its {len(cut)} unfinished trajectory(ies) from their "
                f"first document, writing {sum(cut)} saved document(s) again"
            )
    again = f" ({'; '.join(redo)})" if redo else ""
    return (
        f"Cancelled: {saved} of {total} documents are saved; run the same command again to "
        f"resume from there{again}."
    )
