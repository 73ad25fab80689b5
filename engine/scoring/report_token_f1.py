"""Token F1 in the report's text and Markdown (docs/metrics.md#token-f1): LoCoMo's own metric
pooled over a run's questions, beside the judge's figures, per dataset kind.

Pooled by question, as LoCoMo reports it (a trajectory with 200 questions weighs 200 times one with
one), not by trajectory as the judge's means are.
"""

from __future__ import annotations

from seorap.engine.fmt import cell
from seorap.engine.scoring.schema import RunReport
from seorap.engine.scoring.schema_trajectory import TokenF1Kind

SOURCES = ("memory", "full_context", "naive_rag", "no_context")


def pooled(run: RunReport) -> dict[str, TokenF1Kind]:
    """Per kind (and ``all``), each source's mean over the run's questions; empty when no
    trajectory carries token F1."""
    sums: dict[str, dict[str, float]] = {}
    counts: dict[str, int] = {}
    for t in run.trajectories:
        if t.token_f1 is None:
            continue
        for label, kind in t.token_f1.by_kind.items():
            for key in (label, "all"):
                counts[key] = counts.get(key, 0) + kind.n
                bucket = sums.setdefault(key, dict.fromkeys(SOURCES, 0.0))
                for source in SOURCES:
                    value = getattr(kind, source)
                    bucket[source] += 0.0 if value is None else value * kind.n
    return {
        key: TokenF1Kind(
            n=counts[key],
            **{s: (sums[key][s] / counts[key] if counts[key] else None) for s in SOURCES},
        )
        for key in sorted(sums, key=lambda k: (k == "all", k))
    }


def not_applicable(run: RunReport) -> dict[str, str]:
    """Why an offline ruler gave n/a on the run's corpus (the same reason on every trajectory)."""
    out: dict[str, str] = {}
    for t in run.trajectories:
        if t.token_f1 is not None:
            out |= t.token_f1.not_applicable
    return out


def token_f1_lines(run: RunReport) -> list[str]:
    """Pooled token F1 per source, memory's per kind, and any offline ruler's n/a with its why."""
    reasons = [f"{role} n/a: {why}" for role, why in sorted(not_applicable(run).items())]
    table = pooled(run)
    if not table:
        return reasons
    every = table.pop("all")
    kinds = " · ".join(f"{label} {cell(k.memory)} (n {k.n})" for label, k in table.items())
    return [
        f"token F1 (LoCoMo's metric, n {every.n}): memory {cell(every.memory)} · full-context "
        f"{cell(every.full_context)} · naive-rag {cell(every.naive_rag)} · no-context "
        f"{cell(every.no_context)}",
        f"token F1 by kind (memory): {kinds}",
        *reasons,
    ]


def token_f1_markdown(run: RunReport) -> list[str]:
    """A table: one row per kind and one for all, a column per answer source."""
    table = pooled(run)
    reasons = [f"- {role} n/a: {why}" for role, why in sorted(not_applicable(run).items())]
    if not table:
        return reasons + [""] if reasons else []
    out = [
        "### Token F1 (LoCoMo's metric, beside the judge)",
        "",
        "| kind | n | memory | full-context | naive-rag | no-context |",
        "|---|---|---|---|---|---|",
    ]
    out += [
        f"| {label} | {k.n} | {cell(k.memory)} | {cell(k.full_context)} | {cell(k.naive_rag)} | "
        f"{cell(k.no_context)} |"
        for label, k in table.items()
    ]
    return out + [""] + (reasons + [""] if reasons else [])
