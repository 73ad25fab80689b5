"""Human overrides: a person overrules a verdict with a reason (docs/metrics.md).

An override never edits the verdict row: it is stored in ``overrides`` (who, when, why) and reports
show raw and overridden figures side by side. The latest override of a verdict wins.
"""

from __future__ import annotations

import getpass
import json
import os
from pathlib import Path
from typing import Any, cast

from sqlite_utils import Database

from seorap.engine.errors import InputProblems, UsageError, why
from seorap.engine.scoring import metrics
from seorap.engine.scoring.extrinsic import TOP_K
from seorap.engine.scoring.rulers import latest_scoring
from seorap.engine.scoring.stats import mean
from seorap.engine.scoring.tables import drop_figures, ensure_tables, now
from seorap.engine.scoring.verdict import SCORES
from seorap.engine.store.queries import verdicts as stored_verdicts
from seorap.engine.store.txn import checked

LABELS = ("YES", "PARTIAL", "NO")


def add_override(
    db: Database, verdict_id: str, label: str, reason: str, who: str | None = None
) -> dict:
    """Record an override; raises ValueError for an unknown verdict, label or an empty reason."""
    ensure_tables(db)
    if label not in LABELS:
        raise UsageError(f"label must be one of {', '.join(LABELS)}, not {label!r}")
    if not reason.strip():
        raise UsageError("an override needs a reason")
    run_id = stored_verdicts.verdict_run(db, verdict_id)
    if run_id is None:
        raise UsageError(f"no verdict with id {verdict_id!r}")
    row = {
        "verdict_id": verdict_id,
        "run_id": run_id,
        "label": label,
        "reason": reason,
        "who": who or default_who(),
        "at": now(),
    }
    with checked(db):  # both at once, under the writer lease when one is held
        db.table("overrides").insert(row)
        drop_figures(db, row["run_id"])  # the figures stored at score time no longer hold
    return row


def default_who() -> str:
    """``$USER``, else the login name."""
    return os.environ.get("USER") or getpass.getuser()


def find_verdict(
    db: Database,
    run_id: str,
    kind: str,
    trajectory_id: str,
    item: str,
    *,
    scoring: str | None = None,
    setup: str = "full",
    source: str = "memory",
    k: int | None = 5,
    state: int | None = None,
) -> dict:
    """The verdict row a person means: ``kind`` claim (``item`` = ``s2/c0`` or the claim text, mode
    ``setup``) or question (``item`` = ``compound/0``, ``single/1`` or the question text, answer
    ``source`` at depth ``k``; k is ignored for the baselines), in ``scoring`` (default: the run's
    latest). ValueError with the candidates when nothing or more than one row matches."""

    ensure_tables(db)
    scoring = scoring or latest_scoring(db, run_id)
    if scoring is None:
        raise UsageError(f"run {run_id!r} is not scored")
    if kind not in ("claim", "question"):
        raise UsageError(f"kind must be claim or question, not {kind!r}")
    rows = stored_verdicts.matching_verdicts(
        db,
        run_id,
        trajectory_id,
        scoring,
        item,
        claim=kind == "claim",
        setup=setup,
        source=source,
        k=k,
        state=state,
    )
    if len(rows) == 1:
        return rows[0]
    if not rows:
        raise UsageError(f"no {kind} verdict {item!r} for {trajectory_id} in {run_id} ({scoring})")
    items = ", ".join(r["item"] for r in rows)
    raise UsageError(f"{item!r} matches several verdicts ({items}): give the item id or --state")


def load_file(db: Database, path: str | Path) -> int:
    """Apply overrides from a JSON file: [{"verdict_id", "label", "reason", "who"?}, ...]."""

    try:
        with open(path, "rb") as fh:
            raw = fh.read(16 * 1024 * 1024 + 1)
        items = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:  # JSON and UTF-8 errors are ValueErrors
        detail = why(exc) if isinstance(exc, OSError) else type(exc).__name__
        raise InputProblems(
            f"{path}: not a readable JSON list of overrides ({detail}: {exc})"
        ) from None
    if (
        len(raw) > 16 * 1024 * 1024
        or not isinstance(items, list)
        or not all(
            isinstance(i, dict) and {"verdict_id", "label", "reason"} <= set(i) for i in items
        )
    ):
        raise InputProblems(
            f"{path}: expected a JSON list of {{verdict_id, label, reason, who?}} objects"
        )
    for item in items:
        add_override(db, item["verdict_id"], item["label"], item["reason"], item.get("who"))
    return len(items)


def overrides_for(db: Database, verdict_ids: list[str]) -> list[dict]:
    """Latest override per verdict among ``verdict_ids``."""
    ensure_tables(db)
    wanted = set(verdict_ids)
    latest: dict[str, dict] = {}
    for row in stored_verdicts.all_overrides(db):
        if row["verdict_id"] in wanted:
            latest[row["verdict_id"]] = row
    return list(latest.values())


def figures(
    verdicts: list[dict], labels: dict[str, str]
) -> dict[str, tuple[float | None, float | None]]:
    """Per trajectory (intrinsic full, extrinsic compound) recomputed from verdict rows with the
    overriding labels applied (eq. 1-2 for intrinsic; mean compound memory score at top-5)."""
    by_traj: dict[str, list[dict]] = {}
    for v in verdicts:
        by_traj.setdefault(v["trajectory_id"], []).append(v)
    out = {}
    for tid, rows in by_traj.items():

        def score(v: dict[str, Any]) -> float | None:
            return SCORES[labels[v["id"]]] if v["id"] in labels else cast(float | None, v["score"])

        claims = [v for v in rows if v["kind"] == "claim" and v["setup"] == "full"]
        states = sorted({v["state_index"] for v in claims})
        intrinsic = metrics.fact_accuracy(
            [metrics.coverage([score(v) for v in claims if v["state_index"] == s]) for s in states]
        )
        extrinsic = mean(
            [
                score(v)
                for v in rows
                if v["kind"] == "compound" and v["source"] == "memory" and v["k"] == TOP_K
            ]
        )
        out[tid] = (intrinsic, extrinsic)
    return out
