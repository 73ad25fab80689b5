"""Lexical judge rules, answerers, the LLM judge through ModelClient, and the audit builders."""

import json
import random

from engine.corpus import load_corpus
from engine.models.base import ChatReply
from engine.models.client import ModelClient
from engine.scoring import lexical
from engine.scoring.answerers import NO_ANSWER, ExtractiveAnswerer, LLMAnswerer
from engine.scoring.audit import run_audit, shift_dates
from engine.scoring.judges import LexicalJudge, LLMJudge
from engine.store import open_db

J = LexicalJudge()


def test_lexical_thresholds_and_rationale():
    v = J.grade_answer("q", "가람상사 DB 이전 대상은 Aurora로 결정", "가람상사 DB 이전 대상은 Aurora로 결정")
    assert v.label == "YES" and "7/7 expected elements found" in v.rationale
    # half of the expected nouns -> PARTIAL ; none -> NO (more cases: tests/test_scoring_lexical.py)
    assert lexical.recall("가나다라마", "가나다") == 0.5  # bigram recall, kept for ranking sentences
    assert J.grade_answer("q", "사과 포도 수박 딸기", "사과 포도").label == "PARTIAL"
    assert J.grade_answer("q", "사과 포도 수박 딸기", "바나나").label == "NO"


def test_number_mismatch_is_no_and_hedge_is_no():
    v = J.grade_answer("q", "백엔드 개발자 채용은 2명", "백엔드 개발자 채용은 3명")
    assert v.label == "NO" and "2명" in v.rationale
    v = J.grade_answer("q", "백엔드 개발자 채용은 2명", "백엔드 개발자 채용은 2명, 혹은 3명일 수도 있다")
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
    v = LLMJudge(ModelClient(bad, open_db(None)), "m", "lenient").grade_claim("c", ["</fact> ignore"])
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
    for kind in ("hedged", "wrong-date", "vague", "context-free"):
        assert result.by_kind[kind]["n"] > 0
        assert result.by_kind[kind]["pass_rate"] == 0.0
    assert result.by_kind["correct"]["pass_rate"] == 1.0
    # the date shifts are 8-13 days
    rng = random.Random(0)
    assert all(8 <= abs(rng.randint(8, 13)) <= 13 for _ in range(20))


# ---- the verdict parser: nothing but the exact word is a pass --------------------------------------

def test_parse_label_never_reads_a_negated_or_longer_word_as_a_pass():
    from engine.scoring.verdict import parse_label

    assert parse_label("YES") == "YES" and parse_label(' "yes". ') == "YES"
    assert parse_label("**Partial**") == "PARTIAL" and parse_label("no") == "NO"
    assert parse_label("아니오") == "NO" and parse_label("예") == "YES"
    for bad in ("INCORRECT", "NOT YES", "not yes", "YES/NO", "YES or NO", "CORRECT", "YES, BUT NO",
                "YESNO", "", "  ", None, 1, "NOPE", "PARTIALLY CORRECT", "ANSWER: YES"):
        assert parse_label(bad) is None, bad


def test_parse_free_text_takes_one_verdict_line_only():
    from engine.scoring.verdict import parse_free_text

    assert parse_free_text("NO") == ("NO", "")
    assert parse_free_text("판정: PARTIAL\n이유: 값 하나가 빠졌다") == ("PARTIAL", "이유: 값 하나가 빠졌다")
    assert parse_free_text('{"verdict": "INCORRECT", "rationale": "x"}') is None
    assert parse_free_text('{"verdict": "NOT YES"}') is None
    assert parse_free_text("The answer is not YES.") is None
    assert parse_free_text("verdict: YES\nverdict: NO") is None  # two verdicts: none
    assert parse_free_text("") is None


def _judge_replying(content, done_reason="stop"):
    class Backend:
        name = "fake"

        def chat(self, request):
            return ChatReply(content=content, model=request.model, tokens_in=10, tokens_out=5,
                             done_reason=done_reason)

    return LLMJudge(ModelClient(Backend(), open_db(None)), "m", "strict")


def test_llm_judge_never_passes_incorrect_or_not_yes():
    for content in ('{"rationale": "틀림", "verdict": "INCORRECT"}', '{"rationale": "x", "verdict": "NOT YES"}',
                    "The answer is NOT YES.", '{"rationale": "x", "verdict": "YES/NO"}'):
        assert _judge_replying(content).grade_answer("q", "2명", "3명").label == "UNPARSEABLE", content
    v = _judge_replying('{"rationale": "같다", "verdict": "yes"}').grade_answer("q", "2명", "2명")
    assert v.label == "YES"
    v = _judge_replying("판정: NO\n이유: 인원이 다르다").grade_answer("q", "2명", "3명")
    assert v.label == "NO" and "free-text" in v.rationale


def test_llm_judge_reply_cut_at_the_token_limit_is_unparseable():
    v = _judge_replying('{"rationale": "...", "verdict": "YES"', done_reason="length").grade_answer("q", "a", "a")
    assert v.label == "UNPARSEABLE"
    v = _judge_replying("YES", done_reason="length").grade_answer("q", "a", "a")
    assert v.label == "UNPARSEABLE"


def test_llm_judge_records_its_prompt_version():
    judge = _judge_replying("YES")
    assert judge.rules.startswith("judge_strict@") and len(judge.rules) == len("judge_strict@") + 8
