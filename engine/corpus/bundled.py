"""The corpora that ship inside the package (``fixtures/<name>/``), found by short name.

They are located relative to this file, so an installed package finds them from any current
folder: ``seorap validate ko-mini`` and ``--corpus ko-mini`` work outside a checkout too.
"""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
"""The package's fixtures folder (``seorap/fixtures`` once installed)."""

DEFAULT = "ko-mini"
"""The bundled Korean corpus: what the demo opens when no corpus is given."""


def bundled_corpora() -> dict[str, Path]:
    """name -> folder of every bundled corpus (a fixtures subfolder holding trajectory files)."""
    if not FIXTURES.is_dir():
        return {}
    return {p.name: p for p in sorted(FIXTURES.iterdir()) if p.is_dir() and any(p.glob("*.json"))}


def bundled_corpus(name: str) -> Path | None:
    """The bundled corpus a name stands for: its short name (``ko-mini``) or the checkout's
    relative path to it (``fixtures/ko-mini``); None for any other text."""
    text = name.strip().rstrip("/")
    if text.startswith("fixtures/"):
        text = text[len("fixtures/") :]
    return bundled_corpora().get(text) if text and "/" not in text else None


def corpus_location(value: str) -> str:
    """What a corpus argument names: an existing file or folder as given; else, when the text
    names a bundled corpus, that corpus's folder; else the text unchanged (the caller reports
    that nothing is there)."""
    if Path(value).exists():
        return value
    found = bundled_corpus(value)
    return str(found) if found is not None else value
