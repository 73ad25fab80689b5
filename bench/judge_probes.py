"""Grade a Korean judge-probe file with the lexical judge and print how it did.

The file is JSON lines in the format of tests/data/judge_probes/ (README there): each line has
``expected``, ``answer``, ``verdict`` (YES / PARTIAL / NO) and ``class``; optional ``id``,
``question``, ``expected_date``, ``answer_date`` (ISO dates relative dates are read against).

Prints, per class, verdicts right / probes, wrong answers credited YES and right answers credited
YES; then the confusion table, the same three figures over the file, and (``--misses``) every
probe the judge got wrong with its rationale. The exit status is 0; a malformed line is reported
as FILE:LINE and the file is not graded.

    python bench/judge_probes.py tests/data/judge_probes/fresh_probes.jsonl
    python bench/judge_probes.py FILE --glossary tests/data/judge_probes/glossary.tsv --misses
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections import Counter
from pathlib import Path

from seorap.engine.scoring import glossary
from seorap.engine.scoring.judges import LexicalJudge

LABELS = ("YES", "PARTIAL", "NO")


def read(path: Path) -> list[dict]:
    probes = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            p = json.loads(line)
            if p["verdict"] not in LABELS or not p["expected"] or not p["answer"]:
                raise ValueError("verdict must be YES, PARTIAL or NO")
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{path}:{n}: not a probe ({exc.__class__.__name__}: {exc})") from exc
        probes.append(p)
    return probes


def _date(text: str | None) -> dt.date | None:
    return dt.date.fromisoformat(text) if text else None


def grade(probes: list[dict], judge: LexicalJudge) -> list[tuple[dict, str, str]]:
    out = []
    for p in probes:
        v = judge.grade_answer(
            p.get("question") or "",
            p["expected"],
            p["answer"],
            expected_date=_date(p.get("expected_date")),
            answer_date=_date(p.get("answer_date")),
        )
        out.append((p, v.label, v.rationale))
    return out


def _figures(rows: list[tuple[dict, str]]) -> str:
    right = sum(p["verdict"] == g for p, g in rows)
    wrong = [g for p, g in rows if p["verdict"] != "YES"]
    good = [g for p, g in rows if p["verdict"] == "YES"]
    return (
        f"right {right}/{len(rows)} ({100 * right / len(rows):.0f} %)  "
        f"wrong answers credited YES {wrong.count('YES')}/{len(wrong)}  "
        f"right answers credited YES {good.count('YES')}/{len(good)}"
    )


def report(graded: list[tuple[dict, str, str]], misses: bool) -> str:
    rows = [(p, g) for p, g, _ in graded]
    lines = ["per class:"]
    for c in sorted({p.get("class", "-") for p, _ in rows}):
        lines.append(
            f"  {c:<22} " + _figures([(p, g) for p, g in rows if p.get("class", "-") == c])
        )
    confusion = Counter((p["verdict"], g) for p, g in rows)
    lines.append("want \\ judge   " + "  ".join(f"{x:>7}" for x in LABELS))
    for want in LABELS:
        lines.append(f"{want:>12}   " + "  ".join(f"{confusion[want, g]:>7}" for g in LABELS))
    lines.append("overall: " + _figures(rows))
    if misses:
        lines += [
            f"{p.get('id', '?')} {p.get('class', '-')}: want {p['verdict']} got {g}: {why}"
            for p, g, why in graded
            if p["verdict"] != g
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--glossary", type=Path, default=None, help="same-meaning names (TSV)")
    parser.add_argument("--misses", action="store_true", help="list every probe graded wrong")
    args = parser.parse_args(argv)
    judge = LexicalJudge(glossary=glossary.load(args.glossary) if args.glossary else None)
    graded = grade(read(args.file), judge)
    print(f"{args.file} ({judge.rules}, {'with' if args.glossary else 'no'} glossary)")
    print(report(graded, args.misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
