"""Benchmark (b): ingest the 1× and the N× synthetic corpus offline; per-document cost and memory.

    python bench/scale.py [--scale 100] [--systems oracle,raw,A] [--short]

Each (scale, system) runs in a fresh subprocess (so peak RSS is that run's own) against a fresh
SQLite file: `seorap synth` corpus -> seorap.engine.run.runner.run(offline=True, score=False) with the
hashing embedder and, for LLM variants, the zero-latency stand-in model. Targets
(docs/design.md#quality-bars): per-document cost at N× within 1.2× of 1×, peak memory < 500 MB,
100× in about a minute.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, machine, maxrss_mb


def child(corpus_dir: str, system: str, db_path: str) -> dict:
    from seorap.engine.corpus import load_corpus
    from seorap.engine.run.runner import open_run_db, run

    start = time.perf_counter()
    corpus = load_corpus(corpus_dir)
    load_s = time.perf_counter() - start
    db = open_run_db(db_path)
    start = time.perf_counter()
    run(corpus, [system], db, offline=True, score=False, concurrency=1)
    write_s = time.perf_counter() - start
    docs = sum(1 for t in corpus.trajectories for _ in t.arrivals())
    facts = db.execute("SELECT count(*) FROM facts").fetchone()[0]
    observations = db.execute("SELECT count(*) FROM observations").fetchone()[0]
    return {
        "system": system,
        "docs": docs,
        "facts": facts,
        "observations": observations,
        "load_s": load_s,
        "write_s": write_s,
        "ms_per_doc": 1000 * write_s / docs,
        "maxrss_mb": maxrss_mb(),
        "db_mb": sum(p.stat().st_size for p in Path(db_path).parent.glob(Path(db_path).name + "*"))
        / 2**20,
    }


def measure(corpus_dir: Path, system: str, tmp: Path) -> dict:
    db_path = tmp / f"{corpus_dir.name}-{system}.db"
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(corpus_dir), system, str(db_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"{system} on {corpus_dir.name} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def best(corpus_dir: Path, system: str, tmp: Path, repeat: int) -> dict:
    """The fastest of ``repeat`` runs (small runs are noisy; each run gets a fresh database)."""
    runs = []
    for _ in range(repeat):
        for old in tmp.glob(f"{corpus_dir.name}-{system}.db*"):
            old.unlink()
        runs.append(measure(corpus_dir, system, tmp))
    return min(runs, key=lambda r: r["ms_per_doc"])


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        print(json.dumps(child(*sys.argv[2:])))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=100)
    parser.add_argument("--systems", default="oracle,raw,A")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of the 1x corpus (best is kept)"
    )
    parser.add_argument("--short", action="store_true", help="~60-word documents (fewer sentences)")
    args = parser.parse_args()
    from seorap.engine.corpus.synth import write_corpus

    print(machine())
    with tempfile.TemporaryDirectory(prefix="seorap-bench-") as tmp_name:
        tmp = Path(tmp_name)
        corpora = {s: tmp / f"synth-{s}x" for s in (1, args.scale)}
        for s, path in corpora.items():
            write_corpus(path, s, seed=0, short=args.short)
        print(
            f"{'system':<8} {'scale':>5} {'docs':>6} {'facts':>7} {'obs':>7} {'write s':>8} "
            f"{'ms/doc':>7} {'peak MB':>8} {'db MB':>6}"
        )
        for system in args.systems.split(","):
            rows = {
                s: best(path, system, tmp, args.repeat if s == 1 else 1)
                for s, path in corpora.items()
            }
            for s, r in rows.items():
                print(
                    f"{system:<8} {s:>4}x {r['docs']:>6} {r['facts']:>7} {r['observations']:>7} "
                    f"{r['write_s']:>8.2f} {r['ms_per_doc']:>7.2f} {r['maxrss_mb']:>8.0f} "
                    f"{r['db_mb']:>6.1f}"
                )
            ratio = rows[args.scale]["ms_per_doc"] / rows[1]["ms_per_doc"]
            peak = rows[args.scale]["maxrss_mb"]
            print(
                f"  {system}: per-document cost {args.scale}x/1x = {ratio:.2f} "
                f"(target <= 1.2: {'MET' if ratio <= 1.2 else 'NOT MET'}); "
                f"peak {peak:.0f} MB (target < 500: {'MET' if peak < 500 else 'NOT MET'})"
            )


if __name__ == "__main__":
    main()
