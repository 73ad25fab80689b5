"""The help's text drawn by one widget: the few Markdown forms the views' HELP strings use.

Textual's Markdown widget makes a widget per block, list item and bullet (86 for the stepper's
help); composing, styling and laying them out was the whole cost of a view's first F1: 120-380 ms
of CPU on a quiet core, 1 s under load (docs/benchmarks.md, issue 36). The help is our own text, in
a small subset of Markdown: `##` and `###` headings, paragraphs, `- ` items (their lines after the
first indented), **bold** (keys), *italic* (terms) and `code`. This draws that subset as one Rich
renderable, wrapped to the width it gets (an item's later lines under its text, not its bullet).
Markup in the text is not interpreted: it is read as plain text with those marks only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style
from rich.text import Text

INLINE = re.compile(r"(`[^`]+`|\*\*.+?\*\*|\*[^*\s][^*]*?\*)")
"""A code span, a bold span or an italic span (the first that starts at a place wins)."""


@dataclass(frozen=True)
class HelpStyles:
    heading: Style
    code: Style
    bold: Style = Style(bold=True)
    italic: Style = Style(italic=True)


def blocks(markdown: str) -> list[tuple[str, str]]:
    """(kind, text) of each block: "h2", "h3", "item" or "para"; an item's or a paragraph's lines
    joined with spaces."""
    out: list[tuple[str, str]] = []
    for line in markdown.splitlines():
        stripped = line.strip()
        if not stripped:
            out.append(("blank", ""))
        elif stripped.startswith("### "):
            out.append(("h3", stripped[4:]))
        elif stripped.startswith("## "):
            out.append(("h2", stripped[3:]))
        elif line.startswith("- "):
            out.append(("item", stripped[2:]))
        elif out and out[-1][0] in ("item", "para"):  # its next line (Markdown's continuation)
            kind, text = out[-1]
            out[-1] = (kind, f"{text} {stripped}")
        else:
            out.append(("para", stripped))
    return [b for b in out if b[0] != "blank"]


def inline(text: str, styles: HelpStyles) -> Text:
    """``text`` with its code, bold and italic spans styled (their marks removed)."""
    out = Text()
    for part in INLINE.split(text):
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(part[1:-1], styles.code)
        elif part.startswith("**") and part.endswith("**") and len(part) > 4:
            out.append(part[2:-2], styles.bold)
        elif part.startswith("*") and part.endswith("*") and len(part) > 2:
            out.append(part[1:-1], styles.italic)
        else:
            out.append(part)
    return out


class HelpText:
    """A Rich renderable of a help text (see the module's docstring)."""

    def __init__(self, markdown: str, styles: HelpStyles) -> None:
        self.blocks = [
            (kind, inline(text, styles) if kind in ("item", "para") else Text(text, styles.heading))
            for kind, text in blocks(markdown)
        ]
        self.wrapped: dict[int, list[Text]] = {}
        """Its lines wrapped to a width, by width."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(options.max_width, 8)
        if width not in self.wrapped:  # Textual asks twice a width: its height, then its lines
            self.wrapped[width] = self.lines(console, width)
        yield from self.wrapped[width]

    def lines(self, console: Console, width: int) -> list[Text]:
        out: list[Text] = []
        previous = ""
        for kind, text in self.blocks:
            if previous and (kind in ("h2", "h3") or previous != kind or kind == "para"):
                out.append(Text(""))  # a blank line between blocks, none between two items
            if kind == "item":
                for n, line in enumerate(text.wrap(console, width - 2)):
                    out.append(Text("• " if n == 0 else "  ").append_text(line))
            else:
                out.extend(text.wrap(console, width))
            previous = kind
        return out
