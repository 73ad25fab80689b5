"""Export a real model's run into the recording that ships with seorap (fixtures/recordings/).

The run is made through the live path against bench/llama_shim.py (docs/benchmarks.md, the
recorded run), then exported with its label: the model as the run's call log names it, its size as
the server describes it (/api/tags: parameters, quantisation, file size), this machine (CPU model,
cores) and the day the run was made.

    python bench/export_recording.py --db rec.db --run A-... --host http://127.0.0.1:11444 \\
        --out fixtures/recordings/ko-c1-daon-backup-qwen2.5-coder-0.5b.jsonl.gz
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import urllib.request
from pathlib import Path

from _common import cpu_model

from seorap.engine.store.database import open_db
from seorap.engine.store.recording import export_run


def machine() -> str:
    cpu = cpu_model(platform.processor() or platform.machine())
    for noise in ("(R)", "(TM)", "Intel", "AMD", "Processor", "CPU"):
        cpu = cpu.replace(noise, "")
    return f"{os.cpu_count()}-core {' '.join(cpu.split()) or platform.machine()} CPU"


def model_size(host: str, model: str) -> str:
    """'0.5B Q4_K_M, 491 MB', as the server that ran the model describes it."""
    with urllib.request.urlopen(f"{host}/api/tags", timeout=5) as resp:
        tags = json.load(resp)
    [entry] = [m for m in tags["models"] if m["name"] == model]
    d = entry["details"]
    return f"{d['parameter_size']} {d['quantization_level']}, {entry['size'] / 1e6:.0f} MB"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--run", required=True)
    parser.add_argument("--host", default=None, help="the shim that served the run")
    parser.add_argument("--size", default=None, help="the model's size (default: ask --host)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--corpus", default="ko-mini", help="the bundled corpus it was made on")
    args = parser.parse_args(argv)
    db = open_db(args.db, readonly=True)
    run = db.table("runs").get(args.run)
    models = {
        r[0] for r in db.execute("SELECT DISTINCT model FROM calls WHERE run_id = ?", [args.run])
    }
    [model] = models  # extraction and synthesis by one model
    label = {
        "model": model,
        "size": args.size or model_size(args.host, model),
        "machine": machine(),
        "date": run["created_at"][:10],
    }
    counts = export_run(db, args.run, args.out, label, corpus=args.corpus)
    print(json.dumps({"label": label, "counts": counts, "bytes": args.out.stat().st_size}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
