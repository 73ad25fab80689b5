"""When each host last sent one of our streams a chunk, process-wide (docs/models.md, "A busy
host is not a dead one"). The chat client's streams write it; waits for other calls to the same
host (embeddings) read it: a host that is streaming for us is alive, however long a call waits."""

from __future__ import annotations

import time

_last: dict[str, float] = {}


def touch(host: str | None) -> None:
    """A chunk from ``host`` arrived now."""
    if host:
        _last[host] = time.monotonic()


def busy_since(host: str | None, since: float) -> bool:
    """Whether ``host`` sent one of our streams a chunk after ``since`` (time.monotonic())."""
    return bool(host) and _last.get(str(host), 0.0) > since
