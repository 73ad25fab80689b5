"""How a figure (a score, a rate, a statistic) is written as text, everywhere: the report, the
app, the CLI and the engine's own sentences."""

from __future__ import annotations

from typing import Protocol


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


class _Interval(Protocol):
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    n: int | None
    method: str


def interval(iv: _Interval | None, *, short: bool = False) -> str:
    """A figure with its interval, one wording for the report and the app: ``0.50 [0.25, 0.75]``
    (95% bootstrap CI) or, for a group below 5 trajectories where a percentile CI would mean
    little, ``0.50 (range 0.25–0.75, n=3)``; "—" for no value. ``short``, for the app's narrow
    panes that print n beside the figure: a range as ``0.50 (0.25–0.75)`` (parentheses, not
    brackets, still tell it from a CI)."""
    if iv is None or iv.mean is None:
        return "—"
    if iv.method == "range":
        if iv.ci_low is None:
            return f"{figure(iv.mean)} (n={iv.n})"
        low_high = f"{figure(iv.ci_low)}–{figure(iv.ci_high)}"
        return (
            f"{figure(iv.mean)} ({low_high})"
            if short
            else f"{figure(iv.mean)} (range {low_high}, n={iv.n})"
        )
    if iv.ci_low is None:
        return figure(iv.mean)
    return f"{figure(iv.mean)} [{figure(iv.ci_low)}, {figure(iv.ci_high)}]"
