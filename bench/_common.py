"""Helpers shared by the benchmark scripts: machine description, timing, synthetic fact sets."""

from __future__ import annotations

import os
import platform
import resource
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cpu_model(default: str = "unknown CPU") -> str:
    """The CPU's model name from /proc/cpuinfo, or ``default``."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return default


def machine() -> str:
    cpu = cpu_model()
    ram_gb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (
        f"{os.cpu_count()} CPUs ({cpu}), {ram_gb:.1f} GB RAM, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}"
    )


def per_call_ms(fn, args_list, repeat: int = 1) -> tuple[float, float]:
    """Median and p95 of per-call wall time (ms) over ``args_list`` (after one warm-up call)."""
    fn(*args_list[0])
    times = []
    for _ in range(repeat):
        for args in args_list:
            start = time.perf_counter()
            fn(*args)
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def maxrss_mb() -> float:
    """Peak resident set size of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def fact_texts(n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """``n`` distinct fact-like Korean texts and the synthetic corpus's questions, from `seorap synth`."""
    from seorap.engine.corpus.synth import generate

    scale = 1
    while True:
        trajectories = generate(scale, seed, short=True)
        texts: dict[str, None] = {}
        for t in trajectories:
            for state in t.states:
                for claim in state.claims + state.stale_claims:
                    texts.setdefault(claim, None)
        for t in trajectories:
            for arrival in t.arrivals():
                for line in arrival.document.text.splitlines():
                    if len(texts) < n and line.strip():
                        texts.setdefault(f"{line.strip()} ({t.subject})", None)
        if len(texts) >= n:
            questions = [q.question for t in trajectories for q in t.single_qa]
            return list(texts)[:n], questions
        scale *= 2
