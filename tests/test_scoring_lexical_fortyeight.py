"""lexical-48 (written after the fortieth sealed set was read): a change between two words (최 프로
→ 한 프로), the one replaced stated. Written in a setting no probe set uses (a pottery class), with
the cases that would fool it: both sides said, the new side alone, an arrow that draws steps or a
route."""

from __future__ import annotations

import pytest
from judge_support import check

from seorap.engine.scoring.lexical.analysis import analyse
from seorap.engine.scoring.lexical.word_changes import replaced_stated

TEACHER = "토요일 도예 수업 강사 변경: 김 선생 → 윤 선생."
KILN = "가마 담당 교체: 도윤 → 서하."


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (TEACHER, "토요일 수업은 김 선생님이 하세요.", "NO"),
        (TEACHER, "토요일 수업은 윤 선생님이 하세요.", "not NO"),
        (KILN, "가마는 도윤이가 봐요.", "NO"),
        (KILN, "가마는 이제 서하가 봐요.", "YES"),
        ("셔틀 노선: 공방 → 역 앞 정류장.", "셔틀은 공방에서 역 앞 정류장까지 가요.", "not NO"),
    ],
)
def test_the_one_replaced_stated_is_no(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer"),
    [
        (TEACHER, "김 선생님에서 윤 선생님으로 바뀌었어요."),  # both sides: the change said
        ("도예 공방 체험 순서: 반죽 → 성형 → 건조.", "반죽하고 건조해요."),  # steps, no change
        ("셔틀 노선: 공방 → 역 앞 정류장.", "셔틀은 공방에서 타요."),  # a route, no change
        ("수강료 변경: 5만 원 → 6만 원.", "5만 원이에요."),  # typed values: the value rules'
    ],
)
def test_no_change_of_words_read(expected, answer):
    assert replaced_stated(analyse(expected), analyse(answer)) == []
