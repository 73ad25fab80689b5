"""Trajectory stepper (view 2): a document's lines, the docClaims they state and the key-phrase spans."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from seorap.engine.views.common import containment


@dataclass(frozen=True)
class DocLine:
    text: str
    claim: str | None
    """The docClaim this line states (bigram containment ≥ 0.6), if any."""
    spans: tuple[tuple[int, int], ...] = ()
    """(start, end) character offsets in ``text`` of the docClaims' key phrases: every stretch of
    ≥ 6 characters the line shares with a docClaim, and the claims' numbers (sorted, disjoint)."""


MIN_SPAN = 6
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


def shared_spans(line: str, claim: str, min_len: int = MIN_SPAN) -> list[tuple[int, int]]:
    """Maximal stretches of ``line`` (≥ ``min_len`` characters, outer spaces trimmed) that also
    occur in ``claim``, left to right, non-overlapping (pure; seeds by ``min_len``-grams)."""
    if len(claim) < min_len:
        return []
    grams = {claim[i : i + min_len] for i in range(len(claim) - min_len + 1)}
    spans, i = [], 0
    while i <= len(line) - min_len:
        if line[i : i + min_len] not in grams:
            i += 1
            continue
        j = i + min_len
        while j < len(line) and line[i : j + 1] in claim:
            j += 1
        start, end = i, j
        while start < end and line[start].isspace():
            start += 1
        while end > start and line[end - 1].isspace():
            end -= 1
        if end - start >= min_len:
            spans.append((start, end))
        i = j
    return spans


def number_spans(line: str, claim: str) -> list[tuple[int, int]]:
    """Where the claim's numbers (3, 3.5, 2026-03 parts, 14:00) appear in the line as whole numbers."""
    wanted = set(_NUMBER.findall(claim))
    return [m.span() for m in _NUMBER.finditer(line) if m.group() in wanted]


def merge_spans(spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    out: list[list[int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return tuple((a, b) for a, b in out)


def claim_spans(line: str, doc_claims: list[str]) -> tuple[tuple[int, int], ...]:
    """The docClaims' key phrases in one line: shared stretches ≥ 6 characters and numbers."""
    return merge_spans(
        span for c in doc_claims for span in shared_spans(line, c) + number_spans(line, c)
    )


def doc_lines(text: str, doc_claims: list[str], threshold: float = 0.6) -> list[DocLine]:
    """Split a document into lines, mark the lines that state a docClaim and the spans that
    carry a docClaim's key phrase (pure; cached: stepping back and forth re-reads documents)."""
    return list(_doc_lines(text, tuple(doc_claims), threshold))


@lru_cache(maxsize=512)
def _doc_lines(text: str, doc_claims: tuple[str, ...], threshold: float) -> tuple[DocLine, ...]:
    out = []
    for line in text.split("\n"):
        best = max(doc_claims, key=lambda c: containment(c, line), default=None)
        hit = (
            best
            if best is not None and line.strip() and containment(best, line) >= threshold
            else None
        )
        out.append(DocLine(line, hit, claim_spans(line, list(doc_claims)) if doc_claims else ()))
    return tuple(out)
