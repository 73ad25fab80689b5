"""One reading, one verdict (engine/scoring/reading.py): a read is judged hit by hit with the
write-time function, never as one joined text.

The append-only case stale-at-read exists for: the store holds the old date and the later fact
that postpones it; both come back and the reader answers with both. Judged as one joined text the
postponement word flipped the whole reading and it was not counted stale; hit by hit, the old hit
states the stale date word for word, so the reading is stale — and the claim is still read as
held, since the postponing hit holds it and no more recent hit supersedes it.
"""

from __future__ import annotations

from seorap.engine.scoring import reading
from seorap.engine.scoring.answerers import ExtractiveAnswerer
from seorap.engine.scoring.judges import LexicalJudge

CLAIM = "신제품 발표일은 3월 7일"
STALE = ["신제품 발표일은 3월 5일"]
OLD = "신제품 발표일은 3월 5일입니다."
NEW = "신제품 발표일이 3월 7일로 연기되었습니다."


def _judge(hits: list[reading.Part], read_text: str) -> reading.Judged:
    texts = [{"text": h.text} for h in hits]
    parts = reading.parts_of(read_text, texts)
    return reading.judge_reading(LexicalJudge(), CLAIM, hits, parts, STALE)


def test_stale_date_beside_its_postponement_is_stale_and_the_claim_held():
    hits = [reading.Part(OLD, 0), reading.Part(NEW, 1)]
    answered = ExtractiveAnswerer().answer("신제품 발표일은?", [OLD, NEW], [0.9, 0.8])
    assert answered == f"{OLD} / {NEW}"
    judged = _judge(hits, answered)
    assert judged.stale is True
    assert judged.verdict.label == "YES" and judged.score == 1.0
    assert [h["stale"] for h in judged.hits] == [True, False]
    assert not any(h["superseded"] for h in judged.hits)


def test_a_more_recent_stale_value_supersedes_the_held_one():
    """The system wrote the old date back after the postponement: the claim is not read as held,
    and the gap is put down to a stale value outranking it, not to retrieval or the ruler."""
    hits = [reading.Part(NEW, 1), reading.Part(OLD, 2)]
    judged = _judge(hits, OLD)
    assert judged.verdict.label == "NO" and judged.stale is True
    assert [h["superseded"] for h in judged.hits] == [True, False]
    assert "superseded by a more recent stale value" in judged.verdict.rationale
    judge = LexicalJudge()
    assert reading.gap_kind(judge, CLAIM, hits, judged, 1.0) == "outranked"


def test_gap_not_retrieved_and_none():
    judge = LexicalJudge()
    hits = [reading.Part("회의실은 5층입니다.", 0)]
    judged = _judge(hits, hits[0].text)
    assert judged.verdict.label == "NO" and judged.stale is False
    assert reading.gap_kind(judge, CLAIM, hits, judged, 1.0) == "not_retrieved"
    assert reading.gap_kind(judge, CLAIM, hits, judged, 0.0) is None
    assert reading.gap_kind(judge, CLAIM, hits, judged, None) is None


def test_one_hit_reads_as_at_write_time():
    """The same (claim, text) pair gets the same label at read time as ``grade_claim`` gives it at
    write time: the ruler cannot disagree with itself."""
    judge = LexicalJudge()
    for text in (OLD, NEW, "신제품 발표일은 3월 7일이고 장소는 본사입니다."):
        judged = _judge([reading.Part(text, 0)], text)
        assert judged.verdict.label == judge.grade_claim(CLAIM, [text]).label


def test_a_model_reading_that_quotes_no_hit_is_one_part():
    assert reading.parts_of("발표는 7일로 밀렸어요", [{"text": OLD}]) == ["발표는 7일로 밀렸어요"]
    assert reading.parts_of(f"{OLD} / {NEW}", [{"text": OLD}, {"text": NEW}]) == [OLD, NEW]
    assert reading.parts_of("", [{"text": OLD}]) == []
