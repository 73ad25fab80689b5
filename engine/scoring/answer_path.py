"""Which read path answers a run's questions (docs/metrics.md#answer-read-path).

A system that declares its own search (``own_search``) is read through it, for the questions as
for read-time: after the trajectory's last document the run asked its search each question and
stored the hits (``question_lookups``, engine/run/readtime.py), because the system is not there
at score time. Here those hits become the memory ranking the answerer reads and the journey's
*retrieved* stage ranks (engine/scoring/extrinsic.py). Any other system is read through seorap's
hybrid retrieval over the facts it holds, at score time.

A run of an own-search system with no stored hits (a database older than the table, or a
trajectory whose last document was not written) reads n/a with the reason: never silently seorap's
retrieval in its place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlite_utils import Database

from seorap.engine.corpus import Trajectory
from seorap.engine.run.readtime import hit_texts
from seorap.engine.scoring.extrinsic import OURS, OWN, Ranked
from seorap.engine.store.damage import stored_json
from seorap.engine.store.queries.writes import question_lookups

NOT_TAKEN = "the system's own search was not asked the questions when this run was written; re-run"
"""Why memory answers of an own-search run read n/a when the run stored no hits (an older run)."""

NOT_REACHED = (
    "the run did not write the trajectory's last document, after which its own search is asked"
)
"""... when the trajectory is unfinished (the questions are asked after its last document)."""


@dataclass(frozen=True)
class OwnRankings:
    """A trajectory's questions as the system's own search ranked them."""

    rankings: dict[tuple[str, str], list[Ranked]] = field(default_factory=dict)
    """(kind, item) -> the hits, best first."""
    na: str | None = None
    """Why none is there (then ``rankings`` is empty)."""
    missing: str = NOT_TAKEN
    """Why a question absent from ``rankings`` is n/a."""


def declares_own_search(db: Database, run_id: str) -> bool:
    """The run's system declared its own search (its manifest's capabilities)."""
    row = db.table("runs").get(run_id)
    manifest = stored_json(row.get("manifest"), "manifest", run_id, {})
    caps = manifest.get("capabilities") if isinstance(manifest, dict) else None
    return bool(isinstance(caps, dict) and caps.get("own_search"))


def load(
    db: Database, run_id: str, trajectory: Trajectory, final_position: int | None
) -> OwnRankings | None:
    """The stored own-search hits of each question of ``trajectory``, with their texts as the
    system held them then; None for a system read through seorap's retrieval."""
    if not declares_own_search(db, run_id):
        return None
    arrivals = list(trajectory.arrivals())
    if not arrivals or final_position != arrivals[-1].position:
        return OwnRankings(na=NOT_REACHED, missing=NOT_REACHED)
    rows = question_lookups(db, run_id, trajectory.id)
    if not rows:
        return OwnRankings(na=NOT_TAKEN)
    texts: dict[str, str] = {}
    rankings = {}
    for row in rows.values():
        if not texts:
            texts = hit_texts(db, run_id, trajectory.id, row["position"])
        hits = json.loads(row["hits"] or "[]")
        rankings[(row["kind"], row["item"])] = [
            Ranked(h["id"], texts.get(h["id"], ""), float(h["score"]), int(h.get("recency") or 0))
            for h in hits
        ]
    return OwnRankings(rankings)


def fields(cards: dict[str, dict]) -> dict[str, str | None]:
    """The report's ``answer_path`` (the read paths of the trajectories' memory answers) and
    ``answer_path_na`` (why they are n/a, None when they are not), from the score cards; empty
    for a scoring pass made before."""
    blocks = [c.get("extrinsic") or {} for c in cards.values()]
    paths = sorted({b["read_path"] for b in blocks if b.get("read_path")})
    why = next((b["read_path_na"] for b in blocks if b.get("read_path_na")), None)
    return {"answer_path": ", ".join(paths), "answer_path_na": why}


def lines(path: str, why: str | None) -> list[str]:
    """The report's line saying which read path answered (text, Markdown, the terminal)."""
    if not path:
        return []
    said = {OWN: "own search (the system's)", OURS: "hybrid (seorap's over its facts)"}
    text = f"memory answers and the journey's retrieved stage read through: {said.get(path, path)}"
    return [text + (f" · n/a ({why})" if why else "")]


def csv_fields(path: str, why: str | None) -> dict[str, str | None]:
    """The same, as the run-level CSV columns."""
    return {"run_answer_path": path, "run_answer_path_na": why}
