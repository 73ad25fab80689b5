"""The ``holdings`` table: every (claim, text) verdict a scoring pass decided — does the text state
the claim — with the rule that decided it (engine/scoring/holding.py; docs/store.md). The claim and
the text are stored as ids of ``texts`` (engine/store/compact.py), where the facts and verdicts keep
them already."""

from __future__ import annotations

import json
import zlib

from sqlite_utils import Database

from seorap.engine.store import damage
from seorap.engine.store.compact import text_id, unzip
from seorap.engine.store.queries.catalog import readable_names
from seorap.engine.store.txn import checked
from seorap.engine.untrusted import visible

TABLE = "holdings"


def _pack(rows: list[tuple[int, int, int, str]]) -> bytes:
    rules = sorted({r[3] for r in rows})
    at = {name: n for n, name in enumerate(rules)}
    body = {"rules": rules, "pairs": [[c, t, h, at[r]] for c, t, h, r in rows]}
    return zlib.compress(json.dumps(body, separators=(",", ":")).encode("utf-8"), 9)


def _unpack(blob: bytes, run_id: str) -> list[tuple[int, int, int, str]]:
    """The pass's pairs; a damaged row names the run (engine/store/damage.py)."""
    text = unzip(blob, run_id) or "{}"
    try:
        body = json.loads(text)
        rules = body["rules"]
        return [(int(c), int(t), int(h), str(rules[r])) for c, t, h, r in body["pairs"]]
    except (ValueError, KeyError, TypeError, IndexError):
        raise damage.DamagedRow(
            f"the stored verdicts (holdings) of run {visible(run_id)} are damaged"
        ) from None


def replace(
    db: Database,
    run_id: str,
    trajectory_id: str,
    scoring: str,
    rows: list[dict],
) -> None:
    """One trajectory's verdicts of one scoring pass ({claim, text, holds, rules} each),
    replacing the pass's earlier ones (the caller's transaction, or a checked write of its own,
    holds the writer lease)."""
    packed = [
        (text_id(db, r["claim"]), text_id(db, r["text"]), int(r["holds"]), str(r["rules"]))
        for r in rows
    ]
    _write(db, run_id, trajectory_id, scoring, packed)


def _write(db: Database, run_id: str, trajectory_id: str, scoring: str, rows: list) -> None:
    with checked(db):
        db.execute(
            "INSERT OR REPLACE INTO holdings (run_id, trajectory_id, scoring, pairs) "
            "VALUES (?, ?, ?, ?)",
            [run_id, trajectory_id, scoring, _pack(rows)],
        )


def _pairs(db: Database, run_id: str, trajectory_id: str, scoring: str) -> list:
    row = db.execute(
        "SELECT pairs FROM holdings WHERE run_id=? AND trajectory_id=? AND scoring=?",
        [run_id, trajectory_id, scoring],
    ).fetchone()
    return [] if row is None else _unpack(row[0], run_id)


def _texts(db: Database, ids: set[int]) -> dict[int, str]:
    out: dict[int, str] = {}
    wanted = sorted(ids)
    for at in range(0, len(wanted), 500):
        part = wanted[at : at + 500]
        marks = ",".join("?" * len(part))
        out.update(db.execute(f"SELECT id, text FROM texts WHERE id IN ({marks})", part).fetchall())
    return out


def of_trajectory(db: Database, run_id: str, trajectory_id: str, scoring: str) -> list[dict]:
    """(claim, text, holds, rules) of one trajectory under one scoring pass, in one query; empty
    when none are stored or the file has no such table."""
    if TABLE not in readable_names(db):
        return []
    pairs = _pairs(db, run_id, trajectory_id, scoring)
    texts = _texts(db, {c for c, _, _, _ in pairs} | {t for _, t, _, _ in pairs})
    return [
        {"claim": texts.get(c, ""), "text": texts.get(t, ""), "holds": h, "rules": r}
        for c, t, h, r in pairs
    ]


def pass_stored(db: Database, run_id: str, scoring: str) -> bool:
    """The scoring pass stored verdicts for some trajectory of the run (a pass made before the
    table existed stored none)."""
    if TABLE not in readable_names(db):
        return False
    row = db.execute(
        "SELECT 1 FROM holdings WHERE run_id=? AND scoring=? LIMIT 1", [run_id, scoring]
    ).fetchone()
    return row is not None


def set_holds(
    db: Database, run_id: str, trajectory_id: str, scoring: str, claim: str, text: str, holds: bool
) -> int:
    """Change one stored verdict; returns the rows changed. For the tests that alter a stored
    verdict and check that every view follows it (tests/test_views_one_verdict.py)."""
    pairs = _pairs(db, run_id, trajectory_id, scoring)
    texts = _texts(db, {c for c, _, _, _ in pairs} | {t for _, t, _, _ in pairs})
    changed = 0
    for n, (c, t, _old, r) in enumerate(pairs):
        if texts.get(c) == claim and texts.get(t) == text:
            pairs[n] = (c, t, int(holds), r)
            changed += 1
    if changed:
        _write(db, run_id, trajectory_id, scoring, pairs)
    return changed
