"""Re-scoring diff: compare two judging setups (or two runs) verdict by verdict (docs/metrics.md).

A *side* of a comparison is a run plus a setup spec (``parse_setup``):

- ``full`` / ``filter``: the claim verdicts of that candidate mode in the run's latest scoring;
- ``NAME``: every verdict of scoring setup NAME (claims in both modes and all answers);
- ``NAME:full`` / ``NAME:filter``: the claim verdicts of that mode in scoring NAME.

Verdicts are matched on (trajectory, kind, candidate mode, source, k, item); the item names the
state for claims (``s2/c0``). When one side is a single claim mode, the mode is left out of the key
so ``full`` can be matched with ``filter``. A matched pair is ``credited`` (newly credited: the
score went up), ``penalised`` (newly penalised: it went down), ``unchanged``, or ``unparseable``
(UNPARSEABLE on one side and not the other; both UNPARSEABLE is unchanged). Every verdict that moved
is listed with its claim or question text, not only the means.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from seorap.engine.errors import UsageError
from seorap.engine.store.queries import scores as stored_scores
from seorap.engine.store.queries import verdicts as stored_verdicts

CLAIM_MODES = ("full", "filter")
CLASSES = ("credited", "penalised", "unparseable", "unchanged")


def _key(v: dict) -> tuple:
    return (v["trajectory_id"], v["kind"], v.get("setup"), v["source"], v["k"], v["item"])


@dataclass
class Diff:
    credited: list[dict] = field(default_factory=list)
    """Newly credited: the score went up."""
    penalised: list[dict] = field(default_factory=list)
    """Newly penalised: the score went down."""
    unchanged: int = 0
    unparseable: int = 0
    unmatched: int = 0
    """Verdicts present on one side only."""
    moved_unparseable: list[dict] = field(default_factory=list)
    """Pairs where exactly one side is UNPARSEABLE."""
    same: list[dict] = field(default_factory=list)
    """The unchanged pairs (listed on request)."""

    def counts(self) -> dict[str, int]:
        return {
            "credited": len(self.credited),
            "penalised": len(self.penalised),
            "unchanged": self.unchanged,
            "unparseable": self.unparseable,
            "unmatched": self.unmatched,
        }

    def moved(self) -> list[dict]:
        """Every verdict that moved: credited, then penalised, then to/from UNPARSEABLE."""
        return self.credited + self.penalised + self.moved_unparseable


def diff_verdicts(before: list[dict], after: list[dict]) -> Diff:
    old = {_key(v): v for v in before}
    out = Diff()
    for v in after:
        prev = old.pop(_key(v), None)
        if prev is None:
            out.unmatched += 1
        elif prev["score"] is None and v["score"] is None:
            out.unchanged += 1
            out.same.append(_moved(prev, v, "unchanged"))
        elif prev["score"] is None or v["score"] is None:
            out.unparseable += 1
            out.moved_unparseable.append(_moved(prev, v, "unparseable"))
        elif v["score"] > prev["score"]:
            out.credited.append(_moved(prev, v, "credited"))
        elif v["score"] < prev["score"]:
            out.penalised.append(_moved(prev, v, "penalised"))
        else:
            out.unchanged += 1
            out.same.append(_moved(prev, v, "unchanged"))
    out.unmatched += len(old)
    return out


def _moved(prev: dict, v: dict, change: str) -> dict:
    claim = v["kind"] == "claim"
    return {
        "change": change,
        "trajectory_id": v["trajectory_id"],
        "kind": v["kind"],
        "item": v["item"],
        "state_index": v.get("state_index"),
        "setup": v.get("setup"),
        "source": v["source"],
        "k": v["k"],
        "text": v["expected"] if claim else v["question"],
        "question": v.get("question") or "",
        "expected": v["expected"],
        "from": prev["label"],
        "to": v["label"],
        "rationale_before": prev["rationale"],
        "rationale_after": v["rationale"],
    }


def select(
    db: Database, run_id: str, scoring: str | None, *, setup: str | None = None
) -> list[dict]:
    """Verdict rows of one run and scoring; with ``setup`` only the claims of that candidate mode,
    their mode blanked so that they match the claims of another mode."""
    rows = stored_verdicts.select(db, run_id, scoring, setup)
    if setup is not None:
        for r in rows:
            r["setup"] = "*"
    return rows


def full_vs_filter(db: Database, run_id: str, scoring: str) -> Diff:
    """How the similarity filter moves the claim verdicts of one store."""
    return diff_verdicts(
        select(db, run_id, scoring, setup="full"), select(db, run_id, scoring, setup="filter")
    )


# ---- sides of a comparison ------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    run_id: str
    scoring: str | None
    """None only when the run's scores hold no trajectory row (nothing was written)."""
    mode: str | None = None
    """``full`` / ``filter`` for claims of one mode; None for every verdict of the scoring."""

    @property
    def label(self) -> str:
        return f"{self.run_id} · {self.scoring}" + (f":{self.mode}" if self.mode else "")


def latest_scoring(db: Database, run_id: str) -> str | None:
    return stored_scores.latest_scoring(db, run_id)


def scorings_of(db: Database, run_id: str) -> list[str]:
    return stored_scores.scorings(db, [run_id])


def parse_setup(db: Database, run_id: str, spec: str | None) -> Side:
    """Resolve a setup spec (module docstring) for a run; ValueError naming the setups on a miss."""
    known = scorings_of(db, run_id)
    if not known:
        raise UsageError(
            f"run {run_id!r} has no scoring: run `seorap score --db FILE --run {run_id}` first"
        )
    if spec is None:
        return Side(run_id, latest_scoring(db, run_id))
    if spec in CLAIM_MODES:
        return Side(run_id, latest_scoring(db, run_id), spec)
    name, mode = spec, None
    head, _, tail = spec.rpartition(":")
    if head and tail in CLAIM_MODES:
        name, mode = head, tail
    if name not in known:
        raise UsageError(
            f"run {run_id!r} has no scoring setup {name!r}; it has: {', '.join(known)}"
        )
    return Side(run_id, name, mode)


def side_verdicts(db: Database, side: Side, *, blank_mode: bool) -> list[dict]:
    rows = select(db, side.run_id, side.scoring, setup=side.mode)
    if blank_mode and side.mode is None:
        rows = [{**r, "setup": "*"} for r in rows if r["kind"] == "claim"]
    return rows


def compare(db: Database, a: Side, b: Side, *, kind: str = "all") -> Diff:
    """Diff side ``a`` -> side ``b``; ``kind`` keeps only claims, only questions, or all."""
    blank = a.mode is not None or b.mode is not None
    before, after = side_verdicts(db, a, blank_mode=blank), side_verdicts(db, b, blank_mode=blank)
    if kind != "all":
        want: Callable[[dict[str, Any]], bool] = (
            (lambda v: v["kind"] == "claim")
            if kind == "claim"
            else (lambda v: v["kind"] != "claim")
        )
        before, after = [v for v in before if want(v)], [v for v in after if want(v)]
    return diff_verdicts(before, after)
