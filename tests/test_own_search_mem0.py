"""mem0 answers the questions through its own search (engine/scoring/answer_path.py): the journey's
*retrieved* ranks are the ranks mem0's search gave, stored when the run was written; the same
command again asks the model nothing and gives the same ranks."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

if importlib.util.find_spec("mem0") is None:  # not imported here: seorap sets mem0's environment
    pytest.skip(
        'the mem0 extra is not installed (pip install "seorap[mem0]")', allow_module_level=True
    )

from seorap.engine.config import Config  # noqa: E402
from seorap.engine.corpus import load_corpus  # noqa: E402
from seorap.engine.run.runner import run  # noqa: E402
from seorap.engine.scoring import lexical  # noqa: E402
from seorap.engine.scoring.extrinsic import questions  # noqa: E402
from seorap.engine.store.database import facts_at, open_db  # noqa: E402

CORPUS = Path(__file__).parent.parent / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"
TID = "ko-c3-hiring-plan"


def mem0_run(server, db, **kwargs):
    return run(load_corpus(CORPUS), ["mem0"], db, Config.offline(host=server.url), **kwargs)


def card(db, run_id):
    row = next(
        db.query("SELECT card FROM scores WHERE run_id = ? AND trajectory_id = ?", [run_id, TID])
    )
    return json.loads(row["card"])


def lookups(db, run_id) -> dict[str, list[str]]:
    """question item -> the texts mem0's search returned, in its order (from the stored hits)."""
    texts = {f.id: f.text for f in facts_at(db, run_id, TID, None)}
    rows = db.query(
        "SELECT item, hits FROM question_lookups WHERE run_id = ? AND trajectory_id = ?",
        [run_id, TID],
    )
    return {r["item"]: [texts[h["id"]] for h in json.loads(r["hits"])] for r in rows}


def hybrid_order(db, run_id, question: str) -> list[str]:
    """What seorap's hybrid retrieval (offline embedder) would return for ``question``."""
    from seorap.engine.models.embedders import HashingEmbedder
    from seorap.engine.retrieval.hybrid import HybridIndex

    active = [f for f in facts_at(db, run_id, TID, None) if f.status == "active"]
    texts, embed = [f.text for f in active], HashingEmbedder().embed
    index = HybridIndex.from_settings([f.id for f in active], texts, embed(texts), None)
    return [h.text for h in index.search(question, embed([question])[0], 10)]


def journey_ranks(c) -> list[tuple[str, str, int | None]]:
    return [
        (claim["claim"], q["question"], q["rank"])
        for claim in c["journey"]["claims"]
        for q in claim["stages"]["retrieved"].get("per_question", [])
    ]


def test_mem0s_own_search_ranks_are_the_journeys(ollama_server, tmp_path):
    db = open_db(tmp_path / "r.db")
    [run_id] = mem0_run(ollama_server, db, concurrency=1)
    found = lookups(db, run_id)
    trajectory = load_corpus(CORPUS).get(TID)
    assert set(found) == {q.item for q in questions(trajectory)}
    c = card(db, run_id)
    assert c["extrinsic"]["read_path"] == "own search"
    ranks = journey_ranks(c)
    assert ranks  # some claim is needed by a question
    for claim, item, rank in ranks:
        # the first of mem0's hits (top 10) stating the claim, 1-based: computed here from the
        # stored hits alone, never from seorap's retrieval
        expected = next(
            (n + 1 for n, text in enumerate(found[item][:10]) if lexical.holds(claim, text)), None
        )
        assert rank == expected, (claim, item)
    # the ranking the answerer read is mem0's, fact for fact
    for r in db.query("SELECT item, ranking FROM retrievals WHERE source = 'memory'"):
        assert [h["text"] for h in json.loads(r["ranking"])] == found[r["item"]]

    # and it is not seorap's: hybrid retrieval over the same facts orders them otherwise
    assert any(hybrid_order(db, run_id, q.question) != found[q.item] for q in questions(trajectory))

    # the same command again: 0 model calls, the same ranks
    chats = len(ollama_server.bodies("/api/chat"))
    [again] = mem0_run(ollama_server, db, concurrency=1, label="again")
    assert len(ollama_server.bodies("/api/chat")) == chats
    assert journey_ranks(card(db, again)) == ranks
