"""Benchmark: the app's first paint, step latency and every view key (first paint < 1 s; every key
≤ 100 ms p95, median ≤ 50 ms, on the bundled and the 100× corpus; docs/benchmarks.md).

    python bench/app_latency.py [--scale 100] [--steps 30]

For the bundled corpus and a `seorap synth --scale N` corpus: write an oracle-stale run offline
(the bundled one scored, the synthetic one unscored), then in a headless Textual session
(`App.run_test`, 160×45) measure
- first paint: from make_app (corpus load added, also reported separately) to the first frame the
  app hands to its display (App._display) for the runs screen, and for the stepper opened on a
  trajectory (the runs table keeps filling in chunks after that frame);
- step (`step_ms`): from the key press to the last frame drawn for it — the key is posted, and the
  time of the last App._display call before the app goes idle is taken; this excludes the Pilot
  harness's own waiting (`step_wall` = pilot.press + pause, harness included, kept for comparison);
  `step_first_frame`: key press to the first frame showing the new step (later frames of the same
  step only repaint scrollbars);
- `step_view`: the stepper's own view-building time (seorap.engine.views.step_view + widget updates);
- every view key (`ROUND`, repeated `--rounds` times at 160×45 and 100×30): the first key comes
  `--think` seconds after the first frame (the app builds its views meanwhile), then `--pace`
  seconds between keys (0: back to back; with a pause the app reads ahead); per key also the CPU
  time of the event loop's thread (load-independent), and the event loop's longest hold (a 5 ms
  heartbeat) before the first key and while the keys are pressed.
Headless timings exclude the terminal's drawing; they measure the app's work.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, machine


def build(corpus_dir: Path, db_path: Path, score: bool) -> str:
    from seorap.engine.config import load_config
    from seorap.engine.corpus import load_corpus
    from seorap.engine.run.runner import run
    from seorap.engine.store.database import open_db

    corpus = load_corpus(corpus_dir)
    return run(
        corpus,
        ["oracle-stale"],
        open_db(db_path),
        load_config(offline=True),
        offline=True,
        score=score,
        corpus_label=str(corpus_dir),
    )[0]


async def measure(db_path: Path, corpus_dir: Path, run_id: str, steps: int) -> dict:
    from seorap.engine.corpus import load_corpus
    from seorap.tui.factory import make_app

    t0 = time.perf_counter()
    corpus = load_corpus(corpus_dir)
    load_ms = (time.perf_counter() - t0) * 1000
    out = {"corpus_load_ms": load_ms}
    for label, kwargs in (("runs", {}), ("stepper", {"trajectory_id": None})):
        t0 = time.perf_counter()
        if label == "stepper":
            kwargs = {"trajectory_id": max(corpus.trajectories, key=lambda t: len(t.states)).id}
        app = make_app(db_path, run_id=run_id, corpus=corpus, **kwargs)
        frames = record_frames(app)
        async with app.run_test(size=(160, 45)) as pilot:
            await pilot.pause()
            first = next(
                t for t, screen, _ in frames if type(screen).__name__.lower().startswith(label)
            )
            out[f"first_paint_{label}_ms"] = (first - t0) * 1000 + load_ms
            if label == "stepper":
                out.update(await steps_of(pilot, app, steps, frames))
    return out


def record_frames(app) -> list[tuple[float, object, float]]:
    """(time, screen, CPU time of the event loop's thread) of every frame the app hands to its
    (headless) display."""
    frames: list[tuple[float, object, float]] = []
    display = app._display  # noqa: SLF001

    def timed(screen, renderable):
        result = display(screen, renderable)
        frames.append((time.perf_counter(), screen, time.thread_time()))
        return result

    app._display = timed  # noqa: SLF001
    return frames


async def steps_of(pilot, app, steps: int, frames: list) -> dict:
    walls, step_ms, first_ms, views_ms = [], [], [], []
    last = app.screen.step.last_position
    for n in range(steps):
        key = "right" if (n // max(last, 1)) % 2 == 0 else "left"
        frames.clear()
        t0 = time.perf_counter()
        await pilot.press(key)
        await pilot.pause()
        walls.append((time.perf_counter() - t0) * 1000)
        step_ms.append(((frames[-1][0] if frames else t0) - t0) * 1000)
        first_ms.append(((frames[0][0] if frames else t0) - t0) * 1000)
        views_ms.append(app.screen.last_step_ms)
    q = lambda xs, p: sorted(xs)[min(len(xs) - 1, int(p * len(xs)))]  # noqa: E731
    return {
        "step_median_ms": statistics.median(step_ms),
        "step_p95_ms": q(step_ms, 0.95),
        "step_first_frame_median_ms": statistics.median(first_ms),
        "step_wall_median_ms": statistics.median(walls),
        "step_wall_p95_ms": q(walls, 0.95),
        "step_view_median_ms": statistics.median(views_ms),
        "step_view_p95_ms": q(views_ms, 0.95),
    }


ROUND = [
    ("2", "2 stepper"),
    ("right", "→ step"),
    ("left", "← step"),
    ("j", "j judge"),
    ("j", "j judge"),
    ("e", "e observation"),
    ("k", "k fact version"),
    ("3", "3 questions"),
    ("4", "4 score cards"),
    ("v", "v next run"),
    ("5", "5 compare"),
    ("7", "7 tour"),
    ("s", "s side by side"),
    ("escape", "Esc back"),
    ("6", "6 live"),
    ("1", "1 runs"),
    ("down", "↓ next row"),
    ("enter", "Enter trajectory"),
]
"""One round of view keys, pressed in order from the runs view; `bench_keys` repeats it. Each round
opens the next row of the runs table, i.e. another trajectory (or run) than the round before.
`e` and `k` are the claim journey's keys (issue 22): on a scored run a step to the claim's
document or fact version; on an unscored run (the 100× corpus) a toast saying there is none."""


async def keys_of(pilot, app, frames: list, rounds: int) -> dict[str, list[float]]:
    """Per key label: (first frame, last frame, CPU) in milliseconds from the key press: the frames
    drawn for it (the first round includes each view's first showing) and the event loop's
    thread's CPU time until the last frame (or until the app is idle when the key drew none):
    load-independent, another process's work on a shared machine does not count, while work the
    app interleaves with the key on its event loop (views built ahead) does. Workers started by a key (compare, older score cards) are not
    waited for: the key's budget is the placeholder on screen."""
    out: dict[str, list[float]] = {}
    for _ in range(rounds):
        for key, label in ROUND:
            frames.clear()
            t0, cpu0 = time.perf_counter(), time.thread_time()
            await pilot.press(key)
            await pilot.pause()
            cpu = ((frames[-1][2] if frames else time.thread_time()) - cpu0) * 1000
            last = ((frames[-1][0] if frames else t0) - t0) * 1000
            first = ((frames[0][0] if frames else t0) - t0) * 1000
            out.setdefault(label, []).append((first, last, cpu))
            if PACE_S:
                await asyncio.sleep(PACE_S)  # a person reads what the key showed
                await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
    return out


async def measure_keys(
    db_path: Path, corpus_dir: Path, run_id: str, rounds: int, size=(160, 45)
) -> dict[str, list[float]]:
    from seorap.engine.corpus import load_corpus
    from seorap.tui.factory import make_app

    app = make_app(db_path, run_id=run_id, corpus=load_corpus(corpus_dir))
    frames = record_frames(app)
    async with app.run_test(size=size) as pilot:
        while not frames:
            await asyncio.sleep(0.005)
        holds = LoopHolds()
        # a person reads the first view before the first key: pressed THINK_S after its frame
        # (not after the app is idle: Pilot.pause waits up to 1 s while views are built ahead)
        await asyncio.sleep(max(0.0, frames[0][0] + THINK_S - time.perf_counter()))
        thinking = holds.longest()
        late = (time.perf_counter() - frames[0][0] - THINK_S) * 1000
        got = await keys_of(pilot, app, frames, rounds)
        got["loop holds"] = [thinking, holds.longest(), (late, 0.0)]
        holds.stop()
        return got


class LoopHolds:
    """The event loop's longest holds: a task wakes every HEARTBEAT_S and records, per gap between
    two wake-ups, the wall time and the CPU time the event loop's thread spent (the CPU figure
    does not grow when other processes take the machine's cores)."""

    HEARTBEAT_S = 0.005

    def __init__(self) -> None:
        self.gaps: list[tuple[float, float]] = []
        self.task = asyncio.get_running_loop().create_task(self.beat())

    async def beat(self) -> None:
        while True:
            t0, cpu0 = time.perf_counter(), time.thread_time()
            await asyncio.sleep(self.HEARTBEAT_S)
            wall = (time.perf_counter() - t0 - self.HEARTBEAT_S) * 1000
            self.gaps.append((max(wall, 0.0), (time.thread_time() - cpu0) * 1000))

    def longest(self) -> tuple[float, float]:
        """(longest wall hold, longest CPU hold) in ms since the last call."""
        gaps, self.gaps = self.gaps, []
        return (max((g[0] for g in gaps), default=0.0), max((g[1] for g in gaps), default=0.0))

    def stop(self) -> None:
        self.task.cancel()


def p95(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(0.95 * len(xs)))]


def bench_keys(corpus_dir: Path, db_path: Path, run_id: str, rounds: int, size) -> dict[str, tuple]:
    """label -> (median, p95, max) of the last frame over all rounds, p95 of the first frame, the
    first round alone (the view's first mount: cold) and the p95 of the later rounds (warm).
    The first frame is what a key that starts a worker (compare) owes: its placeholder. With 20
    rounds the p95 of all rounds is the slowest press, i.e. the cold one."""
    got = asyncio.run(measure_keys(db_path, corpus_dir, run_id, rounds, size))
    holds = got.pop("loop holds")
    out = {}
    for k, v in got.items():
        last, first, cpu = [x[1] for x in v], [x[0] for x in v], [x[2] for x in v]
        out[k] = (
            statistics.median(last),
            p95(last),
            max(last),
            p95(first),
            last[0],
            p95(last[1:]) if len(last) > 1 else last[0],
            first[0],
            cpu[0],
            p95(cpu[1:]) if len(cpu) > 1 else cpu[0],
        )
    out["loop holds"] = holds
    return out


def bench(corpus_dir: Path, tmp: Path, name: str, steps: int, score: bool) -> dict:
    db_path = tmp / f"{name}.db"
    t0 = time.perf_counter()
    run_id = build(corpus_dir, db_path, score)
    result = asyncio.run(measure(db_path, corpus_dir, run_id, steps))
    result["build_s"] = time.perf_counter() - t0
    result["keys"] = bench_keys(corpus_dir, db_path, run_id, ROUNDS, (160, 45))
    result["keys_small"] = bench_keys(corpus_dir, db_path, run_id, ROUNDS, (100, 30))
    return result


ROUNDS = 20
THINK_S = 3.0
"""Seconds between the app's first frame and the first key (the app builds its views meanwhile)."""
PACE_S = 0.0
"""Seconds between a key's last frame and the next key: 0 presses them back to back (a worst
case no person types); with a pause the app reads ahead what the next key is likely to show."""


def main() -> None:
    global ROUNDS, THINK_S, PACE_S
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=int, default=100)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument(
        "--rounds",
        type=int,
        default=ROUNDS,
        help="rounds of the view keys (p95 over them; the first round is cold)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=THINK_S,
        help="seconds from the first frame to the first key (0: press at once)",
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=PACE_S,
        help="seconds between a key's last frame and the next key (0: back to back)",
    )
    parser.add_argument(
        "--busy",
        type=int,
        default=None,
        help="on a real pty (tmux) with N busy processes at nice 0 (bench/pty_latency.py)",
    )
    parser.add_argument("--app-root", default=None, help="--busy: the checkout to launch")
    parser.add_argument(
        "--first-launch", action="store_true", help="--busy: `seorap demo` with a fresh HOME"
    )
    parser.add_argument("--launches", type=int, default=5, help="--busy: launches per setting")
    parser.add_argument("--sizes", default="160x45,100x30", help="--busy: terminal sizes")
    parser.add_argument("--corpora", default="bundled,100x", help="--busy: bundled, 100x")
    parser.add_argument(
        "--first-keys",
        action="store_true",
        help="--busy: also the first key alone at 0.2, 0.5 and 1 s after first paint",
    )
    args = parser.parse_args()
    ROUNDS, THINK_S, PACE_S = args.rounds, args.think, args.pace
    if args.busy is not None:
        import pty_latency  # bench script: the pty mode's own module

        print(machine())
        pty_latency.main(args, build)
        return
    print(machine())
    print(f"first key {THINK_S:g} s after the first frame; {PACE_S:g} s between keys")
    print(
        f"load average (1, 5, 15 min) at the start: {Path('/proc/loadavg').read_text().split()[:3]}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        rows = {
            "bundled (ko-mini)": bench(ROOT / "fixtures" / "ko-mini", tmp, "mini", args.steps, True)
        }
        synth = tmp / "synth"
        subprocess.run(
            [
                sys.executable,
                "-c",
                "from seorap.cli.main import main; main()",
                "synth",
                "--scale",
                str(args.scale),
                "--out",
                str(synth),
            ],
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
        rows[f"synthetic {args.scale}×"] = bench(synth, tmp, "synth", args.steps, False)
    keys = [
        "corpus_load_ms",
        "first_paint_runs_ms",
        "first_paint_stepper_ms",
        "step_median_ms",
        "step_p95_ms",
        "step_first_frame_median_ms",
        "step_wall_median_ms",
        "step_wall_p95_ms",
        "step_view_median_ms",
        "step_view_p95_ms",
        "build_s",
    ]
    print("| corpus | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    for name, r in rows.items():
        print(f"| {name} | " + " | ".join(f"{r[k]:.1f}" for k in keys) + " |")
    print()
    print(
        f"Every view key, ms from press to its last frame ({ROUNDS} rounds; median / p95 / max; "
        "p95 of the first frame; first press (cold) / p95 of the later presses (warm); "
        "the first press's first frame; CPU of the event loop's thread, cold / p95 warm)"
    )
    print("| key | " + " | ".join(f"{n} 160×45 | {n} 100×30" for n in rows) + " |")
    print("|---" * (2 * len(rows) + 1) + "|")
    for label in rows[next(iter(rows))]["keys"]:
        if label == "loop holds":
            continue
        cells = []
        for r in rows.values():
            for size in ("keys", "keys_small"):
                med, q95, top, first, cold, warm, cold_first, cpu_cold, cpu_warm = r[size][label]
                cells.append(
                    f"{med:.0f} / **{q95:.0f}** / {top:.0f}; {first:.0f}; "
                    f"{cold:.0f} / **{warm:.0f}**; {cold_first:.0f}; cpu {cpu_cold:.0f} / {cpu_warm:.0f}"
                )
        print(f"| {label} | " + " | ".join(cells) + " |")
    print(
        "Longest event-loop hold, ms wall / ms CPU: from the first frame to the first key | "
        "while the keys are pressed"
    )
    for name, r in rows.items():
        for size in ("keys", "keys_small"):
            (tw, tc), (kw, kc), (late, _) = r[size]["loop holds"]
            print(
                f"  {name} {size}: {tw:.0f} / {tc:.0f} | {kw:.0f} / {kc:.0f} "
                f"(first key {late:.0f} ms after its time)"
            )
    print(
        f"load average (1, 5, 15 min) at the end: {Path('/proc/loadavg').read_text().split()[:3]}"
    )


if __name__ == "__main__":
    main()
