"""The report as text: JSON (the versioned schema), CSV (one row per run x trajectory) and Markdown,
plus the summary lines every text view shares. Plain strings only; no terminal rendering here."""

from __future__ import annotations

import csv
import io

from seorap.engine.fmt import cell, interval
from seorap.engine.run import accounting
from seorap.engine.scoring import answer_path, audit, ruler_marks
from seorap.engine.scoring import similarity as sim
from seorap.engine.scoring.diagnosis import judge_headline
from seorap.engine.scoring.gold import LABELS, gold_lines
from seorap.engine.scoring.journey import funnel_line
from seorap.engine.scoring.report import COLUMNS, rows, run_label
from seorap.engine.scoring.report_token_f1 import token_f1_lines, token_f1_markdown
from seorap.engine.scoring.schema import Aggregate, Report, RulerFigures, RunReport
from seorap.engine.scoring.schema_trajectory import FactShape, Interval
from seorap.engine.untrusted import escape_json

fmt = cell
"""engine.fmt.cell under the name this text and the CLI's report tables use for a cell."""


def to_json(report: Report) -> str:
    return escape_json(report.model_dump_json(indent=2))  # bidi and C1 controls escaped


def to_csv(report: Report) -> str:
    """One row per run x trajectory; the run's cost (calls, cache hits, tokens, wall time) repeats on
    each of its rows in the ``run_*`` columns; after every figure built on the judge's labels, a
    ``…_ruler`` column reads ``unreliable`` when the run's judge is (engine/scoring/ruler_marks.py)."""
    extra = [f"run_{k}" for k in accounting.CSV_FIELDS]
    costs = {
        run.run_id: {**accounting.csv_fields(_accounting(run)), **run_figures(run)}
        for run in report.runs
    }
    extra += sorted({k for fields in costs.values() for k in fields} - set(extra))
    table = rows(report)
    extra += [k for k in dict.fromkeys(k for r in table for k in r) if k not in COLUMNS]
    fields = ruler_marks.with_flags(COLUMNS + extra)  # a flag after each label-built figure
    runs = {run.run_id: run for run in report.runs}
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields)
    writer.writeheader()
    for row in table:
        row = {**row, **costs.get(row["run_id"], {})}
        row |= ruler_marks.csv_flags(runs[row["run_id"]], row, fields)
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return buf.getvalue()


RUN_INTERVALS = ("udr", "fur", "confidence_mae")


def run_figures(run: RunReport) -> dict[str, float | str | None]:
    """Run-level columns repeated on each of the run's CSV rows: UDR, FUR and confidence MAE with
    their CI ends, and the judge audit (pass rate per kind, PARTIAL saturation, separation, and
    the reliability decision)."""
    out: dict[str, float | str | None] = {}
    for name in RUN_INTERVALS:
        iv: Interval = getattr(run.aggregate, name)
        if name in run.not_applicable:
            out |= {f"run_{name}": "n/a", f"run_{name}_low": None, f"run_{name}_high": None}
            continue
        out |= {
            f"run_{name}": iv.mean,
            f"run_{name}_low": iv.ci_low,
            f"run_{name}_high": iv.ci_high,
        }
    for stage, f in (run.journey.stages if run.journey else {}).items():
        out |= {
            f"run_journey_{stage}_n": f.n,
            f"run_journey_{stage}_survived": f.survived,
            f"run_journey_{stage}_share": f.share.mean,
            f"run_journey_{stage}_low": f.share.ci_low,
            f"run_journey_{stage}_high": f.share.ci_high,
        }
    j = run.journey
    for groups in (j.category_shares, j.difficulty_shares) if j else ():
        for g, per in groups.items():
            for stage, f in per.items():
                out |= {
                    f"run_journey_{g}_{stage}_share": f.share.mean,
                    f"run_journey_{g}_{stage}_low": f.share.ci_low,
                    f"run_journey_{g}_{stage}_high": f.share.ci_high,
                }
    if run.gold is not None:
        out["run_gold_contested"] = len(run.gold.contested)
        for name, fig in run.gold.figures.items():
            out |= {
                f"run_gold_{name}_with": fig.with_contested.mean,
                f"run_gold_{name}_without": fig.without_contested.mean,
                f"run_gold_{name}_ceiling": fig.ceiling,
                f"run_gold_{name}_above_ceiling": fig.above_ceiling,
            }
    a = run.audit
    if a is not None:
        out |= {f"run_audit_{k}": f.pass_rate for k, f in sorted(a.kinds.items())}
        out["run_audit_judge"] = a.judge
        out["run_audit_partial_saturation"] = a.partial_saturation
        out["run_audit_separation"] = a.separation
    out["run_judge_unreliable"] = run.aggregate.judge_unreliable
    return out | answer_path.csv_fields(run.answer_path, run.answer_path_na)


def _accounting(run: RunReport) -> accounting.RunAccounting:
    return accounting.from_dict(run.accounting.model_dump() if run.accounting else None)


def cost_lines(run: RunReport) -> list[str]:
    """What the run cost, per role (engine/run/accounting.py): a few lines for the terminal."""
    return accounting.lines(_accounting(run))


SHORT = [
    "trajectory",
    "category",
    "difficulty",
    "intrinsic_full",
    "intrinsic_filter",
    "extrinsic_compound",
    "extrinsic_single",
    "naive_rag",
    "stale_facts",
    "claim_precision",
    "quadrant",
]


def summary_lines(run: RunReport, *, gold: bool = True) -> list[str]:
    """The run's summary, one figure group a line; ``gold`` False leaves out the gold block (the
    Markdown report gives it a table of its own)."""
    a = run.aggregate
    mark = reliability(run)
    lines = [
        f"intrinsic full {interval(a.intrinsic)} · filter@{fmt(run.filter_threshold)} {interval(a.intrinsic_filter)}"
        f"{mark} · {fact_shape_text(a.fact_shape)}",
        f"extrinsic compound {interval(a.extrinsic)} · single {interval(a.extrinsic_single)}{mark}",
        f"UDR {_na(run, 'udr', a.udr)} · FUR {interval(a.fur)} · confidence MAE "
        f"{_na(run, 'confidence_mae', a.confidence_mae)}",
        *_judge_lines(a, mark),
        f"PARTIAL share {fmt(a.partial_share)} · unparseable {a.unparseable} · op accuracy "
        f"{_na(run, 'op_accuracy', a.op_accuracy_ci)} (majority {fmt(a.op_majority_baseline)}) · stale facts {fmt(a.stale_facts)}",
        f"baselines: full-context {fmt(a.baselines.full_context)} · naive-rag {fmt(a.baselines.naive_rag)} · "
        f"no-context {fmt(a.baselines.no_context)} · benefit {a.benefit_tax.benefit} / tax "
        f"{a.benefit_tax.tax} / net {a.benefit_tax.net}{mark}",
        "depth curve: " + " · ".join(f"k={k} {fmt(v)}" for k, v in a.depth_curve.items()) + mark,
        "full → filter claim verdicts: "
        + ", ".join(f"{k} {v}" for k, v in run.full_vs_filter.items())
        + mark,
        f"calls: {run.calls.total} logged, {run.calls.cached} served from cache in the last scoring",
    ]
    lines += token_f1_lines(run)
    lines += _write_failure_lines(run)
    lines += _override_lines(run)
    if a.seeds is not None:
        s = a.seeds
        lines.append(
            f"seeds: n {s.n} · intrinsic {fmt(s.intrinsic_mean)} ± {fmt(s.intrinsic_sd)} · "
            f"extrinsic {fmt(s.extrinsic_mean)} ± {fmt(s.extrinsic_sd)}{mark}"
        )
    lines += ruler_lines(run)
    lines += audit.audit_lines(run.audit)
    if run.similarity is not None:  # its matched pairs are the ones the judge credited
        lines.append(sim.summary_line(run.similarity) + mark)
    lines += read_time_lines(run)
    lines += answer_path.lines(run.answer_path, run.answer_path_na)
    lines += journey_lines(run)
    if gold:
        lines += gold_lines(run.gold, interval, fmt, mark)
    return lines


def _judge_lines(a: Aggregate, mark: str) -> list[str]:
    """The judge/answerer divergence and agreement lines (withheld when the judge is
    unreliable; the signed mean stays, with ``mark``)."""
    divergence = (
        f"MAD, DivRate, r, κ, pass agreement, quadrants: {judge_headline(a.judge_unreliable)} "
        f"({a.judge_unreliable})"
        if a.judge_unreliable
        else f"MAD {interval(a.mad_ci)} · DivRate {interval(a.div_rate_ci)}"
    )
    agreement = (
        f"signed {interval(a.signed_mean_ci)}{mark}"
        if a.judge_unreliable
        else f"signed {interval(a.signed_mean_ci)} · r {interval(a.pearson_r_ci)} · κ {interval(a.kappa_ci)} · "
        f"pass agreement {interval(a.pass_agreement_ci)}"
    )
    return [divergence, agreement]


def _write_failure_lines(run: RunReport) -> list[str]:
    failures = sum(t.write_failures for t in run.trajectories)
    if not failures:
        return []
    partial = sum(t.partial_write_failures for t in run.trajectories)
    return [
        f"write failures: {failures}"
        + (
            f" ({partial} partial: cut extractions whose complete observations were written)"
            if partial
            else ""
        )
    ]


def _override_lines(run: RunReport) -> list[str]:
    """The figures before and after a person's overrides, for the run and each trajectory."""
    if not run.overrides.count:
        return []
    a, mark = run.aggregate, reliability(run)  # the labels not overridden are still the judge's
    return [
        f"overrides: {run.overrides.count} · intrinsic raw {interval(a.intrinsic)} → "
        f"{interval(run.overrides.intrinsic)} · extrinsic raw {interval(a.extrinsic)} → "
        f"{interval(run.overrides.extrinsic)}{mark}"
    ] + [
        f"  {tid}: intrinsic {fmt(f['intrinsic_raw'])} → {fmt(f['intrinsic'])} · extrinsic "
        f"{fmt(f['extrinsic_raw'])} → {fmt(f['extrinsic'])}{mark}"
        for tid, f in run.overrides.by_trajectory.items()
    ]


def _na(run: RunReport, name: str, iv: Interval) -> str:
    """The figure with its CI, or ``n/a (why)`` when the system cannot support it."""
    why = run.not_applicable.get(name)
    return f"n/a ({why})" if why else interval(iv)


UNRELIABLE_MARK = ruler_marks.UNRELIABLE_MARK
"""Beside each label-built figure of a run whose judge is unreliable (the reasons are said once)."""
reliability = ruler_marks.suffix
"""What ends a line carrying a figure built on YES/PARTIAL/NO labels when the judge is unreliable
("" when it is reliable): the figure stays, read with the judge's reliability."""


def journey_lines(run: RunReport) -> list[str]:
    """The claim-journey funnel: claims surviving each stage, then each stage's share with its CI."""
    j = run.journey
    if j is None or not j.stages:
        return []

    counts = {s: {"n": f.n, "survived": f.survived} for s, f in j.stages.items()}
    lost = ", ".join(f"{s} {n}" for s, n in j.losses.items()) or "none"
    if run.aggregate.judge_unreliable:  # a loss point read from an unreliable ruler is not named
        lost = "withheld (unreliable ruler: see the judge audit)"
    shares = " · ".join(f"{s} {interval(f.share)}" for s, f in j.stages.items() if f.n)
    mark = reliability(run)
    lines = [
        f"journey: {funnel_line(counts)} · lost at: {lost}{mark}",
        f"journey survival: {shares}{mark}",
    ]
    for groups in (j.category_shares, j.difficulty_shares):
        lines += [
            f"journey {g}: "
            + " · ".join(
                f"{s} {f.survived}/{f.n} {interval(f.share)}" for s, f in per.items() if f.n
            )
            + mark
            for g, per in groups.items()
        ]
    return lines


def gold_markdown(run: RunReport) -> list[str]:
    """The gold block as a Markdown section: each headline figure with and without the contested
    items, its ceiling and whether it is above; then the contests (who, when, why)."""
    g = run.gold
    if g is None:
        return []

    if g.problem:
        return ["### Gold", ""] + [f"- {line}" for line in gold_lines(g, interval, fmt)] + [""]

    mark = reliability(run)
    out = [
        f"### Gold ({len(g.contested)} contested, ledger {g.ledger or '—'})",
        "",
        f"| figure | with contested{mark} | without{mark} | ceiling | above ceiling |",
        "|---|---|---|---|---|",
    ]
    out += [
        f"| {LABELS[name]} | {interval(f.with_contested)} | {interval(f.without_contested)} | "
        f"{fmt(f.ceiling)} | {'**yes**' if f.above_ceiling else 'no'} |"
        for name, f in g.figures.items()
    ]
    out += [""] + [
        f"- {c['trajectory']} {c['item']} ({c['kind']}): {c['text']} — {c['reason']} "
        f"({c['who']}, {c['at']})"
        for c in g.contested
    ]
    return out + [""]


def read_time_lines(run: RunReport) -> list[str]:
    """The read-time block beside the write-time figures, and what is n/a for this system (why)."""
    r = run.read_time
    if r is None:
        return []
    asked = " + ".join(f"{k} slot questions" for k in r.query_kinds) or "slot questions"
    lines = [
        f"read-time ({r.read_path or 'no reads'}, {r.reads} reads, {asked}): coverage "
        f"{interval(r.coverage)} · accuracy {interval(r.accuracy)} · stale-at-read "
        f"{interval(r.stale_at_read)} · write-time: accuracy {interval(run.aggregate.intrinsic)}"
        f"{reliability(run)}"
    ]
    if r.gap:
        lines.append(
            f"read below write: not retrieved {r.gap.get('not_retrieved', 0)} · outranked "
            f"{r.gap.get('outranked', 0)} · ruler disagreement {r.gap.get('ruler', 0)}"
            f"{reliability(run)}"
        )
    if r.recomputed:
        lines.append(f"read-time: {r.recomputed} older lookups taken again with the slot question")
    if r.na:
        lines.append(f"read-time: {r.na} lookups n/a ({r.na_reason})")
    lines += [f"{name}: n/a ({why})" for name, why in r.not_applicable.items()]
    return lines


def fact_shape_text(shape: FactShape | None) -> str:
    """``facts: 24 chars, 3% multi-statement (n 96)``: what explains a full vs filter gap."""
    if shape is None or not shape.n:
        return "facts: —"
    return (
        f"facts: {shape.mean_length:.0f} chars, {shape.multi_share:.0%} multi-statement "
        f"(n {shape.n})"
    )


def histogram_lines(run: RunReport) -> list[str]:
    """The tiny text histogram of matched vs unmatched cosines (empty without similarity figures)."""
    return [] if run.similarity is None else sim.histogram_lines(run.similarity)


def ruler_lines(run: RunReport) -> list[str]:
    """The rulers section: intrinsic mean per judging setup stored for the run, and the spread."""
    if len(run.rulers) < 2:
        return []
    return [
        f"rulers (spread {fmt(run.rulers_spread)}): "
        + " · ".join(f"{r.scoring} {r.mode} {fmt(r.intrinsic)}{_own(r)}" for r in run.rulers)
    ]


def _own(ruler: RulerFigures) -> str:
    """The mark beside one judging setup's figures when its own judge was found unreliable."""
    return f" [{UNRELIABLE_MARK}]" if ruler.unreliable_ruler else ""


def to_markdown(report: Report) -> str:
    out = [f"# seorap report (v{report.report_version}, {report.created_at})", ""]
    for run in report.runs:
        out += [f"## {run.run_id} ({run_label(run)}, scoring {run.scoring})", ""]
        out += [f"- {line}" for line in summary_lines(run, gold=False)] + [""]
        if histogram_lines(run):
            out += ["```"] + histogram_lines(run) + ["```", ""]
        if len(run.rulers) >= 2:
            out += [
                f"### Rulers (spread {fmt(run.rulers_spread)})",
                "",
                "| scoring | mode | judge | intrinsic | extrinsic |",
                "|---|---|---|---|---|",
            ]
            out += [
                f"| {r.scoring} | {r.mode} | {r.judge or '—'} | {fmt(r.intrinsic)}{_own(r)} | "
                f"{fmt(r.extrinsic)}{_own(r)} |"
                for r in run.rulers
            ] + [""]
        out += gold_markdown(run)
        out += token_f1_markdown(run)
        out += ["### Cost", ""] + accounting.markdown_lines(_accounting(run)) + [""]
        out += trajectory_markdown(run)
    if report.comparisons:
        out += [
            "## Comparisons",
            "",
            "| base | candidate | Δ intrinsic (candidate − base) | MDD |",
            "|---|---|---|---|",
        ]
        out += [
            f"| {c.base} | {c.candidate} | {fmt(c.candidate_minus_base)}{_flag(c.unreliable_ruler)}"
            f" | {fmt(c.mdd)}{_flag(c.unreliable_ruler)} |"
            for c in report.comparisons
        ]
    return "\n".join(out) + "\n"


def _flag(unreliable_ruler: list[str]) -> str:
    return f" [{UNRELIABLE_MARK}]" if unreliable_ruler else ""


def trajectory_markdown(run: RunReport) -> list[str]:
    """The per-trajectory table (a label-built column's header carries the mark under an
    unreliable judge) and each trajectory's diagnosis (none from an unreliable judge: its
    figures, marked)."""
    mark = reliability(run)
    labelled = set(ruler_marks.CSV_COLUMNS)
    out = ["| " + " | ".join(c + (mark if c in labelled else "") for c in SHORT) + " |"]
    out.append("|" + "---|" * len(SHORT))
    for row in rows(Report(runs=[run])):
        out.append("| " + " | ".join(fmt(row[c]) for c in SHORT) + " |")
    out += ["", "### Diagnosis", ""]
    if run.aggregate.judge_unreliable:
        # withheld: the summary above says so once, with the reasons
        return (
            out
            + [
                f"- **{t.id}** (no quadrant): intrinsic {fmt(t.intrinsic.full)}, extrinsic "
                f"{fmt(t.extrinsic.compound)}{mark}"
                for t in run.trajectories
            ]
            + [""]
        )
    return (
        out
        + [f"- **{t.id}** ({t.quadrant or 'no quadrant'}): {t.diagnosis}" for t in run.trajectories]
        + [""]
    )
