"""The plan as text: the rows of the CLI's table and plain lines (tests read these)."""

from __future__ import annotations

from seorap.engine.run.accounting import seconds
from seorap.engine.run.calibration import Plan, RoleEstimate

PLAN_HEADERS = (
    "role",
    "model",
    "calls",
    "in log",
    "prompt tok",
    "output tok",
    "time",
    "tok/s",
    "rate from",
)


def plan_rows(plan: Plan) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for r in plan.roles:
        rows.append(
            (
                r.role + ("" if r.exact else " ≈"),
                r.model,
                str(r.calls),
                str(r.logged),
                f"{r.prompt_tokens:,.0f}",
                f"{r.output_tokens:,.0f}",
                "?" if r.seconds is None else seconds(r.seconds),
                "–" if not r.tokens_per_s else f"{r.tokens_per_s:.1f}",
                r.rate_source,
            )
        )
    return rows


def plan_lines(plan: Plan) -> list[str]:
    """The plan as plain text lines (the CLI prints a table; tests read these)."""

    rows = [PLAN_HEADERS, *plan_rows(plan)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(PLAN_HEADERS))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    total = plan.seconds
    lines.append(
        f"documents to write: {plan.documents} · estimated time: "
        f"{'?' if total is None else seconds(total)} (≈: estimated from earlier replies; "
        f"tokens per character: "
        + ", ".join(f"{r.model} {r.ratio:.2f} ({r.ratio_source})" for r in _unique_models(plan))
        + ")"
    )
    lines += [f"note: {n}" for n in plan.notes]
    return lines


def _unique_models(plan: Plan) -> list[RoleEstimate]:
    seen, out = set(), []
    for r in plan.roles:
        if r.model not in seen:
            seen.add(r.model)
            out.append(r)
    return out
