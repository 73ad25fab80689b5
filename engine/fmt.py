"""How a figure (a score, a rate, a statistic) is written as text, everywhere: the report, the
app, the CLI and the engine's own sentences."""

from __future__ import annotations


def figure(value: float | None, missing: str = "—") -> str:
    """Two decimals; ``missing`` when there is no value; never '-0.00' (a value that rounds to
    zero has no sign: κ -0.00 read as a negative agreement)."""
    if value is None:
        return missing
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text


def cell(value: object) -> str:
    """A table cell of the report: a float with two decimals (sign kept, as the report always
    wrote it), no value as "—", anything else as its text."""
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)
