"""How a figure (a score, a rate, a statistic) is written as text, everywhere: the report, the
app, the CLI and the engine's own sentences."""

from __future__ import annotations


def figure(value: float | None, missing: str = "—") -> str:
    """Two decimals; ``missing`` when there is no value."""
    return missing if value is None else f"{value:.2f}"
