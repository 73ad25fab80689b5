"""The ``scores`` table: one score card per (run, trajectory, scoring setup); trajectory ``''`` holds
the run's own card."""

from __future__ import annotations

from collections.abc import Sequence

from sqlite_utils import Database


def scorings(db: Database, run_ids: Sequence[str] = ()) -> list[str]:
    """The scoring setups stored (for these runs, when given), sorted."""
    where = f" WHERE run_id IN ({', '.join('?' for _ in run_ids)})" if run_ids else ""
    return [
        r["scoring"]
        for r in db.query(
            f"SELECT DISTINCT scoring FROM scores{where} ORDER BY scoring", list(run_ids)
        )
    ]
