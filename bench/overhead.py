"""Benchmarks (c) engine overhead, (d) concurrency, (e) re-scoring, on the bundled corpus.

    python bench/overhead.py [--corpus fixtures/ko-mini] [--latency 0.05] [--subset 3]
                             [--conc-latency 0.02] [--only cde]

(c) variants A, B, C with the zero-latency stand-in (engine/models/standin.py), concurrency 1: total time
    (write + score) and engine time per document = write time minus time spent inside the model
    backend. Then variant A on --subset trajectories with a stand-in of fixed latency: overhead as a
    share of model time = (wall - time in backend) / time in backend (target <= 1%).
(d) variant A on the whole corpus, fixed latency (--conc-latency), concurrency 1, 2, 4: speed-up
    over N = 1 (target >= 3.5x at N = 4).
(e) re-scoring the finished A run: model calls made (target 0), from the calls table, and time.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

from _common import ROOT, machine


class TimedBackend:
    """Wraps a chat backend and adds up the wall time spent inside it (thread-safe)."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0
        self.calls = 0
        self._lock = threading.Lock()

    def chat(self, request):
        start = time.perf_counter()
        try:
            return self.inner.chat(request)
        finally:
            with self._lock:
                self.seconds += time.perf_counter() - start
                self.calls += 1


def ingest(corpus, system: str, db_path: Path, latency: float, concurrency: int, score: bool):
    from seorap.engine.models.standin import StandinBackend
    from seorap.engine.run.runner import open_run_db, run

    backend = TimedBackend(StandinBackend(latency_s=latency))
    db = open_run_db(db_path)
    start = time.perf_counter()
    run_ids = run(
        corpus, [system], db, offline=True, backend=backend, concurrency=concurrency, score=False
    )
    write_s = time.perf_counter() - start
    score_s = 0.0
    if score:
        start = time.perf_counter()
        score(db, run_ids[0])
        score_s = time.perf_counter() - start
    return db, run_ids[0], backend, write_s, score_s


def scorer():
    from seorap.engine.config import load_config
    from seorap.engine.scoring import score_run

    config = load_config(offline=True)
    return lambda db, run_id: score_run(db, run_id, config)


def docs_of(corpus) -> int:
    return sum(1 for t in corpus.trajectories for _ in t.arrivals())


def subset(corpus, n: int):
    from seorap.engine.corpus import Corpus

    trajs = corpus.trajectories[:n]
    return Corpus(
        root=corpus.root, trajectories=trajs, files={t.id: corpus.files[t.id] for t in trajs}
    )


def calls_rows(db) -> int:
    return (
        db.execute("SELECT count(*) FROM calls").fetchone()[0]
        if "calls" in db.table_names() + db.view_names()
        else 0
    )


def overhead(corpus, tmp: Path, score) -> None:
    docs = docs_of(corpus)
    print(f"\n(c) engine overhead, zero-latency stand-in, concurrency 1, {docs} documents")
    print(
        f"{'system':<7} {'calls':>6} {'write s':>8} {'in model s':>10} {'engine ms/doc':>13} "
        f"{'score s':>8} {'total s':>8}"
    )
    for system in ("A", "B", "C"):
        db, run_id, b, write_s, score_s = ingest(
            corpus, system, tmp / f"o-{system}.db", 0.0, 1, score
        )
        engine_ms = 1000 * (write_s - b.seconds) / docs
        print(
            f"{system:<7} {b.calls:>6} {write_s:>8.2f} {b.seconds:>10.2f} {engine_ms:>13.2f} "
            f"{score_s:>8.2f} {write_s + score_s:>8.2f}"
        )
        if system == "A" and score:
            rescore(db, run_id, score)


def rescore(db, run_id: str, score) -> None:
    before = calls_rows(db)
    start = time.perf_counter()
    score(db, run_id)
    seconds = time.perf_counter() - start
    made = calls_rows(db) - before
    print(
        f"(e) re-scoring {run_id}: {made} model calls logged, {seconds:.2f} s "
        f"(target 0 calls: {'MET' if made == 0 else 'NOT MET'})"
    )


def latency_share(corpus, tmp: Path, latency: float) -> None:
    _, _, b, write_s, _ = ingest(corpus, "A", tmp / "lat.db", latency, 1, None)
    share = (write_s - b.seconds) / b.seconds
    print(
        f"\n(c) fixed latency {1000 * latency:.0f} ms/call, variant A, {docs_of(corpus)} documents, "
        f"{b.calls} calls: wall {write_s:.2f} s, in model {b.seconds:.2f} s, engine "
        f"{write_s - b.seconds:.2f} s = {100 * share:.2f}% of model time "
        f"(target <= 1%: {'MET' if share <= 0.01 else 'NOT MET'}); engine per call "
        f"{1000 * (write_s - b.seconds) / b.calls:.2f} ms"
    )


def concurrency(corpus, tmp: Path, latency: float) -> None:
    print(
        f"\n(d) concurrency, variant A, fixed latency {1000 * latency:.0f} ms/call, "
        f"{len(corpus.trajectories)} trajectories"
    )
    base = None
    for n in (1, 2, 4):
        _, _, b, write_s, _ = ingest(corpus, "A", tmp / f"c{n}.db", latency, n, None)
        base = base or write_s
        speedup = base / write_s
        verdict = f" (target >= 3.5x: {'MET' if speedup >= 3.5 else 'NOT MET'})" if n == 4 else ""
        print(f"N={n}: wall {write_s:.2f} s, {b.calls} calls, speed-up {speedup:.2f}x{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT / "fixtures" / "ko-mini"))
    parser.add_argument(
        "--latency", type=float, default=0.05, help="seconds per call for (c) and (d)"
    )
    parser.add_argument(
        "--subset", type=int, default=3, help="trajectories for the latency-share run"
    )
    parser.add_argument("--conc-latency", type=float, default=0.02, help="seconds per call for (d)")
    parser.add_argument("--only", default="cde", help="which parts to run, e.g. 'c' or 'd'")
    args = parser.parse_args()
    from seorap.engine.corpus import load_corpus

    print(machine())
    corpus = load_corpus(args.corpus)
    print(
        f"corpus {args.corpus}: {len(corpus.trajectories)} trajectories, {docs_of(corpus)} documents"
    )
    score = scorer()
    with tempfile.TemporaryDirectory(prefix="seorap-bench-") as name:
        tmp = Path(name)
        small = subset(corpus, args.subset)
        if "c" in args.only or "e" in args.only:
            overhead(corpus, tmp, score)
            latency_share(small, tmp, args.latency)
        if "d" in args.only:
            concurrency(corpus, tmp, args.conc_latency)


if __name__ == "__main__":
    main()
