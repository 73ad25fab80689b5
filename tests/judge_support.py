"""One check for the lexical judge's rule tests (lexical-29 on): a verdict, or "not X" for a
verdict it must not be (fail closed: a right answer the rules cannot vouch for may be PARTIAL,
never the wrong verdict)."""

from __future__ import annotations

import datetime as dt

from seorap.engine.scoring.judges import LexicalJudge

J = LexicalJudge()


def check(
    expected: str, answer: str, verdict: str, question: str = "", **dates: dt.date | None
) -> None:
    got = J.grade_answer(question, expected, answer, **dates).label
    if verdict.startswith("not "):
        assert got != verdict[4:], (expected, answer, got)
    else:
        assert got == verdict, (expected, answer, got)
