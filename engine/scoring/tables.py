"""Tables the scorer adds to the run database (schema in docs/report.md, "Stored tables").

- ``verdicts``: every judged item (claim in a state, or an answer), with label, score, rationale
  and ``rules``: the judge's rules version (lexical) or prompt version (model) that produced it.
- ``answers``: every answer given (question, source, k, answerer, context ids).
- ``retrievals``: the full ranking for each question (BM25, dense, hybrid, rank per candidate) and
  which candidates hold the answer.
- ``overrides``: a person's verdict overrides (who / when / why).
- ``scores``: one score card (JSON) per run x trajectory x scoring setup; trajectory ``""`` holds the
  run-level extras (call counters of the scoring pass).
- ``holdings``: per run x trajectory x scoring setup, every (claim, text) verdict the pass decided
  (does the text state the claim; engine/scoring/holding.py) with its rule name: what the views read.
  One row a pass: ``pairs`` is zlib-compressed JSON, ``{"rules": [names], "pairs": [[claim id,
  text id, holds, rule index], …]}``, the ids those of the store's ``texts`` (a row a pair took
  7 MB on the bundled A/B/C run, half the whole store).
- ``score_figures``: per run x scoring setup, the figures the app shows (the run report with its
  bootstrap intervals, the full -> filter diff), computed once at score time
  so that no key press in the app computes them.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

from sqlite_utils import Database

from seorap.engine.store import compact, compact_layout
from seorap.engine.store.connstate import state
from seorap.engine.store.queries.scores import delete_figures, scorings_by_recency
from seorap.engine.store.txn import checked

TABLES: dict[str, tuple[dict[str, type], str | tuple[str, ...]]] = {
    "verdicts": (
        {
            "id": str,
            "run_id": str,
            "trajectory_id": str,
            "scoring": str,
            "judge": str,
            "setup": str,
            "kind": str,
            "source": str,
            "k": int,
            "state_index": int,
            "item": str,
            "question": str,
            "expected": str,
            "candidate": str,
            "label": str,
            "score": float,
            "rationale": str,
            "call_key": str,
            "cached": int,
            "created_at": str,
            "best_cosine": float,
            "best_fact": str,
            "rules": str,
        },
        "id",
    ),
    "answers": (
        {
            "id": str,
            "run_id": str,
            "trajectory_id": str,
            "scoring": str,
            "kind": str,
            "item": str,
            "source": str,
            "k": int,
            "answerer": str,
            "question": str,
            "answer": str,
            "context_ids": str,
            "created_at": str,
        },
        "id",
    ),
    "retrievals": (
        {
            "id": str,
            "run_id": str,
            "trajectory_id": str,
            "scoring": str,
            "kind": str,
            "item": str,
            "source": str,
            "question": str,
            "ranking": str,
            "answer_fact_ids": str,
            "embedder": str,
        },
        "id",
    ),
    "overrides": (
        {
            "id": int,
            "verdict_id": str,
            "run_id": str,
            "label": str,
            "reason": str,
            "who": str,
            "at": str,
        },
        "id",
    ),
    "scores": (
        {"run_id": str, "trajectory_id": str, "scoring": str, "card": str, "created_at": str},
        ("run_id", "trajectory_id", "scoring"),
    ),
    "score_figures": (
        {"run_id": str, "scoring": str, "kind": str, "figures": str, "created_at": str},
        ("run_id", "scoring", "kind"),
    ),
    "holdings": (
        {"run_id": str, "trajectory_id": str, "scoring": str, "pairs": bytes},
        ("run_id", "trajectory_id", "scoring"),
    ),
}

INDEXES = [
    ("verdicts", ["run_id", "trajectory_id", "scoring"]),
    ("answers", ["run_id", "trajectory_id"]),
    ("retrievals", ["run_id", "trajectory_id"]),
    ("overrides", ["verdict_id"]),
]


COMPACT = {"verdicts", "retrievals", "answers"}
"""Stored as ``<name>_data`` with texts referenced, behind a view of the name (engine/store/compact.py)."""


def ensure_tables(db: Database) -> None:
    if state(db).readonly:  # a read-only open: engine.store supplied what is missing
        return
    with checked(db):  # under the writer lease when one is held
        _ensure_tables(db)


def _ensure_tables(db: Database) -> None:
    for name, (columns, pk) in TABLES.items():
        if name in COMPACT:
            data = f"{name}_data"
            if not (
                compact.is_compact(db, name)
                and set(compact_layout.data_columns(name, columns))
                <= set(db.table(data).columns_dict)
            ):
                compact_layout.ensure(db, name, columns, pk, [c for t, c in INDEXES if t == name])
            continue
        db.table(name).create(columns, pk=pk, if_not_exists=True)
        have = set(db.table(name).columns_dict)
        for column, kind in columns.items():  # columns added later reach older files here
            if column not in have:
                db.table(name).add_column(column, kind)
    for table, cols in INDEXES:
        if table not in COMPACT:
            db.table(table).create_index(cols, if_not_exists=True)


def scorings(db: Database, run_id: str) -> list[str]:
    """Scoring setups stored for a run, most recent first."""
    return scorings_by_recency(db, run_id)


def row_id(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False, default=str).encode()).hexdigest()[
        :24
    ]


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def drop_figures(db: Database, run_id: str) -> None:
    """Forget a run's figures stored at score time (an override changed them)."""
    if "score_figures" in db.table_names():
        delete_figures(db, run_id)
