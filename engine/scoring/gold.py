"""What contested gold does to a run's headline figures (docs/metrics.md#gold-ledger).

For each headline figure — intrinsic (full, filter) and extrinsic (compound, single) — three
values, each per trajectory from the stored verdicts (the formulas of eq. 1-2 and the mean answer
score at top-5) and then averaged over trajectories like the headline itself:

- **with** the contested items: the figure as scored;
- **without** them: the contested claims (every state where the claim is expected) and questions
  left out of the trajectory's figure;
- the **ceiling**: the figure of a system right on every item when the contested items count as
  wrong (score 1 for every other verdict, 0 for a contested one), over the same verdicts.

A figure above its ceiling is flagged: the system was credited on gold a person says is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Unpack

from sqlite_utils import Database

from seorap.engine.corpus import Corpus
from seorap.engine.corpus.gold import Contest, contest, default_ledger
from seorap.engine.errors import UsageError
from seorap.engine.scoring import metrics, stats
from seorap.engine.scoring.extrinsic import TOP_K
from seorap.engine.scoring.schema import GoldFigure, GoldFigures
from seorap.engine.scoring.schema_trajectory import Interval
from seorap.engine.scoring.tables import drop_figures
from seorap.engine.store import gold as store
from seorap.engine.store.database import db_file

FIGURES = ("intrinsic", "intrinsic_filter", "extrinsic", "extrinsic_single")


def contested_keys(contests: Iterable) -> dict[str, dict[str, set[str]]]:
    """{trajectory: {"claim": claim texts, "question": question items}} of the contests."""
    out: dict[str, dict[str, set[str]]] = {}
    for c in contests:
        group = out.setdefault(c.trajectory, {"claim": set(), "question": set()})
        group[c.kind].add(c.text if c.kind == "claim" else c.item)
    return out


def is_contested(row: dict, keys: dict[str, set[str]]) -> bool:
    if row["kind"] == "claim":
        return row["expected"] in keys["claim"]
    return row["item"] in keys["question"]


def _intrinsic(rows: Sequence[dict], score: Callable[[dict], float | None]) -> float | None:
    states = sorted({r["state_index"] for r in rows})
    return metrics.fact_accuracy(
        [metrics.coverage([score(r) for r in rows if r["state_index"] == s]) for s in states]
    )


def _rows(rows: Sequence[dict], figure: str) -> list[dict]:
    if figure.startswith("intrinsic"):
        setup = "filter" if figure == "intrinsic_filter" else "full"
        return [r for r in rows if r["kind"] == "claim" and r["setup"] == setup]
    kind = "single" if figure == "extrinsic_single" else "compound"
    return [r for r in rows if r["kind"] == kind and r["source"] == "memory" and r["k"] == TOP_K]


def _figure(
    rows: Sequence[dict], figure: str, score: Callable[[dict], float | None]
) -> float | None:
    if figure.startswith("intrinsic"):
        return _intrinsic(rows, score)
    return stats.mean([score(r) for r in rows])


def trajectory_figures(
    rows: Sequence[dict], keys: dict[str, set[str]] | None
) -> dict[str, dict[str, float | None]]:
    """Per figure of one trajectory: with, without and ceiling (see the module docstring)."""
    keys = keys or {"claim": set(), "question": set()}
    out = {}
    for figure in FIGURES:
        mine = _rows(rows, figure)
        kept = [r for r in mine if not is_contested(r, keys)]
        out[figure] = {
            "with": _figure(mine, figure, lambda r: r["score"]),
            "without": _figure(kept, figure, lambda r: r["score"]),
            "ceiling": _figure(mine, figure, lambda r: 0.0 if is_contested(r, keys) else 1.0),
        }
    return out


def _above(value: float | None, ceiling: float | None) -> bool:
    return value is not None and ceiling is not None and stats.above(value, ceiling)


def _iv(ci: stats.Interval) -> Interval:
    return Interval(mean=ci.estimate, ci_low=ci.low, ci_high=ci.high, method=ci.method, n=ci.n)


def gold_figures(
    verdicts: Sequence[dict],
    contests: Sequence[Contest],
    ledger: str = "",
    **boot: Unpack[stats.Boot],
) -> GoldFigures | None:
    """The run's gold block from its verdict rows and the contests in force for its corpus; None
    when nothing is contested."""
    if not contests:
        return None
    keys = contested_keys(contests)
    by_traj: dict[str, list[dict]] = {}
    for v in verdicts:
        by_traj.setdefault(v["trajectory_id"], []).append(v)
    per = {tid: trajectory_figures(rows, keys.get(tid)) for tid, rows in sorted(by_traj.items())}
    figures = {}
    for figure in FIGURES:
        with_ = stats.group_mean([p[figure]["with"] for p in per.values()], **boot)
        without = stats.group_mean([p[figure]["without"] for p in per.values()], **boot)
        ceiling = stats.mean([p[figure]["ceiling"] for p in per.values()])
        figures[figure] = GoldFigure(
            with_contested=_iv(with_),
            without_contested=_iv(without),
            ceiling=ceiling,
            above_ceiling=_above(with_.estimate, ceiling),
            trajectories_above=[
                tid for tid, p in per.items() if _above(p[figure]["with"], p[figure]["ceiling"])
            ],
        )
    listed = [
        {
            "trajectory": c.trajectory,
            "item": c.item,
            "kind": c.kind,
            "text": c.text,
            "reason": c.reason,
            "who": c.who,
            "at": c.at,
        }
        for c in contests
    ]
    return GoldFigures(
        ledger=ledger,
        contested=listed,
        figures=figures,
        by_trajectory={tid: per[tid] for tid in keys if tid in per},
    )


LABELS = {
    "intrinsic": "intrinsic full",
    "intrinsic_filter": "intrinsic filter",
    "extrinsic": "extrinsic compound",
    "extrinsic_single": "extrinsic single",
}


def gold_lines(
    gold: GoldFigures | None,
    ci: Callable[[Interval], str],
    fmt: Callable[[float | None], str],
    mark: str = "",
) -> list[str]:
    """The gold block as text: one line naming the contested items, one per figure with its value
    with and without them, its ceiling and a flag when it is above; ``mark`` ends each figure's
    line (' [unreliable ruler]' under an unreliable judge: engine/scoring/ruler_marks.py)."""
    if gold is None:
        return []
    if gold.problem:
        return [
            f"gold: the ledger {gold.ledger} cannot be read, figures without it ({gold.problem})"
        ]
    items = ", ".join(f"{c['trajectory']} {c['item']}" for c in gold.contested)
    lines = [f"gold: {len(gold.contested)} contested ({items}) · ledger {gold.ledger or '—'}"]
    for name, f in gold.figures.items():
        flag = " ⚠ ABOVE CEILING (credited on contested gold)" if f.above_ceiling else ""
        if f.trajectories_above:
            flag += f" · above its own ceiling in {', '.join(f.trajectories_above)}"
        lines.append(
            f"  {LABELS[name]}: {ci(f.with_contested)} with contested · "
            f"{ci(f.without_contested)} without · ceiling {fmt(f.ceiling)}{flag}{mark}"
        )
    return lines


def record_contest(
    db: Database,
    corpus: Corpus,
    trajectory_id: str,
    item: str,
    reason: str,
    ledger: Any = None,  # str | Path | None; Any while tui/overrides.py passes **dict[str, object]
    **kw: Any,
) -> Contest:
    """Contest one item (engine/corpus/gold.py ``contest``; ``withdrawn=True``: withdraw its
    contest) in the ledger beside ``db`` (or ``ledger``) and forget the figures stored at score
    time for the corpus's runs in ``db``, so that a report or the app computes them again from the
    ledger. The caller holds the writer lease of ``db``. Returns the Contest; UsageError when ``db``
    is in memory and no ledger is named, or for what ``contest`` refuses."""

    beside = db_file(db)
    path = ledger if ledger is not None else default_ledger(beside) if beside else None
    if path is None:
        raise UsageError("an in-memory database has no gold ledger beside it (name one)")
    entry = contest(corpus, trajectory_id, item, reason, path, **kw)
    for r in store.runs_of_corpus(db, corpus.digest):
        drop_figures(db, r["run_id"])
    return entry
