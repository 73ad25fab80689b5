"""`seorap compare BASE CANDIDATE`: is the candidate worse than the base, beyond noise? Paired
differences with intervals, the verdicts that moved, and a gate a CI job can run."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from seorap.cli.params import db_path_option
from seorap.cli.runref import resolve_run
from seorap.engine.untrusted import json_line

if TYPE_CHECKING:
    from seorap.engine.scoring.gate import Comparison, GateResult
    from seorap.engine.scoring.rulers import Diff
    from seorap.engine.views.journey import FunnelPair


@click.command()
@click.argument("base")
@click.argument("candidate")
@db_path_option()
@click.option(
    "--fail-if-worse",
    "conditions",
    multiple=True,
    metavar="FIGURE[:MARGIN]",
    help="Exit 1 when the whole 95% interval of CANDIDATE - BASE lies on the worse side of "
    "-MARGIN (repeatable; MARGIN defaults to 0). Figures: intrinsic, intrinsic_filter, "
    "extrinsic, extrinsic_single, claim_precision, op_accuracy, udr, fur, confidence_mae, "
    "stale_facts, miss_rate.",
)
@click.option(
    "--allow-different-judges",
    is_flag=True,
    help="Compare runs scored with different judges or judge rules (labelled in the output).",
)
@click.option(
    "--allow-undecided",
    is_flag=True,
    help="Exit 0, not 3, when the gate is undecided (too few paired trajectories to decide).",
)
@click.option(
    "--quiet", "-q", is_flag=True, help="Print only the gate's lines (needs --fail-if-worse)."
)
@click.option("--all", "show_all", is_flag=True, help="List every moved verdict, not the first 20.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def compare(
    base: str,
    candidate: str,
    db_path: str,
    conditions: tuple[str, ...],
    allow_different_judges: bool,
    allow_undecided: bool,
    quiet: bool,
    show_all: bool,
    as_json: bool,
) -> None:
    """Compare two scored runs of one corpus, CANDIDATE - BASE (run ids, unique prefixes or system
    names): per headline figure the paired difference with a paired cluster-bootstrap 95% interval
    and the minimum detectable difference, then every claim and question verdict that moved. With
    --fail-if-worse, the gate's verdict is the last line (`gate: PASS|FAIL|UNDECIDED …`): exit 1
    when a named figure is worse beyond its margin, 3 when too few paired trajectories decide
    nothing (0 with --allow-undecided). No model calls."""
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.cli.compare_text import gate_dict, print_comparison, print_gate
    from seorap.engine.scoring.gate import Condition, decide, gate

    parsed = [Condition.parse(c) for c in conditions]  # a bad figure is refused before any work
    if quiet and not parsed:
        raise click.UsageError(
            "--quiet prints only the gate's lines: name a figure with --fail-if-worse"
        )
    result, moved, funnels = _compared(db_path, base, candidate, allow_different_judges)
    gates = [gate(c, next(d for d in result.differences if d.figure == c.figure)) for c in parsed]
    verdict = decide(gates, allow_undecided=allow_undecided) if gates else None
    if as_json:
        out = {**_as_dict(result, moved, gates), "funnel": funnels and funnels.as_dict()}
        out["gate"] = verdict and gate_dict(verdict, gates)
        # bidi and control characters escaped (the same JSON value)
        click.echo(json_line({"gate": out["gate"]} if quiet else out, indent=2))
    else:
        print_comparison(result, moved, funnels, show_all=show_all, quiet=quiet)
        print_gate(gates, verdict)
    if verdict is not None and verdict.exit_code:
        raise click.exceptions.Exit(verdict.exit_code)


def _compared(
    db_path: str, base: str, candidate: str, allow_different_judges: bool
) -> tuple[Comparison, Diff, FunnelPair | None]:
    """The two runs compared: the figures, the moved verdicts, the claim funnels side by side."""
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.engine.scoring.gate import check_comparable, compare_runs, seed_pairs
    from seorap.engine.scoring.report import run_report
    from seorap.engine.scoring.rulers import compare as moved_verdicts
    from seorap.engine.scoring.rulers import parse_setup
    from seorap.engine.store.database import open_db
    from seorap.engine.views import journey

    db = open_db(db_path, readonly=True)
    ids = [resolve_run(db, base, "BASE"), resolve_run(db, candidate, "CANDIDATE")]
    if ids[0] == ids[1]:
        raise click.BadParameter("BASE and CANDIDATE are the same run", param_hint="CANDIDATE")
    sides = [parse_setup(db, rid, None) for rid in ids]  # refuses an unscored run, one sentence
    reports = [run_report(db, s.run_id, scoring=s.scoring) for s in sides]
    a, b = reports
    assert a is not None and b is not None  # parse_setup found a scoring for each
    labels = check_comparable(db, a, b, allow_different_judges=allow_different_judges)
    pairs = []  # both sides repeated over seeds: pair the seeds as well as the trajectories
    for _, run_a, run_b in seed_pairs(a, b):
        pa, pb = run_report(db, run_a, scoring=a.scoring), run_report(db, run_b, scoring=b.scoring)
        if pa is not None and pb is not None:
            pairs.append((pa, pb))
    result = compare_runs(a, b, labels=labels, pairs=pairs or None)
    moved = moved_verdicts(db, sides[0], sides[1])
    funnels = journey.side_by_side(db, *((x.run_id, x.scoring) for x in sides))
    return result, moved, funnels


def _as_dict(result: Comparison, moved: Diff, gates: list[GateResult]) -> dict:
    return {
        "base": {"run_id": result.base.run_id, "system": result.base.system},
        "candidate": {"run_id": result.candidate.run_id, "system": result.candidate.system},
        "scoring": {"base": result.base.scoring, "candidate": result.candidate.scoring},
        "labels": result.labels,
        "figures": [
            {
                "figure": d.figure,
                "higher_is_better": d.higher_is_better,
                "base": d.base,
                "candidate": d.candidate,
                "difference": d.estimate,
                "ci_low": d.low,
                "ci_high": d.high,
                "n": d.n,
                "mdd": d.mdd,
                "seeds": d.seeds,
                "seed_sd": d.seed_sd,
                "verdict": d.verdict,
                "ruler": d.ruler,
            }
            for d in result.differences
        ],
        "moved": {"counts": moved.counts(), "verdicts": moved.moved()},
        "gates": [
            {
                "figure": g.condition.figure,
                "margin": g.condition.margin,
                "failed": g.failed,
                "undecided": g.undecided,
                "reason": g.reason,
            }
            for g in gates
        ],
    }
