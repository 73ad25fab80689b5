"""The ``embeddings`` table: vectors (float32 blobs) keyed by (embedder name, sha256 of the text),
so a text is embedded once per embedder (engine/models/embedders.py, CachedEmbedder)."""

from __future__ import annotations

from sqlite_utils import Database

CHUNK = 500
"""Hashes asked per query (well under SQLite's limit on bound parameters)."""


def ensure_table(db: Database) -> None:
    db.table("embeddings").create(
        {"embedder": str, "text_hash": str, "dim": int, "vector": bytes},
        pk=("embedder", "text_hash"),
        if_not_exists=True,
    )


def stored_vectors(db: Database, embedder: str, hashes: list[str]) -> list[tuple[str, bytes]]:
    """(text hash, vector blob) of those of ``hashes`` the table holds for ``embedder``."""
    found: list[tuple[str, bytes]] = []
    for i in range(0, len(hashes), CHUNK):
        chunk = hashes[i : i + CHUNK]
        sql = (
            f"select text_hash, vector from embeddings where embedder = ? and text_hash in "
            f"({','.join('?' * len(chunk))})"
        )
        found += db.execute(sql, [embedder, *chunk]).fetchall()
    return found


def store_vectors(db: Database, rows: list[dict]) -> None:
    """Insert or replace rows of embedder, text_hash, dim and vector."""
    db.table("embeddings").insert_all(rows, replace=True)
