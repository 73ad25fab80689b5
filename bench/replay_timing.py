"""How long `seorap demo --replay recorded` takes against the time the run took when it was made.

Imports the shipped recording into a scratch database (as the demo does on first use), replays it
through the pacer at the given pace on the real clock, no model and no embedder, and prints the
recorded wall time, the replay's, and their ratio. The pacer holds the write calls (extraction and
synthesis); the scoring's model calls (a recording whose answers a model wrote) are served from the
call log at once, so the ratio is taken over the phases a replay paces (extract and write), the
score phase shown beside it.

    python bench/replay_timing.py [--pace 1x] [--recording fixtures/recordings/....jsonl.gz]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from seorap.engine.corpus import load_corpus
from seorap.engine.run.pacer import Pace, Pacer
from seorap.engine.run.runner import replay_run
from seorap.engine.store.database import open_db
from seorap.engine.store.recording import import_recording, shipped_recordings

PACED = ("extract", "write")
"""The phases whose calls a replay holds for their recorded time."""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pace", default="1x")
    parser.add_argument("--recording", type=Path, default=None)
    args = parser.parse_args(argv)
    path = args.recording or shipped_recordings()[0]
    pace = Pace.parse(args.pace)
    with tempfile.TemporaryDirectory() as tmp:
        db = open_db(Path(tmp) / "demo.db")
        run_id, _ = import_recording(db, path)
        row = db.table("runs").get(run_id)
        phases = {
            r["phase"]: r["wall_s"]
            for r in db.query("SELECT phase, wall_s FROM phases WHERE run_id = ?", [run_id])
        }
        calls = db.execute(
            "SELECT count(*), sum(duration_ms) FROM calls WHERE run_id = ?", [run_id]
        ).fetchone()
        pacer = Pacer(pace)
        started = time.monotonic()
        replayed = replay_run(db, run_id, load_corpus(row["corpus"]), pacer=pacer)
        took = time.monotonic() - started
        recorded = sum(v for k, v in phases.items() if k in PACED)
        print(
            json.dumps(
                {
                    "run": run_id,
                    "replayed": replayed,
                    "pace": pace.describe(),
                    "recorded_phases_s": {k: round(v, 1) for k, v in phases.items()},
                    "recorded_s": round(recorded, 1),
                    "calls": calls[0],
                    "sum_of_call_durations_s": round((calls[1] or 0) / 1000, 1),
                    "replay_s": round(took, 1),
                    "replay_over_recorded_at_pace": round(took * pace.factor / recorded, 3)
                    if pace.per_document_s is None
                    else None,
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
