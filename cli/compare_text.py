"""`seorap compare` as text a CI log can read: every line fits the terminal (COLUMNS, Korean
measured in cells, wrapped with a hanging indent), the marks are explained where they appear, and
the gate's verdict is the last line (`gate: PASS|FAIL|UNDECIDED …`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len

from seorap.cli.wrap import hang, hang_all
from seorap.engine.fmt import figure
from seorap.engine.untrusted import visible

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from seorap.engine.scoring.gate import Comparison, Difference, GateResult, GateVerdict
    from seorap.engine.scoring.rulers import Diff
    from seorap.engine.views.journey import FunnelPair

MOVED_SHOWN = 20
"""Moved verdicts listed without --all."""

FUNNEL_LEGEND = "◀ the two runs keep a different share of their claims at this stage"


def _console() -> Console:
    # start-up: `seorap --help` loads no rich
    from rich.console import Console

    return Console()


def _say(console: Console, lines: list[str], style: str | None = None) -> None:
    """Each line wrapped to the console's width, printed without Rich's own wrapping (which would
    send a wrapped Korean line back to column 0)."""
    for line in hang_all([visible(x) for x in lines], console.width):
        console.print(line, markup=False, highlight=False, style=style, soft_wrap=True)


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


def print_comparison(
    result: Comparison, moved: Diff, funnels: FunnelPair | None, *, show_all: bool, quiet: bool
) -> None:
    """Everything but the gate: the runs, the figures, the moved verdicts, the claim funnel."""
    if quiet:
        return
    # start-up: `seorap --help` loads no numpy, pydantic, sqlite_utils
    from seorap.engine.views import journey

    console = _console()
    base, cand = result.base, result.candidate
    _say(console, [f"base      {base.run_id} ({base.system})"])
    _say(console, [f"candidate {cand.run_id} ({cand.system})"])
    _say(console, ["differences are candidate - base"])
    _say(console, [f"note: {label}" for label in result.labels], style="yellow")
    seeds = max(d.seeds for d in result.differences)
    if seeds > 1:
        _say(console, [f"{seeds} seeds on both sides: paired by seed and by trajectory"])
    console.print(_differences_table(result.differences, seeds))
    legend = "↓ lower is better · MDD: minimum detectable difference · too few: under 5 pairs"
    _say(console, [legend], style="dim")
    if any(d.ruler for d in result.differences):
        _say(console, [RULER_LEGEND], style="yellow")
    _print_moved(console, moved, show_all)
    withheld = any(
        f"judge is {w}" in x for x in result.labels for w in ("unreliable", "unverified")
    )
    funnel = journey.lines(funnels, withheld=withheld)
    _say(console, funnel)
    if any("◀" in line for line in funnel):
        _say(console, [FUNNEL_LEGEND], style="dim")


RULER_LEGEND = (
    "* built on the labels of a judge found unreliable: [unreliable ruler] (see the note above)"
)
"""Under the figures when one side's judge is unreliable (engine/scoring/ruler_marks.py)."""


def _differences_table(differences: list[Difference], seeds: int) -> Table:
    """One row per figure: base, candidate, the difference with its CI, n, MDD (and the seed sd
    when both sides have several seeds), and the verdict."""
    # start-up: `seorap --help` loads no rich
    from rich.table import Table

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
        mark = "*" if d.ruler else ""  # built on an unreliable judge's labels (RULER_LEGEND)
        name = d.figure + mark + ("" if d.higher_is_better else " ↓")
        table.add_row(name, *cells, d.verdict)
    return table


def _print_moved(console: Console, moved: Diff, show_all: bool) -> None:
    """The verdicts that moved: their counts, then each (the first 20 without --all)."""
    counts = moved.counts()
    _say(
        console,
        [
            f"verdicts: newly credited {counts['credited']} · newly penalised "
            f"{counts['penalised']} · unchanged {counts['unchanged']} · unparseable "
            f"{counts['unparseable']} · unmatched {counts['unmatched']}"
        ],
    )
    listed = moved.moved()
    _say(
        console,
        [
            f"  {v['change']:<11} {v['trajectory_id']} {v['item']} {_where(v)}: "
            f"{v['from']} → {v['to']}  {v['text']}"
            for v in (listed if show_all else listed[:MOVED_SHOWN])
        ],
    )
    if len(listed) > MOVED_SHOWN and not show_all:
        _say(console, [f"  … {len(listed) - MOVED_SHOWN} more (--all lists them)"])


def gate_lines(gates: list[GateResult], verdict: GateVerdict | None, width: int) -> list[str]:
    """One line per condition, then the verdict: ``gate: VERDICT (summary; exit N)`` when it fits
    ``width``, else the summary on the line above and ``gate: VERDICT (exit N)`` last, so the last
    line of the output always starts with ``gate:``."""
    if verdict is None:
        return []
    word = {"FAIL": "FAIL", "UNDECIDED": "undecided", "PASS": "pass"}
    lines = hang_all([f"  {word[g.verdict]} {g.reason}" for g in gates], width)
    last = f"gate: {verdict.verdict} ({verdict.summary}; exit {verdict.exit_code})"
    if cell_len(last) <= width:
        return [*lines, last]
    return [
        *lines,
        *hang(f"  {verdict.summary}", width),
        f"gate: {verdict.verdict} (exit {verdict.exit_code})",
    ]


def print_gate(gates: list[GateResult], verdict: GateVerdict | None) -> None:
    """The gate's lines, last (``gate_lines``), in the verdict's colour."""
    if verdict is None:
        return
    console = _console()
    style = {"FAIL": "bold red", "UNDECIDED": "bold yellow", "PASS": "green"}[verdict.verdict]
    for line in gate_lines(gates, verdict, console.width):
        console.print(line, markup=False, highlight=False, style=style, soft_wrap=True)


def gate_dict(verdict: GateVerdict, gates: list[GateResult]) -> dict:
    """The top-level ``gate`` object of ``--json``."""
    return {
        "verdict": verdict.verdict,
        "exit_code": verdict.exit_code,
        "summary": verdict.summary,
        "conditions": [
            {"figure": g.condition.figure, "margin": g.condition.margin, "verdict": g.verdict}
            for g in gates
        ],
    }
