"""The retrieval benchmark script stays runnable (small sizes; figures live in docs/benchmarks.md)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_retrieval_benchmark_runs_and_rankings_agree():
    out = subprocess.run(
        [
            sys.executable,
            "bench/retrieval.py",
            "--facts",
            "600",
            "--queries",
            "10",
            "--naive-queries",
            "5",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "top-5 agreement on 5 queries: 5/5" in out.stdout
    assert "ratio naive/ours" in out.stdout
