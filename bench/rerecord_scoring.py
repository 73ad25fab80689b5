"""Re-record the shipped recording's scoring through a real model: its answers (and verdicts, when
the config names a model judge) made by the model, its recorded write calls kept.

The recording that ships (fixtures/recordings/) was written by Qwen2.5-Coder-0.5B (extraction and
synthesis) and scored offline. This script imports it into ``--db`` (kept, so an interrupted pass
resumes with every reply already made served from the call log), makes the scoring roles of
``--config`` the run's own (the run's stored config and its manifest's: a replay, and a plain
``seorap score``, then score with them), scores the run through the live model (``OLLAMA_HOST``,
bench/llama_shim.py), drops the rows of every other scoring of the run (the offline reader's
answers, the earlier verdicts), records the scoring's time as the run's ``score`` phase (this
pass's wall time, plus the model's working time of the calls earlier interrupted passes logged),
replays the run once from the call log alone (a reply missing from the log fails here, not in the
demo) and exports it with the recording's own label (model, size, machine, the day the run was
written) plus the day the scoring calls were made.

    python bench/llama_shim.py --port 11444 &
    OLLAMA_HOST=http://127.0.0.1:11444 nice -n 10 python bench/rerecord_scoring.py \\
        --config bench/real_model_answers.toml --db rerecord.db
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path

from seorap.engine.config import load_config
from seorap.engine.corpus import load_corpus
from seorap.engine.corpus.bundled import bundled_corpus
from seorap.engine.run import accounting
from seorap.engine.run.runner import replay_run
from seorap.engine.scoring.score import score_run
from seorap.engine.store.compact import delete_where
from seorap.engine.store.database import open_db
from seorap.engine.store.recording import (
    export_run,
    import_recording,
    read_recording,
    shipped_recordings,
)
from seorap.engine.store.txn import transaction

KO_MINI = bundled_corpus("ko-mini")
SCORING_TABLES = ("answers", "verdicts", "retrievals", "scores", "score_figures")
"""The run's rows that belong to one scoring setup (their ``scoring`` column)."""
ROLES = ("answerer", "judge")


def own_scoring(db, run_id: str, config) -> None:
    """Make ``config``'s answerer, judge and judging the run's own (stored config and manifest)."""
    row = db.table("runs").get(run_id)
    stored = json.loads(row["config"])
    manifest = json.loads(row["manifest"])
    for target in (stored, manifest["config"]):
        for role in ROLES:
            target["models"][role] = config.role_model(role)
        target["judging"] = config.judging.model_dump(mode="json")
    with transaction(db):
        db.table("runs").update(
            run_id, {"config": json.dumps(stored), "manifest": json.dumps(manifest)}
        )


def drop_other_scorings(db, run_id: str, keep: str) -> dict[str, int]:
    """Delete the run's rows of every scoring setup but ``keep``; returns {table: rows deleted}."""
    with transaction(db):
        return {
            t: delete_where(db, t, "run_id = ? AND scoring != ?", [run_id, keep])
            for t in SCORING_TABLES
        }


def replace_score_phase(db, run_id: str, wall_s: float, started_at: str) -> None:
    """The run's ``score`` phase becomes this scoring pass (the offline one's 14 s goes)."""
    with transaction(db):
        db.execute("DELETE FROM phases WHERE run_id = ? AND phase = 'score'", [run_id])
    accounting.record_phase(db, [run_id], "score", wall_s, 1, started_at)


def earlier_model_time(db, run_id: str, before: str) -> float:
    """Seconds the model worked on the run's scoring calls logged before ``before`` (earlier,
    interrupted passes, whose wall time is lost): the union of the calls' intervals, each ending
    when it was logged and lasting its duration, so calls that overlapped (a queue of our own)
    count once and the hours between passes not at all."""
    rows = db.execute(
        "SELECT created_at, duration_ms FROM calls WHERE run_id = ? AND role IN (?, ?) "
        "AND created_at < ?",
        [run_id, *ROLES, before],
    ).fetchall()
    spans = sorted(
        (end - ms / 1000, end)
        for end, ms in ((datetime.fromisoformat(at).timestamp(), ms or 0) for at, ms in rows)
    )
    total, reach = 0.0, float("-inf")
    for start, end in spans:
        if end > reach:
            total += end - max(start, reach)
            reach = end
    return total


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, required=True, help="names the scoring roles")
    parser.add_argument("--db", type=Path, required=True, help="kept: a re-run resumes from it")
    parser.add_argument("--recording", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="default: over the recording")
    args = parser.parse_args(argv)
    path = args.recording or shipped_recordings()[0]
    header, _ = read_recording(path)
    config = load_config(str(args.config))
    db = open_db(str(args.db))
    run_id, _ = import_recording(db, path)
    own_scoring(db, run_id, config)
    started_at = datetime.now(UTC).isoformat(timespec="milliseconds")
    started = time.perf_counter()
    name = score_run(db, run_id, config)
    wall = time.perf_counter() - started
    dropped = drop_other_scorings(db, run_id, name)
    earlier = earlier_model_time(db, run_id, started_at)
    replace_score_phase(db, run_id, wall + earlier, started_at)
    before = db["calls"].count
    replayed = replay_run(db, run_id, load_corpus(KO_MINI))  # from the call log alone
    if db["calls"].count != before:  # its scoring reached the live model: not replayable
        raise SystemExit(f"the replay made {db['calls'].count - before} model call(s)")
    db.close()
    db = open_db(str(args.db), readonly=True)
    written = header["label"]["date"].split(", answers ")[0]  # a re-recording's date replaced
    label = {**header["label"], "date": f"{written}, answers {started_at[:10]}"}
    out = args.out or path
    counts = export_run(db, run_id, out, label, corpus="ko-mini")
    report = {"run": run_id, "scoring": name, "score_wall_s": round(wall, 1)}
    report["earlier_passes_model_s"] = round(earlier, 1)
    report |= {"replayed": replayed, "dropped": dropped, "counts": counts}
    print(json.dumps(report | {"bytes": out.stat().st_size}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
