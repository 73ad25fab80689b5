"""`seorap judge`: grade one (expected, answer) pair, or a JSONL file of pairs, with any judge.

For a person debugging a verdict ("why is this PARTIAL?") and for audits: the same judges and flags
as `seorap score` (the lexical judge or an Ollama model, strict or lenient), one verdict with its
rationale per pair. Pairs file: one JSON object per line with ``expected`` and ``answer`` (both
strings) and optionally ``question``, ``id`` and ``expected_date`` / ``answer_date`` (ISO dates that
relative dates in each are read against); blank lines are skipped.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from typing import TYPE_CHECKING

import click

from seorap.cli.params import FsPath
from seorap.engine.errors import InputProblems
from seorap.engine.jsonl import MAX_PROBLEMS, LineTooLong, read_lines
from seorap.engine.untrusted import json_line, visible

if TYPE_CHECKING:
    from seorap.engine.scoring.judges import Judge


def _iso_date(value: object) -> dt.date | None:
    """A date from an ISO string; None for anything else (the caller reports it)."""

    if not isinstance(value, str):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def read_pairs(path: str) -> list[dict]:
    """The pairs of a JSONL file, streamed (a line is at most 1 MB; Ctrl+C works while reading);
    every malformed line is reported with its line number."""

    pairs: list[dict] = []
    problems: list[str] = []
    try:
        for line in read_lines(path):
            problem = line.problem or _pair_problem(path, line.number, line.value)
            if problem:
                problems.append(problem)
                if len(problems) >= MAX_PROBLEMS:
                    break
                continue
            row = line.value
            pairs.append(
                {
                    "id": row.get("id", line.number),
                    "line": line.number,
                    "question": row.get("question", ""),
                    "expected": row["expected"],
                    "answer": row["answer"],
                    **{k: _iso_date(row.get(k)) for k in ("expected_date", "answer_date")},
                }
            )
    except LineTooLong as exc:
        raise InputProblems(str(exc), [str(exc)]) from None
    if problems:
        noun = "line" if len(problems) == 1 else "lines"
        raise InputProblems(
            f"{path}: {len(problems)} bad {noun}",
            problems,
            f"{path}: {len(problems)} bad {noun} (listed above); nothing was judged.",
        )
    if not pairs:
        raise InputProblems(f"{path}: no pairs", [f"{path}: no pairs (one JSON object per line)"])
    return pairs


def _pair_problem(path: str, n: int, row: object) -> str | None:
    if not isinstance(row, dict):
        return f"{path}:{n}: not a JSON object"
    bad = [k for k in ("expected", "answer") if not isinstance(row.get(k), str)]
    bad += [k for k in ("question",) if k in row and not isinstance(row[k], str)]
    if bad:
        return (
            f"{path}:{n}: {', '.join(bad)} must be a string "
            f'(each line needs "expected" and "answer")'
        )
    wrong = [
        k
        for k in ("expected_date", "answer_date")
        if row.get(k) is not None and not _iso_date(row[k])
    ]
    if wrong:
        return f"{path}:{n}: {', '.join(wrong)} must be an ISO date (2026-03-04)"
    return None


@click.command(name="judge")
@click.option("--expected", help="The expected answer or claim.")
@click.option("--answer", help="The answer (or fact) to grade against it.")
@click.option(
    "--question",
    default="",
    help="The question (optional; the lexical judge uses it to tell which values answer it).",
)
@click.option(
    "--pairs",
    "pairs_path",
    type=FsPath(exists=True, dir_okay=False),
    help='A JSONL file: one {"expected", "answer", "question"?, "id"?} per line.',
)
@click.option(
    "--judge",
    "judge_model",
    default="lexical",
    show_default=True,
    help="'lexical' or an Ollama model name.",
)
@click.option(
    "--judge-prompt",
    type=click.Choice(["strict", "lenient"]),
    default="strict",
    show_default=True,
    help="strict or lenient (a model judge's prompt file; the lexical judge's lenient rules).",
)
@click.option(
    "--db",
    "db_path",
    type=FsPath(dir_okay=False),
    help="A database for a model judge's call log (so asking again costs nothing); "
    "default: none, every call is made.",
)
@click.option(
    "--glossary",
    "glossary_path",
    type=FsPath(),
    help="A glossary of same-meaning names (glossary.tsv, or a corpus folder holding one) "
    "for the lexical judge; default: none.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per pair on stdout.")
def judge(
    expected: str | None,
    answer: str | None,
    question: str,
    pairs_path: str | None,
    judge_model: str,
    judge_prompt: str,
    db_path: str | None,
    glossary_path: str | None,
    as_json: bool,
) -> None:
    """Grade one pair (--expected and --answer, optional --question) or every pair of a JSONL file
    (--pairs) and print each verdict (YES, PARTIAL, NO or UNPARSEABLE) with the judge's rationale.
    Exit 0 when every pair was judged (whatever the verdicts)."""
    # start-up: `seorap --help` loads no pydantic, sqlite_utils
    from seorap.engine.config import Config
    from seorap.engine.errors import UsageError
    from seorap.engine.scoring.judges import make_judge

    if pairs_path and (expected is not None or answer is not None):
        raise UsageError("give either --pairs FILE or --expected and --answer, not both")
    if not pairs_path and (expected is None or answer is None):
        raise UsageError("give --expected and --answer (or --pairs FILE)")
    pairs = (
        read_pairs(pairs_path)
        if pairs_path
        else [{"id": 1, "line": None, "question": question, "expected": expected, "answer": answer}]
    )
    config = Config.offline().with_overrides(
        {"models.judge": judge_model, "judging.prompt": judge_prompt}
    )
    client, lease = None, contextlib.ExitStack()
    if judge_model != "lexical":
        # start-up: `seorap --help` loads no httpx, numpy, ollama, pydantic, sqlite_utils
        from seorap.engine.models.client import ModelClient
        from seorap.engine.store.database import open_db
        from seorap.engine.store.lease import discard_if_unused, writer

        created = bool(db_path and not os.path.exists(db_path))
        db = open_db(db_path) if db_path else None
        client = ModelClient.from_config(config, db)
        if db is not None:  # the call log is written: one writer at a time
            lease = contextlib.ExitStack()
            lease.enter_context(discard_if_unused(db, created=created))  # none left if it fails
            lease.enter_context(writer(db, "judge"))
    # start-up: `seorap --help` loads no pydantic, sqlite_utils
    from seorap.engine.scoring import glossary

    aliases = glossary.load(glossary_path) if glossary_path else None
    grader = make_judge(config, client, glossary=aliases)
    with lease:
        _grade(grader, pairs, pairs_path, as_json)


def _grade(grader: Judge, pairs: list[dict], pairs_path: str | None, as_json: bool) -> None:
    for pair in pairs:
        v = grader.grade_answer(
            pair["question"],
            pair["expected"],
            pair["answer"],
            expected_date=pair.get("expected_date"),
            answer_date=pair.get("answer_date"),
        )
        if as_json:
            click.echo(
                json_line(  # bidi and control characters escaped; Hangul as it is
                    {
                        "id": pair["id"],
                        "label": v.label,
                        "score": v.score,
                        "rationale": v.rationale,
                        "judge": grader.name,
                        "rules": getattr(grader, "rules", None),
                        "question": pair["question"],
                        "expected": pair["expected"],
                        "answer": pair["answer"],
                    },
                )
            )
        else:
            head = f"{visible(pair['id'])}: " if pairs_path else ""
            click.echo(f"{head}{v.label}  {visible(v.rationale)}")
    if not as_json:
        rules = getattr(grader, "rules", None)
        click.echo(f"judge: {grader.name}" + (f" (rules {rules})" if rules else ""), err=True)
