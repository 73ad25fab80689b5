"""What a scoring pass writes (engine/scoring/score.py): a trajectory's verdicts, answers,
retrievals, (claim, text) verdicts and score card, replacing an earlier pass with the same setup, and the pass's extras row
(trajectory ``''``: judge, answerer, modes, calls, similarity, reliability, audit)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlite_utils import Database

from seorap.engine.scoring import holding
from seorap.engine.scoring.judges import Judge
from seorap.engine.scoring.tables import now, row_id
from seorap.engine.store import compact
from seorap.engine.store.damage import stored_json
from seorap.engine.store.queries import holdings as stored_holdings
from seorap.engine.store.queries import scores as stored_scores
from seorap.engine.store.queries import verdicts as stored_verdicts

if TYPE_CHECKING:
    from seorap.engine.models.client import ModelClient
    from seorap.engine.scoring.answerers import Answerer
    from seorap.engine.scoring.audit import AuditFigures
    from seorap.engine.scoring.extrinsic import Asker
    from seorap.engine.scoring.intrinsic import ClaimJudging
    from seorap.engine.scoring.schema import SimilarityFigures


def save_trajectory(
    db: Database,
    run_id: str,
    trajectory_id: str,
    name: str,
    judge: Judge,
    verdicts: list[dict],
    asker: Asker,
    card: dict,
) -> None:
    created = now()
    key = dict(run_id=run_id, trajectory_id=trajectory_id, scoring=name)
    for table in ("verdicts", "answers", "retrievals"):
        stored_verdicts.delete_scored(db, table, run_id, name, trajectory_id)
    compact.insert(db, "verdicts", _verdict_rows(key, judge, verdicts, created), replace=True)
    compact.insert(
        db,
        "answers",
        [
            {
                **key,
                **r,
                "created_at": created,
                "id": row_id(
                    run_id, trajectory_id, name, r["kind"], r["source"], r["k"], r["item"]
                ),
            }
            for r in asker.answers
        ],
        replace=True,
    )
    compact.insert(
        db,
        "retrievals",
        [
            {
                **key,
                **r,
                "embedder": "",
                "id": row_id(run_id, trajectory_id, name, r["source"], r["item"]),
            }
            for r in asker.retrievals
        ],
        replace=True,
    )
    db.table("scores").insert(
        {**key, "card": json.dumps(card, ensure_ascii=False), "created_at": created}, replace=True
    )


def save_holdings(
    db: Database, run_id: str, trajectory_id: str, name: str, pairs: dict[tuple[str, str], bool]
) -> None:
    """The pass's (claim, text) verdicts of one trajectory, each with the rule that decided it
    (engine/scoring/holding.py), replacing the pass's earlier ones."""
    rows = [
        {
            "claim": claim,
            "text": text,
            "holds": held,
            "rules": holding.RULE,
        }
        for claim, text, held in holding.rows(pairs)
    ]
    stored_holdings.replace(db, run_id, trajectory_id, name, rows)


def trajectory_cards(db: Database, run_id: str, name: str) -> dict[str, dict]:
    return {
        trajectory_id: stored_json(card, "score card", run_id)
        for trajectory_id, card in stored_scores.cards_by_trajectory(db, run_id, name).items()
    }


def add_extra(db: Database, run_id: str, name: str, key: str, value: object) -> None:
    """Add one figure to the run's extras row (trajectory ''), written just before."""
    row = db.table("scores").get((run_id, "", name))
    extras = stored_json(row["card"], "score card", run_id, {})
    extras[key] = value
    stored_scores.set_card(db, run_id, "", name, json.dumps(extras, ensure_ascii=False))


def counters(client: ModelClient | None) -> dict:
    if client is None:
        return {"calls": 0, "cached": 0}
    return {"calls": client.stats.calls, "cached": client.stats.cached}


def save_run_extras(
    db: Database,
    run_id: str,
    name: str,
    judge: Judge,
    answerer: Answerer,
    client: ModelClient | None,
    before: dict,
    modes: Sequence[ClaimJudging],
    sim: SimilarityFigures | None = None,
    unreliable: str | None = None,
    audit: AuditFigures | None = None,
) -> None:
    after = counters(client)
    extras = {
        "judge": judge.name,
        "judge_rules": judge.rules,
        "answerer": answerer.name,
        "judge_prompt": getattr(judge, "prompt", None),
        "judge_modes": [m.setup for m in modes],
        "filter_threshold": next((m.threshold for m in modes if m.threshold is not None), None),
        "filter_auto": any(m.auto for m in modes),
        "scoring_calls": after["calls"] - before["calls"],
        "scoring_cached": after["cached"] - before["cached"],
        "similarity": None if sim is None else sim.model_dump(),
        "judge_unreliable": unreliable,
        "audit": None if audit is None else audit.model_dump(),
    }
    db.table("scores").insert(
        {
            "run_id": run_id,
            "trajectory_id": "",
            "scoring": name,
            "card": json.dumps(extras, ensure_ascii=False),
            "created_at": now(),
        },
        replace=True,
    )


def _verdict_rows(key: dict, judge: Judge, verdicts: list[dict], created: str) -> list[dict]:
    """The verdict rows of one trajectory, each with its judge and a stable id."""
    run_id, trajectory_id, name = key["run_id"], key["trajectory_id"], key["scoring"]
    return [
        {
            **key,
            **r,
            "judge": judge.name,
            "rules": judge.rules,
            "created_at": created,
            "id": row_id(
                run_id, trajectory_id, name, r["kind"], r["setup"], r["source"], r["k"], r["item"]
            ),
        }
        for r in verdicts
    ]
