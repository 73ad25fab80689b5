"""The lexical judge, rule by rule (docs/metrics.md, "The offline judge"). Each case is a Korean
pair that fooled the earlier bigram judge or would fool a careless one; expected labels are worked
out by hand from the rules."""

from fractions import Fraction

import pytest

from seorap.engine.scoring import lexical
from seorap.engine.scoring.judges import LexicalJudge

J = LexicalJudge()


def answer(expected, candidate, question=""):
    return J.grade_answer(question, expected, candidate)


# ---- values: typed, normalised ---------------------------------------------------------------------


def test_dates_numbers_amounts_normalise():
    key = lambda text: [(v.type, v.key) for v in lexical.values(text)]  # noqa: E731
    assert key("2025-03-05") == key("2025.3.5") == [("date", (2025, 3, 5))]
    assert key("2025년 3월 5일") == [("date", (2025, 3, 5))]
    assert key("3만 원") == key("30,000원") == [("원", ("30000",))]
    assert key("1억 2천만 원") == [("원", ("120000000",))]
    assert key("월 310만 원") == [("원", ("3100000",))]
    assert key("1,200명") == [("명", ("1200",))]
    # "1,2차" is a list of two rounds, never 12
    assert key("1,2차 면접") == [("차", ("1",)), ("차", ("2",))]
    assert key("3~5명") == [("명", ("3",)), ("명", ("5",))]
    assert key("오후 3시 30분") == key("15:30") == [("time", (15, 30))]
    assert key("40%") == key("40 퍼센트") == [("%", ("40",))]
    # a counter glued to a longer noun is no counter: 118 건물 is not "118 건"
    assert [k for k in key("성수이로 118 건물") if k[0] != "name"] == [("수", ("118",))]
    assert key("AES-256으로") == [("name", ("aes-256",))]


def test_iso_and_korean_dates_match_leading_zeros():
    v = answer("2025년 3월 5일 출시", "2025-03-05 출시")
    assert v.label == "YES" and "[values-anchored]" in v.rationale


def test_thousands_separator_and_korean_multiplier():
    assert answer("월 이용료는 3만 원", "월 이용료는 30,000원").label == "YES"
    # the adversarial case: a list read as a number
    assert answer("1,2차 면접", "12차 면접").label == "NO"


# ---- missing vs wrong -------------------------------------------------------------------------------


def test_missing_value_is_partial():
    v = answer("5년 동안 보관, 매일 새벽 3시에 수행", "매일 새벽 3시에 수행")
    assert v.label == "PARTIAL" and "[missing-value]" in v.rationale and "5년" in v.rationale


def test_wrong_value_is_no():
    v = answer("백엔드 개발자 채용은 2명", "백엔드 개발자 채용은 3명")
    assert v.label == "NO" and "[wrong-value]" in v.rationale and "3명" in v.rationale
    assert answer("할인율 40%", "4%, 대상 40명").label == "NO"  # 40 is there, as a head count
    assert answer("마감은 오후 5시", "마감은 오전 5시").label == "NO"
    assert answer("마감은 오후 5시", "마감은 17:00").label == "YES"


def test_wrong_word_value_is_no():
    # "X는 Y": the comment is the value even without a number
    assert answer("한빛물류 요금제는 스탠다드", "한빛물류 요금제는 엔터프라이즈").label == "NO"
    assert answer("한빛물류 요금제는 엔터프라이즈", "한빛물류 요금제는 스탠다드").label == "NO"
    assert answer("세미나는 온라인 웨비나로 진행", "세미나는 코엑스 E홀에서 진행").label == "NO"
    assert answer("DB 이전 대상은 Aurora로 결정", "DB 이전 대상은 AlloyDB로 결정").label == "NO"


def test_no_expected_value_stated_is_no():
    v = answer("월 약 320만 원", "도담리테일 통합 알림 시스템 개발 인원은 4명")
    assert v.label == "NO"


# ---- polarity: negation, cancellation/retraction, postponement --------------------------------------


def test_retraction_cancellation_postponement_on_one_side_is_no():
    for said in (
        "3월 5일 배포 예정은 취소되었다",
        "3월 5일 배포 예정. 취소되었다.",
        "3월 5일 배포는 연기됐다",
        "3월 5일 배포는 미뤄졌다",
        "3월 5일 배포는 하지 않는다",
        "3월 5일 배포 계획은 철회됐다",
        "3월 5일 배포 예정. 그러나 이 계획은 취소됐다.",
    ):
        v = answer("3월 5일 배포 예정", said)
        assert v.label == "NO" and "[polarity]" in v.rationale, said
    # and the other way round: the expected statement says it was cancelled
    assert answer("코엑스 E홀 대관 취소", "코엑스 E홀 대관").label == "NO"
    assert answer("코엑스 E홀 대관 취소", "코엑스 E홀 대관은 취소됐다").label == "YES"
    assert answer("웨비나 참가 인원 제한 없음", "웨비나 참가 인원 제한 120명").label == "NO"
    assert answer("웨비나 참가 인원 제한 없음", "웨비나 참가 인원 제한은 없다").label == "YES"


def test_retraction_counts_for_claims_too():
    v = J.grade_claim("3월 5일 배포 예정", ["3월 5일 배포 예정은 취소되었다"])
    assert v.label == "NO"


def test_postponement_to_a_new_value_is_a_change():
    # "…로 연기" names the new date: judged on the values, not as a postponement
    assert answer("배포일은 3월 7일", "배포는 3월 5일에서 3월 7일로 연기됐다").label == "YES"
    assert answer("배포일은 3월 5일", "배포는 3월 5일에서 3월 7일로 연기됐다").label == "NO"


def test_markers_of_other_clauses_do_not_leak():
    fact = "정기 점검 일자는 5월 16일 토요일, 점검 중에는 카드 결제 승인이 중단됨."
    assert J.grade_claim("정기 점검 일자는 5월 16일 토요일", [fact]).label == "YES"


# ---- two values for one slot ------------------------------------------------------------------------


def test_unmarked_multi_value_answer_is_no():
    v = answer("3월 5일", "3월 5일, 3월 7일")
    assert v.label == "NO" and "[multi-value]" in v.rationale
    listed = (
        "라온핏 앱 3.0 출시 목표일은 4월 13일 / 라온핏 앱 3.0 출시 목표일은 3월 30일 / "
        "1차 지연 사유는 구독 결제 회귀 테스트 2주 추가"
    )
    assert answer("4월 13일", listed, "라온핏 앱 3.0의 현재 출시 목표일은 언제인가?").label == "NO"


def test_other_slots_in_a_list_do_not_count_as_hedging():
    listed = "새 사무실 첫 출근일은 6월 15일 월요일 / 사무실 이전 날짜는 6월 13일 토요일"
    q = "하늬디자인 직원들이 새 사무실로 처음 출근하는 날은 언제인가요?"
    assert answer("6월 15일 월요일", listed, q).label == "YES"


def test_value_marked_former_is_not_a_hedge():
    assert answer("배포일은 3월 7일", "배포일은 기존 3월 5일에서 3월 7일로 변경").label == "YES"
    assert answer("DB는 Aurora", "DB는 예전엔 PostgreSQL이었지만 지금은 Aurora").label == "YES"
    # the stale value stated as former is not the current value
    assert answer("DB는 PostgreSQL", "DB는 예전엔 PostgreSQL이었지만 지금은 Aurora").label == "NO"
    assert answer("인원은 3명", "인원은 원래 3명이었는데 2명으로 줄었다").label == "NO"


# ---- hedges as words --------------------------------------------------------------------------------


def test_hedge_markers_are_words():
    # since lexical-7 a hedge over the right value is PARTIAL (the value, not committed to); one
    # that offers another value is NO
    assert answer("채용은 3명", "채용은 3명일수도 있다").label == "PARTIAL"
    assert answer("채용은 3명", "채용은 아마 3명").label == "PARTIAL"
    assert answer("채용은 3명", "채용은 3명 또는 4명").label == "NO"
    assert answer("채용은 3명", "채용은 아마 4명").label == "NO"
    # "운동 일수도" (the number of exercise days too) is no hedge
    assert answer("운동 일수도 주 3회", "운동 일수도 주 3회").label == "YES"
    # a hedge the expected statement itself makes is not held against the answer
    assert (
        answer("원인은 DB 커넥션 풀 고갈로 추정", "원인은 DB 커넥션 풀 고갈로 추정").label == "YES"
    )
    # stored facts are not answers: the claim rules ignore hedges
    assert J.grade_claim("채용은 2명", ["채용은 2명 또는 그 이상"]).label == "YES"


# ---- particles and endings --------------------------------------------------------------------------


def test_paraphrase_with_other_particles_passes():
    assert answer("Aurora로 이전한다", "Aurora에 이전합니다").label == "YES"
    assert (
        answer(
            "가람상사 DB 이전 대상은 Aurora로 결정", "가람상사 DB 이전 대상은 Aurora에 이전합니다"
        ).label
        == "YES"
    )


# ---- the rationale agrees with the label ------------------------------------------------------------

PAIRS = [
    ("5년 동안 보관, 매일 새벽 3시에 수행", "매일 새벽 3시에 수행"),
    ("3월 5일", "3월 5일, 3월 7일"),
    ("가나다 라마바 사아자", "가나다 라마바"),
    ("가나다 라마바 사아자 차카타 파하", "가나다 라마바 사아자 차카타"),
    ("채용은 2명", "채용은 2명"),
    ("채용은 2명", "점심은 김밥"),
]


@pytest.mark.parametrize("expected,candidate", PAIRS)
def test_rationale_agrees_with_label(expected, candidate):
    for judge in (J, LexicalJudge("lenient")):
        v = judge.grade_answer("", expected, candidate)
        assert v.rationale.startswith(v.label + " ["), v.rationale
        m = lexical.measure(expected, candidate)
        if "[partial-recall]" in v.rationale:
            assert m.recall < lexical.YES_RECALL and f"{m.found}/{m.total}" in v.rationale
        if "[all-found]" in v.rationale:
            assert m.recall >= lexical.YES_RECALL


def test_thresholds_are_exact_fractions():
    # 4 of 5 nouns is exactly 4/5: YES, not a float that falls short of 0.8
    m = lexical.measure("가나다 라마바 사아자 차카타 파하", "가나다 라마바 사아자 차카타")
    assert (m.found, m.total) == (4, 5) and m.recall == Fraction(4, 5)
    assert lexical.grade(m, check_hedge=True)[0] == "YES"
    m = lexical.measure("가나다 라마바 사아자", "가나다 라마바")
    assert m.recall == Fraction(2, 3) and lexical.grade(m, check_hedge=True)[0] == "PARTIAL"


def test_rules_version_is_recorded():
    assert J.rules == lexical.RULES_VERSION


def test_two_word_values_for_one_topic_is_no():
    q = "한빛물류의 현재 요금제는 무엇인가요?"
    assert answer("엔터프라이즈", "엔터프라이즈 / 한빛물류 요금제는 스탠다드", q).label == "NO"
    assert (
        answer(
            "한빛물류 요금제는 엔터프라이즈",
            "한빛물류 요금제는 엔터프라이즈 / 한빛물류 요금제는 스탠다드",
        ).label
        == "NO"
    )
    # another topic in the list is no second value
    listed = "한빛물류 요금제는 엔터프라이즈 / 한빛물류 월 이용료는 310만 원"
    assert answer("엔터프라이즈", listed, q).label == "YES"
    # the subject alone ("가람상사는 …") is no slot: no second value, but since lexical-6 the
    # other clause's words are accounted for by nothing (full accounting): PARTIAL, naming them
    listed = "가람상사 DB 이전 대상은 Aurora로 결정 / 가람상사는 사내 서버에서 PostgreSQL 14 운영"
    v = answer("Aurora", listed, "가람상사가 이전 대상 데이터베이스로 최종 결정한 것은 무엇인가?")
    assert v.label == "PARTIAL" and "[unverified]" in v.rationale and "서버" in v.rationale


def test_versions_of_a_name_compete():
    assert (
        answer(
            "백업 파일은 AES-256으로 암호화",
            "백업 파일은 AES-256으로 암호화 / 백업 파일은 AES-257으로 암호화",
        ).label
        == "NO"
    )
    assert answer("백업 파일은 AES-256으로 암호화", "백업 파일은 AES-128으로 암호화").label == "NO"


def test_a_cancellation_retracted_again_is_no():
    assert (
        answer("코엑스 E홀 대관 취소", "코엑스 E홀 대관 취소. 그러나 이 계획은 취소됐다.").label
        == "NO"
    )
    assert (
        answer("카드 결제 승인이 중단됨", "카드 결제 승인이 중단됨 — 이 내용은 철회되었다.").label
        == "NO"
    )


# ---- a clause left out is missing, not contradicted (lexical-3) -------------------------------------

SEUM_Q = "세움페이 5월 정기 점검은 언제 몇 시부터 몇 시까지 하고, 무슨 작업이며, 그동안 어떤 결제가 멈추나요?"
SEUM = "5월 16일 토요일 오전 2시부터 7시까지, 결제 승인 DB 이중화 전환 작업이며, 점검 중에는 카드 결제 승인이 중단된다."
SEUM_TWO_PARTS = "점검 시간은 오전 2시부터 7시까지 / 점검 작업은 결제 승인 DB 이중화 전환 / 정기 점검 일자는 5월 16일 토요일"


def test_a_left_out_clause_is_partial_not_a_polarity_clash():
    # the 작업 fact shares 결제, 승인 with the 중단 clause; it used to be read as that clause without
    # its 중단 (NO [polarity]) although it states another clause and the 중단 clause is simply absent
    v = answer(SEUM, SEUM_TWO_PARTS, SEUM_Q)
    assert (
        v.label == "PARTIAL"
        and "[missing-clause]" in v.rationale
        and "카드 결제 승인이 중단" in v.rationale
    )


def test_the_clause_stated_without_its_marker_is_still_no():
    # the fooling case the other way: the 중단 clause is there, but says payments continue
    v = answer(SEUM, SEUM_TWO_PARTS + " / 점검 중에도 카드 결제 승인은 계속된다", SEUM_Q)
    assert v.label == "NO" and "[polarity]" in v.rationale


def test_all_clauses_stated_is_yes():
    v = answer(SEUM, SEUM_TWO_PARTS + " / 점검 중에는 카드 결제 승인 중단", SEUM_Q)
    assert v.label == "YES", v.rationale


def test_missing_clause_counts_only_the_clause_own_words():
    # 점검 is the question's subject (every part shares it): it does not make the 중단 clause stated
    m = lexical.measure(SEUM, SEUM_TWO_PARTS, SEUM_Q)
    assert m.missing_clauses == ("점검 중에는 카드 결제 승인이 중단된다",)
    # one clause: nothing to leave out (the recall and value rules judge it)
    assert lexical.measure("채용은 2명", "채용은 2명").missing_clauses == ()


def test_the_predicate_of_the_stating_clause_is_no_second_value():
    q = "솔빛마켓이 주문 API 후보에서 Lambda를 뺀 이유는 무엇인가요?"
    listed = (
        "Lambda는 콜드 스타트 문제로 제외 / Fargate를 택한 이유는 주문 API의 100ms 이하 응답 요구"
    )
    assert answer("콜드 스타트 문제", listed, q).label == "YES"  # 제외 was read as a second reason
    # ... while a second clause giving another reason for the same topic still hedges
    v = answer(
        "콜드 스타트 문제", "Lambda는 콜드 스타트 문제로 제외 / Lambda는 비용 문제로 제외", q
    )
    assert v.label == "NO" and "[multi-value]" in v.rationale


# ---- the right value said about the asked thing, the rest left out: PARTIAL, not low-recall NO ---------


def test_a_stated_value_with_the_rest_missing_is_partial():
    q = "미리내소프트 하반기 백엔드 개발자 채용 인원은 몇 명인가요?"
    v = answer("2명 (한 자리는 2027년 1분기로 연기)", "하반기 백엔드 개발자 채용은 2명", q)
    assert v.label == "PARTIAL" and "[missing-value]" in v.rationale  # was NO [low-recall] 1/5
    # a fact that drops the subject but states the slot's value
    c = J.grade_claim(
        "한빛물류 엔터프라이즈 요금제 적용 시작일은 2026년 4월 1일", ["적용 시작일: 2026년 4월 1일"]
    )
    assert c.label == "PARTIAL"


def test_the_same_value_about_something_else_is_still_no():
    # the date is there, said about lunch: nothing of the meeting is stated
    v = answer(
        "회의는 3월 5일 본사 대회의실에서 김민수 팀장 주재로 예산 검토",
        "점심 약속은 3월 5일",
        "회의는 언제 어디서?",
    )
    # lexical-5 names why: the answer's clause is about 점심, not 회의 (before: [low-recall])
    assert v.label == "NO" and "[wrong-subject]" in v.rationale
    # a number inside the candidate clause's subject (앱 3.0) is no answer to another slot
    c = J.grade_claim(
        "라온핏 앱 3.0 핵심 기능은 오프라인 운동 기록", ["라온핏 앱 3.0 출시 목표일은 3월 16일(월)"]
    )
    assert c.label == "NO"
    assert not lexical.measure(
        "라온핏 앱 3.0 핵심 기능은 오프라인 운동 기록", "라온핏 앱 3.0 출시 목표일은 3월 16일"
    ).anchored
