"""The stand-in extractor keeps statements and drops document furniture."""

from seorap.engine.memory.sentences import is_statement, statements
from seorap.engine.models.standin import StandinBackend


def test_headers_speaker_lines_and_fragments_are_not_statements():
    for line in [
        "받는 사람: 세움페이 전 직원",
        "제목: 한빛물류 4월 청구 요금제 변경 반영",
        "09:31 차은호 (플랫폼팀장)",
        "좋은 아침입니다.",
        "결정 사항:",
        "관련 티켓: HKC-1251",
        "문수빈 오전 10:10",
        "배준호 (인프라팀 시니어 엔지니어) 오전 9:50",
        "#인프라-질문 채널 (2026년 2월 11일)",
    ]:
        assert not is_statement(line), line


def test_sentences_with_a_time_in_them_are_still_statements():
    assert is_statement("백업은 매일 새벽 3:00에 돈다.") and is_statement(
        "회의는 10:00에 시작합니다"
    )


def test_statements_are_kept_in_order():
    text = (
        "보낸 사람: 오세린\n09:31 차은호 (플랫폼팀장)\n한빛물류는 3월 27일 엔터프라이즈 요금제 전환에 "
        "합의했습니다. 월 이용료는 310만 원입니다.\n결정 사항:\n- 전환일은 4월 1일로 확정"
    )
    assert statements(text) == [
        "한빛물류는 3월 27일 엔터프라이즈 요금제 전환에 합의했습니다.",
        "월 이용료는 310만 원입니다.",
        "전환일은 4월 1일로 확정",
    ]


def test_standin_extracts_statements_only():
    out = StandinBackend().extract(
        {"document": {"author": "오세린", "date": "2026-03-27"}},
        "제목: 요금제 변경\n월 이용료는 310만 원으로 바뀝니다.",
    )
    assert [o["text"] for o in out["observations"]] == ["월 이용료는 310만 원으로 바뀝니다."]
