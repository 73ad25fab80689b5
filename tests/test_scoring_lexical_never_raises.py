"""The lexical judge grades any pair of texts: a clause that ends in a suffix left on its own
(객실 당, 하루 간) once raised an IndexError (found by the twenty-ninth sealed set, fixed at its
cause in substitution.py). A seeded sweep of texts put together from the pieces such clauses are
made of — nouns, suffixes after a space, numbers, counters, particles, dates, question words —
must each get a verdict and a rationale, never an exception."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("kiwipiepy")

from seorap.engine.scoring.judges import LexicalJudge  # noqa: E402

PIECES = (
    "수건은", "객실", "당", "간", "째", "용", "별", "씩", "쯤", "두", "장", "3일", "하루", "12일",
    "오후", "오전 반", "5월 12일(수)", "11.19~11.21", "1인", "1인당", "이달 말", "40%", "수준으로",
    "줄었어요", "확정은", "아직", "KTX", "케이티엑스", "대신", "(", ")", "→", ",", "?", "없음",
    "미정", "목욕 보조는", "이론 평가로", "대체", "5학년은", "3만 2천 원", "인가", "몇 시", "언제",
)  # fmt: skip


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(PIECES) for _ in range(rng.randint(1, 9)))


def test_any_pair_gets_a_verdict():
    rng = random.Random(29)
    judge = LexicalJudge()
    for _ in range(300):
        question = _text(rng) if rng.random() < 0.5 else ""
        verdict = judge.grade_answer(question, _text(rng), _text(rng))
        assert verdict.label in ("YES", "PARTIAL", "NO") and verdict.rationale


def test_a_clause_ending_in_a_suffix_on_its_own():
    verdict = LexicalJudge().grade_answer("", "수건은 객실 당 두 장", "수건은 방마다 두 장이에요.")
    assert verdict.label != "YES"  # 방 is a word nothing accounts for
