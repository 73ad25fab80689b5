"""What happened in a run against a real model, from its database (docs/benchmarks.md, real model).

    python bench/real_run_summary.py RUN.db [RUN_ID]

Per role: calls, errors, replies cut at num_predict, loops stopped, tokens out, generation speed
(tokens out / seconds after the first chunk), the longest wait for a first chunk, the slowest call; then the write failures (partial ones: cut
extractions whose complete observations were kept) and the run's status and wall time; the
accounting's queued waits, template loops, ungrounded observations and learned slots.
"""

from __future__ import annotations

import sqlite3
import sys
from datetime import datetime


def summary(path: str, run_id: str | None = None) -> str:
    con = sqlite3.connect(path)
    con.row_factory = sqlite3.Row
    run = con.execute(
        "SELECT * FROM runs"
        + (" WHERE run_id = ?" if run_id else "")
        + " ORDER BY created_at LIMIT 1",
        [run_id] if run_id else [],
    ).fetchone()
    rid = run["run_id"]
    out = [f"run {rid}: {run['status']}" + (f" ({run['error']})" if run["error"] else "")]
    if run["finished_at"]:
        wall = (
            datetime.fromisoformat(run["finished_at"]) - datetime.fromisoformat(run["created_at"])
        ).total_seconds()
        out.append(f"wall time (write): {wall:.0f} s")
    out.append("role         calls errors cut loops tokens_out  tok/s  first_s(max)  slowest_s")
    for r in con.execute(
        "SELECT role, count(*) n, sum(error IS NOT NULL) errors, sum(done_reason='length') cut, "
        "sum(done_reason='loop') loops, sum(tokens_out) tout, "
        "sum(duration_ms - coalesce(first_token_ms, 0)) gen_ms, max(first_token_ms) first, "
        "max(duration_ms) slowest FROM calls WHERE run_id = ? GROUP BY role ORDER BY role",
        [rid],
    ):
        speed = r["tout"] / (r["gen_ms"] / 1000) if r["gen_ms"] else 0.0
        out.append(
            f"{r['role']:<12} {r['n']:>5} {r['errors']:>6} {r['cut']:>3} {r['loops']:>5} "
            f"{r['tout']:>10} {speed:>6.2f} {(r['first'] or 0) / 1000:>13.1f} "
            f"{r['slowest'] / 1000:>10.1f}"
        )
    docs = con.execute(
        "SELECT count(*), sum(observations) FROM documents WHERE run_id = ?", [rid]
    ).fetchone()
    out.append(f"documents written: {docs[0]}, observations: {docs[1] or 0}")
    for f in con.execute(
        "SELECT position, stage, partial, substr(reason, 1, 110) reason FROM "
        "write_failures WHERE run_id = ? ORDER BY position",
        [rid],
    ):
        out.append(
            f"  failure doc {f['position']} {f['stage']}{' (partial)' if f['partial'] else ''}: "
            f"{f['reason']}"
        )
    facts = con.execute(
        "SELECT count(*) FROM facts WHERE run_id = ? AND status = 'active'", [rid]
    ).fetchone()[0]
    out.append(f"active facts at the end: {facts}")
    out += _accounting(path, rid)
    return "\n".join(out)


def _accounting(path: str, rid: str) -> list[str]:
    """The counters of engine/run/accounting.py (queued, template loops, ungrounded, slots)."""
    from seorap.engine.run import accounting
    from seorap.engine.store.database import open_db

    acc = accounting.run_accounting(open_db(path), rid)
    out = []
    for r in acc.roles:
        out.append(
            f"{r.role}: queued behind our own {r.queued}, loops {r.loops} (template "
            f"{r.template_loops}), ungrounded {r.ungrounded}, salvaged {r.salvaged}"
        )
    out.append("learned slots: " + (", ".join(f"{h} {n}" for h, n in acc.slots.items()) or "none"))
    return out


if __name__ == "__main__":
    print(summary(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
