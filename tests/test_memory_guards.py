"""The three temporal guards on the late-memo (C4) trajectory give documented, different stores.

A scripted synthesizer plays a model that wants to fold the late (2026-01-20) memo into the March
decision: it updates the decision with the rejection reasons and then supersedes it with the memo's
"still comparing" statement. What each guard keeps (docs/store.md, "temporal guard"):
- off: the decision is superseded by the stale "검토 중" statement (the decision is lost);
- downgrade (paper): every change from the memo becomes reinforce (decision kept, reasons dropped);
- merge (ours): the decision is kept and the memo's details are appended, dated.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.memory.prompts import read_payload
from seorap.engine.models.base import ChatReply
from seorap.engine.run.runner import run
from seorap.engine.store.database import active_facts_at, facts_at, open_db

CORPUS = Path(__file__).parent.parent / "fixtures" / "ko-mini" / "ko-c4-late-memo.json"
DECIDED = "주문 API 실행 환경은 ECS Fargate로 결정"
REASON = "Fargate를 택한 이유는 주문 API의 100ms 이하 응답 요구"
LAMBDA = "Lambda는 콜드 스타트 문제로 제외"
EKS = "EKS는 4명 팀이 운영하기에 너무 복잡해 제외"
COMPARING = "플랫폼팀은 주문 API 실행 환경으로 Lambda, ECS Fargate, EKS를 비교 검토 중"

# observation text -> (operation, substring of the target candidate, new text or None = derive)
SCRIPT = {
    DECIDED: ("supersede", "검토 중", DECIDED),
    REASON: ("update", "Fargate로 결정", f"{DECIDED}, 이유는 주문 API의 100ms 이하 응답 요구"),
    LAMBDA: ("update", "Fargate로 결정", None),
    EKS: ("update", "Fargate로 결정", None),
    "LATE:" + COMPARING: ("supersede", "Fargate로 결정", COMPARING),
}


class ScriptedBackend:
    """Extraction: each state's docClaims (the late memo also restates 'still comparing').
    Synthesis: SCRIPT, else create."""

    name = "scripted"

    def __init__(self, trajectory):
        self.docs = {s.document.id: list(s.doc_claims) for s in trajectory.states}
        self.docs[trajectory.states[2].document.id].append(COMPARING)
        self.late = trajectory.states[2].timestamp
        self.calls = 0

    def chat(self, request):
        self.calls += 1
        payload, _ = read_payload(request.messages)
        if payload["task"] == "extract":
            obs = [
                {"text": t, "category": "decision", "confidence": 0.8}
                for t in self.docs[payload["document"]["id"]]
            ]
            return ChatReply(json.dumps({"observations": obs}, ensure_ascii=False), request.model)
        return ChatReply(json.dumps(self.choose(payload), ensure_ascii=False), request.model)

    def choose(self, payload):
        obs = payload["observation"]
        key = (
            "LATE:" if obs["document_date"] == self.late and obs["text"] == COMPARING else ""
        ) + obs["text"]
        op, target_sub, text = SCRIPT.get(key, ("create", None, obs["text"]))
        target = next(
            (c for c in payload["candidates"] if target_sub and target_sub in c["text"]), None
        )
        if target is None:
            return {"operation": "create", "target": "", "text": obs["text"], "confidence": 0.7}
        if text is None:
            text = f"{target['text']}, {obs['text']}"
        return {"operation": op, "target": target["label"], "text": text, "confidence": 0.8}


def run_guard(guard: str, tmp_path, confidence: str = "paper"):
    corpus = load_corpus(CORPUS)
    db = open_db(tmp_path / f"{guard}.db")
    backend = ScriptedBackend(corpus.trajectories[0])
    [run_id] = run(
        corpus,
        [f"A:guard={guard},confidence={confidence}"],
        db,
        Config.offline(),
        backend=backend,
        score=False,
        concurrency=1,
    )
    return db, run_id, corpus.trajectories[0].id


def texts_after_memo(db, run_id, tid):
    return [f.text for f in active_facts_at(db, run_id, tid, 2)]


def test_guard_off_loses_the_decision(tmp_path):
    db, run_id, tid = run_guard("off", tmp_path)
    texts = texts_after_memo(db, run_id, tid)
    assert COMPARING in texts
    assert not any("Fargate로 결정" in t for t in texts)
    superseded = [f for f in facts_at(db, run_id, tid, 2) if f.status == "superseded"]
    assert any(LAMBDA in f.text for f in superseded)  # the reasons went down with the decision


def test_guard_downgrade_keeps_decision_drops_reasons(tmp_path):
    db, run_id, tid = run_guard("downgrade", tmp_path)
    texts = texts_after_memo(db, run_id, tid)
    assert any(t.startswith(DECIDED) for t in texts)
    assert not any("콜드 스타트" in t for t in texts)
    assert COMPARING not in texts
    rows = list(
        db.query(
            "SELECT raw_operation, operation, guard_effect FROM decisions "
            "WHERE run_id=? AND position=2",
            [run_id],
        )
    )
    assert {(r["raw_operation"], r["operation"]) for r in rows} == {
        ("update", "reinforce"),
        ("supersede", "reinforce"),
    }
    assert all(r["guard_effect"].startswith("downgrade:") for r in rows)
    decision = next(f for f in active_facts_at(db, run_id, tid, 2) if f.text.startswith(DECIDED))
    assert decision.confidence == pytest.approx(1.0)  # 0.8 + 3 reinforces, capped at 1


def test_guard_merge_keeps_decision_and_adds_reasons(tmp_path):
    db, run_id, tid = run_guard("merge", tmp_path)
    texts = texts_after_memo(db, run_id, tid)
    decision = next(t for t in texts if t.startswith(DECIDED))
    assert LAMBDA in decision and EKS in decision and "2026-01-20" in decision
    assert all(f.status == "active" for f in facts_at(db, run_id, tid, 2) if DECIDED in f.text)
    rows = list(
        db.query(
            "SELECT operation, guard_effect FROM decisions WHERE run_id=? AND position=2", [run_id]
        )
    )
    assert {r["operation"] for r in rows} == {"update"}
    assert all(r["guard_effect"].startswith("merge:") for r in rows)


def test_three_guards_three_different_stores(tmp_path):
    stores = {
        g: sorted(texts_after_memo(*run_guard(g, tmp_path))) for g in ("off", "downgrade", "merge")
    }
    assert len({json.dumps(s, ensure_ascii=False) for s in stores.values()}) == 3


def test_merge_guard_keeps_the_newer_date(tmp_path):
    db, run_id, tid = run_guard("merge", tmp_path)
    row = next(
        db.query(
            "SELECT updated_at FROM facts WHERE run_id=? AND text LIKE ?", [run_id, DECIDED + "%"]
        )
    )
    assert row["updated_at"] == "2026-03-10"
