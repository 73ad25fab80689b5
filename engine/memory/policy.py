"""Pure rules of the write path: the temporal guard and the confidence designs
(docs/design.md#the-memory-system)."""

from __future__ import annotations

from seorap.engine.corpus import parse_timestamp
from seorap.engine.errors import UsageError

CHANGING = ("update", "supersede")


def is_older(observation_date: str, fact_date: str) -> bool:
    return parse_timestamp(observation_date) < parse_timestamp(fact_date)


def apply_guard(
    mode: str, operation: str, observation_date: str, fact_date: str | None
) -> tuple[str, str]:
    """(operation after the guard, what it changed or "").

    off: nothing. downgrade (the paper): an observation dated before the fact's last change turns
    update/supersede into reinforce. merge (ours): it becomes ``merge`` — the observation's detail is
    appended to the fact, the current value is kept, the fact is never superseded.
    """
    if mode == "off" or operation not in CHANGING or fact_date is None:
        return operation, ""
    if not is_older(observation_date, fact_date):
        return operation, ""
    why = f"observation dated {observation_date} is older than the fact's last change {fact_date}"
    if mode == "downgrade":
        return "reinforce", f"downgrade: {operation} → reinforce ({why})"
    if mode == "merge":
        return "merge", f"merge: {operation} → detail added, value kept ({why})"
    raise UsageError(f"unknown guard {mode!r}: use off, downgrade or merge")


def reinforced_confidence(
    design: str, current: float, step: float, author: str, authors: list[str]
) -> float:
    """paper: +step (cap 1). authors: +step only when ``author`` has not supported the fact yet."""
    if design == "paper" or (design == "authors" and author not in authors):
        return min(1.0, current + step)
    if design == "authors":
        return current
    raise UsageError(f"unknown confidence design {design!r}: use paper or authors")


def merged_text(current: str, detail: str, date: str) -> str:
    """The merge guard's text: the current value first, the older detail after it, dated."""
    return f"{current} (참고, {date} 기록: {detail})"
