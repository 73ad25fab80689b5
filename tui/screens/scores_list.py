"""The score cards' charts as lists, for a size where a chart cannot be read
(tui/screens/scores_fit.py decides: :func:`~seorap.tui.screens.scores_fit.bars_legible`,
:func:`~seorap.tui.screens.scores_fit.scatter_legible`).

At 80×24 the bars of nine groups were one cell each, cyan and orange side by side read as one
block ('███0.670.50████') and the title naming the colours was dropped. A list says the same
figures a line each: per group its n, intrinsic and extrinsic with their 95% CI (or range); per
trajectory its quadrant's marker, its id and its two scores. Also the charts' titles, longest
first: a chart takes the first that fits its width.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from seorap.engine import views
from seorap.engine.fmt import figure
from seorap.tui.fit import cut, fit_column
from seorap.tui.text import ci, literal

if TYPE_CHECKING:
    from seorap.engine.scoring.schema import GroupFigures, Interval, RunReport

MARKERS = {"healthy": "●", "compensation": "▲", "bottleneck": "■", "both-low": "✖"}
SHORT_NAMES = {
    "healthy": "healthy",
    "compensation": "comp.",
    "bottleneck": "bottl.",
    "both-low": "low",
}
BAR_TITLES = [
    "mean per category and difficulty: intrinsic (cyan) · extrinsic (orange)",
    "means: intrinsic (cyan) · extrinsic (orange)",
]
NAME_CELLS = 8
"""The widest group name in the list (a category of an imported set can be long), cut with '…'."""


def scatter_titles(n: int, reliable: bool, headline: str = views.UNRELIABLE) -> list[str]:
    """The scatter's titles, longest first: what the markers mean, then what '×k' means
    (``headline``: the engine's word for a judge that carries no quadrant)."""
    if not reliable:
        return [
            f"n {n} · {headline}: no quadrants · ×k: k on one spot",
            f"n {n} · {headline}: no quadrants",
        ]
    key = " ".join(f"{MARKERS[q]} {q}" for q in views.QUADRANTS)
    short = " ".join(f"{MARKERS[q]}{SHORT_NAMES[q]}" for q in views.QUADRANTS)
    return [f"n {n} · {key} · ×k: k on one spot · lines at 0.5", f"n {n} · {key}", f"n {n} {short}"]


def _group_figure(mean: float | None, iv: Interval | None) -> str:
    """The group's mean with its CI (or range); the mean alone when it has none."""
    return ci(iv) if iv else figure(mean)


def bars_list(groups: dict[str, GroupFigures], width: int) -> Text:
    """Each group a row under the heads 'intrinsic' and 'extrinsic': 'C1  n 2   1.00 (1.00–1.00)
    0.75 (0.50–1.00)'; where a row does not fit ``width`` cells, two lines a group, each figure
    named ('intrinsic 1.00 (1.00–1.00)', 'extrinsic …' under it)."""
    text = Text("means by category and difficulty", "bold")
    text.append(" (listed: no room for bars)\n", "dim")
    if not groups:
        return text.append("no groups\n", "dim")
    names = {name: cut(name, NAME_CELLS) for name in groups}
    name_cells = max(cell_len(n) for n in names.values())
    heads = {
        name: f"{names[name]}{' ' * (name_cells - cell_len(names[name]))}  n {g.n:<2} "
        for name, g in groups.items()
    }
    figures = {
        name: (
            _group_figure(g.intrinsic, g.intrinsic_ci),
            _group_figure(g.extrinsic, g.extrinsic_ci),
        )
        for name, g in groups.items()
    }
    head_cells = max(cell_len(h) for h in heads.values())
    ins_cells = max(cell_len(i) for i, _ in figures.values())
    ext_cells = max(cell_len(e) for _, e in figures.values())
    if head_cells + ins_cells + 2 + ext_cells <= width:  # a table: the heads name the figures
        text.append(" " * head_cells + "intrinsic".ljust(ins_cells + 2), "cyan")
        text.append("extrinsic\n", "orange1")
        for name in groups:
            ins, ext = figures[name]
            text.append_text(literal(heads[name], "bold"))
            text.append(ins.ljust(ins_cells + 2), "cyan")
            text.append(ext + "\n", "orange1")
        return text
    for name in groups:
        ins, ext = figures[name]
        text.append_text(literal(heads[name], "bold"))
        text.append(f"intrinsic {ins}\n", "cyan")
        text.append(" " * cell_len(heads[name]) + f"extrinsic {ext}\n", "orange1")
    return text


def scatter_list(report: RunReport, reliable: bool, width: int, colors: dict[str, str]) -> Text:
    """Each trajectory a line: its quadrant's marker (when the judge carries quadrants), its id
    (fitted to the room left, cuts marked '…') and 'int X ext Y'; sorted by quadrant, then id."""
    text = Text("scores per trajectory", "bold")
    text.append(" (listed: no room for the points)\n", "dim")
    if reliable:
        for q in views.QUADRANTS:
            text.append(f"{MARKERS[q]} {q}  ", colors[q])
        text.append("\n")
    else:  # what the chart's title says: the engine withholds the quadrants
        headline = views.judge_headline(report.aggregate.judge_unreliable)
        text.append(f"{headline}: no quadrants\n", "bold red")
    order = {q: n for n, q in enumerate(views.QUADRANTS)}
    rows = sorted(report.trajectories, key=lambda t: (order.get(t.quadrant or "", 9), t.id))
    values = [f"int {figure(t.intrinsic.full)}  ext {figure(t.extrinsic.compound)}" for t in rows]
    marker = 2 if reliable else 0
    room = width - marker - 2 - max((cell_len(v) for v in values), default=0)
    _, ids = fit_column([t.id for t in rows], max(room, 4))
    id_cells = max((cell_len(i) for i in ids), default=0)
    for t, shown, value in zip(rows, ids, values, strict=True):
        if reliable:
            q = t.quadrant or ""
            text.append(f"{MARKERS.get(q, '·')} ", colors.get(q, "dim"))
        text.append_text(literal(shown + " " * (id_cells - cell_len(shown) + 2)))
        text.append(value + "\n")
    if not rows:
        text.append("no trajectory scored\n", "dim")
    return text
