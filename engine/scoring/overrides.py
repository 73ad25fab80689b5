"""Human overrides: a person overrules a verdict with a reason (SPEC §5.4).

An override never edits the verdict row: it is stored in ``overrides`` (who, when, why) and reports
show raw and overridden figures side by side. The latest override of a verdict wins.
"""

from __future__ import annotations

import getpass
import json
from pathlib import Path

from engine.scoring import metrics
from engine.scoring.extrinsic import TOP_K
from engine.scoring.stats import mean
from engine.scoring.tables import ensure_tables, now
from engine.scoring.verdict import SCORES

LABELS = ("YES", "PARTIAL", "NO")


def add_override(db, verdict_id: str, label: str, reason: str, who: str | None = None) -> dict:
    """Record an override; raises ValueError for an unknown verdict, label or an empty reason."""
    ensure_tables(db)
    if label not in LABELS:
        raise ValueError(f"label must be one of {', '.join(LABELS)}, not {label!r}")
    if not reason.strip():
        raise ValueError("an override needs a reason")
    rows = list(db.query("SELECT run_id FROM verdicts WHERE id = ?", [verdict_id]))
    if not rows:
        raise ValueError(f"no verdict with id {verdict_id!r}")
    row = {"verdict_id": verdict_id, "run_id": rows[0]["run_id"], "label": label, "reason": reason,
           "who": who or getpass.getuser(), "at": now()}
    db["overrides"].insert(row)
    return row


def load_file(db, path: str | Path) -> int:
    """Apply overrides from a JSON file: [{"verdict_id", "label", "reason", "who"?}, ...]."""
    items = json.loads(Path(path).read_text(encoding="utf-8"))
    for item in items:
        add_override(db, item["verdict_id"], item["label"], item["reason"], item.get("who"))
    return len(items)


def overrides_for(db, verdict_ids: list[str]) -> list[dict]:
    """Latest override per verdict among ``verdict_ids``."""
    ensure_tables(db)
    wanted = set(verdict_ids)
    latest: dict[str, dict] = {}
    for row in db.query("SELECT * FROM overrides ORDER BY id"):
        if row["verdict_id"] in wanted:
            latest[row["verdict_id"]] = row
    return list(latest.values())


def figures(verdicts: list[dict], labels: dict[str, str]) -> dict[str, tuple[float | None, float | None]]:
    """Per trajectory (intrinsic full, extrinsic compound) recomputed from verdict rows with the
    overriding labels applied (eq. 1-2 for intrinsic; mean compound memory score at top-5)."""
    by_traj: dict[str, list[dict]] = {}
    for v in verdicts:
        by_traj.setdefault(v["trajectory_id"], []).append(v)
    out = {}
    for tid, rows in by_traj.items():
        def score(v):
            return SCORES[labels[v["id"]]] if v["id"] in labels else v["score"]
        claims = [v for v in rows if v["kind"] == "claim" and v["setup"] == "full"]
        states = sorted({v["state_index"] for v in claims})
        intrinsic = metrics.fact_accuracy(
            [metrics.coverage([score(v) for v in claims if v["state_index"] == s]) for s in states])
        extrinsic = mean([score(v) for v in rows if v["kind"] == "compound" and v["source"] == "memory"
                          and v["k"] == TOP_K])
        out[tid] = (intrinsic, extrinsic)
    return out
