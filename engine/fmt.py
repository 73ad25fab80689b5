"""How a figure (a score, a rate, a statistic) is written as text, everywhere: the report, the
app, the CLI and the engine's own sentences."""

from __future__ import annotations


def figure(value: float | None, missing: str = "—", digits: int = 2) -> str:
    """``digits`` decimals (two by default); ``missing`` when there is no value. Never "-0.00": a
    value that rounds to zero is written without a sign (a signed mean of -0.001 is "0.00")."""
    if value is None:
        return missing
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def cell(value: object) -> str:
    """A table cell of the report: a float with two decimals (never "-0.00", as :func:`figure`),
    no value as "—", anything else as its text."""
    if value is None:
        return "—"
    if isinstance(value, float):
        return figure(value)
    return str(value)
