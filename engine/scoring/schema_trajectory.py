"""One trajectory's figures in the saved report, and the interval every pooled figure carries
(versioned with the report: engine/scoring/schema.py, REPORT_VERSION; docs/report.md)."""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator


class Interval(BaseModel):
    mean: float | None = None
    """Point estimate over trajectories."""
    ci_low: float | None = None
    """Lower end of the 95% cluster-bootstrap interval (resampling trajectories); with method
    ``range``, the smallest per-trajectory value."""
    ci_high: float | None = None
    """Upper end of that interval; with method ``range``, the largest per-trajectory value."""
    method: str = "bootstrap"
    """``bootstrap`` (95% percentile interval), ``range`` (a group below 5 trajectories: min-max)
    or ``n/a`` (no figure: ``mean`` is null and ``reason`` says why)."""
    n: int | None = None
    """Trajectories (clusters) the figure is computed over."""
    reason: str | None = None
    """Why there is no figure (``method`` n/a); null for a figure."""

    @model_validator(mode="after")
    def _no_figure_is_na(self) -> Interval:
        """An interval without a mean is n/a, never a bootstrap of nothing."""
        if self.mean is None and self.method != "n/a":
            self.method = "n/a"
            self.reason = self.reason or NO_FIGURE
        return self


NO_FIGURE = "no trajectory has this figure"
"""The reason of an n/a interval when none more precise is given."""


class FactShape(BaseModel):
    n: int = 0
    """Active facts measured (the final store)."""
    mean_length: float | None = None
    """Mean characters per fact."""
    multi_share: float | None = None
    """Share of facts holding more than one statement (sentences or ground-truth claims)."""


class IntrinsicFigures(BaseModel):
    full: float | None = None
    """Fact accuracy (eq. 2) with the judge seeing all active facts."""
    filter: float | None = None
    """Fact accuracy with only facts above the cosine threshold shown (FEB-30's filter@0.8)."""


class ExtrinsicFigures(BaseModel):
    compound: float | None = None
    """Mean judged score of the compound question(s), top-5 memory retrieval."""
    single: float | None = None
    """Mean judged score of the single-fact questions, top-5 memory retrieval."""


class Baselines(BaseModel):
    full_context: float | None = None
    """All documents of the trajectory, no memory (compound and single questions pooled)."""
    naive_rag: float | None = None
    """One top-5 retrieval over raw document chunks (the MemoryTax comparator)."""
    no_context: float | None = None
    """The question alone: the guessing floor."""


class BenefitTax(BaseModel):
    n: int = 0
    """Questions compared (both sides parseable)."""
    benefit: int = 0
    """Memory right (YES) and naive RAG not."""
    tax: int = 0
    """Naive RAG right and memory not."""
    net: int = 0
    """benefit - tax."""


class TokenF1Kind(BaseModel):
    n: int = 0
    """Questions of this kind answered from memory."""
    memory: float | None = None
    full_context: float | None = None
    naive_rag: float | None = None
    no_context: float | None = None


class TokenF1Figures(BaseModel):
    """Token F1 as LoCoMo's evaluation computes it (docs/metrics.md#token-f1), on the answers the
    judge graded: imported sets and English corpora only."""

    n: int = 0
    """Questions answered from memory (top-5)."""
    memory: float | None = None
    full_context: float | None = None
    naive_rag: float | None = None
    no_context: float | None = None
    by_kind: dict[str, TokenF1Kind] = Field(default_factory=dict)
    """Per dataset kind (``1 multi-hop``, ``knowledge-update``...)."""
    not_applicable: dict[str, str] = Field(default_factory=dict)
    """``judge`` / ``answerer`` -> why that offline ruler gave n/a on this corpus's language."""


class TrajectoryReport(BaseModel):
    id: str
    """Trajectory id."""
    category: str
    """C1..C6 (empty for an imported set)."""
    token_f1: TokenF1Figures | None = None
    """LoCoMo's metric beside the judge, on imported sets and English corpora."""
    difficulty: str
    """L1..L3."""
    intrinsic: IntrinsicFigures
    """Intrinsic score in both candidate modes."""
    extrinsic: ExtrinsicFigures
    """Extrinsic scores."""
    baselines: Baselines
    """Baseline answerers on the same questions."""
    udr: float | None = None
    """Update detection recall (eq. 3): update states retiring a value where an existing fact was
    rewritten or removed; null (n/a) for an append-only system."""
    append_only: bool = False
    """The system only ever adds facts (raw, policy = append): UDR does not apply."""
    fur: float | None = None
    """False update rate (eq. 4)."""
    op_accuracy: float | None = None
    """Share of states whose effective operation matches the expected action."""
    op_majority_baseline: float | None = None
    """Accuracy of always predicting this trajectory's most frequent expected action."""
    op_confusion: dict[str, dict[str, int]] = Field(default_factory=dict)
    """{expected action: {effective operation: count}}."""
    confidence_mae: float | None = None
    """Mean |expected - actual| confidence over states with a write."""
    final_fact_count: int | None = None
    """Active facts at the end."""
    fact_shape: FactShape | None = None
    """Mean length and multi-statement share of the final active facts."""
    miss_rate: float | None = None
    """Share of (state, claim) pairs not judged YES (full mode)."""
    stale_facts: int | None = None
    """Active facts at the end that still state a stale value."""
    claim_precision: float | None = None
    """Share of final active facts consistent with the final claims."""
    quadrant: str | None = None
    """healthy | compensation | bottleneck | both-low (intrinsic full vs extrinsic compound); null
    when the judge is unreliable (see RunReport.judge_unreliable)."""
    quadrant_raw: str | None = None
    """The quadrant the figures would give, kept when it is withheld for an unreliable judge."""
    diagnosis: str = ""
    """Why the trajectory is in its quadrant, from the run's data."""
    signed_diff: float | None = None
    """intrinsic.full - extrinsic.compound."""
    depth_curve: dict[str, float | None] = Field(default_factory=dict)
    """Mean memory-answer score at k = 1, 3, 5, 10."""
    benefit_tax: BenefitTax = Field(default_factory=BenefitTax)
    """Per-question comparison with naive RAG."""
    failures: dict[str, int | None] | None = None
    """Failure localization counts (extraction, synthesis, lost_later, update, conflict)."""
    write_failures: int = 0
    """Model outputs that could not be used even after repair and retry (partial ones included)."""
    partial_write_failures: int = 0
    """Of those, extractions cut at their token limit whose complete observations were still written."""
    # read-time state (engine/scoring/readtime.py)
    read_coverage: float | None = None
    """Read-time coverage at the last written state."""
    read_accuracy: float | None = None
    """Read-time accuracy: mean over written states."""
    stale_at_read: float | None = None
    """Share of reads whose reading states a stale value."""
    unreliable_ruler: list[str] = Field(default_factory=list)
    """The names of this trajectory's figures built on the judge's labels when the run's judge is
    unreliable (engine/scoring/ruler_marks.py); empty when it is reliable."""
