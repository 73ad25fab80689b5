"""One reading, one verdict: a read-time lookup judged hit by hit (docs/metrics.md#read-time-state).

What a lookup returned is judged with the write-time function (``Judge.grade_claim``, the claim
against each hit's text alone), never as one joined text whose extra values the judge would read
as a second answer or a polarity flip:

- a hit **states a stale value** when ``holding.verdict`` finds in it a claim the corpus lists as
  stale at that state;
- a hit is **superseded** when a strictly more recent hit (the arrival position of the fact's
  current version: the system's own versions) states a stale value *of the claim's slot* (a stale
  claim with the same slot question: engine/scoring/slot_questions.py) and does not state the claim;
- the claim is **read as held** when a hit holds it and no more recent hit supersedes it: the
  verdict is ``grade_claim`` over the hits that are not superseded;
- the reading is **stale** when what the reader answered (the hits it kept, traced in its text)
  states a stale value, whatever the other hits say.

The write-read gap of a claim (write-time score above the read-time one) is put in one of three
places: **not retrieved** (the hits together do not state the claim as well as the store did),
**outranked** (they do, but a more recent hit stating a stale value supersedes it) and **ruler**
(a hit that is not superseded states it as well as the store did, yet the read scored lower: two
rulers disagreeing, which judging with one function rules out).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from seorap.engine.scoring import holding
from seorap.engine.scoring.verdict import Verdict

if TYPE_CHECKING:
    from seorap.engine.scoring.judges import Judge

SCORES = {"YES": 1.0, "PARTIAL": 0.5, "NO": 0.0}
SEPARATOR = " / "
GAP_KINDS = ("not_retrieved", "outranked", "ruler")


@dataclass(frozen=True)
class Part:
    text: str
    recency: int
    fact_date: date | None = None
    id: str = ""


@dataclass(frozen=True)
class Judged:
    verdict: Verdict
    score: float
    stale: bool
    hits: list[dict]
    """Per hit: its label, whether it states a stale value and whether it is superseded."""


def parts_of(reading: str, hits: Sequence[dict]) -> list[str]:
    """What the reader answered, as the texts it kept (" / "-joined hit texts or pieces of them);
    a reading that quotes no hit (a model's answer) is one part."""
    pieces = [p.strip() for p in reading.split(SEPARATOR) if p.strip()]
    texts = [h.get("text") or "" for h in hits]
    if pieces and all(any(p in t for t in texts) for p in pieces):
        return pieces
    return [reading] if reading.strip() else []


def states_stale(text: str, stale_claims: Sequence[str]) -> bool:
    return any(holding.verdict(s, text) for s in stale_claims)


def judge_reading(
    judge: Judge,
    claim: str,
    hits: Sequence[Part],
    read: Sequence[str],
    stale_claims: Sequence[str],
    claim_date: date | None = None,
    *,
    slot_stale: Sequence[str] | None = None,
) -> Judged:
    """The read's verdict, score and stale mark (rules in the module docstring); ``read``: the
    parts of the reader's reading (:func:`parts_of`); ``slot_stale``: the stale claims of the
    claim's own slot (all of ``stale_claims`` when not given)."""
    same_slot = list(stale_claims if slot_stale is None else slot_stale)
    rows: list[dict[str, Any]] = []
    for h in hits:
        v = judge.grade_claim(claim, [h.text], claim_date=claim_date, fact_dates=[h.fact_date])
        rows.append(
            {
                "id": h.id,
                "recency": h.recency,
                "label": v.label,
                "stale": states_stale(h.text, stale_claims),
                "slot_stale": states_stale(h.text, same_slot),
            }
        )
    for row, h in zip(rows, hits):
        row["superseded"] = any(
            o["slot_stale"] and o["label"] != "YES" and other.recency > h.recency
            for o, other in zip(rows, hits)
        )
    kept = [h for h, r in zip(hits, rows) if not r["superseded"]]
    verdict = judge.grade_claim(
        claim,
        [h.text for h in kept],
        claim_date=claim_date,
        fact_dates=[h.fact_date for h in kept],
    )
    if len(kept) < len(hits):
        gone = len(hits) - len(kept)
        verdict = Verdict(
            verdict.label,
            f"{verdict.rationale} ({gone} hit(s) superseded by a more recent stale value)",
        )
    stale = any(states_stale(p, stale_claims) for p in read)
    return Judged(verdict, SCORES.get(verdict.label, 0.0), stale, rows)


def gap_kind(
    judge: Judge,
    claim: str,
    hits: Sequence[Part],
    judged: Judged,
    write_score: float | None,
    claim_date: date | None = None,
) -> str | None:
    """Where a claim's write-read gap lies (None when read-time scored it as well as write time)."""
    if write_score is None or judged.score >= write_score:
        return None
    kept = [SCORES.get(r["label"], 0.0) for r in judged.hits if not r["superseded"]]
    if max(kept, default=0.0) >= write_score:
        return "ruler"
    best = max((SCORES.get(r["label"], 0.0) for r in judged.hits), default=0.0)
    return "outranked" if best >= write_score else "not_retrieved"
