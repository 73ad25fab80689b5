"""lexical-54 (written after the forty-sixth sealed set was read): words that say a value may
change, in the clause of the value itself (in brackets, with no question), are asked with it.
Written in a setting no probe set uses (a river cruise dock), with the cases that would fool the
rule."""

from __future__ import annotations

import pytest
from judge_support import check

REPAIR = "2호선 엔진 수리 완료 예정 10월 8일 (부품 도착 따라 변동 가능)"


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        # the value given as certain leaves out that it may change
        (REPAIR, "2호선 엔진은 10월 8일에 수리 끝납니다.", "PARTIAL"),
        # an answer that says it may change, or hedges, is not faulted for it
        (REPAIR, "2호선 엔진은 10월 8일 완료 예정이고, 부품 도착에 따라 변동 가능해요.", "YES"),
        # a wrong value stays wrong
        (REPAIR, "2호선 엔진은 10월 9일에 수리 끝납니다.", "NO"),
        # without words of change, the bracket is an aside as before
        (
            "2호선 엔진 수리 완료 10월 8일 (부품 교체 포함)",
            "2호선 엔진은 10월 8일에 수리 끝납니다.",
            "not NO",
        ),
    ],
)
def test_a_value_that_may_change(expected, answer, verdict):
    check(expected, answer, verdict)
