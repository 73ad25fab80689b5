"""The shipped recording's graded answers as pairs for ``seorap judge --pairs``, and how another
judge's verdicts on them compare with the recorded ones.

Each extrinsic verdict of the recording (question, expected answer, the answer given) is one pair,
its id naming the item, the source and k; identical pairs once. With ``--compare`` the verdicts of
``seorap judge --json`` (one JSON object per pair) are set beside the recorded ones: a table of
recorded label × new label.

    python bench/recording_pairs.py --out pairs.jsonl
    OLLAMA_HOST=http://127.0.0.1:11444 seorap judge --pairs pairs.jsonl \\
        --judge qwen2.5-coder:0.5b --db judge.db --json > judged.jsonl
    python bench/recording_pairs.py --compare judged.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from seorap.engine.store.recording import read_recording, shipped_recordings

LABELS = ("YES", "PARTIAL", "NO", "UNPARSEABLE")


def pairs(path: Path) -> dict[str, dict]:
    """id -> {question, expected, answer, recorded}: one per distinct graded answer."""
    _, rows = read_recording(path)
    out: dict[str, dict] = {}
    seen: set[tuple] = set()
    for table, r in rows:
        if table != "verdicts" or r["kind"] == "claim":
            continue
        key = (r["question"], r["expected"], r["candidate"])
        if key in seen:
            continue
        seen.add(key)
        k = f"@{r['k']}" if r["k"] is not None else ""
        out[f"{r['item']} {r['source']}{k}"] = {
            "question": r["question"],
            "expected": r["expected"],
            "answer": r["candidate"],
            "recorded": r["label"],
        }
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recording", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="write the pairs (JSONL)")
    parser.add_argument("--compare", type=Path, default=None, help="seorap judge --json output")
    args = parser.parse_args(argv)
    found = pairs(args.recording or shipped_recordings()[0])
    if args.out:
        with args.out.open("w", encoding="utf-8") as f:
            for pid, p in found.items():
                line = {"id": pid, **{k: p[k] for k in ("question", "expected", "answer")}}
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        print(f"{len(found)} pairs -> {args.out}")
    if args.compare:
        judged = [json.loads(x) for x in args.compare.read_text(encoding="utf-8").splitlines()]
        table = Counter((found[j["id"]]["recorded"], j["label"]) for j in judged)
        print("recorded \\ new  " + "  ".join(f"{b:>11}" for b in LABELS))
        for a in LABELS[:3]:
            print(f"{a:<15}  " + "  ".join(f"{table[(a, b)]:>11}" for b in LABELS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
