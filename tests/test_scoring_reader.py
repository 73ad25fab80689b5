"""The offline answerers: the reference reader and the extractive baseline, with hand-worked cases."""

from types import SimpleNamespace

from seorap.engine.scoring.answerers import (
    NO_ANSWER,
    ExtractiveAnswerer,
    ReaderAnswerer,
    make_answerer,
)

STALE = "하반기 백엔드 개발자 채용은 3명"
CURRENT = "하반기 백엔드 개발자 채용은 2명"
LUNCH = "점심 메뉴는 김치찌개"


def test_extractive_depth_10_answers_with_ten_facts():
    facts = [f"사실 {n}번" for n in range(10)]
    scores = [1 - n / 10 for n in range(10)]
    a = ExtractiveAnswerer()
    assert a.answer("q", facts, scores).count(" / ") == 9  # the old cap made k=10 == k=5
    assert a.answer("q", facts[:5], scores[:5]) != a.answer("q", facts, scores)
    # unranked documents keep the 5 best sentences
    doc = ". ".join(f"문장 {n}번이다" for n in range(8)) + "."
    assert a.answer("문장", [doc], kind="documents").count(" / ") == 4


def test_reader_prefers_the_more_recent_fact_for_the_same_part():
    q = "하반기 백엔드 개발자 채용 인원은 몇 명인가요?"
    # the stale value ranks first; the extractive baseline hands both values (and lunch) to the judge
    assert (
        ExtractiveAnswerer().answer(q, [STALE, CURRENT, LUNCH], [0.9, 0.8, 0.1])
        == f"{STALE} / {CURRENT} / {LUNCH}"
    )
    r = ReaderAnswerer()
    assert r.answer(q, [STALE, CURRENT, LUNCH], [0.9, 0.8, 0.1], recency=[0, 2, 3]) == CURRENT
    # without recency it cannot tell which is current: it keeps the top-ranked one only
    assert r.answer(q, [STALE, CURRENT, LUNCH], [0.9, 0.8, 0.1]) == STALE


def test_reader_covers_each_part_of_a_compound_question_once():
    q = "세움페이 점검 시간과 작업 내용은?"
    facts = [
        "점검 시간은 오전 2시부터 7시까지",
        "가맹점 공지는 5월 12일 발송",
        "점검 작업은 DB 이중화 전환",
    ]
    # bigram weights log(N/df), N = 3: 점검 (2 facts) 0.41, 시간 and 작업 (1 fact) 1.10; the notice
    # matches nothing and is left out; the answer keeps rank order
    assert (
        ReaderAnswerer().answer(q, facts, [0.9, 0.5, 0.4], recency=[1, 1, 1])
        == "점검 시간은 오전 2시부터 7시까지 / 점검 작업은 DB 이중화 전환"
    )


def test_reader_edges():
    r = ReaderAnswerer()
    assert r.answer("q", []) == NO_ANSWER
    assert (
        r.answer("세미나 장소는?", ["세미나 장소는 코엑스"], [0.3]) == "세미나 장소는 코엑스"
    )  # k = 1
    # nothing in the context shares a bigram with a paraphrased question: retrieval's first pick
    assert r.answer("행사는 어디서 열리나?", [LUNCH, "세미나 장소는 코엑스"], [0.7, 0.6]) == LUNCH


def test_reader_on_documents_uses_document_order_as_recency():
    old = "세미나 장소는 코엑스 E홀이다. 점심은 도시락이다."
    new = "세미나 장소는 온라인 웨비나로 바뀌었다."
    assert (
        ReaderAnswerer().answer(
            "세미나 장소는 어디인가?", [old, new], kind="documents", recency=[0, 1]
        )
        == "세미나 장소는 온라인 웨비나로 바뀌었다."
    )


def test_make_answerer_offline_names():
    config = lambda name: SimpleNamespace(models=SimpleNamespace(answerer=name))  # noqa: E731
    assert make_answerer(config("reader")).name == "reader"
    assert make_answerer(config("extractive")).name == "extractive"


def test_asked_types_from_question_words():
    from seorap.engine.scoring.answerers import CLOCK, FREQUENCY, MONEY, PERCENT, WHEN, asked_types

    assert asked_types("백업에서 데이터를 되살리는 연습을 얼마나 자주 하나요?") == {
        "frequency": FREQUENCY
    }
    assert asked_types("실패해도 되는 비율의 상한은 얼마인가요?") == {"percent": PERCENT}
    assert asked_types("어떤 요금제를 쓰고 있고, 한 달에 얼마를 내며, 언제부터 적용됐나요?") == {
        "money": MONEY,
        "when": WHEN | CLOCK,
    }  # 요금제 names a plan, not a price
    assert asked_types("최대 좌석 수는 몇 석인가?") == {"counter:석": frozenset({"석"})}
    assert asked_types("점검은 몇 시에 끝나나요?") == {"clock": CLOCK}
    assert asked_types("몇 시간 걸렸나?") == {
        "counter:시간": frozenset({"시간"})
    }  # 몇 시간 is no clock
    assert asked_types("잔액은 얼마인가?") == {"amount": frozenset()}
    assert asked_types("누가 책임지나요?") == {}


BACKUP = [
    "다온헬스케어 진료 데이터 백업 보관 기간은 5년",
    "다온헬스케어 진료 데이터 백업 사본은 서울과 부산 두 곳에 저장",
    "다온헬스케어 진료 데이터 백업은 매일 새벽 3시에 수행",
    "다온헬스케어 진료 데이터 복구 테스트는 분기마다 1회",
]


def test_reader_adds_the_fact_holding_the_asked_type():
    # a paraphrased question ("되살리는 연습" for 복구 테스트) shares no distinguishing word with the
    # fact; "얼마나 자주" asks for a frequency, and only the 1회 fact holds one (weight log(4/1))
    q = "다온헬스케어는 백업에서 데이터를 되살리는 연습을 얼마나 자주 하나요?"
    got = ReaderAnswerer().answer(q, BACKUP, [0.52, 0.49, 0.48, 0.39], recency=[1, 1, 1, 1])
    assert got.endswith("복구 테스트는 분기마다 1회") and "사본" not in got


def test_asked_type_does_not_beat_recency():
    # the fooling case: both counts hold 명; the more recent still wins the same part
    q = "하반기 백엔드 개발자 채용 인원은 몇 명인가요?"
    assert (
        ReaderAnswerer().answer(q, [STALE, CURRENT, LUNCH], [0.9, 0.8, 0.1], recency=[0, 2, 3])
        == CURRENT
    )
