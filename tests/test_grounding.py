"""Grounding (engine/memory/grounding.py): an extracted observation that states a value or a name
its document lacks, or none of its words, is flagged, counted per role in the run's accounting and
marked in the stepper's operation log. Expected verdicts are written by hand."""

from __future__ import annotations

import json

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.memory.grounding import ungrounded
from seorap.engine.models.base import ChatReply, ChatRequest
from seorap.engine.run import accounting
from seorap.engine.store.database import open_db

DOC = "09:31 차은호 (플랫폼팀장): 배포를 승인했다. 예산은 4,200만 원. 김민수가 3월 5일 발표한다."


@pytest.mark.parametrize(
    "text, why",
    [
        # the real model's loop: every word in the document, the time is not
        ("19:31 차은호 (플랫폼팀장)", "the value '19:31'"),
        ("09:31 차은호 플랫폼팀장이 배포를 승인했다", None),
        ("예산은 4200만 원이다", None),  # a thousands separator is not a different amount
        ("예산은 5,000만 원", "the value '5,000만'"),
        ("박지훈이 발표한다", "the name '박지훈'"),  # a person the document never names
        ("김민수가 3월 5일에 발표한다", None),  # a particle on a name and a date: grounded
        ("김민수가 3월 6일에 발표한다", "the value '3월 6일'"),
        ("Kim presented the plan", "the name 'Kim'"),
        ("날씨가 맑다", "none of its words"),
        ("배포가 승인되었다", None),  # a stem of the document's word, new ending
    ],
)
def test_values_names_and_words(text, why):
    got = ungrounded(text, DOC)
    assert (got is None) if why is None else (got is not None and got.startswith(why))


class Extracts:
    """A chat backend: per document one observation copied from it and one with a time it lacks."""

    name = "grounding-test"

    def chat(self, request: ChatRequest) -> ChatReply:
        if request.role == "extractor":
            body_text = request.messages[-1]["content"].split("<document>", 1)[1]
            first = next(line for line in body_text.splitlines() if len(line.strip()) > 8).strip()
            body = {"observations": [{"text": first[:40]}, {"text": f"23:59 {first[:6]}"}]}
        else:
            body = {"operation": "create", "target": "", "text": "", "confidence": 0.7}
        content = json.dumps(body, ensure_ascii=False)
        return ChatReply(content=content, model=request.model, tokens_out=len(content) // 2)


def test_ungrounded_observations_are_counted_per_role_and_marked(tmp_path):
    from seorap.engine.run.runner import run
    from seorap.engine.views.stepper import step_view

    corpus = load_corpus("fixtures/ko-mini/ko-c5-seminar.json")
    config = Config.offline(models={"extractor": "m:1b", "synthesizer": "m:1b"})
    db = open_db(tmp_path / "r.db")
    run(corpus, ["A"], db, config, backend=Extracts(), score=False)
    [run_id] = [r["run_id"] for r in db["runs"].rows]
    acc = accounting.run_accounting(db, run_id)
    extractor = next(r for r in acc.roles if r.role == "extractor")
    documents = len(list(corpus.trajectories[0].arrivals()))
    assert extractor.ungrounded == documents  # the "23:59 …" one of each document
    assert any("ungrounded" in line for line in accounting.lines(acc))
    step = step_view(db, corpus, run_id, corpus.trajectories[0].id, 0)
    marks = [op.ungrounded for op in step.operations]
    assert sum(1 for m in marks if m) == 1 and "'23:59'" in next(m for m in marks if m)


@pytest.mark.parametrize("system, least", [("oracle", 100), ("raw", 2000)])
def test_no_false_alarm_on_the_oracles_observations_over_the_bundled_corpus(system, least):
    """Every observation the oracle writes (the corpus's expected claims, values derived as a
    reader derives them: 4명 from 다섯 명에서 한 명 빠진, 55분 from 02:10 to 03:05) is grounded in
    its document: false-alarm rate 0 over the whole bundled corpus (105 observations). So is
    every sentence of every document (raw: 2,605)."""
    from seorap.engine.run.runner import run
    from seorap.engine.scoring.glossary import for_corpus

    corpus = load_corpus("fixtures/ko-mini")
    aliases = for_corpus(corpus.root)
    db = open_db(":memory:")
    [run_id] = run(corpus, [system], db, Config.offline(), score=False)
    docs = {
        (t.id, a.position): (a.document.text, a.timestamp)
        for t in corpus.trajectories
        for a in t.arrivals()
    }
    rows = list(
        db.query("SELECT trajectory_id, position, text FROM observations WHERE run_id=?", [run_id])
    )
    assert len(rows) > least
    alarms = [
        (r["text"], why)
        for r in rows
        if (why := ungrounded(r["text"], *docs[(r["trajectory_id"], r["position"])], aliases))
    ]
    assert alarms == []


LATE_MEMO_CHAT = load_corpus("fixtures/ko-mini/ko-c4-late-memo.json").trajectories[0].states[0]


def test_catch_rate_on_shifted_headers_and_invented_values():
    """The real model's failure — every speaker header of the chat log with the hour shifted —
    is caught in full; so are invented times, dates and amounts; the same values written another
    way are not flagged."""
    import re

    doc = LATE_MEMO_CHAT.document.text
    date = "2026-01-08"
    headers = re.findall(r"^(\d\d):(\d\d) (.+)$", doc, re.MULTILINE)
    assert len(headers) >= 10
    shifted = [f"{int(h) + 10:02d}:{m} {who}" for h, m, who in headers]
    assert all(ungrounded(s, doc, date) for s in shifted)  # 100 % caught
    assert not any(ungrounded(f"{h}:{m} {who}", doc, date) for h, m, who in headers)
    assert ungrounded("9시 31분 차은호 팀장이 과제를 공지함", doc, date) is None  # 09:31
    assert ungrounded("19시 31분 차은호 팀장이 과제를 공지함", doc, date)
    assert ungrounded("2026년 1월 8일 플랫폼팀 채널 공지", doc, date) is None  # its own date
    assert ungrounded("2026년 2월 8일 플랫폼팀 채널 공지", doc, date)
    assert ungrounded("주문 API는 EC2 6대로 운영", doc, date) is None
    assert ungrounded("주문 API는 EC2 4,700대로 운영", doc, date)
    assert ungrounded("Lambda는 콜드 스타트 문제로 제외", doc, date) is None  # 문제로: no name


def test_a_name_is_grounded_through_the_glossary():
    from seorap.engine.scoring.glossary import parse

    aliases = parse("PostgreSQL\tPostgres\tPsql\n", "test")
    doc = "운영 DB는 PostgreSQL 15로 옮긴다."
    assert ungrounded("운영 DB는 Psql 15로 옮긴다", doc) is not None  # no glossary
    assert ungrounded("운영 DB는 Psql 15로 옮긴다", doc, glossary=aliases) is None


def test_loop_members_of_a_stopped_reply():
    from seorap.engine.models.loops import loop_members

    written = ["회의는 3월 5일", "점검 1: 주문 확인", "점검 2: 주문 확인", "점검 3: 주문 확인"]
    written += ["점검 9: 주문 확인"] * 4 + ["회의는 3월 5일"]
    kept = ["회의는 3월 5일", "점검 1: 주문 확인", "결제팀 요구는 100ms"]
    got = loop_members(kept, written + ["결제팀 요구는 100ms"])
    assert got[0].startswith("loop: repeat") and got[1].startswith("loop: template")
    assert 2 not in got
