"""Each operation, both confidence designs, variant C and write failures, on a small trajectory."""

from __future__ import annotations

import json

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import Corpus, Trajectory
from seorap.engine.memory import get_system, list_systems
from seorap.engine.memory.policy import apply_guard, reinforced_confidence
from seorap.engine.memory.prompts import read_payload
from seorap.engine.models.base import ChatReply
from seorap.engine.run.runner import run
from seorap.engine.store.database import active_facts_at, facts_at, open_db


def doc(i, author, date):
    return {
        "index": i,
        "timestamp": date,
        "action": "create",
        "confidence": 0.7,
        "claims": ["x"],
        "document": {
            "id": f"t-d{i}",
            "type": "slack",
            "author": {"name": author},
            "text": f"문서 {i}. 관찰 {i}",  # the observation the script extracts is grounded
        },
    }


def trajectory(authors=("가", "나", "다", "라")) -> Trajectory:
    dates = ["2026-01-01", "2026-02-01", "2026-03-01", "2026-04-01"]
    return Trajectory.model_validate(
        {
            "id": "t",
            "title": "t",
            "category": "C3",
            "difficulty": "L1",
            "trajectoryType": "linear-evolution",
            "states": [doc(i, a, d) for i, (a, d) in enumerate(zip(authors, dates))],
        }
    )


class Script:
    """Extraction: one observation per document ('obs i'); synthesis: ``plan[i]`` for document i."""

    name = "script"

    def __init__(self, plan, malformed=()):
        self.plan = plan
        self.malformed = set(malformed)
        self.calls = 0

    def chat(self, request):
        self.calls += 1
        payload, body = read_payload(request.messages)
        if payload["task"] == "extract":
            i = int(payload["document"]["id"].split("-d")[1])
            content = json.dumps(
                {"observations": [{"text": f"관찰 {i}", "confidence": 0.6}]}, ensure_ascii=False
            )
            return ChatReply(content, request.model)
        i = int(payload["observation"]["text"].split()[1])
        if i in self.malformed:
            return ChatReply("I think this should be an update, probably.", request.model)
        op, text, conf = self.plan[i]
        target = (
            payload["candidates"][0]["label"] if payload["candidates"] and op != "create" else ""
        )
        return ChatReply(
            json.dumps(
                {"operation": op, "target": target, "text": text, "confidence": conf},
                ensure_ascii=False,
            ),
            request.model,
        )


def write(tmp_path, system, plan, authors=("가", "나", "다", "라"), malformed=()):
    t = trajectory(authors)
    db = open_db(tmp_path / "m.db")
    backend = Script(plan, malformed)
    [run_id] = run(
        Corpus(tmp_path, [t], {}),
        [system],
        db,
        Config.offline(),
        backend=backend,
        score=False,
        concurrency=1,
    )
    return db, run_id, backend


def ops(db, run_id):
    return [
        r["operation"]
        for r in db.query(
            "SELECT operation FROM decisions WHERE run_id=? ORDER BY position, id", [run_id]
        )
    ]


PLAN = [
    ("create", "값은 1", 0.6),
    ("reinforce", "", 0.9),
    ("update", "값은 2", 0.75),
    ("supersede", "값은 3", 0.85),
]


def test_every_operation(tmp_path):
    db, run_id, _ = write(tmp_path, "A", PLAN)
    assert ops(db, run_id) == ["create", "reinforce", "update", "supersede"]
    history = {f.id: f for f in facts_at(db, run_id, "t")}
    first = [f for f in history.values() if f.version > 1][0]
    assert first.status == "superseded" and first.text == "값은 2"
    [active] = active_facts_at(db, run_id, "t")
    assert active.text == "값은 3" and active.confidence == pytest.approx(0.85)
    versions = list(
        db.query(
            "SELECT operation, text, confidence FROM fact_versions "
            "WHERE fact_id=? ORDER BY version",
            [first.id],
        )
    )
    assert [(v["operation"], v["text"]) for v in versions] == [
        ("create", "값은 1"),
        ("reinforce", "값은 1"),
        ("update", "값은 2"),
        ("supersede", "값은 2"),
    ]
    # paper rule: model confidence on create/update, +0.1 on reinforce
    assert [round(v["confidence"], 3) for v in versions][:3] == [0.6, 0.7, 0.75]


def test_decision_records_inputs(tmp_path):
    db, run_id, _ = write(tmp_path, "A", PLAN)
    row = next(db.query("SELECT * FROM decisions WHERE run_id=? AND position=2", [run_id]))
    cands = json.loads(row["candidates"])
    assert cands[0]["text"] == "값은 1" and 0 <= cands[0]["similarity"] <= 1 and cands[0]["fact_id"]
    assert json.loads(row["before"])[0]["text"] == "값은 1"
    assert json.loads(row["after"])[0]["text"] == "값은 2"
    assert row["call_key"] and row["raw_operation"] == "update" and row["model_text"] == "값은 2"
    obs = next(db.query("SELECT * FROM observations WHERE id=?", [row["observation_id"]]))
    assert obs["author"] == "다" and obs["doc_date"] == "2026-03-01"


REINFORCE = [("create", "값", 0.5)] + [("reinforce", "", 0.9)] * 3


@pytest.mark.parametrize(
    "authors,expected",
    [
        (("가", "나", "다", "라"), 0.8),  # three new people confirm: +0.3 in both designs
        (("가", "가", "가", "가"), None),  # one person repeating
    ],
)
def test_confidence_designs(tmp_path, authors, expected):
    paper_db, paper_run, _ = write(tmp_path / "p", "A:confidence=paper", REINFORCE, authors)
    auth_db, auth_run, _ = write(tmp_path / "a", "A:confidence=authors", REINFORCE, authors)
    [paper] = active_facts_at(paper_db, paper_run, "t")
    [auth] = active_facts_at(auth_db, auth_run, "t")
    assert paper.confidence == pytest.approx(0.8)
    assert auth.confidence == pytest.approx(expected if expected is not None else 0.5)
    assert auth.authors == list(dict.fromkeys(authors))


def test_reinforce_caps_at_one():
    assert reinforced_confidence("paper", 0.95, 0.1, "가", []) == 1.0
    assert reinforced_confidence("authors", 0.5, 0.1, "가", ["가"]) == 0.5
    assert reinforced_confidence("authors", 0.5, 0.1, "나", ["가"]) == pytest.approx(0.6)


def test_guard_is_pure():
    assert apply_guard("off", "update", "2026-01-01", "2026-03-01") == ("update", "")
    assert apply_guard("downgrade", "update", "2026-01-01", "2026-03-01")[0] == "reinforce"
    assert apply_guard("downgrade", "update", "2026-04-01", "2026-03-01") == ("update", "")
    assert apply_guard("merge", "supersede", "2026-01-01", "2026-03-01")[0] == "merge"
    assert apply_guard("downgrade", "create", "2026-01-01", "2026-03-01") == ("create", "")


def test_variant_c_never_removes_or_rewrites(tmp_path):
    db, run_id, backend = write(tmp_path, "C", PLAN)
    assert ops(db, run_id) == ["create"] * 4
    rows = list(
        db.query("SELECT operation, status, version FROM fact_versions WHERE run_id=?", [run_id])
    )
    assert {(r["operation"], r["status"], r["version"]) for r in rows} == {("create", "active", 1)}
    assert backend.calls == 4  # extraction only: append-only makes no synthesis call


def test_malformed_reply_is_a_counted_write_failure(tmp_path):
    db, run_id, _ = write(tmp_path, "A", PLAN, malformed={2})
    [failure] = list(db.query("SELECT * FROM write_failures WHERE run_id=?", [run_id]))
    assert failure["stage"] == "synthesize" and "invalid JSON" in failure["reason"]
    assert "probably" in failure["raw"] and failure["observation_id"]
    doc_row = next(
        db.query("SELECT failures FROM documents WHERE run_id=? AND position=2", [run_id])
    )
    assert doc_row["failures"] == 1
    assert db["documents"].count_where("run_id=?", [run_id]) == 4  # the run went on


def test_systems_are_listed_and_resolved(tmp_path):
    names = list_systems()
    for name in ("oracle", "oracle-stale", "oracle-merged", "raw", "A", "B", "C"):
        assert name in names
    (tmp_path / "D.toml").write_text(
        'name = "D"\nsynthesis_prompt = "synthesis_B.txt"\nguard = "merge"\n'
    )
    system = get_system("D", variants_dirs=[tmp_path])
    assert system.variant.guard == "merge" and system.uses_llm


def test_b_is_a_without_the_bias_lines():
    a = get_system("A").synthesis_prompt.splitlines()
    b = get_system("B").synthesis_prompt.splitlines()
    removed = [line for line in a if line not in b]
    assert len(removed) == 3 and all("update" in line or "one fact" in line for line in removed)
    assert [line for line in a if line not in removed] == b
