"""engine/scoring/holders.py: every fact holding part of an expected answer is marked, not only
the one holding its longest clause (hand-checked cases, our own sentences)."""

from __future__ import annotations

from test_tui_support import CORPUS

from seorap.engine.corpus import load_corpus
from seorap.engine.scoring.holders import answer_holders, holds_part

EXPECTED = "7년 동안 보존, 매주 금요일 밤 11시에 실행, 대전과 광주 두 곳에 복제본 보관"
QUESTION = (
    "해솔물산 회계 문서 아카이브는 얼마 동안 보존되고, 언제 실행되며, 복제본은 어디에 보관되나요?"
)


def test_each_fact_holding_one_clause_of_a_compound_answer_is_marked():
    facts = [
        ("f1", "해솔물산 회계 문서 아카이브는 매주 금요일 밤 11시에 실행"),  # clause 2: 11시, 실행
        ("f2", "해솔물산 아카이브 복제본은 대전과 광주 두 곳에 보관"),  # clause 3 (related)
        ("f3", "해솔물산 회계 문서 아카이브 보존 기간은 7년"),  # clause 1: 7년, 보존
        ("f4", "해솔물산 회계 문서는 PDF로 저장"),  # no value of the answer
    ]
    assert answer_holders(EXPECTED, QUESTION, facts) == ["f1", "f2", "f3"]


def test_a_value_without_the_clause_s_words_or_stated_as_former_is_not_a_part():
    # the same 7년, about something else: no noun of '7년 동안 보존' (동안 is a dependent noun)
    assert not holds_part(EXPECTED, "해솔물산 창립 7년 기념 행사는 5월", QUESTION)
    # 밤 11시 only as the former value of a change
    assert not holds_part(EXPECTED, "아카이브 실행 시각은 밤 11시에서 새벽 1시로 변경", QUESTION)


def test_a_value_the_question_already_states_is_not_a_part():
    question = "해솔물산 아카이브는 7년 동안 보존되나요, 그리고 언제 실행되나요?"
    assert not holds_part(
        "7년 동안 보존, 매주 금요일 실행", "해솔물산 서류 보존 연한 7년", question
    )


def test_the_case_that_fools_it_the_right_value_and_word_about_another_subject():
    """Read lexically: a security check run at the same hour is marked too (so was it before, by
    lexical.related). The judge's verdict, not this mark, scores the answer."""
    assert holds_part(EXPECTED, "해솔물산 보안 점검은 매주 금요일 밤 11시에 실행", QUESTION)


def test_daon_backup_ranks_1_and_3_are_marked_beside_rank_2():
    """The issue's case: on ko-c1-daon-backup the facts holding the retention and the hour were
    not starred, only the one holding the copies' places."""
    t = load_corpus(CORPUS).get("ko-c1-daon-backup")
    qa = t.extrinsic_qa[0]
    claims = t.states[-1].claims
    facts = [(f"f{n}", c) for n, c in enumerate(claims)]
    held = {claims[int(fid[1:])] for fid in answer_holders(qa.answer, qa.question, facts)}
    assert {c for c in claims if "3시" in c or "5년" in c or "부산" in c} <= held
    assert not any("AES-256" in c or "복구 테스트" in c for c in held)
