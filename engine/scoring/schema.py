"""The saved report: versioned pydantic models, a docstring under every field (docs/report.md).
One trajectory's figures and ``Interval`` are in engine/scoring/schema_trajectory.py.

Figures not defined for a run are ``null`` (None), never invented.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from seorap.engine.run.accounting import PhaseTime, RoleAccounting
from seorap.engine.scoring.audit import AuditFigures, Reliability
from seorap.engine.scoring.schema_trajectory import (
    Baselines,
    BenefitTax,
    FactShape,
)
from seorap.engine.scoring.schema_trajectory import Interval as Interval
from seorap.engine.scoring.schema_trajectory import TrajectoryReport as TrajectoryReport

REPORT_VERSION = 8
"""2: adds rulers, rulers_spread, aggregate.seeds, group CIs and overrides.by_trajectory (all additive).
3: adds RunReport.similarity (cosine distributions, suggested threshold; additive).
4: Interval.method/n (group figures below 5 trajectories carry their range, not a CI); CIs for
DivRate, signed mean, r, kappa, pass agreement and op accuracy; fact shape; append_only (UDR n/a);
judge_unreliable and quadrant_raw (a saturated judge gets no quadrant).
5: adds RunReport.accounting (calls, cache hits, tokens, latency, trouble per role; phase wall times).
6: adds RunReport.gold (figures with and without contested gold items, the ceiling) and the funnel's
CIs by category and difficulty (JourneyFigures.category_shares, difficulty_shares); additive.
7: slot-question read-time judged hit by hit; Comparison base/candidate/candidate_minus_base.
8: adds ``unreliable_ruler`` beside the label-built figures (engine/scoring/ruler_marks.py); additive."""


class GroupFigures(BaseModel):
    n: int
    """Trajectories in the group."""
    intrinsic: float | None = None
    """Mean intrinsic (full)."""
    extrinsic: float | None = None
    """Mean extrinsic (compound)."""
    mad: float | None = None
    """Mean |intrinsic - extrinsic|."""
    div_rate: float | None = None
    """Share with |difference| > 0.15."""
    kappa: float | None = None
    """Cohen's kappa of pass/fail at 0.5."""
    intrinsic_ci: Interval | None = None
    """Mean intrinsic (full) with its cluster-bootstrap CI within the group; below 5 trajectories
    the range of the values (method ``range``, labelled with n)."""
    extrinsic_ci: Interval | None = None
    """Mean extrinsic (compound), the same way."""
    mad_ci: Interval | None = None
    """MAD within the group; below 5 pairs the range of |intrinsic - extrinsic|."""


class SeedFigures(BaseModel):
    n: int
    """Runs of the same system whose configuration differs only in the seed (this run included)."""
    run_ids: list[str] = Field(default_factory=list)
    """Those runs."""
    seeds: list[int | None] = Field(default_factory=list)
    """Their seeds, in run order."""
    intrinsic_mean: float | None = None
    """Mean over runs of each run's mean intrinsic (full)."""
    intrinsic_sd: float | None = None
    """Sample standard deviation (n - 1) of those run means."""
    extrinsic_mean: float | None = None
    """Mean over runs of each run's mean extrinsic (compound)."""
    extrinsic_sd: float | None = None
    """Sample standard deviation of those run means."""


class Aggregate(BaseModel):
    intrinsic: Interval
    """Mean intrinsic (full) with CI."""
    extrinsic: Interval
    """Mean extrinsic (compound) with CI."""
    intrinsic_filter: Interval = Field(default_factory=Interval)
    """Mean intrinsic under the similarity filter, with CI."""
    extrinsic_single: Interval = Field(default_factory=Interval)
    """Mean single-question extrinsic score, with CI."""
    udr: Interval = Field(default_factory=Interval)
    """Mean UDR over the trajectories that have one (append-only stores: n/a), with CI."""
    fur: Interval = Field(default_factory=Interval)
    """Mean FUR over the trajectories that have one, with CI."""
    confidence_mae: Interval = Field(default_factory=Interval)
    """Mean confidence MAE over the trajectories that have one, with CI."""
    mad: float | None = None
    """Mean absolute difference intrinsic vs extrinsic."""
    mad_ci: Interval = Field(default_factory=Interval)
    """MAD with its bootstrap CI."""
    div_rate: float | None = None
    """Share of trajectories with |difference| > tau (0.15)."""
    div_rate_ci: Interval = Field(default_factory=Interval)
    """DivRate with its bootstrap CI."""
    signed_mean: float | None = None
    """Mean of intrinsic - extrinsic."""
    signed_mean_ci: Interval = Field(default_factory=Interval)
    """Signed mean with its bootstrap CI."""
    pearson_r: float | None = None
    """Pearson correlation of the two scores over trajectories."""
    pearson_r_ci: Interval = Field(default_factory=Interval)
    """r with its bootstrap CI (resamples with a constant side skipped)."""
    kappa: float | None = None
    """Cohen's kappa of pass/fail at 0.5."""
    kappa_ci: Interval = Field(default_factory=Interval)
    """Kappa with its bootstrap CI (resamples where it is undefined skipped)."""
    pass_agreement: float | None = None
    """Share of trajectories where both pass or both fail at 0.5."""
    pass_agreement_ci: Interval = Field(default_factory=Interval)
    """Pass agreement with its bootstrap CI."""
    partial_share: float | None = None
    """Share of PARTIAL among the parseable extrinsic (memory, top-5) verdicts."""
    unparseable: int = 0
    """Verdicts the judge returned unparseable (not counted as NO)."""
    op_accuracy: float | None = None
    """Operation accuracy pooled over states."""
    op_accuracy_ci: Interval = Field(default_factory=Interval)
    """Operation accuracy with its cluster-bootstrap CI (a trajectory's states resampled together)."""
    fact_shape: FactShape = Field(default_factory=FactShape)
    """Fact shape pooled over the final facts of every trajectory (next to the full vs filter gap)."""
    judge_unreliable: str | None = None
    """Why the judge cannot carry a diagnosis (then quadrants, MAD, DivRate, Pearson r, kappa and
    pass agreement are withheld: null); null when it can."""
    op_majority_baseline: float | None = None
    """Majority-class accuracy pooled over states."""
    baselines: Baselines = Field(default_factory=Baselines)
    """Mean baseline scores."""
    benefit_tax: BenefitTax = Field(default_factory=BenefitTax)
    """Summed per-question benefit/tax against naive RAG."""
    depth_curve: dict[str, float | None] = Field(default_factory=dict)
    """Mean memory-answer score per k."""
    stale_facts: int | None = None
    """Stale facts at the end, summed over trajectories."""
    claim_precision: float | None = None
    """Mean claim precision."""
    quadrants: dict[str, int] = Field(default_factory=dict)
    """Trajectories per quadrant."""
    by_category: dict[str, GroupFigures] = Field(default_factory=dict)
    """Agreement figures per category."""
    by_difficulty: dict[str, GroupFigures] = Field(default_factory=dict)
    """Agreement figures per difficulty."""
    seeds: SeedFigures | None = None
    """Repeated runs (same system, configuration differing only in seed): mean ± sd; null below 2."""
    unreliable_ruler: list[str] = Field(default_factory=list)
    """The names of the fields above built on the judge's YES/PARTIAL/NO labels when the run's
    judge is unreliable (``judge_unreliable``): each is read with that flag beside it; empty when
    the judge is reliable (engine/scoring/ruler_marks.py). The same field, with the same meaning,
    stands in every object of the report that holds such figures."""


class Calls(BaseModel):
    total: int = 0
    """Model calls logged for this run (write and scoring)."""
    cached: int = 0
    """Calls served from the call log during the latest scoring pass."""
    by_role: dict[str, int] = Field(default_factory=dict)
    """Logged calls per role."""
    tokens_in: int = 0
    """Prompt tokens over the logged calls."""
    tokens_out: int = 0
    """Generated tokens over the logged calls."""


class Accounting(BaseModel):
    roles: list[RoleAccounting] = Field(default_factory=list)
    """One row per role and model (the figures are defined once, in engine/run/accounting.py)."""
    total: RoleAccounting = Field(default_factory=lambda: RoleAccounting(role="all"))
    """Every role summed (no latency percentiles: they do not add up)."""
    phases: list[PhaseTime] = Field(default_factory=list)
    """Wall time per phase."""
    wall_s: float = 0.0
    """Summed phase wall time."""
    slots: dict[str, int] = Field(default_factory=dict)
    """Generation slots learned per host during the run (engine/models/slots.py)."""
    plan: dict[str, float] = Field(default_factory=dict)
    """Seconds per phase (extract, write, score) planned before the run, beside ``phases``'
    actual wall time (engine/run/replan.py); empty when the run was not planned."""


class OverrideFigures(BaseModel):
    count: int = 0
    """Verdicts overruled by a person."""
    intrinsic: Interval = Field(default_factory=Interval)
    """Mean intrinsic (full) with overrides applied."""
    extrinsic: Interval = Field(default_factory=Interval)
    """Mean extrinsic (compound) with overrides applied."""
    items: list[dict] = Field(default_factory=list)
    """Each override: verdict id, trajectory, item, raw label, new label, who, at, reason."""
    by_trajectory: dict[str, dict[str, float | None]] = Field(default_factory=dict)
    """Per overridden trajectory: intrinsic_raw, intrinsic, extrinsic_raw, extrinsic (side by side)."""
    unreliable_ruler: list[str] = Field(default_factory=list)
    """Which of the fields above are read from an unreliable judge."""


class RulerFigures(BaseModel):
    scoring: str
    """Scoring setup name (judge + answerer [+ modes])."""
    mode: str
    """Candidate mode: ``full`` or ``filter@θ``."""
    judge: str | None = None
    """The judge (``lexical``, ``lexical/lenient``, ``MODEL/PROMPT``)."""
    intrinsic: float | None = None
    """Mean intrinsic score over the run's trajectories under this setup."""
    extrinsic: float | None = None
    """Mean extrinsic (compound) under this setup's judge and answerer."""
    n: int = 0
    """Trajectories scored under this setup."""
    unreliable_ruler: list[str] = Field(default_factory=list)
    """``intrinsic`` and ``extrinsic`` when this setup's own judge was found unreliable."""


class SimilaritySummary(BaseModel):
    n: int = 0
    """Pairs in the group (one per judged state x claim x fact)."""
    min: float | None = None
    """Lowest cosine."""
    p10: float | None = None
    """10th percentile (linear interpolation)."""
    p25: float | None = None
    """25th percentile."""
    median: float | None = None
    """50th percentile."""
    p75: float | None = None
    """75th percentile."""
    p90: float | None = None
    """90th percentile."""
    max: float | None = None
    """Highest cosine."""


class Histogram(BaseModel):
    lo: float | None = None
    """Left edge: the lowest pooled cosine (null when there are no pairs)."""
    hi: float | None = None
    """Right edge: the highest pooled cosine."""
    matched: list[int] = Field(default_factory=list)
    """Matched pairs per bin (20 equal bins over [lo, hi]; each [left, right), the last closed)."""
    unmatched: list[int] = Field(default_factory=list)
    """Unmatched pairs per bin (same bins)."""


class SimilarityFigures(BaseModel):
    embedder: str
    """The embedder the run's filter uses (its name, e.g. ``hashing-ngram-v1-512``)."""
    judge: str | None = None
    """The judge whose full-mode verdicts decide which pairs are matched."""
    attribution: str = ""
    """How credited facts were found: ``lexical-best`` (the lexical judge names its fact) or
    ``lexical-related`` (model judges: facts lexically related to the claim)."""
    matched: SimilaritySummary
    """Cosines of each claim with the fact(s) the full-mode judge credited (YES or PARTIAL)."""
    unmatched: SimilaritySummary
    """Cosines of each claim with every other active fact of the trajectory at that state."""
    histogram: Histogram = Field(default_factory=Histogram)
    """Both groups binned on the same edges."""
    suggested_threshold: float | None = None
    """The θ maximising Youden's J = TPR - FPR for keep-if-cosine > θ (ties: the lowest θ); null
    when a group is empty or nothing separates them."""
    youden_j: float | None = None
    """J at the suggested threshold."""
    suggested_tpr: float | None = None
    """Share of matched pairs kept at the suggested threshold."""
    suggested_fpr: float | None = None
    """Share of unmatched pairs let through at the suggested threshold."""
    filter_threshold: float
    """The run's filter threshold these shares are measured at (0.8 unless set)."""
    matched_dropped: float | None = None
    """Share of matched pairs with cosine <= filter_threshold: true matches the filter throws away."""
    unmatched_kept: float | None = None
    """Share of unmatched pairs with cosine > filter_threshold: other facts the filter lets through."""
    unreliable_ruler: list[str] = Field(default_factory=list)
    """Which of the fields above are read from an unreliable judge (matched = credited by it)."""


# ---- read-time state (engine/scoring/readtime.py) ------------------------------------------------
class ReadTimeFigures(BaseModel):
    """What the system reads as true after each state, beside the write-time figures: each a mean
    over trajectories with its CI (docs/metrics.md#read-time-state)."""

    coverage: Interval = Field(default_factory=Interval)
    """Read-time coverage: mean claim score of the reading at the last written state."""
    accuracy: Interval = Field(default_factory=Interval)
    """Read-time accuracy: mean over written states of their read-time coverage."""
    stale_at_read: Interval = Field(default_factory=Interval)
    """Share of reads whose reading states a value the corpus says is stale."""
    reads: int = 0
    """Lookups judged (one per state and expected claim)."""
    read_path: str = ""
    """``own search`` (the system's) or ``hybrid`` (seorap's over its facts)."""
    not_applicable: dict[str, str] = Field(default_factory=dict)
    """Write-time metrics this system cannot support -> why (from its declared capabilities)."""
    query_kinds: list[str] = Field(default_factory=list)
    """Where the lookups' slot questions came from: ``corpus`` and/or ``generated``."""
    recomputed: int = 0
    """Lookups of an older database taken again at scoring with the slot question."""
    na: int = 0
    """Lookups that read n/a (an older lookup through a system's own search: ``na_reason``)."""
    na_reason: str | None = None
    gap: dict[str, int] = Field(default_factory=dict)
    """Reads scoring below write time, by where the gap lies: ``not_retrieved`` (the hits do not
    state the claim), ``outranked`` (they do, the reading answered with another hit), ``ruler``
    (the reading kept a hit that states it, judged lower: should be 0)."""
    unreliable_ruler: list[str] = Field(default_factory=list)
    """Which of the fields above are read from an unreliable judge."""


# ---- the claim journey (engine/scoring/journey.py) ----------------------------------------------
class JourneyStage(BaseModel):
    n: int = 0
    """Claims the stage applies to (not n/a)."""
    survived: int = 0
    """Of those, claims that pass it and every applicable stage before it."""
    share: Interval = Field(default_factory=Interval)
    """survived / n with its cluster-bootstrap CI (trajectories resampled whole)."""


class JourneyFigures(BaseModel):
    """The funnel of the claim journey: how many claims survive each stage
    (docs/metrics.md#claim-journey), computed when the run was scored."""

    stages: dict[str, JourneyStage] = Field(default_factory=dict)
    """said, extracted, stored, kept, retrieved, used, credited (in that order)."""
    losses: dict[str, int] = Field(default_factory=dict)
    """Claims per loss point (the first stage each failed)."""
    by_category: dict[str, dict[str, dict[str, int]]] = Field(default_factory=dict)
    """Per category, per stage: n and survived."""
    by_difficulty: dict[str, dict[str, dict[str, int]]] = Field(default_factory=dict)
    """Per difficulty, per stage: n and survived."""
    category_shares: dict[str, dict[str, JourneyStage]] = Field(default_factory=dict)
    """Per category, per stage: n, survived and the survival share with its cluster-bootstrap CI
    within the category (its own trajectories resampled); empty for a pass made before."""
    difficulty_shares: dict[str, dict[str, JourneyStage]] = Field(default_factory=dict)
    """Per difficulty, the same."""
    unreliable_ruler: list[str] = Field(default_factory=list)
    """The stages whose figures (counts, shares, loss counts; overall, per category and per
    difficulty) rest on the labels of an unreliable judge: stored, kept, retrieved, used and
    credited; never said or extracted. Empty when the judge is reliable."""


# ---- the gold-error ledger (engine/scoring/gold.py) ---------------------------------------------
class GoldFigure(BaseModel):
    with_contested: Interval = Field(default_factory=Interval)
    """The headline figure as scored, contested items included (the figure in ``aggregate``)."""
    without_contested: Interval = Field(default_factory=Interval)
    """The same figure with the contested items left out of every trajectory."""
    ceiling: float | None = None
    """The best this figure could be for a system right on every item when the contested items
    count as wrong (mean over trajectories)."""
    above_ceiling: bool = False
    """``with_contested`` is above ``ceiling`` over the run: the system was credited on contested
    gold."""
    trajectories_above: list[str] = Field(default_factory=list)
    """Trajectories whose own figure is above their own ceiling (a run below its mean ceiling can
    still hold one: 0.825 where the trajectory's ceiling is 0.70)."""


class GoldFigures(BaseModel):
    """What the contested gold items of the run's corpus do to its headline figures
    (docs/metrics.md#gold-ledger)."""

    ledger: str = ""
    """The ledger file read."""
    contested: list[dict] = Field(default_factory=list)
    """Each contest in force for this corpus: trajectory, item, kind, text, reason, who, at."""
    figures: dict[str, GoldFigure] = Field(default_factory=dict)
    """intrinsic, intrinsic_filter, extrinsic, extrinsic_single."""
    by_trajectory: dict[str, dict[str, dict[str, float | None]]] = Field(default_factory=dict)
    """Per trajectory with a contested item, per figure: with, without, ceiling."""
    problem: str | None = None
    """Why the ledger beside the database could not be read (then no figures): a broken ledger
    never stops scoring or a report; one named with ``--ledger`` is refused instead."""
    unreliable_ruler: list[str] = Field(default_factory=list)
    """Which of the fields above are read from an unreliable judge (the ceilings are not)."""


class RunReport(BaseModel):
    run_id: str
    """The run."""
    system: str
    """The memory system that wrote it."""
    standin: bool = False
    """Written by the offline stand-in model (no LLM), not by the model the system names: every
    format labels it "(stand-in)"."""
    keep_ungrounded: bool = False
    """Written with the quarantine off (``seorap run --keep-ungrounded``): every format labels it
    "(quarantine off)"."""
    recording: str = ""
    """Imported from a shipped recording (or a replay of one): 'recorded: MODEL (SIZE), MACHINE,
    DATE'; every format labels it so."""
    scoring: str
    """The scoring setup (judge + answerer) these figures come from."""
    filter_threshold: float | None = None
    """Cosine threshold of the filter mode."""
    trajectories: list[TrajectoryReport]
    """Per-trajectory figures."""
    aggregate: Aggregate
    """Figures over the run's trajectories."""
    overrides: OverrideFigures = Field(default_factory=OverrideFigures)
    """Human overrides and the figures they change (raw figures stay in ``aggregate``)."""
    calls: Calls
    """Model-call counters."""
    accounting: Accounting | None = None
    """What the run cost per role: calls made / cached, tokens, latency, tokens/s, retries, cut
    replies, salvaged items, loops, truncated prompts, write failures; wall time per phase."""
    full_vs_filter: dict[str, int] = Field(default_factory=dict)
    """Re-scoring diff of the claim verdicts, full -> filter: credited, penalised, unchanged, ..."""
    rulers: list[RulerFigures] = Field(default_factory=list)
    """Every judging setup stored for this run (scoring x candidate mode) with its intrinsic mean."""
    rulers_spread: float | None = None
    """Max - min intrinsic mean over ``rulers``; null with fewer than two setups."""
    similarity: SimilarityFigures | None = None
    """Cosine distributions of matched / unmatched (claim, fact) pairs with the run's embedder and
    the suggested filter threshold; null when the scoring pass had no full mode (or predates v3)."""
    audit: AuditFigures | None = None
    """The judge audit of the judge this scoring used: pass rate per kind, PARTIAL saturation
    (engine/scoring/audit.py); null for a scoring pass made before the audit was always on."""
    judge_reliability: Reliability | None = None
    """Whether this run's judge can carry diagnoses: the scoring pass's one decision
    (diagnosis.judge_unreliable, stored as aggregate.judge_unreliable) as a flag and its reasons;
    null without an audit."""
    read_time: ReadTimeFigures | None = None
    """Read-time coverage, accuracy and stale-at-read with CIs, and the write-time metrics the
    system cannot support; null for a scoring pass made before read-time state."""
    not_applicable: dict[str, str] = Field(default_factory=dict)
    """Write-time metrics this system cannot support -> why (from its declared capabilities): their
    figures are null here and read "n/a (why)" in every format."""
    answer_path: str = ""
    """How the memory answers and the journey's retrieved stage read the system's facts: ``own
    search`` (the system's, stored when the run was written) or ``hybrid`` (seorap's over its
    facts); "" for a scoring pass made before."""
    answer_path_na: str | None = None
    """Why the memory answers are n/a (a system with its own search whose run stored no hits for
    the questions); null when they are not."""
    journey: JourneyFigures | None = None
    """The claim-journey funnel; null for a scoring pass made before the journey."""
    gold: GoldFigures | None = None
    """Headline figures with and without the contested gold items and their ceilings; null when
    the gold ledger contests nothing in this run's corpus (every ceiling is then 1)."""


class Comparison(BaseModel):
    base: str
    """The earlier run of the pair (report order)."""
    candidate: str
    """The later run of the pair: compared against ``base``, as `seorap compare` does."""
    candidate_minus_base: float | None = None
    """Mean over shared trajectories of intrinsic (full) of candidate minus that of base (one sign
    convention everywhere: candidate - base)."""
    mdd: float | None = None
    """Minimum detectable difference (alpha 0.05, power 0.8, paired by trajectory)."""
    unreliable_ruler: list[str] = Field(default_factory=list)
    """``candidate_minus_base`` and ``mdd`` when either run's judge is unreliable."""


class Report(BaseModel):
    report_version: int = REPORT_VERSION
    """Version of this schema."""
    created_at: str = ""
    """When the report was built (UTC)."""
    runs: list[RunReport]
    """One entry per run."""
    comparisons: list[Comparison] = Field(default_factory=list)
    """Pairwise run comparisons with the minimum detectable difference."""
