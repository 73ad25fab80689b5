"""Which figures of a report rest on the judge's YES/PARTIAL/NO labels, and the flag each carries
beside it when that judge is unreliable (docs/metrics.md, "Figures read from an unreliable judge").

The judge's one reliability decision (engine/scoring/diagnosis.py ``judge_unreliable``, stored as
``aggregate.judge_unreliable``) withholds what is built on pass/fail (quadrants, MAD, DivRate, r,
κ, pass agreement). The figures below stay, each read with that decision beside it: in JSON every
object holding them lists them by name in its ``unreliable_ruler`` field (``mark``), in CSV a
``<column>_ruler`` column after each of them reads ``unreliable`` (``csv_flags``), in text,
Markdown and the app a line or header carrying them ends in ``[unreliable ruler]`` (``suffix``).
Not label-built, so never flagged: UDR, FUR, operation accuracy, confidence MAE, fact counts and
shape, stale facts and claim precision (the store read lexically), token F1, cost; nor the judge's
own PARTIAL share and unparseable count, which measure the judge.
"""

from __future__ import annotations

from seorap.engine.scoring.schema import RunReport

UNRELIABLE_MARK = "unreliable ruler"
"""What stands beside a label-built figure of a run whose judge is unreliable."""
FLAG = "unreliable"
"""A CSV flag column's value beside such a figure ('' when the judge is reliable)."""

AGGREGATE = (
    "intrinsic",
    "intrinsic_filter",
    "extrinsic",
    "extrinsic_single",
    "signed_mean",
    "signed_mean_ci",
    "baselines",
    "benefit_tax",
    "depth_curve",
    "by_category",
    "by_difficulty",
    "seeds",
)
"""Aggregate fields built on the labels (claim verdicts for intrinsic, answer verdicts for the
rest; the groups' and the seeds' figures are the same means)."""
TRAJECTORY = (
    "intrinsic",
    "extrinsic",
    "baselines",
    "miss_rate",
    "signed_diff",
    "depth_curve",
    "benefit_tax",
    "failures",
    "read_coverage",
    "read_accuracy",
    "stale_at_read",
)
"""TrajectoryReport fields built on the labels (failure localisation counts claims by their
verdicts; the read-time figures judge each reading with the same judge)."""
READ_TIME = ("coverage", "accuracy", "stale_at_read", "gap")
JOURNEY_STAGES = ("stored", "kept", "retrieved", "used", "credited")
"""Stages whose survival rests on the labels: *stored* and *kept* on the claim verdicts, and the
later ones both on them (survival is cumulative) and on the answer verdicts. *said* and *extracted*
do not (the corpus and the system's own observations)."""
GOLD = ("figures", "by_trajectory")
OVERRIDES = ("intrinsic", "extrinsic", "by_trajectory")
"""A person's labels replace some of the judge's; the rest are still the judge's."""
SIMILARITY = (
    "matched",
    "unmatched",
    "histogram",
    "suggested_threshold",
    "youden_j",
    "suggested_tpr",
    "suggested_fpr",
    "matched_dropped",
    "unmatched_kept",
)
"""The matched pairs are the ones the full-mode judge credited."""
RULER = ("intrinsic", "extrinsic")
COMPARISON = ("candidate_minus_base", "mdd")

COMPARE_FIGURES = ("intrinsic", "intrinsic_filter", "extrinsic", "extrinsic_single", "miss_rate")
"""The figures of ``seorap compare`` built on the labels (engine/scoring/gate.py FIGURES)."""

CSV_COLUMNS = (
    "intrinsic_full",
    "intrinsic_filter",
    "extrinsic_compound",
    "extrinsic_single",
    "full_context",
    "naive_rag",
    "no_context",
    "miss_rate",
    "benefit",
    "tax",
    "net",
    "read_coverage",
    "read_accuracy",
    "stale_at_read",
)
"""Per-trajectory CSV columns built on the labels; each has ``<column>_ruler`` after it."""


def unreliable(run: RunReport) -> bool:
    return bool(run.aggregate.judge_unreliable)


def suffix(run: RunReport) -> str:
    """What ends a text line carrying a label-built figure: ' [unreliable ruler]' when the run's
    judge is unreliable, else ''."""
    return f" [{UNRELIABLE_MARK}]" if unreliable(run) else ""


def mark(run: RunReport) -> RunReport:
    """Fill every ``unreliable_ruler`` list of ``run`` (in place; also returned): the names of the
    object's label-built figures when the run's judge is unreliable, empty otherwise. The rulers'
    rows (each another scoring pass, with its own decision) and the comparisons (two runs) are
    flagged where they are built (engine/scoring/report.py)."""
    on = unreliable(run)

    def names(fields: tuple[str, ...]) -> list[str]:
        return list(fields) if on else []

    run.aggregate.unreliable_ruler = names(AGGREGATE)
    for t in run.trajectories:
        t.unreliable_ruler = names(TRAJECTORY)
    if run.read_time is not None:
        run.read_time.unreliable_ruler = names(READ_TIME)
    if run.journey is not None:
        run.journey.unreliable_ruler = [s for s in names(JOURNEY_STAGES) if s in run.journey.stages]
    if run.gold is not None:
        run.gold.unreliable_ruler = names(GOLD)
    if run.overrides.count:
        run.overrides.unreliable_ruler = names(OVERRIDES)
    if run.similarity is not None:
        run.similarity.unreliable_ruler = names(SIMILARITY)
    return run


def csv_flags(run: RunReport, row: dict, columns: list[str]) -> dict[str, str]:
    """The flag columns of ``columns`` (``flag_columns``) for one CSV row of ``run``: 'unreliable'
    beside each figure the row has when the run's judge is unreliable, else ''."""
    on = unreliable(run)
    return {flag: FLAG if on and _has_figure(row, flag) else "" for flag in flag_columns(columns)}


def _has_figure(row: dict, flag: str) -> bool:
    """The row has a value in the figure a flag column stands beside (a per-trajectory column, a
    journey stage's share, a gold figure as scored)."""
    base = flag.removesuffix("_ruler")
    return any(row.get(c) is not None for c in (base, f"{base}_share", f"{base}_with"))


def flag_columns(columns: list[str]) -> dict[str, str]:
    """Flag column -> the column it stands after: ``<column>_ruler`` after each label-built
    per-trajectory column (CSV_COLUMNS); ``run_journey_[<group>_]<stage>_ruler`` after a label-built
    stage's columns (JOURNEY_STAGES, overall and per category or difficulty);
    ``run_gold_<figure>_ruler`` after a gold figure's columns (its values with and without the
    contested items)."""
    out: dict[str, str] = {}
    for c in columns:
        if c in CSV_COLUMNS:
            out[f"{c}_ruler"] = c
        elif c.startswith("run_journey_") and c.endswith(
            tuple(f"_{s}_high" for s in JOURNEY_STAGES)
        ):
            out[c.removesuffix("_high") + "_ruler"] = c
        elif c.startswith("run_gold_") and c.endswith("_above_ceiling"):
            out[c.removesuffix("_above_ceiling") + "_ruler"] = c
    return out


def with_flags(columns: list[str]) -> list[str]:
    """``columns`` with each flag column right after the column it stands after."""
    after: dict[str, str] = {anchor: flag for flag, anchor in flag_columns(columns).items()}
    out: list[str] = []
    for c in columns:
        out.append(c)
        if c in after:
            out.append(after[c])
    return out
