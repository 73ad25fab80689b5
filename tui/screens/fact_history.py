"""View 3: every version of one fact — operation, confidence, status, why, source document — and
its lineage both ways, a chain you walk with ← (the fact it replaced) and → (what replaced it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Static

from seorap.engine import views
from seorap.tui.closing import AppHeader, QuietWhenClosing, while_running
from seorap.tui.text import literal, one_line, shared_start, without_start
from seorap.tui.widgets.footer import KeysFooter
from seorap.tui.widgets.line_table import LineTable
from seorap.tui.widgets.operations import OP_STYLE

if TYPE_CHECKING:
    from textual import getters

    from seorap.tui.app import SeorapApp

WIDE = ("v", "doc", "op", "conf", "status", "why", "text", "observation", "source")
NARROW = ("v", "doc", "op", "conf", "status", "why", "text")
"""Columns at ≥ 140 columns and below (the observation and source then go to the pane below)."""
NARROW_BELOW = 140
DIFF_STYLE = {"removed": "bold red strike", "added": "bold green"}


def diff_text(parts: tuple[views.DiffPart, ...]) -> Text:
    """A word diff as literal text: removed runs [-struck red-], added runs {+bold green+}; the
    brackets keep it readable without colour."""
    text = Text()
    for n, part in enumerate(parts):
        if n:
            text.append(" ")
        opening, closing = views.DIFF_MARKS[part.kind]
        style = DIFF_STYLE.get(part.kind, "")
        text.append(opening, style)
        text.append_text(literal(part.text, style))
        text.append(closing, style)
    return text


def version_text(v: views.FactVersion, before: int | None) -> Text:
    """One version whole: where, operation, confidence, status and source document, why, its own
    text, the word diff from the version before (``before``), the observation and the source."""
    text = Text(f"v{v.version} · doc {v.position + 1}", "bold")
    text.append_text(literal(f" ({v.doc_id or 'id unknown'})", "dim"))
    text.append(" · ")
    text.append(v.operation or "—", OP_STYLE.get(v.operation, ""))
    text.append(f" · confidence {v.confidence:.2f} · {v.status or '—'}")
    text.append("\n")
    text.append_text(literal(v.text or "—"))
    if before is not None:
        text.append(f"\nchanges from v{before}: ", "dim")
        if v.changed:
            text.append_text(diff_text(views.trimmed(v.diff)))
        else:
            text.append("none, the text is the same", "dim")
    text.append("\nwhy: ", "dim")
    text.append_text(literal(v.reason or "not recorded", "italic"))
    text.append("\nobservation: ", "dim")
    text.append_text(literal(v.observation or "—"))
    text.append("\nsource: ", "dim")
    source = " · ".join(p for p in (v.doc_title, v.doc_date, ", ".join(v.authors)) if p)
    text.append_text(literal(source or "—", "dim"))
    return text


def chain_text(history: views.FactHistory) -> Text:
    """The fact's place in its lineage: what it replaced and what replaced it, with why."""
    text = Text()
    for link in history.replaces:
        text.append("← ", "bold cyan")
        text.append_text(
            literal(f"{views.replaces_text([link])} at doc {link.position + 1}", "cyan")
        )
        if link.why():
            text.append_text(literal(f" — {link.why()}", "dim italic"))
        text.append("\n")
    if history.successor is not None:
        text.append("→ ", "bold magenta")
        text.append_text(literal(views.successor_text(history.successor), "magenta"))
        if history.successor.why():
            text.append_text(literal(f" — {history.successor.why()}", "dim italic"))
        text.append("\n")
    if not text.plain:
        text.append("no lineage: nothing replaced this fact and it replaced nothing\n", "dim")
    return text


class FactHistoryScreen(QuietWhenClosing, Screen):
    if TYPE_CHECKING:  # self.app is SeorapApp: Textual's getters.app, for the checker only
        app = getters.app(SeorapApp)

    HELP = """\
## Fact history
Every version of one fact in arrival order. The table lists them: the document (counted from 1)
that changed it, the operation (create / update / reinforce / supersede), confidence and status,
why (the model's or the reference rule's recorded reason, and the temporal guard's effect) and the
part of its text after the words all versions share. Under 140 columns the table keeps why and the
text.

Below the table, every version whole: its header (version, document counted from 1 with the
stored document id beside it, operation, confidence, status), its own text in full, the changes
from the version before as a word diff ([-words removed-] {+words added+}, with unchanged words
far from a change shown as …), why, the observation that triggered it and the source document
with its date and authors. Moving the cursor in the table brings that version to the top.

Above the table, the lineage: the fact(s) this one replaced and the fact that replaced it, with
where and why ("unknown" when the database was written before lineage was stored).

- **←** open the fact this one replaced, **→** the fact that replaced it (walk the chain)
- **Esc** back
"""

    DEFAULT_CSS = """
    FactHistoryScreen #fact-versions { max-height: 40%; }
    FactHistoryScreen #fact-texts { height: 1fr; border-top: hkey $primary; }
    FactHistoryScreen .fact-text { padding: 0 1; margin-bottom: 1; }
    FactHistoryScreen .fact-text.-current { background: $boost; }
    """

    BINDINGS = [
        Binding("escape", "app.pop_screen", "back"),
        Binding("left", "walk(-1)", "replaced fact", priority=True),
        Binding("right", "walk(1)", "replacing fact", priority=True),
    ]

    def __init__(self, run_id: str, fact_id: str) -> None:
        super().__init__()
        self.run_id, self.fact_id = run_id, fact_id
        self.history: views.FactHistory | None = None
        self.blocks: list[Static] = []
        """The whole-version blocks now in the pane below the table, one per version."""

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static(id="fact-title")
        yield LineTable(id="fact-versions", cursor_type="row")
        yield VerticalScroll(id="fact-texts")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show()

    def on_resize(self) -> None:
        if self.history is not None and self._labels() != self.labels:
            self.show()

    labels: tuple = ()

    def _labels(self) -> tuple:
        return NARROW if self.app.size.width < NARROW_BELOW else WIDE

    def show(self) -> None:
        ctx = self.app.ctx
        history = self.history = views.fact_history(ctx.db, ctx.corpus, self.run_id, self.fact_id)
        title = Text("Fact ", "bold")
        title.append_text(literal(views.short_id(self.fact_id), "bold"))
        n = len(history.versions)
        title.append(f" · {n} version{'' if n == 1 else 's'} · trajectory ", "dim")
        title.append_text(literal(history.trajectory_id))
        title.append("\n")
        title.append_text(chain_text(history))
        if history.versions:
            title.append_text(literal(history.versions[-1].text))
        self.query_one("#fact-title", Static).update(title)
        table = self.query_one(LineTable)
        labels = self._labels()
        if labels != self.labels:
            self.labels = labels
            table.clear(columns=True)
            for label in labels:
                table.add_column(label, key=label)
        table.clear()
        narrow = labels is NARROW
        width = self.app.size.width
        why_width = 36 if width >= 100 else 26
        # v, doc, op, conf, status at their widest ("supersede", "superseded") and cell padding
        text_width = max(10, width - 41 - why_width) if narrow else max(30, width // 3)
        start = shared_start([v.text for v in history.versions])
        for v in history.versions:
            cells = [
                Text(str(v.version)),
                Text(str(v.position + 1)),
                Text(v.operation, OP_STYLE.get(v.operation, "")),
                Text(f"{v.confidence:.2f}"),
                Text(v.status, "" if v.status == "active" else "magenta"),
                one_line(v.reason or "—", why_width if narrow else 50, "dim italic"),
                one_line(without_start(v.text, start), text_width),
            ]
            if not narrow:
                cells += [
                    one_line(v.observation or "—", 40, "dim"),
                    one_line(f"{v.doc_id} {v.doc_date} {', '.join(v.authors)}", 44, "dim"),
                ]
            table.add_row(*cells)
        self._texts(history)

    def _texts(self, history: views.FactHistory) -> None:
        """Every version whole, one block each, in the scrolling pane under the table."""
        pane = self.query_one("#fact-texts", VerticalScroll)
        pane.remove_children()
        blocks = [
            Static(version_text(v, history.versions[n - 1].version if n else None))
            for n, v in enumerate(history.versions)
        ]
        for block in blocks:
            block.add_class("fact-text")
        self.blocks = blocks
        pane.mount_all(blocks)
        self.call_after_refresh(self._version)

    @on(DataTable.RowHighlighted, "#fact-versions")
    @while_running
    def _version(self, event: DataTable.RowHighlighted | None = None) -> None:
        """Bring the version under the cursor into view in the pane of whole versions."""
        h, table = self.history, self.query_one(LineTable)
        if h is None or not h.versions or len(self.blocks) != len(h.versions):
            return
        row = min(max(table.cursor_row, 0), len(h.versions) - 1)
        for n, block in enumerate(self.blocks):
            block.set_class(n == row, "-current")
            if n == row:
                self.query_one("#fact-texts", VerticalScroll).scroll_to_widget(block, top=True)

    def action_walk(self, direction: int) -> None:
        h = self.history
        if h is None:
            return
        if direction < 0:
            target = h.replaces[0].old if h.replaces else None
            missing = "this fact replaced nothing"
        else:
            link = h.successor
            target = link.new if link is not None and link.new else None
            missing = (
                "nothing replaced this fact"
                if link is None or link.new == ""
                else "its successor is unknown: the database predates stored lineage"
            )
        if target is None:
            self.notify(missing, severity="warning")
            return
        self.fact_id = target
        self.show()
