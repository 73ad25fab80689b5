"""`seorap compare BASE CANDIDATE`: is the candidate worse than the base, beyond noise? Paired
differences with intervals, the verdicts that moved, and a gate a CI job can run."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from seorap.cli.params import db_path_option
from seorap.cli.runref import resolve_run
from seorap.engine.fmt import figure
from seorap.engine.untrusted import json_line, visible

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from seorap.engine.scoring.gate import Comparison, Difference, GateResult
    from seorap.engine.scoring.rulers import Diff


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
@click.option("--all", "show_all", is_flag=True, help="List every moved verdict, not the first 20.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def compare(
    base: str,
    candidate: str,
    db_path: str,
    conditions: tuple[str, ...],
    allow_different_judges: bool,
    show_all: bool,
    as_json: bool,
) -> None:
    """Compare two scored runs of one corpus, CANDIDATE - BASE (run ids, unique prefixes or system
    names): per headline figure the paired difference with a paired cluster-bootstrap 95% interval
    and the minimum detectable difference, then every claim and question verdict that moved. With
    --fail-if-worse, exit 1 when a named figure is worse beyond its margin. No model calls."""
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.engine.scoring.gate import (
        Condition,
        check_comparable,
        compare_runs,
        gate,
        seed_pairs,
    )
    from seorap.engine.scoring.report import run_report
    from seorap.engine.scoring.rulers import compare as moved_verdicts
    from seorap.engine.scoring.rulers import parse_setup
    from seorap.engine.store.database import open_db

    parsed = [Condition.parse(c) for c in conditions]  # a bad figure is refused before any work
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
    gates = [gate(c, next(d for d in result.differences if d.figure == c.figure)) for c in parsed]
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.engine.views import journey

    funnels = journey.side_by_side(db, *((x.run_id, x.scoring) for x in sides))
    if as_json:
        out = {**_as_dict(result, moved, gates), "funnel": funnels and funnels.as_dict()}
        click.echo(json_line(out, indent=2))  # bidi and control characters escaped
    else:
        _print(result, moved, gates, show_all)
        click.echo("\n".join(visible(line) for line in journey.lines(funnels)))
    if any(g.failed for g in gates):
        raise click.exceptions.Exit(1)


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
            }
            for d in result.differences
        ],
        "moved": {"counts": moved.counts(), "verdicts": moved.moved()},
        "gates": [
            {
                "figure": g.condition.figure,
                "margin": g.condition.margin,
                "failed": g.failed,
                "reason": g.reason,
            }
            for g in gates
        ],
    }


def _num(value: float | None) -> str:
    """Two decimals, three for a value that two would show as zero (a verdict of ``worse`` next
    to "0.00 [0.00, 0.00]" would read as a contradiction)."""

    if value and abs(value) < 0.005:
        return figure(value, digits=3)
    return figure(value)


def _where(v: dict) -> str:
    """The claim's candidate mode, or the answer source and depth of a question."""
    if v["kind"] == "claim":
        return v["setup"] or ""
    source: str = v["source"]
    return source + (f"@{v['k']}" if v["k"] else "")


def _print(result: Comparison, moved: Diff, gates: list[GateResult], show_all: bool) -> None:
    # start-up: `seorap --help` loads no rich
    from rich.console import Console

    console = Console()
    base, cand = result.base, result.candidate
    console.print(
        visible(
            f"base {base.run_id} ({base.system}) · candidate {cand.run_id} ({cand.system}) · "
            f"differences are candidate - base"
        ),
        markup=False,
        highlight=False,
    )
    for label in result.labels:
        console.print(visible(f"note: {label}"), markup=False, highlight=False, style="yellow")
    seeds = max(d.seeds for d in result.differences)
    if seeds > 1:
        console.print(f"{seeds} seeds on both sides: paired by seed and by trajectory")
    console.print(_differences_table(result.differences, seeds))
    console.print("↓ lower is better; MDD: the minimum detectable difference", style="dim")
    _print_moved(console, moved, show_all)
    for g in gates:
        console.print(
            visible(("FAIL " if g.failed else "pass ") + g.reason),
            markup=False,
            highlight=False,
            style="bold red" if g.failed else "green",
        )


def _differences_table(differences: list[Difference], seeds: int) -> Table:
    """One row per figure: base, candidate, the difference with its CI, n, MDD (and the seed sd
    when both sides have several seeds), and the verdict."""
    # start-up: `seorap --help` loads no rich
    from rich.table import Table
    from seorap.engine.fmt import figure

    table = Table(show_edge=False, pad_edge=False, box=None)
    table.add_column("figure", overflow="fold")
    heads = ["base", "cand.", "diff [95% CI]", "n", "MDD"] + (["seed sd"] if seeds > 1 else [])
    for name in heads:
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    for d in differences:
        ci = "" if d.low is None else f" [{_num(d.low)}, {_num(d.high)}]"
        cells = [figure(d.base), figure(d.candidate), _num(d.estimate) + ci, str(d.n)]
        cells += [figure(d.mdd)] + ([figure(d.seed_sd)] if seeds > 1 else [])
        table.add_row(d.figure + ("" if d.higher_is_better else " ↓"), *cells, d.verdict)
    return table


def _print_moved(console: Console, moved: Diff, show_all: bool) -> None:
    """The verdicts that moved: their counts, then each (the first 20 without --all)."""
    counts = moved.counts()
    console.print(
        f"verdicts: newly credited {counts['credited']} · newly penalised {counts['penalised']}"
        f" · unchanged {counts['unchanged']} · unparseable {counts['unparseable']}"
        f" · unmatched {counts['unmatched']}",
        markup=False,
        highlight=False,
    )
    listed = moved.moved()
    for v in listed if show_all else listed[:20]:
        console.print(
            visible(
                f"  {v['change']:<11} {v['trajectory_id']} {v['item']} {_where(v)}: "
                f"{v['from']} → {v['to']}  {v['text']}"
            ),
            markup=False,
            highlight=False,
        )
    if len(listed) > 20 and not show_all:
        console.print(f"  … {len(listed) - 20} more (--all lists them)", markup=False)
