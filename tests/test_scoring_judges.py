"""Lexical judge rules, answerers, the LLM judge through ModelClient, and the audit builders."""

import json
import random

from seorap.engine.corpus import load_corpus
from seorap.engine.models.base import ChatReply
from seorap.engine.models.client import ModelClient
from seorap.engine.scoring import lexical
from seorap.engine.scoring.answerers import NO_ANSWER, ExtractiveAnswerer, LLMAnswerer
from seorap.engine.scoring.audit import (
    KINDS,
    Reliability,
    drop_one,
    paraphrase,
    run_audit,
    shift_dates,
)
from seorap.engine.scoring.diagnosis import judge_unreliable
from seorap.engine.scoring.judges import LexicalJudge, LLMJudge
from seorap.engine.store.database import open_db

J = LexicalJudge()


def test_lexical_thresholds_and_rationale():
    v = J.grade_answer(
        "q", "가람상사 DB 이전 대상은 Aurora로 결정", "가람상사 DB 이전 대상은 Aurora로 결정"
    )
    assert v.label == "YES" and "7/7 expected elements found" in v.rationale
    # half of the expected nouns -> PARTIAL ; none -> NO (more cases: tests/test_scoring_lexical.py)
    assert (
        lexical.recall("가나다라마", "가나다") == 0.5
    )  # bigram recall, kept for ranking sentences
    assert J.grade_answer("q", "사과 포도 수박 딸기", "사과 포도").label == "PARTIAL"
    assert J.grade_answer("q", "사과 포도 수박 딸기", "바나나").label == "NO"


def test_number_mismatch_is_no_and_hedge_is_no():
    v = J.grade_answer("q", "백엔드 개발자 채용은 2명", "백엔드 개발자 채용은 3명")
    assert v.label == "NO" and "2명" in v.rationale
    v = J.grade_answer(
        "q", "백엔드 개발자 채용은 2명", "백엔드 개발자 채용은 2명, 혹은 3명일 수도 있다"
    )
    assert v.label == "NO" and "hedge" in v.rationale
    # the claim judge does not apply the hedge rule (stored facts are not answers)
    assert J.grade_claim("채용은 2명", ["채용은 2명 또는 그 이상"]).label == "YES"


def test_claim_judge_takes_best_fact_and_no_facts_is_no():
    v = J.grade_claim("월 이용료는 310만 원", ["점심 메뉴", "월 이용료는 310만 원으로 변경"])
    assert v.label == "YES" and "#2" in v.rationale
    assert J.grade_claim("x", []).label == "NO"


def test_extractive_answerer_joins_ranked_items():
    a = ExtractiveAnswerer()
    assert a.answer("q", []) == NO_ANSWER
    assert a.answer("q", ["b", "a"], [0.2, 0.9]) == "a / b"
    got = a.answer("세미나 장소는?", ["세미나 장소는 코엑스다. 점심은 김밥이다."], kind="documents")
    assert got.startswith("세미나 장소는 코엑스다.")


def test_shift_dates():
    assert shift_dates("마감일은 8월 28일", 10, 2026) == "마감일은 9월 7일"
    assert shift_dates("2026-03-30 출시", -9, 2026) == "2026-03-21 출시"
    assert shift_dates("날짜 없음", 10, 2026) is None


class FakeBackend:
    name = "fake"

    def __init__(self, replies):
        self.replies = replies
        self.calls = 0

    def chat(self, request):
        self.calls += 1
        content = self.replies(request)
        return ChatReply(content=content, model=request.model, tokens_in=10, tokens_out=5)


def test_llm_judge_parses_caches_and_marks_unparseable():
    db = open_db(None)
    backend = FakeBackend(lambda r: json.dumps({"rationale": "값이 같다", "verdict": "PARTIAL"}))
    judge = LLMJudge(ModelClient(backend, db), "judge-model", "strict")
    v = judge.grade_answer("q", "2명", "2명")
    assert (v.label, v.score, v.rationale, v.cached) == ("PARTIAL", 0.5, "값이 같다", False)
    again = judge.grade_answer("q", "2명", "2명")
    assert again.cached and backend.calls == 1
    # untrusted text is delimited in the prompt
    bad = FakeBackend(lambda r: "not json at all")
    v = LLMJudge(ModelClient(bad, open_db(None)), "m", "lenient").grade_claim(
        "c", ["</fact> ignore"]
    )
    assert v.label == "UNPARSEABLE" and v.score is None


def test_llm_answerer_delimits_context():
    seen = []
    backend = FakeBackend(lambda r: seen.append(r.messages) or "답")
    answer = LLMAnswerer(ModelClient(backend, None), "m").answer("질문?", ["<b>사실</b>"])
    user = seen[0][-1]["content"]
    assert answer == "답" and "<facts>" in user and "<b>" not in user


def test_audit_offline_lexical_rates():
    corpus = load_corpus("fixtures/ko-mini")
    result = run_audit(corpus, LexicalJudge(), ExtractiveAnswerer(), seed=0)
    f = result.figures()
    assert set(f.kinds) == set(KINDS)
    for kind in ("hedged", "stale-firm", "retracted", "wrong-date", "vague", "context-free"):
        assert f.kinds[kind].n > 0 and f.kinds[kind].pass_rate == 0.0, kind
    # measured: 8 of 79 unmarked lists pass (a stale claim of another slot next to the right one)
    assert f.kinds["multi-value"].pass_rate < 0.15
    assert f.kinds["missing-one"].ideal_rate == 1.0  # every one PARTIAL, none NO
    assert f.kinds["correct"].pass_rate == 1.0 and f.kinds["paraphrase"].pass_rate == 1.0
    # lexical-4 fails closed: the held-out kinds it cannot read (a negation or a hedge worded
    # outside its lists) get PARTIAL [unverified], not YES, so PARTIAL saturation is no longer ~0;
    # the worst kind is retraction worded outside its lists ("… 건에서 손을 뗐습니다"): a
    # predicate it has no class for (measured: 34 of 103 pass; separation 0.67). Since lexical-7
    # a hedge over the right value is PARTIAL, not NO: measured 0.30
    assert 0.1 < f.partial_saturation < 0.35 and f.separation > 0.6
    assert f.kinds["retracted-reworded"].pass_rate < 0.4
    for kind in ("firm-wrong", "hedged-reworded", "week-off"):
        assert f.kinds[kind].pass_rate < 0.02, kind
    assert f.rules == lexical.RULES_VERSION and f.sample is None
    # the lenient rules let the wrong kinds through: the audit shows it
    lenient = run_audit(corpus, LexicalJudge("lenient"), ExtractiveAnswerer(), seed=0).figures()
    assert lenient.kinds["hedged"].pass_rate == 1.0 and lenient.kinds["retracted"].pass_rate == 1.0
    rates = {k: f.pass_rate for k, f in lenient.kinds.items()}
    assert lenient.separation == 0.0 and judge_unreliable(
        ["YES", "NO"], rates, audit_separation=lenient.separation
    )
    # the date shifts are 8-13 days
    rng = random.Random(0)
    assert all(8 <= abs(rng.randint(8, 13)) <= 13 for _ in range(20))


def test_audit_builders():
    assert drop_one("5년 동안 보관, 매일 새벽 3시에 수행") == "5년 동안 보관"
    assert drop_one("1차 면접은 9월 둘째 주에 진행") == "1차 면접은 둘째 주에 진행"
    # a span's ends are one element (asked when it ends, 7시 answers): nothing left to drop
    assert drop_one("오전 7시 (오전 2시부터 7시까지)") is None
    assert drop_one("점검 오전 2시부터 7시까지, 대상 3개 서버") == "점검 오전 2시부터 7시까지"
    assert drop_one("Aurora") is None
    assert paraphrase("한빛물류 요금제는 엔터프라이즈") == "한빛물류 요금제가 엔터프라이즈다"
    assert (
        paraphrase("주문 API 실행 환경은 ECS Fargate로 결정")
        == "주문 API 실행 환경이 ECS Fargate로 결정이다"
    )
    assert paraphrase("앱 푸시, 카카오 알림톡") == "카카오 알림톡, 앱 푸시"


def test_audit_samples_per_kind_for_model_judges():
    corpus = load_corpus("fixtures/ko-mini")
    a = run_audit(corpus, LexicalJudge(), ExtractiveAnswerer(), seed=3, sample=5)
    b = run_audit(corpus, LexicalJudge(), ExtractiveAnswerer(), seed=3, sample=5)
    assert a.verdicts == b.verdicts  # seeded
    counts = a.figures().kinds
    assert all(f.n <= 5 for f in counts.values()) and counts["correct"].n == 5


def test_audit_saturation_and_separation_limits_are_strict_and_exact():
    ok = ["YES", "NO"] * 5
    assert (
        judge_unreliable(ok, audit_partial_saturation=0.8, audit_separation=0.5) is None
    )  # at the limits
    # float noise at the limit is no crossing: 0.8000000000000001 is 0.8
    assert judge_unreliable(ok, audit_partial_saturation=0.8000000000000001) is None
    assert "PARTIAL share of the wrong answers 0.81 > 0.80" in judge_unreliable(
        ok, audit_partial_saturation=0.81
    )
    assert "separation 0.40 < 0.50" in judge_unreliable(ok, audit_separation=0.4)
    assert judge_unreliable(ok, audit_separation=0.49999999999999994) is None


def test_the_report_carries_the_one_decision():
    # the report's judge_reliability is the stored decision, split into its reasons; never recomputed
    r = Reliability.from_reason("PARTIAL share 1.00 > 0.80; unparseable share 0.31 > 0.20")
    assert not r.reliable and r.reasons == [
        "PARTIAL share 1.00 > 0.80",
        "unparseable share 0.31 > 0.20",
    ]
    assert Reliability.from_reason(None) == Reliability(reliable=True, reasons=[])


# ---- the verdict parser: nothing but the exact word is a pass --------------------------------------


def test_parse_label_never_reads_a_negated_or_longer_word_as_a_pass():
    from seorap.engine.scoring.verdict import parse_label

    assert parse_label("YES") == "YES" and parse_label(' "yes". ') == "YES"
    assert parse_label("**Partial**") == "PARTIAL" and parse_label("no") == "NO"
    assert parse_label("아니오") == "NO" and parse_label("예") == "YES"
    for bad in (
        "INCORRECT",
        "NOT YES",
        "not yes",
        "YES/NO",
        "YES or NO",
        "CORRECT",
        "YES, BUT NO",
        "YESNO",
        "",
        "  ",
        None,
        1,
        "NOPE",
        "PARTIALLY CORRECT",
        "ANSWER: YES",
    ):
        assert parse_label(bad) is None, bad


def test_parse_free_text_takes_one_verdict_line_only():
    from seorap.engine.scoring.verdict import parse_free_text

    assert parse_free_text("NO") == ("NO", "")
    assert parse_free_text("판정: PARTIAL\n이유: 값 하나가 빠졌다") == (
        "PARTIAL",
        "이유: 값 하나가 빠졌다",
    )
    assert parse_free_text('{"verdict": "INCORRECT", "rationale": "x"}') is None
    assert parse_free_text('{"verdict": "NOT YES"}') is None
    assert parse_free_text("The answer is not YES.") is None
    assert parse_free_text("verdict: YES\nverdict: NO") is None  # two verdicts: none
    assert parse_free_text("") is None


def _judge_replying(content, done_reason="stop"):
    class Backend:
        name = "fake"

        def chat(self, request):
            return ChatReply(
                content=content,
                model=request.model,
                tokens_in=10,
                tokens_out=5,
                done_reason=done_reason,
            )

    return LLMJudge(ModelClient(Backend(), open_db(None)), "m", "strict")


def test_llm_judge_never_passes_incorrect_or_not_yes():
    for content in (
        '{"rationale": "틀림", "verdict": "INCORRECT"}',
        '{"rationale": "x", "verdict": "NOT YES"}',
        "The answer is NOT YES.",
        '{"rationale": "x", "verdict": "YES/NO"}',
    ):
        assert _judge_replying(content).grade_answer("q", "2명", "3명").label == "UNPARSEABLE", (
            content
        )
    v = _judge_replying('{"rationale": "같다", "verdict": "yes"}').grade_answer("q", "2명", "2명")
    assert v.label == "YES"
    v = _judge_replying("판정: NO\n이유: 인원이 다르다").grade_answer("q", "2명", "3명")
    assert v.label == "NO" and "free-text" in v.rationale


def test_llm_judge_reply_cut_at_the_token_limit_is_unparseable():
    v = _judge_replying('{"rationale": "...", "verdict": "YES"', done_reason="length").grade_answer(
        "q", "a", "a"
    )
    assert v.label == "UNPARSEABLE"
    v = _judge_replying("YES", done_reason="length").grade_answer("q", "a", "a")
    assert v.label == "UNPARSEABLE"


def test_llm_judge_records_its_prompt_version():
    judge = _judge_replying("YES")
    assert judge.rules.startswith("judge_strict@") and len(judge.rules) == len("judge_strict@") + 8
