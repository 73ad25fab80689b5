"""Benchmark: how long work ahead holds the app's event loop after the first paint, with no key
pressed (issue 36: no piece of work ahead over 20 ms while a key may be waiting).

    python bench/loop_holds.py [--seconds 6] [--runs 3] [--over 15] [--size 160x45]

The bundled corpus with a scored oracle-stale run (built offline), the app headless
(`App.run_test`). A heartbeat task sleeps 1 ms at a time on the event loop; a beat that took more
than `--over` ms of the loop thread's CPU time is a hold: one turn of the loop (every callback
ready then) that a key arriving meanwhile would have waited for. A sampler thread records the
loop thread's stack (this package's frames) so each hold says what ran in it. CPU time, not wall
time: another process on the core does not count, only the app's own work on its loop. Threads
the app starts (the step reader, chart building, the analyser's process) are not the loop's.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import sys
import tempfile
import threading
import time
from pathlib import Path

from _common import ROOT, machine
from app_latency import build, record_frames


def _sampler(tid: int, ring: collections.deque, stop: threading.Event) -> None:
    while not stop.is_set():
        frame = sys._current_frames().get(tid)  # noqa: SLF001 - a benchmark's stack sampler
        names = []
        while frame is not None:
            code = frame.f_code
            if "seorap" in code.co_filename or f"{ROOT}" in code.co_filename:
                names.append(f"{Path(code.co_filename).name}:{code.co_name}")
            frame = frame.f_back
        ring.append((time.perf_counter(), " < ".join(names[:3])))
        time.sleep(0.001)


async def once(db: Path, run_id: str, size: tuple[int, int], seconds: float, over: float) -> list:
    from seorap.engine.corpus import load_corpus
    from seorap.tui.factory import make_app

    corpus_dir = ROOT / "fixtures" / "ko-mini"
    app = make_app(db, run_id=run_id, corpus=load_corpus(corpus_dir))
    frames = record_frames(app)
    holds: list[tuple[float, float, float]] = []

    async def beat() -> None:
        while True:
            t0, c0 = time.perf_counter(), time.thread_time()
            await asyncio.sleep(0.001)
            cpu = (time.thread_time() - c0) * 1000
            if cpu > over:
                holds.append((t0, time.perf_counter(), cpu))

    ring: collections.deque = collections.deque(maxlen=50_000)
    stop = threading.Event()
    sampler = threading.Thread(
        target=_sampler, args=(threading.get_ident(), ring, stop), daemon=True
    )
    sampler.start()
    async with app.run_test(size=size):
        task = asyncio.get_running_loop().create_task(beat())
        while not frames:
            await asyncio.sleep(0.005)
        painted = frames[0][0]
        await asyncio.sleep(seconds)
        task.cancel()
    stop.set()
    out = []
    for t0, t1, cpu in holds:
        ran = collections.Counter(name for t, name in ring if t0 <= t <= t1 and name)
        out.append(((t0 - painted) * 1000, cpu, ran.most_common(2)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="after the first paint")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--over", type=float, default=15.0, help="ms of loop CPU that make a hold")
    parser.add_argument("--size", default="160x45")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.split("x"))
    print(machine())
    print(f"holds over {args.over:g} ms of loop CPU, {args.seconds:g} s after the first paint")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "mini.db"
        run_id = build(ROOT / "fixtures" / "ko-mini", db, True)
        longest = []
        for n in range(args.runs):
            holds = asyncio.run(once(db, run_id, (width, height), args.seconds, args.over))
            print(f"run {n + 1}: {len(holds)} holds")
            for at, cpu, ran in holds:
                what = "; ".join(name for name, _ in ran) or "(Textual)"
                print(f"  {at:7.0f} ms after paint  {cpu:5.1f} ms  {what}")
            longest.append(max((cpu for _, cpu, _ in holds), default=0.0))
    print("longest hold per run, ms CPU: " + ", ".join(f"{x:.1f}" for x in longest))


if __name__ == "__main__":
    main()
