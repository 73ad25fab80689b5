"""`seorap import longmemeval` at the dataset's scale: peak memory, time and folder size.

Generates a LongMemEval-shaped file (500 questions x 48 sessions by default, each session ten turns
of made-up words, about the size of the real ``_S`` file) in a temporary folder, never in the
repository, then runs the import in a child process and reads that child's peak resident memory
(``ru_maxrss``) and wall time. The figures go to docs/benchmarks.md.

    python bench/import_scale.py [--questions 500] [--sessions 48] [--turn-words 170] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from _common import machine

TYPES = (
    "single-session-user",
    "single-session-assistant",
    "single-session-preference",
    "multi-session",
    "knowledge-update",
    "temporal-reasoning",
)
WORDS = (
    "river kiln bowl tea oolong bike city move garden plan week travel budget music class recipe "
    "paint morning evening friend sister market train ticket coffee letter window garden lamp"
).split()


def _turns(rng: random.Random, turn_words: int) -> list[dict]:
    return [
        {
            "role": "user" if k % 2 == 0 else "assistant",
            "content": " ".join(rng.choices(WORDS, k=turn_words)),
        }
        for k in range(10)
    ]


def generate(path: Path, questions: int, sessions: int, turn_words: int) -> None:
    """Write the file item by item (the generator holds one question at a time too)."""
    rng = random.Random(39)
    start = datetime(2023, 1, 1, 9, 0)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("[")
        for q in range(questions):
            dates = [start + timedelta(days=3 * s, minutes=q) for s in range(sessions)]
            qid = f"gen{q:04d}" + ("_abs" if q % 17 == 0 else "")
            item = {
                "question_id": qid,
                "question_type": TYPES[q % len(TYPES)],
                "question": "Which tea do I drink in the morning?",
                "answer": "oolong",
                "question_date": (dates[-1] + timedelta(days=1)).strftime("%Y/%m/%d (%a) %H:%M"),
                "haystack_session_ids": [f"s{q}_{s}" for s in range(sessions)],
                "haystack_dates": [d.strftime("%Y/%m/%d (%a) %H:%M") for d in dates],
                "haystack_sessions": [_turns(rng, turn_words) for _ in range(sessions)],
                "answer_session_ids": [f"s{q}_{sessions - 1}"],
            }
            fh.write(("," if q else "") + json.dumps(item))
        fh.write("]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--sessions", type=int, default=48)
    parser.add_argument("--turn-words", type=int, default=170)
    parser.add_argument("--keep", help="keep the generated file and corpus in this folder")
    args = parser.parse_args()
    work = Path(args.keep or tempfile.mkdtemp(prefix="seorap-import-"))
    work.mkdir(parents=True, exist_ok=True)
    source, out = work / "longmemeval_generated.json", work / "corpus"
    shutil.rmtree(out, ignore_errors=True)
    generate(source, args.questions, args.sessions, args.turn_words)
    started = time.perf_counter()
    entry = "import sys; from seorap.cli.main import main; sys.argv[0] = 'seorap'; main()"
    command = [sys.executable, "-c", entry, "import", "longmemeval", str(source)]
    done = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(done.stderr)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    size = sum(f.stat().st_size for f in out.glob("*.json"))
    print(machine())
    print(
        f"source: {args.questions} questions x {args.sessions} sessions, "
        f"{source.stat().st_size / 1e6:.0f} MB"
    )
    print(done.stdout.strip().splitlines()[0])
    print(f"import: {seconds:.1f} s, peak RSS {peak_mb:.0f} MB, folder {size / 1e6:.0f} MB")
    if not args.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
