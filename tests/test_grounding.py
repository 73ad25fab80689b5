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
