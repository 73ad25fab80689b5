"""The score cards' text blocks (tui/screens/scores.py): agreement, read time, the judge's
audit, similarity, rulers, cost and the verdicts that moved, each a rich Text from a run's report
(engine.scoring.report) and the views it reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from seorap.engine import views
from seorap.engine.fmt import figure
from seorap.tui.text import ci, literal

if TYPE_CHECKING:
    from seorap.engine.scoring.schema import Interval, RunReport, SimilarityFigures

COLORS = {"healthy": "green", "compensation": "yellow", "bottleneck": "magenta", "both-low": "red"}


def _value_ci(value: float | None, iv: Interval | None) -> str:
    """A figure once, with its CI bounds when there are any: 'MAD 0.38 [0.21, 0.54]'."""
    if value is None:
        return ci(iv)
    if iv is None or iv.ci_low is None or iv.ci_high is None:
        return figure(value)
    return f"{value:.2f} [{iv.ci_low:.2f}, {iv.ci_high:.2f}]"


def agreement_text(report: RunReport, label: str | None = None) -> Text:
    a, mark = (
        report.aggregate,
        views.ruler_mark(report),
    )  # beside the figures built on the judge's labels
    text = Text()
    text.append_text(
        literal(f"{label or report.system}  ({report.run_id}, scoring {report.scoring})\n", "bold")
    )
    text.append(
        f"intrinsic {ci(a.intrinsic)}   extrinsic {ci(a.extrinsic)}   "
        f"filter@θ {ci(a.intrinsic_filter)}"
    )
    text.append(f"{mark}\n", "bold yellow")
    text.append(
        f"MAD {_value_ci(a.mad, a.mad_ci)}   DivRate {figure(a.div_rate)}   signed mean "
        f"{views.DELTA_LABEL} {figure(a.signed_mean)}   Pearson r {figure(a.pearson_r)}   "
        f"κ {figure(a.kappa)}   pass agreement {figure(a.pass_agreement)}   "
        f"PARTIAL share {figure(a.partial_share)}\n"
    )
    audit = views.judge_audit(report)
    text.append("quadrants: ")
    if audit is not None and not audit.reliable:
        text.append(audit.headline, "bold red")
        text.append(
            " (no quadrant, MAD or DivRate from this judge; why: the judge audit just below, "
            "or `seorap judge-audit`)",
            "dim",
        )
    else:
        for q in views.QUADRANTS:
            text.append(f"{q} {a.quadrants.get(q, 0)}  ", COLORS[q])
    text.append("\n")
    text.append_text(read_time_text(report))
    text.append_text(similarity_text(report.similarity))
    text.append(f"{mark if report.similarity is not None else ''}\n", "bold yellow")
    text.append_text(audit_text(audit))
    return text


def read_time_text(report: RunReport) -> Text:
    """What the system reads as true (docs/metrics.md#read-time-state) and what is n/a for it."""
    r = report.read_time
    text = Text()
    if r is not None:
        asked = " + ".join(f"{k} slot questions" for k in r.query_kinds) or "slot questions"
        text.append(
            f"read time ({r.read_path or 'no reads'}, {asked}): coverage {ci(r.coverage)}   accuracy "
            f"{ci(r.accuracy)}   stale-at-read {ci(r.stale_at_read)}"
        )
        text.append(f"{views.ruler_mark(report)}\n", "bold yellow")
    if report.answer_path:  # which read path the memory answers and the journey read
        text.append(f"answers read through: {report.answer_path}\n")
        if report.answer_path_na:
            text.append(f"answers: n/a ({report.answer_path_na})\n", "dim")
    for name, why in (report.not_applicable or (r.not_applicable if r else {})).items():
        text.append(f"{name}: n/a ({why})\n", "dim")
    return text


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.0%}"


def audit_text(audit: views.JudgeAudit | None) -> Text:
    """The judge audit of the judge this scoring used: pass rate (YES) per kind of planted answer,
    PARTIAL saturation, separation, and the engine's verdict on the judge with its reasons."""
    if audit is None:
        return Text(
            "judge audit: none stored for this scoring (scored before the audit ran; "
            "`seorap score` again)",
            "dim",
        )
    text = literal(
        f"judge audit ({audit.judge}, {audit.rules or 'no rules version'}, "
        f"{'every item' if audit.sample is None else f'{audit.sample} per kind'})",
        "bold",
    )
    if audit.reliable:
        text.append(" · reliable", "green")
    else:
        text.append(" · " + audit.headline, "bold red")
        for reason in audit.reasons:
            text.append_text(literal(f"\n  {reason}", "red"))
    text.append("\n  pass rate (YES) on wrong answers, should be ~0: ", "dim")
    text.append(" · ".join(f"{k.kind} {_pct(k.pass_rate)}" for k in audit.wrong) or "—")
    if audit.partial:
        text.append("\n  PARTIAL where one part is missing, should be ~100%: ", "dim")
        text.append(" · ".join(f"{k.kind} {_pct(k.ideal_rate)}" for k in audit.partial))
    text.append("\n  pass rate on right answers, should be ~100%: ", "dim")
    text.append(" · ".join(f"{k.kind} {_pct(k.pass_rate)}" for k in audit.controls) or "—")
    text.append(
        f"\n  PARTIAL saturation {_pct(audit.partial_saturation)} (of wrong answers) · "
        f"separation {_pct(audit.separation)} (right minus the worst wrong kind)"
    )
    return text


def similarity_text(s: SimilarityFigures | None) -> Text:
    """'similarity (EMBEDDER): matched median X, unmatched p90 Y; filter@0.80 drops Z% of true
    matches; suggested threshold T' (docs/metrics.md, "The filter threshold follows the embedder")."""
    if s is None:
        return Text("similarity: no full-mode verdicts in this scoring pass", "dim")
    dropped = "—" if s.matched_dropped is None else f"{100 * s.matched_dropped:.0f}%"
    text = literal(f"similarity ({s.embedder})", "bold")
    text.append(
        f": matched median {figure(s.matched.median)}, unmatched p90 {figure(s.unmatched.p90)}; "
    )
    text.append(
        f"filter@{s.filter_threshold:.2f} drops {dropped} of true matches",
        "red" if (s.matched_dropped or 0) >= 0.5 else "",
    )
    text.append(f"; suggested threshold {figure(s.suggested_threshold)}")
    return text


def overlap_counts(points: list[tuple[float, float]]) -> list[tuple[float, float, int]]:
    """(x, y, how many) per distinct spot (two decimals): eleven trajectories at (1.00, 1.00) are
    one marker counted ×11, not one dot that looks like one trajectory."""
    spots: dict[tuple[float, float], int] = {}
    for x, y in points:
        key = (round(x, 2), round(y, 2))
        spots[key] = spots.get(key, 0) + 1
    return [(x, y, k) for (x, y), k in spots.items()]


def _sd(mean: float | None, sd: float | None) -> str:
    return "—" if mean is None else f"{mean:.2f}" + ("" if sd is None else f" ± {sd:.2f}")


def rulers_text(
    report: RunReport, diff: views.RulerDiff | None, cost: views.AccountingView | None = None
) -> Text:
    """Rulers (intrinsic per judging setup and the spread), seeds (mean ± sd, n ≥ 2), the CIs per
    category and difficulty, the verdicts the filter moved (docs/metrics.md), and the run's cost
    (``cost``: ``views.accounting_view``, read when drawn)."""
    text = Text("Rulers", "bold")
    spread = f" · spread {figure(report.rulers_spread)}" if report.rulers_spread is not None else ""
    text.append(f" (intrinsic per judging setup{spread})\n", "dim")
    for r in report.rulers:
        text.append_text(literal(f"  {r.scoring} {r.mode}", "bold"))
        text.append(
            f"  intrinsic {figure(r.intrinsic)} · extrinsic {figure(r.extrinsic)} · n {r.n}"
        )
        own = f" [{views.UNRELIABLE_MARK}]" if r.unreliable_ruler else ""  # that setup's own judge
        text.append(f"{own}\n", "bold yellow")
    if not report.rulers:
        text.append("  one judging setup stored\n", "dim")
    s = report.aggregate.seeds
    text.append("Seeds ", "bold")
    if s is not None and s.n >= 2:
        text.append(
            f"n {s.n} (seeds {', '.join('—' if x is None else str(x) for x in s.seeds)}): "
            f"intrinsic {_sd(s.intrinsic_mean, s.intrinsic_sd)} · "
            f"extrinsic {_sd(s.extrinsic_mean, s.extrinsic_sd)}"
        )
        text.append(f"{views.ruler_mark(report)}\n", "bold yellow")
    else:
        text.append("one run of this configuration (mean ± sd needs n ≥ 2 seeds)\n", "dim")
    text.append("By category and difficulty", "bold")
    text.append(" (mean [95% CI]; n < 5: (range))", "dim")
    text.append(f"{views.ruler_mark(report)}\n", "bold yellow")  # every group's figures below
    a = report.aggregate
    for name, g in {**a.by_category, **a.by_difficulty}.items():
        text.append_text(literal(f"  {name:<4}", "bold"))
        text.append(
            f" n {g.n:<2} intrinsic {ci(g.intrinsic_ci) if g.intrinsic_ci else figure(g.intrinsic)}"
            f" · extrinsic {ci(g.extrinsic_ci) if g.extrinsic_ci else figure(g.extrinsic)}\n"
        )
    text.append_text(moved_text(diff))
    text.append_text(cost_text(report, cost))
    return text


def cost_text(report: RunReport, cost: views.AccountingView | None = None) -> Text:
    """What the run cost (engine/run/accounting.py): per role calls, cache hits, tokens, latency,
    tokens/s and trouble, then the wall time per phase. ``cost``: the run's accounting read now
    (``views.accounting_view``); without it, the figures stored with the report at score time."""
    text = Text("Cost", "bold")
    acc = getattr(report, "accounting", None)
    lines = views.cost_lines(cost, acc.model_dump() if acc is not None else None)
    if lines is None:
        return text.append("  not recorded for this run\n", "dim")
    text.append(" (per role; docs/models.md)\n", "dim")
    for line in lines:
        text.append_text(literal(f"  {line}\n"))
    return text


CHANGE_STYLE = {"credited": "green", "penalised": "red", "unparseable": "magenta"}


def moved_text(diff: views.RulerDiff | None, limit: int = 30) -> Text:
    """The 'verdicts that moved' panel: full → filter counts and the moved claims, listed."""
    text = Text("Verdicts that moved", "bold")
    if diff is None:
        return text.append(f"  {views.NOT_SCORED}\n", "dim")
    text.append(f" ({diff.before} → {diff.after})  ", "dim")
    for name, n in diff.counts.items():
        text.append(f"{name} {n}  ", CHANGE_STYLE.get(name, ""))
    text.append("\n")
    for m in diff.moved[:limit]:
        text.append(f"  {m.change:<11}", CHANGE_STYLE.get(m.change, ""))
        text.append_text(
            literal(
                f" {m.before} → {m.after}  {m.trajectory_id} {views.item_label(m.item)}  ", "dim"
            )
        )
        text.append_text(literal(m.text))
        text.append("\n")
    if len(diff.moved) > limit:
        text.append(f"  … and {len(diff.moved) - limit} more\n", "dim")
    if not diff.moved:
        text.append("  no verdict moved\n", "dim")
    return text
