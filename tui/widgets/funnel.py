"""The claim funnel as a chart beside the score cards, and the contested gold under it
(docs/metrics.md#claim-journey, docs/metrics.md#gold-ledger).

One row per stage: a bar as long as the share of the claims the stage applies to that survive up
to it (eighth-cell blocks), the count and the share with its 95% CI. Under it, when the gold ledger
contests items of the run's corpus: each headline figure with and without them and its ceiling,
flagged when above. Plain Rich text built from the RunReport (no computing at draw time).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from seorap.engine import views
from seorap.engine.fmt import cell as fmt
from seorap.engine.scoring.gold import LABELS
from seorap.tui.text import ci, literal

if TYPE_CHECKING:
    from seorap.engine.scoring.schema import GoldFigures, JourneyFigures, RunReport

BAR = 20
"""Cells of a full bar (share 1)."""
EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(share: float | None, width: int = BAR) -> str:
    """``share`` of ``width`` cells in block characters, padded to ``width`` (empty for None)."""
    if share is None:
        return " " * width
    eighths = round(max(0.0, min(1.0, share)) * width * 8)
    full, rest = divmod(eighths, 8)
    out = "█" * full + (EIGHTHS[rest] if rest else "")
    return out.ljust(width)


def funnel_text(
    journey: JourneyFigures | None, width: int = BAR, unreliable: str | None = None
) -> Text:
    """The funnel chart of a run's ``journey`` block (empty for a run scored before the journey);
    ``unreliable``: why the run's judge is unreliable — the chart says so and names no loss point."""
    text = Text()
    if journey is None or not journey.stages:
        return text
    text.append("claim funnel", "bold")
    text.append(" — claims surviving each stage (95% CI)", "dim")
    if unreliable:
        text.append(" · unreliable ruler: read with the judge audit", "bold yellow")
    text.append("\n")
    name = max(len(s) for s in journey.stages)
    for stage, f in journey.stages.items():
        text.append(f"{stage:<{name}} ")
        if not f.n:
            text.append(f"{'n/a':<{width}}", "dim")
            text.append("\n")
            continue
        whole = f.survived == f.n
        text.append(bar(f.survived / f.n, width), "green" if whole else "yellow")
        text.append(f" {f.survived}/{f.n} ", "bold" if not whole else "")
        text.append(f"{ci(f.share)}\n", "dim")
    lost = ", ".join(f"{s} {n}" for s, n in journey.losses.items())
    if lost and not unreliable:
        text.append(f"lost at: {lost}\n", "dim")
    return text


def gold_text(gold: GoldFigures | None, mark: str = "") -> Text:
    """The contested gold: each headline figure with and without the contested items and its
    ceiling (empty when nothing is contested); ``mark`` after each figure under an unreliable
    judge (engine/scoring/ruler_marks.py)."""
    text = Text()
    if gold is None:
        return text
    if gold.problem:
        return literal(f"gold ledger unreadable: {gold.problem}\n", "red")
    text.append(f"gold: {len(gold.contested)} contested", "bold")
    text.append_text(literal(f" ({', '.join(c['item'] for c in gold.contested)})\n", "dim"))
    for key, f in gold.figures.items():
        text.append(
            f"{LABELS[key]}: {ci(f.with_contested)} · without {ci(f.without_contested)} · "
            f"ceiling {fmt(f.ceiling)}"
        )
        text.append(mark, "bold yellow")
        text.append(" ⚠ above ceiling\n" if f.above_ceiling else "\n", "bold red")
    return text


class Funnel(Static):
    """The funnel chart and the gold block of one RunReport."""

    DEFAULT_CSS = "Funnel { width: 1fr; height: auto; padding: 0 1; }"

    def show(self, report: RunReport) -> None:
        text = funnel_text(report.journey, unreliable=report.aggregate.judge_unreliable)
        text.append_text(gold_text(report.gold, views.ruler_mark(report)))
        self.update(text)
